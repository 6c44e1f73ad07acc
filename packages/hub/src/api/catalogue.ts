/** The catalogues (`GET /api/libraries`, `GET /api/pipelines`, `GET /api/tasks`) and `GET /healthz`. */
import type { ApiTasksResponse, Modality, PipelineType } from "@modelhub/tasks";

/** One library of `GET /api/libraries`, with how many of the hub's models use it. */
export interface LibraryInfo {
	key: string;
	prettyLabel: string;
	repoName: string;
	repoUrl: string;
	docsUrl?: string;
	/** Whether the public hub offers it as a model-list filter. */
	filter: boolean;
	/** The Elasticsearch query of the files whose downloads count. */
	countDownloads?: string;
	installCommand?: string;
	hasSnippets: boolean;
	modelCount: number;
}

/** One pipeline type of `GET /api/pipelines`, with how many of the hub's models have it. */
export interface PipelineInfo {
	id: PipelineType;
	name: string;
	modality: Modality;
	modalityLabel: string;
	color: string;
	subtasks?: Array<{ type: string; name: string }>;
	hideInModels?: boolean;
	hideInDatasets?: boolean;
	/** Whether the task catalogue has a (non-placeholder) page for it. */
	hasTaskPage: boolean;
	modelCount: number;
}

/** `GET /api/tasks`: each task with a page, keyed by pipeline type. */
export type ApiTasks = ApiTasksResponse;

/** `GET /healthz`: what the hub runs on; a 503 (with Retry-After) when the database does not answer. */
export type Health =
	| { status: "ok"; database: "pglite" | "postgres"; storage: "disk" | "s3" }
	| { status: "unavailable"; error: string };
