import { cardFacts } from "../cards/front-matter.js";
import { datasetTags } from "../datasets/tags.js";
import type { DerivedMetadata } from "./derive.js";
import { isRecord } from "./json.js";
import { cardWidget } from "./widget.js";

/** What analysis stores for a revision: the derived metadata and the weights' header summaries. */
export interface StoredDerivation extends DerivedMetadata {
	safetensors?: Record<string, unknown>;
	gguf?: Record<string, unknown>;
}

/**
 * What analysis stores for a dataset's revision (src/datasets/): its tags, and its card's description
 * and citation, which dataset info shows.
 */
export interface DatasetDerivation {
	tags: string[];
	description?: string;
	citation?: string;
}

/** The metadata a model record brought (import, seed, the admin's PUT), stored as it came. */
export interface ImportedMetadata {
	pipeline_tag?: string | null;
	library_name?: string | null;
	tags?: string[] | null;
	config?: Record<string, unknown> | null;
	widget_data?: unknown[] | null;
	transformers_info?: Record<string, unknown> | null;
	safetensors?: Record<string, unknown> | null;
	gguf?: Record<string, unknown> | null;
	mask_token?: string | null;
}

/** The columns the model answer and the listings read (their indexes and generated columns included). */
export interface EffectiveColumns {
	pipeline_tag: string | null;
	library_name: string | null;
	tags: string[];
	config: Record<string, unknown> | null;
	widget_data: unknown[] | null;
	transformers_info: Record<string, unknown> | null;
	safetensors: Record<string, unknown> | null;
	gguf: Record<string, unknown> | null;
	mask_token: string | null;
}

/**
 * The one rule for what a model shows: the card's value when it sets one (the user always wins), else
 * what analysis derived from the files, else what a model record brought. So removing a field from the
 * card falls back to the derived value, and an imported catalogue model keeps its metadata until
 * analysis knows better. Tags are analysis's (which already counts the card) once it has run.
 */
export function effectiveColumns(
	cardData: Record<string, unknown> | null,
	derived: StoredDerivation | null,
	imported: ImportedMetadata | null,
): EffectiveColumns {
	const card = cardData ? cardFacts(cardData) : undefined;
	const tags = derived ? derived.tags : (imported?.tags ?? card?.tags ?? []);
	return {
		pipeline_tag: card?.pipelineTag ?? derived?.pipeline_tag ?? imported?.pipeline_tag ?? null,
		library_name: card?.libraryName ?? derived?.library_name ?? imported?.library_name ?? null,
		tags,
		config: derived?.config ?? imported?.config ?? null,
		widget_data: cardWidget(cardData ?? undefined) ?? derived?.widgetData ?? imported?.widget_data ?? null,
		transformers_info:
			(derived?.transformersInfo as Record<string, unknown> | undefined) ??
			imported?.transformers_info ??
			null,
		safetensors: derived?.safetensors ?? imported?.safetensors ?? null,
		gguf: derived?.gguf ?? imported?.gguf ?? null,
		mask_token: derived?.mask_token ?? imported?.mask_token ?? null,
	};
}

/**
 * A dataset's columns: its tags (analysis's, which count the card; the card's own until it has run).
 * Datasets have no task, library or model facts.
 */
export function effectiveDatasetColumns(
	cardData: Record<string, unknown> | null,
	derived: DatasetDerivation | null,
): EffectiveColumns {
	return {
		pipeline_tag: null,
		library_name: null,
		tags: derived && Array.isArray(derived.tags) ? derived.tags : datasetTags([], cardData ?? undefined),
		config: null,
		widget_data: null,
		transformers_info: null,
		safetensors: null,
		gguf: null,
		mask_token: null,
	};
}

/** A stored jsonb value read back as an object, or null. */
export function recordOrNull<T>(value: unknown): T | null {
	return isRecord(value) ? (value as T) : null;
}
