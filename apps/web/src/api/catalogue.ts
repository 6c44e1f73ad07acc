import type { LibraryInfo, PipelineInfo } from "@modelhub/hub/api";
import { apiUrl, getJson, type ApiOptions } from "./http";

export async function listLibraries(options: ApiOptions = {}): Promise<LibraryInfo[]> {
	const { data } = await getJson<LibraryInfo[]>(apiUrl(options.baseUrl, "/api/libraries"), options);
	return Array.isArray(data) ? data : [];
}

/** `GET /api/pipelines`: accepts either an array or an object keyed by pipeline id. */
export async function listPipelines(options: ApiOptions = {}): Promise<PipelineInfo[]> {
	const { data } = await getJson<PipelineInfo[] | Record<string, Omit<PipelineInfo, "id">>>(
		apiUrl(options.baseUrl, "/api/pipelines"),
		options,
	);
	if (Array.isArray(data)) return data;
	return Object.entries(data ?? {}).map(([id, value]) => ({ ...value, id }) as PipelineInfo);
}

/** Where the hub serves a demo file. */
export function demoAssetUrl(filename: string, baseUrl = ""): string {
	return apiUrl(baseUrl, `/assets/demo/${encodeURIComponent(filename)}`);
}
