/**
 * How the properties of a model (`expand=` names, src/vocabulary.ts) are produced: which a listing and
 * model info show by default, in which order, and which the hub never has data for.
 */
import { EXPAND_PROPERTIES, type ModelProperty } from "../vocabulary.js";

const EXPAND_SET: ReadonlySet<string> = new Set(EXPAND_PROPERTIES);

export function isModelProperty(value: string): value is ModelProperty {
	return EXPAND_SET.has(value);
}

/**
 * Properties this hub never has data for (no spaces, no evaluation results, no resource groups, no
 * lineage index): accepted in `expand`, never in an answer.
 */
export const ABSENT_PROPERTIES: ReadonlySet<ModelProperty> = new Set([
	"baseModels",
	"childrenModelCount",
	"evalResults",
	"resourceGroup",
	"spaces",
]);

/** What `GET /api/models` shows of each model by default. */
export const LIST_PROPERTIES: readonly ModelProperty[] = [
	"author",
	"pipeline_tag",
	"library_name",
	"tags",
	"downloads",
	"likes",
	"trendingScore",
	"lastModified",
	"createdAt",
	"private",
];

/** What `full=true` adds to a listing (the client documents: last modified, sha, files, tags). */
export const FULL_LIST_PROPERTIES: readonly ModelProperty[] = [
	...LIST_PROPERTIES,
	"sha",
	"gated",
	"disabled",
	"siblings",
	"mask_token",
	"widgetData",
	"transformersInfo",
	"safetensors",
	"gguf",
];

/** The order properties appear in, whatever asked for them. */
export const PROPERTY_ORDER: readonly ModelProperty[] = [
	"author",
	"sha",
	"pipeline_tag",
	"library_name",
	"tags",
	"config",
	"cardData",
	"widgetData",
	"transformersInfo",
	"safetensors",
	"gguf",
	"mask_token",
	"model-index",
	"downloads",
	"downloadsAllTime",
	"likes",
	"trendingScore",
	"lastModified",
	"createdAt",
	"private",
	"gated",
	"disabled",
	"inference",
	"inferenceProviderMapping",
	"siblings",
	"usedStorage",
];

/** Properties computed on demand only: model info shows every other one by default. */
const ON_DEMAND: ReadonlySet<ModelProperty> = new Set([
	"downloadsAllTime",
	"trendingScore",
	"inference",
	"inferenceProviderMapping",
]);

/** What `GET /api/models/{id}` shows by default. */
export const INFO_PROPERTIES: readonly ModelProperty[] = PROPERTY_ORDER.filter(
	(property) => !ON_DEMAND.has(property),
);
