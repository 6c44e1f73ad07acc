/**
 * GPU inference servers with an OpenAI-compatible API: vLLM, SGLang and Text Generation Inference.
 * Each snippet starts the server and then calls it with curl. vLLM and SGLang download through
 * huggingface_hub, so `HF_ENDPOINT` (and `HF_TOKEN`) point them at another hub; TGI is offered only
 * for models the public hub serves.
 */
import { hasTag } from "../../libraries/define.js";
import type { ModelData } from "../../libraries/types.js";
import { shWord } from "../../literals/index.js";
import { block, multiline, openAiCurl, otherQuantsComment, withQuant } from "../commands.js";
import { chooseGguf, DEFAULT_GGUF_QUANT } from "../gguf-choice.js";
import { isGgufLlm, isServableCheckpoint, isVllmModel } from "../model-kinds.js";
import type { LocalApp, LocalAppSnippet } from "../types.js";
import { envPrefix, otherHubUrl, tokenNote, type SnippetOptions } from "../../snippets/hub-endpoint.js";
import { dockerEnv, dockerLoopbackNote, publicHubOnly } from "../hub.js";

/** Mounting the host's hub cache keeps downloaded weights between container runs. */
const HF_CACHE_VOLUME = "-v ~/.cache/huggingface:/root/.cache/huggingface";
/** Passes the host's token (for gated models) into the container when it is set, and nothing otherwise. */
const HF_TOKEN_ENV = "--env HF_TOKEN";

/**
 * The model a GGUF repository was quantised from, whose tokenizer vLLM recommends over converting
 * the GGUF one (docs/features/quantization/gguf.md). Read from the card or the hub's
 * `base_model:quantized:` tag; only a single, unambiguous base is used.
 */
function quantizedFrom(model: ModelData): string | undefined {
	const base = model.cardData?.base_model;
	if (typeof base === "string" && base !== "") return base;
	if (Array.isArray(base) && base.length === 1 && typeof base[0] === "string" && base[0] !== "")
		return base[0];
	const tagged = (Array.isArray(model.tags) ? model.tags : []).filter(
		(tag) => typeof tag === "string" && tag.startsWith("base_model:quantized:"),
	);
	return tagged.length === 1 ? tagged[0]?.slice("base_model:quantized:".length) || undefined : undefined;
}

/**
 * GGUF repositories load through the vllm-gguf-plugin as `repository:quantisation`; the served name
 * is set to the plain id so that requests can name the model as the hub does.
 */
function vllmGgufSnippet(model: ModelData, hubUrl: string | undefined, filepath?: string): LocalAppSnippet[] {
	const choice = chooseGguf(model, filepath);
	const tokenizer = quantizedFrom(model);
	return [
		{
			title: "Install from pip and serve the model",
			setup: "pip install vllm vllm-gguf-plugin",
			content: [
				block(
					"# Start an OpenAI-compatible server on http://localhost:8000:",
					tokenNote(model, hubUrl),
					multiline(
						`${envPrefix(hubUrl)}vllm serve ${shWord(withQuant(model.id, choice.quant ?? DEFAULT_GGUF_QUANT))}`,
						...(tokenizer === undefined ? [] : [`--tokenizer ${shWord(tokenizer)}`]),
						`--served-model-name ${shWord(model.id)}`,
					),
					otherQuantsComment(choice),
				),
				openAiCurl(model, 8000, model.id),
			],
		},
	];
}

/** Mistral's own checkpoint format needs its tokenizer, config and weight loaders (vLLM engine args). */
const MISTRAL_FORMAT_ARGS = ["--tokenizer-mode mistral", "--config-format mistral", "--load-format mistral"];

function vllmSnippet(model: ModelData, filepath?: string, options?: SnippetOptions): LocalAppSnippet[] {
	const hubUrl = otherHubUrl(options);
	if (isGgufLlm(model) && !isServableCheckpoint(model)) return vllmGgufSnippet(model, hubUrl, filepath);
	const mistral = hasTag(model, "mistral-common");
	const id = shWord(model.id);
	return [
		{
			title: "Install from pip and serve the model",
			setup: mistral ? block("pip install vllm", "pip install --upgrade mistral-common") : "pip install vllm",
			content: [
				block(
					"# Start an OpenAI-compatible server on http://localhost:8000:",
					tokenNote(model, hubUrl),
					multiline(`${envPrefix(hubUrl)}vllm serve ${id}`, ...(mistral ? MISTRAL_FORMAT_ARGS : [])),
				),
				openAiCurl(model, 8000, model.id),
			],
		},
		{
			title: "Use Docker",
			content: [
				block(
					"# Start the server on http://localhost:8000 (NVIDIA GPU):",
					tokenNote(model, hubUrl),
					dockerLoopbackNote(hubUrl),
					multiline(
						"docker run --gpus all",
						HF_CACHE_VOLUME,
						HF_TOKEN_ENV,
						...dockerEnv(hubUrl),
						"-p 8000:8000",
						`vllm/vllm-openai:latest ${id}`,
						...(mistral ? MISTRAL_FORMAT_ARGS : []),
					),
				),
				openAiCurl(model, 8000, model.id),
			],
		},
	];
}

/** `python3 -m sglang.launch_server --model-path ...`; SGLang listens on port 30000 by default. */
function sglangSnippet(model: ModelData, _filepath?: string, options?: SnippetOptions): LocalAppSnippet[] {
	const hubUrl = otherHubUrl(options);
	const id = shWord(model.id);
	return [
		{
			title: "Install from pip and serve the model",
			setup: "pip install sglang",
			content: [
				block(
					"# Start an OpenAI-compatible server on http://localhost:30000:",
					tokenNote(model, hubUrl),
					multiline(
						`${envPrefix(hubUrl)}python3 -m sglang.launch_server`,
						`--model-path ${id}`,
						"--port 30000",
					),
				),
				openAiCurl(model, 30000, model.id),
			],
		},
		{
			title: "Use Docker",
			content: [
				block(
					"# Start the server on http://localhost:30000 (NVIDIA GPU):",
					tokenNote(model, hubUrl),
					dockerLoopbackNote(hubUrl),
					multiline(
						"docker run --gpus all",
						"--shm-size 32g",
						"--ipc=host",
						HF_CACHE_VOLUME,
						HF_TOKEN_ENV,
						...dockerEnv(hubUrl),
						"-p 30000:30000",
						"lmsysorg/sglang:latest",
						"python3 -m sglang.launch_server",
						`--model-path ${id}`,
						"--host 0.0.0.0 --port 30000",
					),
				),
				openAiCurl(model, 30000, model.id),
			],
		},
	];
}

/** TGI's launcher takes `--model-id`; its Messages API accepts the model name `tgi`. */
function tgiSnippet(model: ModelData): LocalAppSnippet[] {
	return [
		{
			title: "Use Docker",
			content: [
				block(
					"# Start the server on http://localhost:8080 (NVIDIA GPU):",
					multiline(
						"docker run --gpus all",
						"--shm-size 1g",
						'-v "$PWD/data:/data"',
						HF_TOKEN_ENV,
						"-p 8080:80",
						`ghcr.io/huggingface/text-generation-inference:latest --model-id ${shWord(model.id)}`,
					),
				),
				openAiCurl(model, 8080, "tgi"),
			],
		},
	];
}

export const inferenceServerApps = {
	vllm: {
		prettyLabel: "vLLM",
		docsUrl: "https://docs.vllm.ai",
		mainTask: "text-generation",
		displayOnModelPage: isVllmModel,
		snippet: vllmSnippet,
	},
	sglang: {
		prettyLabel: "SGLang",
		docsUrl: "https://docs.sglang.io",
		mainTask: "text-generation",
		displayOnModelPage: isServableCheckpoint,
		snippet: sglangSnippet,
	},
	tgi: {
		prettyLabel: "TGI",
		docsUrl: "https://huggingface.co/docs/text-generation-inference/",
		mainTask: "text-generation",
		// TGI's launcher and router fetch with their own clients, not checked against another hub here.
		displayOnModelPage: publicHubOnly((model: ModelData) => hasTag(model, "text-generation-inference")),
		snippet: tgiSnippet,
	},
} as const satisfies Record<string, LocalApp>;
