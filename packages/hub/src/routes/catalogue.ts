import type { FastifyInstance, FastifyReply } from "fastify";
import {
	ALL_MODEL_LIBRARY_KEYS,
	MODALITY_LABELS,
	MODEL_LIBRARIES_UI_ELEMENTS,
	PIPELINE_DATA,
	PIPELINE_TYPES,
	TASKS_DATA,
	renderApiTasks,
	type LibraryUiElement,
	type PipelineData,
} from "@modelhub/tasks";
import type { LibraryInfo, PipelineInfo } from "../api/catalogue.js";
import type { ResponseCache } from "../cache.js";
import { precompress, sendPrecompressed } from "../compressed.js";
import { JSON_TYPE } from "../http.js";
import { publicModelCounts, type ReadContext } from "../services/models.js";

export interface CatalogueRoutesOptions extends ReadContext {
	cache: ResponseCache;
}

export function renderLibraries(counts: Map<string, number>): LibraryInfo[] {
	return ALL_MODEL_LIBRARY_KEYS.map((key) => {
		const entry = MODEL_LIBRARIES_UI_ELEMENTS[key] as LibraryUiElement;
		const library: LibraryInfo = {
			key,
			prettyLabel: entry.prettyLabel,
			repoName: entry.repoName,
			repoUrl: entry.repoUrl,
			filter: entry.filter === true,
			hasSnippets: typeof entry.codeBlocks === "function" || typeof entry.snippets === "function",
			modelCount: counts.get(key) ?? 0,
		};
		if (entry.docsUrl !== undefined) library.docsUrl = entry.docsUrl;
		if (entry.countDownloads !== undefined) library.countDownloads = entry.countDownloads;
		if (entry.installCommand !== undefined) library.installCommand = entry.installCommand;
		return library;
	});
}

export function renderPipelines(counts: Map<string, number>): PipelineInfo[] {
	return PIPELINE_TYPES.map((id) => {
		const data = PIPELINE_DATA[id] as PipelineData;
		const task = TASKS_DATA[id];
		const pipeline: PipelineInfo = {
			id,
			name: data.name,
			modality: data.modality,
			modalityLabel: MODALITY_LABELS[data.modality],
			color: data.color,
			hasTaskPage: task !== undefined && task.isPlaceholder !== true,
			modelCount: counts.get(id) ?? 0,
		};
		if (data.subtasks !== undefined) pipeline.subtasks = data.subtasks;
		if (data.hideInModels !== undefined) pipeline.hideInModels = data.hideInModels;
		if (data.hideInDatasets !== undefined) pipeline.hideInDatasets = data.hideInDatasets;
		return pipeline;
	});
}

export async function catalogueRoutes(app: FastifyInstance, options: CatalogueRoutesOptions): Promise<void> {
	const { cache } = options;
	// The task catalogue is constant: serialise and compress it once (about 100 KB of JSON).
	const tasks = precompress(Buffer.from(JSON.stringify(renderApiTasks())));

	app.get("/api/tasks", (request, reply) => {
		sendPrecompressed(request, reply, tasks, JSON_TYPE);
	});

	const counted =
		(
			key: string,
			column: "library_name" | "pipeline_tag",
			render: (counts: Map<string, number>) => unknown,
		) =>
		async (_request: unknown, reply: FastifyReply) => {
			let entry = cache.get(key);
			if (!entry) {
				const version = cache.version;
				entry = { body: Buffer.from(JSON.stringify(render(await publicModelCounts(options, column)))) };
				cache.set(key, entry, version);
			}
			return reply.type(JSON_TYPE).send(entry.body);
		};

	app.get("/api/libraries", counted("libraries", "library_name", renderLibraries));
	app.get("/api/pipelines", counted("pipelines", "pipeline_tag", renderPipelines));
}
