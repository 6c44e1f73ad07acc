/**
 * Desktop chat apps that open a GGUF (or MLX) repository from a deep link. The id enters each URL
 * through `urlPath` or `urlQueryValue`, so it cannot add a path step, a parameter or a fragment. A deep
 * link carries only the id and each app downloads from the public hub, so they are offered only for
 * models it serves (`publicHubOnly`).
 */
import type { ModelData } from "../../libraries/types.js";
import { urlPath, urlQueryValue } from "../../literals/index.js";
import { isDiffusersModel, isGgufLlm, isLora, isMlxModel, isTextToImage } from "../model-kinds.js";
import { hasTag } from "../../libraries/define.js";
import type { LocalApp } from "../types.js";
import { publicHubOnly } from "../hub.js";

/** LM Studio takes the repository and, optionally, the file the user picked. */
function lmStudioLink(model: ModelData, filepath?: string): URL {
	const file = typeof filepath === "string" && filepath !== "" ? `&file=${urlQueryValue(filepath)}` : "";
	return new URL(`lmstudio://open_from_hf?model=${urlQueryValue(model.id)}${file}`);
}

/** Jellybox files LLMs, image models and image LoRAs under different routes. */
function jellyboxLink(model: ModelData): URL {
	const path = urlPath(model.id);
	if (isGgufLlm(model)) return new URL(`jellybox://llm/models/huggingface/LLM/${path}`);
	if (isLora(model)) return new URL(`jellybox://image/models/huggingface/ImageLora/${path}`);
	return new URL(`jellybox://image/models/huggingface/Image/${path}`);
}

export const chatApps = {
	lmstudio: {
		prettyLabel: "LM Studio",
		docsUrl: "https://lmstudio.ai",
		mainTask: "text-generation",
		displayOnModelPage: publicHubOnly((model: ModelData) => isGgufLlm(model) || isMlxModel(model)),
		deeplink: lmStudioLink,
	},
	jan: {
		prettyLabel: "Jan",
		docsUrl: "https://jan.ai",
		mainTask: "text-generation",
		displayOnModelPage: publicHubOnly(isGgufLlm),
		// Jan reads the repository from the path after `/<action>/<provider>/` (web-app DataProvider).
		deeplink: (model: ModelData) => new URL(`jan://models/huggingface/${urlPath(model.id)}`),
	},
	backyard: {
		prettyLabel: "Backyard AI",
		docsUrl: "https://backyard.ai",
		mainTask: "text-generation",
		displayOnModelPage: publicHubOnly(isGgufLlm),
		deeplink: (model: ModelData) => new URL(`https://backyard.ai/hf/model/${urlPath(model.id)}`),
	},
	sanctum: {
		prettyLabel: "Sanctum",
		docsUrl: "https://sanctum.ai",
		mainTask: "text-generation",
		displayOnModelPage: publicHubOnly(isGgufLlm),
		deeplink: (model: ModelData) => new URL(`sanctum://open_from_hf?model=${urlQueryValue(model.id)}`),
	},
	jellybox: {
		prettyLabel: "Jellybox",
		docsUrl: "https://jellybox.com",
		mainTask: "text-generation",
		displayOnModelPage: publicHubOnly(
			(model: ModelData) =>
				isGgufLlm(model) ||
				(isDiffusersModel(model) && hasTag(model, "safetensors") && (isTextToImage(model) || isLora(model))),
		),
		deeplink: jellyboxLink,
	},
	msty: {
		prettyLabel: "Msty",
		docsUrl: "https://msty.app",
		mainTask: "text-generation",
		displayOnModelPage: publicHubOnly(isGgufLlm),
		deeplink: (model: ModelData) => new URL(`msty://models/search/hf/${urlPath(model.id)}`),
	},
	recursechat: {
		prettyLabel: "RecurseChat",
		docsUrl: "https://recurse.chat",
		mainTask: "text-generation",
		macOSOnly: true,
		displayOnModelPage: publicHubOnly(isGgufLlm),
		deeplink: (model: ModelData) =>
			new URL(`recursechat://new-hf-gguf-model?hf-model-id=${urlQueryValue(model.id)}`),
	},
} as const satisfies Record<string, LocalApp>;
