/**
 * Preloaded with `node --import` into every node snippet process. It wraps the global `fetch` (which
 * the `openai` package, js/fetch snippets and @modelhub/inference all call) so that an https request
 * to a remote host goes to http://MODELHUB_REDIRECT instead, carrying its original host in
 * `X-Forwarded-Host` (fetch cannot send a Host header of its own) and the current snippet's id in
 * `x-modelhub-run`. It also resolves the `@modelhub/inference` specifier to a fresh build of this
 * package (MODELHUB_INFERENCE_BUNDLE) — the only import a snippet is not run with as installed.
 */
import { register } from "node:module";

const { Headers, Request } = globalThis;
const target = process.env.MODELHUB_REDIRECT;
const LOCAL = new Set(["127.0.0.1", "localhost", "[::1]"]);
const RUN = Symbol.for("modelhub.harness.run");
globalThis[RUN] = "";

if (process.env.MODELHUB_INFERENCE_BUNDLE) {
	register("./resolve-hooks.mjs", import.meta.url, {
		data: { bundle: process.env.MODELHUB_INFERENCE_BUNDLE },
	});
}

const realFetch = globalThis.fetch;

globalThis.fetch = function fetch(input, init) {
	const request = input instanceof Request ? input : undefined;
	const url = new URL(request ? request.url : String(input));
	if (!target || url.protocol !== "https:" || LOCAL.has(url.hostname)) return realFetch(input, init);
	const headers = new Headers(init?.headers ?? request?.headers);
	headers.set("x-forwarded-host", url.host);
	headers.set("x-modelhub-run", globalThis[RUN]);
	const redirected = `http://${target}${url.pathname}${url.search}`;
	if (request) return realFetch(new Request(redirected, request), { ...init, headers });
	return realFetch(redirected, { ...init, headers });
};
