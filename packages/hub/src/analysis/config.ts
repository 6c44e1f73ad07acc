import { SPECIAL_TOKENS_ATTRIBUTES } from "@modelhub/tasks";
import { isRecord, stringOf } from "./json.js";
import type { RevisionSnapshot } from "./snapshot.js";

/**
 * `config` as the public hub returns it in model_info: not config.json itself but the parts snippet
 * generators and local apps read (huggingface.js `ModelData.config`): the transformers keys below, the
 * tokenizer configuration's special tokens and chat template as `tokenizer_config`, and per library
 * `peft` (from adapter_config.json), `diffusers` (`_class_name` of model_index.json), `sklearn` and
 * `speechbrain` (their objects in config.json), timm's `architecture` / `num_classes`, and for GGUF
 * repositories `model_type` from the header's architecture (public hub:
 * TheBloke/Mistral-7B-Instruct-v0.2-GGUF → `{model_type: "mistral"}`).
 */
export const TRANSFORMERS_CONFIG_KEYS = [
	"architectures",
	"model_type",
	"auto_map",
	"quantization_config",
] as const;
export const TIMM_CONFIG_KEYS = ["architecture", "num_classes"] as const;
/** The tokenizer_config.json keys returned beside the special tokens (huggingface.js `TokenizerConfig`). */
export const TOKENIZER_CONFIG_KEYS = ["chat_template", "use_default_system_prompt"] as const;
/** The quantization_config keys `ModelData.config.quantization_config` has. */
export const QUANTIZATION_KEYS = ["bits", "load_in_4bit", "load_in_8bit", "quant_method"] as const;
export const PEFT_KEYS = ["base_model_name_or_path", "task_type"] as const;

function pick(source: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
	const picked: Record<string, unknown> = {};
	for (const key of keys) if (source[key] !== undefined) picked[key] = source[key];
	return picked;
}

/** The tokenizer_config subset, or undefined when tokenizer_config.json says nothing of it. */
export function tokenizerConfigOf(
	tokenizer: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
	if (!tokenizer) return undefined;
	const picked = pick(tokenizer, [...SPECIAL_TOKENS_ATTRIBUTES, ...TOKENIZER_CONFIG_KEYS]);
	return Object.keys(picked).length > 0 ? picked : undefined;
}

/** A special token's text: a string, or an AddedToken object's `content`. */
export function tokenText(value: unknown): string | undefined {
	if (typeof value === "string") return value || undefined;
	return isRecord(value) ? stringOf(value.content) : undefined;
}

export function deriveConfig(
	snapshot: RevisionSnapshot,
	library: string | undefined,
): Record<string, unknown> | undefined {
	const source = snapshot.json["config.json"];
	const config: Record<string, unknown> = {};
	if (source) {
		if (library === "timm") Object.assign(config, pick(source, TIMM_CONFIG_KEYS));
		else Object.assign(config, pick(source, TRANSFORMERS_CONFIG_KEYS));
		if (isRecord(config.quantization_config))
			config.quantization_config = pick(config.quantization_config, QUANTIZATION_KEYS);
		if (isRecord(source.sklearn)) config.sklearn = source.sklearn;
		if (isRecord(source.speechbrain)) config.speechbrain = source.speechbrain;
		else if (stringOf(source.speechbrain_interface))
			config.speechbrain = pick(source, ["speechbrain_interface", "vocoder_interface", "vocoder_model_id"]);
	}
	const tokenizer = tokenizerConfigOf(snapshot.json["tokenizer_config.json"]);
	if (tokenizer) config.tokenizer_config = tokenizer;
	const adapter = snapshot.json["adapter_config.json"];
	if (adapter) {
		const peft = pick(adapter, PEFT_KEYS);
		if (Object.keys(peft).length > 0) config.peft = peft;
	}
	const className = stringOf(snapshot.json["model_index.json"]?._class_name);
	if (className) config.diffusers = { _class_name: className };
	const ggufArchitecture = snapshot.weights?.ggufArchitecture;
	if (ggufArchitecture && config.model_type === undefined) config.model_type = ggufArchitecture;
	return Object.keys(config).length > 0 ? config : undefined;
}
