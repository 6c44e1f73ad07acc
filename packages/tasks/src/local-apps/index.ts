import type { ModelData } from "../libraries/types.js";
import { chatApps } from "./apps/chat-apps.js";
import { hfCliApps } from "./apps/hf-cli.js";
import { imageApps } from "./apps/image-apps.js";
import { inferenceServerApps } from "./apps/inference-servers.js";
import { llamaCppApps } from "./apps/llama-cpp.js";
import { mlxLmApps } from "./apps/mlx-lm.js";
import { modelRunnerApps } from "./apps/model-runners.js";
import type { LocalApp, LocalAppSnippet } from "./types.js";
import type { SnippetOptions } from "../snippets/hub-endpoint.js";

export type { LocalApp, LocalAppSnippet, LocalAppSnippetOutput } from "./types.js";
export { chooseGguf, DEFAULT_GGUF_QUANT } from "./gguf-choice.js";
export type { GgufChoice } from "./gguf-choice.js";
export { PUBLIC_HUB_URL, HubUrlError, otherHubUrl } from "../snippets/hub-endpoint.js";
export type { SnippetOptions } from "../snippets/hub-endpoint.js";

/**
 * Every local app, in menu order: the incumbent's 17 in their order, each new server next to its
 * kin (SGLang and MLX LM after vLLM; Docker Model Runner, llama-cpp-python and the hf CLI last).
 */
export const LOCAL_APPS = {
	"llama.cpp": llamaCppApps["llama.cpp"],
	"node-llama-cpp": llamaCppApps["node-llama-cpp"],
	vllm: inferenceServerApps.vllm,
	sglang: inferenceServerApps.sglang,
	"mlx-lm": mlxLmApps["mlx-lm"],
	tgi: inferenceServerApps.tgi,
	lmstudio: chatApps.lmstudio,
	localai: modelRunnerApps.localai,
	jan: chatApps.jan,
	backyard: chatApps.backyard,
	sanctum: chatApps.sanctum,
	jellybox: chatApps.jellybox,
	msty: chatApps.msty,
	recursechat: chatApps.recursechat,
	drawthings: imageApps.drawthings,
	diffusionbee: imageApps.diffusionbee,
	joyfusion: imageApps.joyfusion,
	invoke: imageApps.invoke,
	ollama: modelRunnerApps.ollama,
	"docker-model-runner": modelRunnerApps["docker-model-runner"],
	"llama-cpp-python": llamaCppApps["llama-cpp-python"],
	"hf-cli": hfCliApps["hf-cli"],
} as const satisfies Record<string, LocalApp>;

export type LocalAppKey = keyof typeof LOCAL_APPS;

export function isLocalAppKey(key: string): key is LocalAppKey {
	return Object.hasOwn(LOCAL_APPS, key);
}

/**
 * The apps offered on a model's page, in menu order. With `options.hubUrl` naming another hub, only
 * the apps that can fetch the model from it.
 */
export function localAppsForModel(model: ModelData, options?: SnippetOptions): LocalAppKey[] {
	return (Object.keys(LOCAL_APPS) as LocalAppKey[]).filter((key) =>
		(LOCAL_APPS[key] as LocalApp).displayOnModelPage(model, options),
	);
}

/**
 * An app's snippet in one shape, whatever form the app returns: titled ways, each with its setup
 * and a list of blocks. `[]` for apps that open from a deep link instead.
 */
export function getLocalAppSnippets(
	app: LocalApp,
	model: ModelData,
	filepath?: string,
	options?: SnippetOptions,
): Array<{ title?: string; setup?: string; content: string[] }> {
	if (!("snippet" in app)) return [];
	const output = app.snippet(model, filepath, options);
	const items: Array<string | LocalAppSnippet> = Array.isArray(output) ? output : [output];
	return items.map((item) =>
		typeof item === "string"
			? { content: [item] }
			: {
					title: item.title,
					...(item.setup === undefined ? {} : { setup: item.setup }),
					content: Array.isArray(item.content) ? item.content : [item.content],
				},
	);
}
