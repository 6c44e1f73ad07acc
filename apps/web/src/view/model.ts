import type { GgufInfo, SafetensorsInfo } from "@modelhub/hub/api";
import type { ModelData } from "@modelhub/tasks";
import type { ModelDetail, ModelSummary } from "../api/models";
import { formatExactCount, formatParameters } from "./format";

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

function firstString(value: unknown): string | undefined {
	if (typeof value === "string" && value) return value;
	if (Array.isArray(value))
		return value.find((item): item is string => typeof item === "string" && item !== "");
	return undefined;
}

function licenseFromTags(tags: string[] | undefined): string | undefined {
	const tag = tags?.find((candidate) => candidate.startsWith("license:"));
	return tag?.slice("license:".length);
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
	// The hub may keep null members (as imported); the generators' type has none.
	if (model.transformersInfo) data.transformersInfo = model.transformersInfo as ModelData["transformersInfo"];
	// Local apps read these: GGUF facts (llama.cpp, Ollama, LM Studio…) and the file list (which quantisation).
	if (model.gguf) data.gguf = model.gguf as ModelData["gguf"];
	if (model.safetensors) data.safetensors = model.safetensors as ModelData["safetensors"];
	if (Array.isArray(model.siblings)) data.siblings = model.siblings;
	if (model.private !== undefined) data.private = model.private;
	return data;
}

/** A stand-in model for showing a library's snippets when the hub has no model of that library. */
export function placeholderModel(libraryKey: string): ModelData {
	return { id: "your-org/your-model", library_name: libraryKey, tags: [] };
}

/** The model's license: its card's `license` (with `license_name` for "other"), else its license tag. */
export function modelLicense(model: Pick<ModelDetail, "cardData" | "tags">): string | undefined {
	const license = firstString(model.cardData?.license) ?? licenseFromTags(model.tags);
	const name = firstString(model.cardData?.license_name);
	return license === "other" && name ? name : license;
}

/** The model's size in parameters ("8.03B params"), from its safetensors header, else its GGUF file. */
export function modelSize(model: {
	safetensors?: Pick<SafetensorsInfo, "total">;
	gguf?: Pick<GgufInfo, "total">;
}): string | undefined {
	const total = model.safetensors?.total ?? model.gguf?.total;
	const text = formatParameters(total);
	return text ? `${text} params` : undefined;
}

/**
 * The GGUF file's facts worth a line on the model page: its architecture and context length (the hub
 * reads them from the file's header), and whether it carries a chat template.
 */
export function ggufFacts(model: { gguf?: GgufInfo }): string | undefined {
	const gguf = model.gguf;
	if (!gguf) return undefined;
	const parts: string[] = [];
	if (typeof gguf.architecture === "string" && gguf.architecture) parts.push(gguf.architecture);
	if (
		typeof gguf.context_length === "number" &&
		Number.isFinite(gguf.context_length) &&
		gguf.context_length > 0
	)
		parts.push(`${formatExactCount(gguf.context_length)}-token context`);
	if (typeof gguf.chat_template === "string" && gguf.chat_template) parts.push("chat template");
	return parts.length > 0 ? parts.join(" · ") : undefined;
}

/** The parameter counts by tensor type ("F32 1.2M · BF16 8.03B"), largest first, from the safetensors headers. */
export function parameterTypes(model: {
	safetensors?: Pick<SafetensorsInfo, "parameters">;
}): string | undefined {
	const parameters = model.safetensors?.parameters;
	if (!parameters || typeof parameters !== "object") return undefined;
	const entries = Object.entries(parameters).filter(
		(entry): entry is [string, number] =>
			typeof entry[1] === "number" && Number.isFinite(entry[1]) && entry[1] > 0,
	);
	if (entries.length === 0) return undefined;
	return entries
		.sort((a, b) => b[1] - a[1])
		.map(([dtype, count]) => `${dtype} ${formatParameters(count) ?? formatExactCount(count)}`)
		.join(" · ");
}

/**
 * A model card's Markdown without its YAML front matter (the hub shows that block as the card's
 * metadata, not as text). Front matter is a `---` line first, closed by a `---` (or `...`) line.
 */
export function cardBody(markdown: string): string {
	const text = markdown.replace(/^\uFEFF/, "");
	const match = /^---[ \t]*\r?\n(?:[\s\S]*?\r?\n)?(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/.exec(text);
	return match ? text.slice(match[0].length) : text;
}

/** The card's metadata worth listing next to it, as label and text(s), from the hub's parsed card data. */
export function cardMetadata(
	cardData: Record<string, unknown> | undefined,
): Array<{ label: string; values: string[] }> {
	if (!cardData) return [];
	const fields: Array<[string, string]> = [
		["license", "License"],
		["license_name", "License name"],
		["language", "Languages"],
		["base_model", "Base model"],
		["datasets", "Datasets"],
		["metrics", "Metrics"],
		["pipeline_tag", "Task"],
		["library_name", "Library"],
		["tags", "Tags"],
	];
	const out: Array<{ label: string; values: string[] }> = [];
	for (const [key, label] of fields) {
		const value = cardData[key];
		const values = (Array.isArray(value) ? value : [value]).filter(
			(item): item is string | number => typeof item === "string" || typeof item === "number",
		);
		if (values.length > 0) out.push({ label, values: values.slice(0, 20).map(String) });
	}
	return out;
}
