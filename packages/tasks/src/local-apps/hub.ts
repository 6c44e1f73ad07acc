/**
 * Local apps for a model whose files live on another hub than the public one (`SnippetOptions.hubUrl`).
 * Each app is pointed there through what it reads (facts in README.md, VERIFIED table), and the apps
 * that can only fetch from the public hub are not offered for such models at all: a command that
 * cannot work is not shown.
 */
import type { ModelData } from "../libraries/types.js";
import { shWord } from "../literals/index.js";
import { targetsOtherHub, type SnippetOptions } from "../snippets/hub-endpoint.js";

type Shows = (model: ModelData) => boolean;

/**
 * For apps that fetch only from the public hub (deep links into desktop apps that download from it,
 * Ollama's and Docker's `hf.co/` registries): offered only for models the public hub serves.
 */
export function publicHubOnly(shows: Shows): (model: ModelData, options?: SnippetOptions) => boolean {
	return (model, options) => !targetsOtherHub(options) && shows(model);
}

/**
 * For apps that follow an endpoint variable but send no token another hub accepts (llama.cpp sends
 * only `hf_…` tokens, common/hf-cache.cpp `is_valid_hf_token`): not offered for private models there.
 */
export function publicModelsOnOtherHubs(
	shows: Shows,
): (model: ModelData, options?: SnippetOptions) => boolean {
	return (model, options) => shows(model) && !(targetsOtherHub(options) && model.private === true);
}

/** `-e VAR=url` for `docker run`, so that the app inside the container fetches from the hub; none for the public hub. */
export function dockerEnv(hubUrl: string | undefined, variable = "HF_ENDPOINT"): string[] {
	return hubUrl === undefined ? [] : [`-e ${variable}=${shWord(hubUrl)}`];
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * A container's own loopback is not the host's: when the hub answers on the host's loopback address,
 * the container must share the host's network to reach it.
 */
export function dockerLoopbackNote(hubUrl: string | undefined): string | undefined {
	if (hubUrl === undefined) return undefined;
	const host = new URL(hubUrl).hostname;
	if (!LOOPBACK_HOSTS.has(host) && !host.startsWith("127.")) return undefined;
	return "# The hub is on this machine's loopback address: on Linux add --network host to reach it from the container";
}
