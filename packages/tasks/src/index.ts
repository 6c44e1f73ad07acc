export {
	MODALITIES,
	MODALITY_LABELS,
	PIPELINE_DATA,
	PIPELINE_TYPES,
	PIPELINE_TYPES_SET,
	SUBTASK_TYPES,
	isPipelineType,
} from "./pipelines.js";
export type {
	Modality,
	PipelineColor,
	PipelineData,
	PipelineType,
	SubTask,
	WidgetType,
} from "./pipelines.js";

export { TASKS_DATA } from "./tasks/index.js";
export type {
	ExampleRepo,
	TaskData,
	TaskDataCustom,
	TaskDemo,
	TaskDemoEntry,
	TaskDemoEntryType,
} from "./tasks/types.js";
export { TASKS_MODEL_LIBRARIES, LIBRARY_TASK_MAPPING } from "./library-to-tasks.js";
export { renderApiTasks, getDefaultModelForTask } from "./api-tasks.js";
export type { ApiTasksResponse } from "./api-tasks.js";
export { DEMO_ASSETS_PATH, demoAssetPath } from "./demo-assets.js";

export { MAPPING_DEFAULT_WIDGET } from "./default-widget-inputs.js";

export {
	GGMLQuantizationType,
	GGUF_QUANT_RE,
	GGUF_QUANT_RE_GLOBAL,
	parseGGUFQuantLabel,
	parseGGUFQuantType,
} from "./gguf.js";
export type { GGMLQuantizationTypeName, GGUFQuantInfo } from "./gguf.js";

export {
	getModelInputSnippet,
	getModelInputExample,
	stringifyMessages,
	stringifyGenerationConfig,
	NO_INPUT_EXAMPLE_TEXT,
	PIPELINES_WITH_INPUT_EXAMPLE,
	CONVERSATIONAL_TEXT_EXAMPLE,
	CONVERSATIONAL_IMAGE_EXAMPLE_TEXT,
	CONVERSATIONAL_IMAGE_EXAMPLE_URL,
} from "./snippets/inputs.js";
export type {
	ChatCompletionInputMessage,
	ModelInputExample,
	StringifyMessagesOptions,
	GenerationConfigOptions,
} from "./snippets/inputs.js";

/** Languages in which inference usage snippets are offered. */
export const inferenceSnippetLanguages = ["python", "js", "sh"] as const;
export type InferenceSnippetLanguage = (typeof inferenceSnippetLanguages)[number];

export {
	MODEL_LIBRARIES_UI_ELEMENTS,
	ALL_MODEL_LIBRARY_KEYS,
	ALL_DISPLAY_MODEL_LIBRARY_KEYS,
	getLibraryCodeBlocks,
	getLibraryInstallCommand,
	isLibraryDownload,
	isModelDownload,
} from "./libraries/index.js";
export {
	MODEL_LIBRARY_FAMILIES,
	isModelLibraryFamily,
	loadLibraryEntry,
} from "./libraries/family-loaders.js";
export type { ModelLibraryFamily } from "./libraries/family-loaders.js";
export { isModelLibraryKey } from "./libraries/keys.js";
export type { ModelLibraryKey } from "./libraries/keys.js";
export { SPECIAL_TOKENS_ATTRIBUTES } from "./libraries/types.js";
export type {
	AddedToken,
	CodeBlock,
	ElasticSearchQuery,
	LibraryUiElement,
	ModelData,
	ModelDataMinimal,
	SnippetLanguage,
	SpecialTokensMap,
	TokenizerConfig,
	TransformersInfo,
	WidgetExample,
	WidgetExampleBase,
} from "./libraries/types.js";
export {
	DEFAULT_DOWNLOAD_FILES,
	DEFAULT_DOWNLOAD_QUERY,
	DownloadQueryError,
	HUB_DEFAULT_EXTRA_FILES,
	countsAsHubDownload,
	matchesDownloadQuery,
	parseDownloadQuery,
	pathFields,
} from "./libraries/download-counting.js";
export type { DownloadQuery, PathField } from "./libraries/download-counting.js";

export { PUBLIC_HUB_URL, HubUrlError, otherHubUrl } from "./snippets/hub-endpoint.js";
export type { SnippetOptions } from "./snippets/hub-endpoint.js";

export {
	LOCAL_APPS,
	DEFAULT_GGUF_QUANT,
	chooseGguf,
	getLocalAppSnippets,
	isLocalAppKey,
	localAppsForModel,
} from "./local-apps/index.js";
export type {
	GgufChoice,
	LocalApp,
	LocalAppKey,
	LocalAppSnippet,
	LocalAppSnippetOutput,
} from "./local-apps/index.js";

import * as literalBuilders from "./literals/index.js";

/**
 * The literal builders (also at the `@modelhub/tasks/literals` sub-path). A plain object literal rather
 * than `export * as`, so that bundlers drop it when unused.
 */
export const literals = {
	pyString: literalBuilders.pyString,
	pyComment: literalBuilders.pyComment,
	pyValue: literalBuilders.pyValue,
	pyIdentifier: literalBuilders.pyIdentifier,
	isPyIdentifier: literalBuilders.isPyIdentifier,
	jsString: literalBuilders.jsString,
	jsComment: literalBuilders.jsComment,
	jsValue: literalBuilders.jsValue,
	shWord: literalBuilders.shWord,
	shQuote: literalBuilders.shQuote,
	shComment: literalBuilders.shComment,
	jsonText: literalBuilders.jsonText,
	csString: literalBuilders.csString,
	urlPath: literalBuilders.urlPath,
	urlQueryValue: literalBuilders.urlQueryValue,
} as const;
