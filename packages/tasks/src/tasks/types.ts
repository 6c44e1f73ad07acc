import type { ModelLibraryKey } from "../libraries/keys.js";
import type { PipelineType } from "../pipelines.js";

/** A hub repository (model, dataset, space) or a metric, with a line on why it is listed. */
export interface ExampleRepo {
	/** Repository id (`owner/name`, or a legacy owner-less name) or metric id. */
	id: string;
	/** One to three sentences on what it is and why it is worth a look. */
	description: string;
}

/** One input or output shown in a task's demo; discriminated on `type`. */
export type TaskDemoEntry =
	| { type: "img"; filename: string }
	| { type: "audio"; filename: string }
	| { type: "text"; label: string; content: string }
	| { type: "chart"; data: Array<{ label: string; score: number }> }
	/** Row 0 holds the column headers. */
	| { type: "tabular"; table: string[][] }
	/** Each token marks `text.slice(start, end)` with an entity or part-of-speech type. */
	| { type: "text-with-tokens"; text: string; tokens: Array<{ type: string; start: number; end: number }> };

export type TaskDemoEntryType = TaskDemoEntry["type"];

export interface TaskDemo {
	inputs: TaskDemoEntry[];
	outputs: TaskDemoEntry[];
}

/** A task page: what the task is, how it looks, and where to start. */
export interface TaskData {
	id: PipelineType;
	/** Another task whose page this one shares (e.g. summarization → text2text-generation). */
	canonicalId?: PipelineType;
	datasets: ExampleRepo[];
	demo: TaskDemo;
	isPlaceholder?: boolean;
	label: string;
	libraries: ModelLibraryKey[];
	metrics: ExampleRepo[];
	/** Recommended models, first choice first: clients take `models[0]` as the task's default model. */
	models: ExampleRepo[];
	spaces: ExampleRepo[];
	summary: string;
	widgetModels: string[];
	youtubeId?: string;
}

/** What a per-task data file supplies; the catalogue adds `id`, `label` and `libraries`. */
export type TaskDataCustom = Omit<TaskData, "id" | "label" | "libraries">;
