/**
 * What kind of model a repository holds, as far as local apps care. Each app's `displayOnModelPage`
 * is one of these or a combination; they read only the hub's model metadata.
 */
import { hasTag } from "../libraries/define.js";
import type { ModelData } from "../libraries/types.js";

/**
 * A GGUF language model: the hub reads a context length out of the GGUF header only for files that
 * llama.cpp can load as a language model, so its presence is the signal.
 */
export function isGgufLlm(model: ModelData): boolean {
	const contextLength = model.gguf?.context_length;
	return typeof contextLength === "number" && contextLength > 0;
}

export function isMlxModel(model: ModelData): boolean {
	return hasTag(model, "mlx");
}

export function isConversational(model: ModelData): boolean {
	return hasTag(model, "conversational");
}

/** Pre-quantised checkpoints that GPU servers load natively (transformers' `quant_method` values). */
const SERVER_QUANT_METHODS = new Set(["awq", "gptq", "aqlm", "marlin"]);

function isServerQuantized(model: ModelData): boolean {
	const method = model.config?.quantization_config?.quant_method;
	return typeof method === "string" && SERVER_QUANT_METHODS.has(method);
}

/** Text or image-text generation: the pipelines an OpenAI-compatible chat server serves. */
function generatesText(model: ModelData): boolean {
	return model.pipeline_tag === "text-generation" || model.pipeline_tag === "image-text-to-text";
}

/** A transformers-format (or GPU-quantised) generative model: what vLLM and SGLang load by id. */
export function isServableCheckpoint(model: ModelData): boolean {
	return (isServerQuantized(model) || hasTag(model, "transformers")) && generatesText(model);
}

/** vLLM serves transformers checkpoints and, through its GGUF plugin, GGUF language models. */
export function isVllmModel(model: ModelData): boolean {
	return isServableCheckpoint(model) || (isGgufLlm(model) && generatesText(model));
}

/**
 * A text model in MLX format for `mlx_lm`: repos converted by mlx-lm carry `library_name: mlx`;
 * other MLX libraries (e.g. `cartesia_mlx`) use their own loaders.
 */
export function isMlxLmModel(model: ModelData): boolean {
	const library = model.library_name;
	return (
		isMlxModel(model) &&
		model.pipeline_tag === "text-generation" &&
		(library === undefined || library === "mlx")
	);
}

export function isDiffusersModel(model: ModelData): boolean {
	return model.library_name === "diffusers";
}

export function isTextToImage(model: ModelData): boolean {
	return model.pipeline_tag === "text-to-image";
}

export function isLora(model: ModelData): boolean {
	return hasTag(model, "lora");
}
