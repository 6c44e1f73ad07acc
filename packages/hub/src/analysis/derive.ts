import type { PipelineType, TransformersInfo } from "@modelhub/tasks";
import { cardFacts } from "../cards/front-matter.js";
import { deriveConfig, tokenText } from "./config.js";
import { stringOf } from "./json.js";
import { detectLibrary } from "./library.js";
import { derivePipelineTag } from "./pipeline.js";
import type { RevisionSnapshot } from "./snapshot.js";
import { deriveTags } from "./tags.js";
import { transformersInfoOf } from "./transformers.js";
import { defaultWidget } from "./widget.js";

/**
 * What analysis derives from a revision, kept apart from what the card says: the model answer shows
 * the card's value when it has one, else this (see effective.ts). `library_name` and `pipeline_tag`
 * here come from the files alone; `tags` and the default `widgetData` are for the revision as a whole
 * (card included), since the public hub's tags mix both.
 */
export interface DerivedMetadata {
	library_name?: string;
	pipeline_tag?: PipelineType;
	transformersInfo?: TransformersInfo;
	config?: Record<string, unknown>;
	mask_token?: string;
	widgetData?: unknown[];
	tags: string[];
}

/** Libraries whose repositories the public hub gives a transformersInfo (loadable with an auto class). */
const TRANSFORMERS_INFO_LIBRARIES: ReadonlySet<string> = new Set(["transformers", "sentence-transformers"]);

function languagesOf(card: Record<string, unknown> | undefined): string[] {
	const language = card?.language;
	if (typeof language === "string") return [language];
	return Array.isArray(language) ? language.filter((item): item is string => typeof item === "string") : [];
}

/** Derives a revision's metadata. Pure: the same snapshot always gives the same answer. */
export function deriveMetadata(snapshot: RevisionSnapshot): DerivedMetadata {
	const card = snapshot.card ? cardFacts(snapshot.card) : undefined;
	const library = detectLibrary(snapshot);
	const effectiveLibrary = card?.libraryName ?? library;
	// Whether an auto class loads the files is a fact of the files, whatever library the card names.
	const transformersInfo =
		library && TRANSFORMERS_INFO_LIBRARIES.has(library) ? transformersInfoOf(snapshot) : undefined;
	// The task of the library the model is used with (a card naming sentence-transformers over a
	// transformers layout gets sentence-similarity, as on the public hub), else the files' library's.
	const pipelineTag =
		derivePipelineTag(snapshot, effectiveLibrary, transformersInfo) ??
		(library !== effectiveLibrary ? derivePipelineTag(snapshot, library, transformersInfo) : undefined);
	const config = deriveConfig(snapshot, effectiveLibrary);
	const tokenizer = snapshot.json["tokenizer_config.json"];
	const maskToken = tokenText(tokenizer?.mask_token);
	const chatTemplate =
		tokenizer?.chat_template !== undefined || snapshot.weights?.ggufChatTemplate !== undefined;
	const effectiveTask = card?.pipelineTag ?? pipelineTag;
	const widget = defaultWidget({
		pipelineTag: effectiveTask,
		languages: languagesOf(snapshot.card),
		maskToken,
		conversational: chatTemplate,
	});
	const tags = deriveTags(snapshot, {
		library: effectiveLibrary,
		pipelineTag: effectiveTask,
		modelType: stringOf(config?.model_type),
		chatTemplate,
		diffusersClass: stringOf(snapshot.json["model_index.json"]?._class_name),
	});
	return {
		...(library ? { library_name: library } : {}),
		...(pipelineTag ? { pipeline_tag: pipelineTag } : {}),
		...(transformersInfo ? { transformersInfo } : {}),
		...(config ? { config } : {}),
		...(maskToken ? { mask_token: maskToken } : {}),
		...(widget ? { widgetData: widget } : {}),
		tags,
	};
}
