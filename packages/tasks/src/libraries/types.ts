import type { PipelineType } from "../pipelines.js";
import type { SnippetOptions } from "../snippets/hub-endpoint.js";

/** A token added to a tokenizer's vocabulary, as written in tokenizer_config.json. */
export interface AddedToken {
	__type: "AddedToken";
	content?: string;
	lstrip?: boolean;
	normalized?: boolean;
	rstrip?: boolean;
	single_word?: boolean;
}

export const SPECIAL_TOKENS_ATTRIBUTES = [
	"bos_token",
	"eos_token",
	"unk_token",
	"sep_token",
	"pad_token",
	"cls_token",
	"mask_token",
] as const;

export type SpecialTokensMap = {
	[key in (typeof SPECIAL_TOKENS_ATTRIBUTES)[number]]?: string | AddedToken | null;
};

export interface TokenizerConfig extends SpecialTokensMap {
	use_default_system_prompt?: boolean;
	chat_template?: string | Array<{ name: string; template: string }>;
}

/** What transformers knows about a model: its auto class and processor. */
export interface TransformersInfo {
	/** e.g. `AutoModelForSequenceClassification`. */
	auto_model: string;
	/** Set from config.json `auto_map`. */
	custom_class?: string;
	pipeline_tag?: PipelineType;
	/** e.g. `AutoTokenizer`, `AutoFeatureExtractor`, `AutoProcessor`. */
	processor?: string;
}

/** A widget example as stored in a model card; only the members snippets read are typed closely. */
export interface WidgetExampleBase {
	example_title?: string;
	group?: string;
	parameters?: Record<string, unknown>;
	output?: unknown;
}

export type WidgetExample = WidgetExampleBase & {
	text?: string;
	context?: string;
	source_sentence?: string;
	sentences?: string[];
	src?: string;
	prompt?: string;
	candidate_labels?: string;
	multi_class?: boolean;
	table?: Record<string, Array<string | number>>;
	structured_data?: Record<string, Array<string | number>>;
	messages?: Array<{ role: string; content: unknown }>;
};

/** The model fields that snippet generators and example inputs read. */
export interface ModelData {
	/** Repository id, e.g. `"user/repo_name"`. */
	id: string;
	/** Whether the repository is private. */
	private?: boolean;
	pipeline_tag?: PipelineType;
	/** Hub value of the library, a key of MODEL_LIBRARIES_UI_ELEMENTS when known. */
	library_name?: string;
	/** The fill-mask token of the model's tokenizer, e.g. `[MASK]` or `<mask>`. */
	mask_token?: string;
	tags: string[];
	/** Inference status shown by the hub. */
	inference?: string;
	config?: {
		architectures?: string[];
		auto_map?: Record<string, string>;
		model_type?: string;
		quantization_config?: {
			bits?: number;
			load_in_4bit?: boolean;
			load_in_8bit?: boolean;
			quant_method?: string;
		};
		tokenizer_config?: TokenizerConfig;
		adapter_transformers?: { model_name?: string; model_class?: string };
		diffusers?: { _class_name?: string };
		sklearn?: { model?: { file?: string }; model_format?: string };
		speechbrain?: { speechbrain_interface?: string; vocoder_interface?: string; vocoder_model_id?: string };
		peft?: { base_model_name_or_path?: string; task_type?: string };
		keras_hub?: { tasks?: string[] };
	};
	cardData?: {
		inference?: boolean | { parameters?: Record<string, unknown> };
		base_model?: string | string[];
		instance_prompt?: string | null;
		[key: string]: unknown;
	};
	widgetData?: WidgetExample[];
	transformersInfo?: TransformersInfo;
	safetensors?: { parameters: Record<string, number>; total: number; sharded: boolean };
	gguf?: { total: number; architecture?: string; context_length?: number };
	/** The repository's files, as the hub's model API lists them (read by the local apps' GGUF choice). */
	siblings?: Array<{ rfilename: string }>;
}

export type ModelDataMinimal = Pick<
	ModelData,
	"id" | "pipeline_tag" | "mask_token" | "library_name" | "config" | "tags" | "inference"
>;

/** Language of one generated code block. */
export type SnippetLanguage = "python" | "shell" | "javascript" | "csharp";

/** One code block of a library snippet, with the language it is written in. */
export interface CodeBlock {
	language: SnippetLanguage;
	code: string;
}

/** An Elasticsearch `query_string` over file paths; see `download-counting.ts` for what we support. */
export type ElasticSearchQuery = string;

/** A library as shown on the hub: labels, links, download rule, and its usage snippets. */
export interface LibraryUiElement {
	/** Display name, shown in tags and in the model page's call to action. */
	prettyLabel: string;
	/** Name of the library's repository. */
	repoName: string;
	/** URL of the library's repository. */
	repoUrl: string;
	/** URL of the library's documentation, where it has one. */
	docsUrl?: string;
	/**
	 * Code blocks showing how to load and run `model`; an empty array means "show nothing". With
	 * `options.hubUrl` naming another hub than the public one, they load the model from that hub.
	 */
	snippets?: (model: ModelData, options?: SnippetOptions) => string[];
	/** Which file requests count as a download; the default rule applies when absent. */
	countDownloads?: ElasticSearchQuery;
	/** Whether the library is offered in the hub's model-list library filter. */
	filter?: boolean;
	/** The same blocks as `snippets`, each tagged with its language. */
	codeBlocks?: (model: ModelData, options?: SnippetOptions) => CodeBlock[];
	/** A command that installs the library, where one is documented. */
	installCommand?: string;
}
