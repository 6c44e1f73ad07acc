import type { ModelData } from "@modelhub/tasks";
import type { ModelDetail, ModelSummary } from "../api/models";
import { formatDate, formatExactCount } from "./format";
import { pipelineName } from "./pipelines";

export function splitModelId(id: string): { namespace: string; name: string } {
	const slash = id.indexOf("/");
	return slash === -1
		? { namespace: "", name: id }
		: { namespace: id.slice(0, slash), name: id.slice(slash + 1) };
}

/** The app path of a model page. */
export function modelHref(id: string): string {
	return `/${id
		.split("/")
		.map((part) => encodeURIComponent(part))
		.join("/")}`;
}

export function isConversational(model: Pick<ModelSummary, "tags">): boolean {
	return Array.isArray(model.tags) && model.tags.includes("conversational");
}

export interface Fact {
	term: string;
	value: string;
	href?: string;
}

function firstString(value: unknown): string | undefined {
	if (typeof value === "string" && value) return value;
	if (Array.isArray(value))
		return value.find((item): item is string => typeof item === "string" && item !== "");
	return undefined;
}

/** The metadata list shown at the top of a model page. */
export function modelFacts(model: ModelDetail, libraryLabel?: (key: string) => string | undefined): Fact[] {
	const facts: Fact[] = [];
	if (model.pipeline_tag) {
		facts.push({
			term: "Task",
			value: pipelineName(model.pipeline_tag),
			href: `/tasks/${model.pipeline_tag}`,
		});
	}
	if (model.library_name) {
		facts.push({
			term: "Library",
			value: libraryLabel?.(model.library_name) ?? model.library_name,
			href: `/libraries/${encodeURIComponent(model.library_name)}`,
		});
	}
	facts.push({ term: "Downloads", value: formatExactCount(model.downloads) });
	facts.push({ term: "Likes", value: formatExactCount(model.likes) });
	if (model.lastModified) facts.push({ term: "Updated", value: formatDate(model.lastModified) });
	const architectures = (model.config as { architectures?: unknown } | undefined)?.architectures;
	const architecture = firstString(architectures);
	if (architecture) facts.push({ term: "Architecture", value: architecture });
	const baseModel = firstString(model.cardData?.base_model);
	if (baseModel) facts.push({ term: "Base model", value: baseModel, href: modelHref(baseModel) });
	const license = firstString(model.cardData?.license) ?? licenseFromTags(model.tags);
	if (license) facts.push({ term: "License", value: license });
	return facts;
}

function licenseFromTags(tags: string[] | undefined): string | undefined {
	const tag = tags?.find((candidate) => candidate.startsWith("license:"));
	return tag?.slice("license:".length);
}

/** Tags for display: "license:mit" becomes { kind: "license", label: "mit" }; plain tags have no kind. */
export function displayTags(
	tags: string[] | undefined,
): Array<{ tag: string; kind?: string; label: string }> {
	return (tags ?? []).map((tag) => {
		const colon = tag.indexOf(":");
		if (colon > 0 && colon < tag.length - 1) {
			return { tag, kind: tag.slice(0, colon), label: tag.slice(colon + 1) };
		}
		return { tag, label: tag };
	});
}

/** The fields the snippet generators read, from the hub's model JSON. */
export function toModelData(model: ModelDetail): ModelData {
	const data: ModelData = { id: model.id, tags: Array.isArray(model.tags) ? model.tags : [] };
	if (model.pipeline_tag) data.pipeline_tag = model.pipeline_tag;
	if (model.library_name) data.library_name = model.library_name;
	if (model.mask_token) data.mask_token = model.mask_token;
	if (model.config) data.config = model.config as ModelData["config"];
	if (model.cardData) data.cardData = model.cardData as ModelData["cardData"];
	if (model.widgetData) data.widgetData = model.widgetData as ModelData["widgetData"];
	if (model.transformersInfo) data.transformersInfo = model.transformersInfo;
	if (model.private !== undefined) data.private = model.private;
	return data;
}

/** A stand-in model for showing a library's snippets when the hub has no model of that library. */
export function placeholderModel(libraryKey: string): ModelData {
	return { id: "your-org/your-model", library_name: libraryKey, tags: [] };
}
