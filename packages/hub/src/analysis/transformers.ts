import type { TransformersInfo } from "@modelhub/tasks";
import { isRecord, stringOf } from "./json.js";
import { TOKENIZER_FILES } from "./analysed-paths.js";
import { hasFile, type RevisionSnapshot } from "./snapshot.js";
import {
	ARCHITECTURE_SUFFIXES,
	CONDITIONAL_GENERATION_FAMILIES,
	CONDITIONAL_GENERATION_PREFIXES,
	type AutoClassFacts,
} from "./transformers-classes.js";

const CONDITIONAL_GENERATION = "ForConditionalGeneration";

/** The auto class (and task) of one architecture class name, e.g. BertForSequenceClassification. */
export function autoClassOf(architecture: string): AutoClassFacts | undefined {
	if (architecture.endsWith(CONDITIONAL_GENERATION)) {
		const prefix = architecture.slice(0, -CONDITIONAL_GENERATION.length);
		for (const [family, prefixes] of Object.entries(CONDITIONAL_GENERATION_PREFIXES)) {
			if (prefixes.includes(prefix)) return CONDITIONAL_GENERATION_FAMILIES[family];
		}
		return CONDITIONAL_GENERATION_FAMILIES.AutoModelForSeq2SeqLM;
	}
	for (const [suffix, facts] of ARCHITECTURE_SUFFIXES) {
		// "Model" alone must be a whole word at the end (BertModel), not e.g. "LMHeadModel" (listed first).
		if (architecture.endsWith(suffix) && architecture.length > suffix.length) return facts;
	}
	return undefined;
}

/**
 * The processor class of `transformersInfo`, from the files `save_pretrained` of each processor kind
 * writes: a ProcessorMixin writes `processor_config.json` (or names `processor_class` in its
 * preprocessor config) and pairs a tokenizer with a feature extractor or image processor, so both
 * kinds of file mean AutoProcessor (public hub: whisper, wav2vec2 CTC); an image processor alone
 * writes `preprocessor_config.json` with `image_processor_type` (AutoImageProcessor), an audio feature
 * extractor with `feature_extractor_type` (AutoFeatureExtractor); a tokenizer alone is AutoTokenizer
 * (public hub: bert-base-uncased, gpt2).
 */
export function processorOf(snapshot: RevisionSnapshot): string | undefined {
	const preprocessor = snapshot.json["preprocessor_config.json"];
	const hasPreprocessor = hasFile(snapshot, "preprocessor_config.json");
	const hasTokenizer = TOKENIZER_FILES.some((path) => hasFile(snapshot, path));
	if (hasFile(snapshot, "processor_config.json") || stringOf(preprocessor?.processor_class))
		return "AutoProcessor";
	if (hasPreprocessor && hasTokenizer) return "AutoProcessor";
	if (stringOf(preprocessor?.image_processor_type)) return "AutoImageProcessor";
	if (stringOf(preprocessor?.feature_extractor_type)) return "AutoFeatureExtractor";
	if (hasTokenizer) return "AutoTokenizer";
	return undefined;
}

/**
 * `transformersInfo` of a transformers-layout repository: the auto class of the first architecture
 * (or, for remote code, the first AutoModel* entry of `auto_map`, whose class is `custom_class`: the
 * public hub shows e.g. `{auto_model: "AutoModel", custom_class: "…modeling_qwen.Qwen2Model"}` for a
 * Qwen2ForCausalLM config whose auto_map names only AutoModel).
 */
export function transformersInfoOf(snapshot: RevisionSnapshot): TransformersInfo | undefined {
	const config = snapshot.json["config.json"];
	if (!config) return undefined;
	const autoMap = isRecord(config.auto_map) ? config.auto_map : undefined;
	const processor = processorOf(snapshot);
	const remote = autoMap
		? Object.entries(autoMap).find(([key, value]) => key.startsWith("AutoModel") && typeof value === "string")
		: undefined;
	if (remote) {
		const [autoModel] = remote;
		const family = ARCHITECTURE_SUFFIXES.find(([, facts]) => facts.autoModel === autoModel)?.[1];
		const customClass = Object.values(autoMap ?? {}).find((value) => typeof value === "string") as string;
		return {
			auto_model: autoModel,
			custom_class: customClass,
			...(family?.pipelineTag ? { pipeline_tag: family.pipelineTag } : {}),
			...(processor ? { processor } : {}),
		};
	}
	const architecture = Array.isArray(config.architectures) ? stringOf(config.architectures[0]) : undefined;
	if (!architecture) return undefined;
	const facts = autoClassOf(architecture);
	if (!facts) return undefined;
	return {
		auto_model: facts.autoModel,
		...(facts.pipelineTag ? { pipeline_tag: facts.pipelineTag } : {}),
		...(processor ? { processor } : {}),
	};
}
