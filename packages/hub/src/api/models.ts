/**
 * Models: `GET /api/models` (listing), `GET /api/models/{id}` and `/revision/{rev}` (model info),
 * `GET /api/models-count`. Names and shapes are the public hub's (what huggingface_hub reads).
 */
import type { PipelineType } from "@modelhub/tasks";
import type { ModelProperty, ModelSort } from "../vocabulary.js";

/** `expand=` names (the list the parser checks, src/vocabulary.ts) and the sort orders of a listing. */
export type { ModelProperty, ModelSort };

/** How one provider serves a model. */
export interface ProviderMappingEntry {
	/** The model's id at the provider. */
	providerId: string;
	/** A pipeline type, or "conversational" for chat completion. */
	task: string;
	status: "live" | "staging";
	adapter?: string;
	adapterWeightsPath?: string;
}

/** Model info's `inferenceProviderMapping`: keyed by provider, in the owner's order of preference. */
export type ProviderMapping = Record<string, ProviderMappingEntry>;

/** A listing's `inferenceProviderMapping` entry: the provider named inside (huggingface_hub reads both forms). */
export interface ListedProviderMapping extends ProviderMappingEntry {
	provider: string;
}

/** A file of `siblings`; `blobs=true` adds its size, blob id and LFS details. */
export interface ModelSibling {
	rfilename: string;
	size?: number;
	blobId?: string;
	lfs?: { size: number; sha256: string; pointerSize: number };
}

/** `transformersInfo` (huggingface_hub builds its TransformersInfo from exactly these keys). */
export interface TransformersInfo {
	auto_model: string;
	custom_class?: string | null;
	pipeline_tag?: string | null;
	processor?: string | null;
}

/** Parameter counts from the safetensors headers; other keys are kept as imported. */
export interface SafetensorsInfo {
	/** Parameters by dtype. */
	parameters: Record<string, number>;
	total: number;
	sharded?: boolean;
	[key: string]: unknown;
}

/**
 * Facts of a GGUF file's header (imported, or read by analysis/gguf.ts); `total` is its parameter count,
 * the others its `general.architecture`, `<architecture>.context_length`, `tokenizer.chat_template` and
 * the vocabulary entries at the bos/eos token ids.
 */
export interface GgufInfo {
	total?: number;
	architecture?: string;
	context_length?: number;
	chat_template?: string;
	bos_token?: string;
	eos_token?: string;
	[key: string]: unknown;
}

/**
 * A model answer, its fields in the order the hub writes them. The ones always present are those every
 * answer computes (listings and model info alike); the others depend on `expand`, `full`, the stored
 * data, and the route (see models/properties.ts). `Mapping` is the provider mapping's form.
 */
export interface ModelAnswer<Mapping> {
	_id?: string;
	id: string;
	/** The same as `id` (older clients read this name). */
	modelId: string;
	/** The namespace; absent for ids without one. */
	author?: string;
	/** The commit of the revision (the main branch unless the route names one). */
	sha?: string;
	pipeline_tag?: PipelineType;
	library_name?: string;
	tags: string[];
	config?: Record<string, unknown>;
	cardData?: Record<string, unknown>;
	widgetData?: unknown[];
	transformersInfo?: TransformersInfo;
	safetensors?: SafetensorsInfo;
	gguf?: GgufInfo;
	mask_token?: string;
	"model-index"?: unknown;
	/** Downloads in the last 30 days: the count imported with the model plus the hub's own. */
	downloads: number;
	/** `expand=downloadsAllTime`: every download, the imported count plus the hub's own. */
	downloadsAllTime?: number;
	likes: number;
	trendingScore?: number;
	/** ISO 8601, millisecond precision, UTC. */
	lastModified: string;
	/** ISO 8601, millisecond precision, UTC. */
	createdAt: string;
	private: boolean;
	/** `"auto"` or `"manual"` for a gated repository (metadata stays visible; files need access). */
	gated?: "auto" | "manual" | false;
	/** This hub has no disabled repositories. */
	disabled?: false;
	/** Present when a provider serves the model live. */
	inference?: "warm";
	inferenceProviderMapping?: Mapping;
	siblings?: ModelSibling[];
	usedStorage?: number;
	/** `securityStatus=true`: this hub runs no scans, and says so. */
	securityRepoStatus?: { scansDone: boolean; filesWithIssues: unknown[] };
	/**
	 * ModelHub's own field, in model info with `siblings`: `true` when the revision holds only the files
	 * the hub generated from imported catalogue metadata (card, configs). Such a model's files live on
	 * the public hub, so its snippets point there; every other model's files are served by this hub.
	 */
	metadataOnly?: true;
	/**
	 * ModelHub's own field, in the info of a repository this hub does not have and reads from its
	 * upstream hub (mirror mode, MODELHUB_UPSTREAM_URL): the upstream's URL. The web shows "Mirrored from".
	 */
	mirroredFrom?: string;
}

/**
 * The `name` of the page's `<meta>` that carries the hub's public URL when MODELHUB_PUBLIC_URL is set
 * (its `content`), for the snippets the web app shows; without it the app uses the page's origin.
 */
export type HubUrlMetaName = "modelhub-hub-url";

/** A model as `GET /api/models/{id}` (and `/revision/{rev}`) answers it. */
export type ModelInfo = ModelAnswer<ProviderMapping>;

/** A model as `GET /api/models` lists it. */
export type ListedModel = ModelAnswer<ListedProviderMapping[]>;

/**
 * The query parameters of `GET /api/models`; `GET /api/models-count` reads the filters. Lists may be
 * sent as repeated parameters or in the `name[]` form; booleans as `true`/`false` or `1`/`0`. The
 * hub's parser reads parameters only by these names (routes/models/list.ts).
 */
export interface ModelListParameters {
	/** Words that must all occur in the id. */
	search?: string;
	/** Tags every listed model carries (also matches the pipeline tag and the library). */
	filter?: string[];
	pipeline_tag?: PipelineType;
	library?: string;
	author?: string;
	/** Provider names (repeated or comma-separated), or "all": models served live by one of them. */
	inference_provider?: string | string[];
	/** "warm": served live by some provider. */
	inference?: "warm";
	gated?: boolean;
	/** `min:6B,max:128B`, `min:6B` or `max:0.5B`. */
	num_parameters?: string;
	/** Refused with a message: this hub keeps no local-app data. */
	apps?: string[];
	sort?: ModelSort;
	direction?: -1 | 1;
	/** Page size, capped at 1000; the next page is in `Link` and `X-Next-Cursor`. */
	limit?: number;
	cursor?: string;
	full?: boolean;
	config?: boolean;
	cardData?: boolean;
	expand?: ModelProperty[];
}

/** The filter parameters of a listing, which `GET /api/models-count` counts. */
export type ModelFilterParameters = Omit<
	ModelListParameters,
	"sort" | "direction" | "limit" | "cursor" | "full" | "config" | "cardData" | "expand"
>;

/** The query parameters of `GET /api/models/{id}` and `/revision/{rev}`. */
export interface ModelInfoParameters {
	expand?: ModelProperty[];
	/** Size, blob id and LFS details of each file in `siblings`. */
	blobs?: boolean;
	securityStatus?: boolean;
}

/** `GET /api/models-count`: how many models match; past the hub's cap `count` is the cap and `exact` false. */
export interface ModelCount {
	count: number;
	exact: boolean;
}
