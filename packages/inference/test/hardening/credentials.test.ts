/**
 * Credentials only go to the provider's own origin or the router, on every path: the submit, status
 * polls, the result JSON, the hub lookup, and their redirects; media downloads carry none. A request
 * that carries credentials follows redirects itself (`redirect: "manual"`), only on its own origin: a
 * redirect elsewhere is refused, so neither the Authorization header nor the body leaves — also with a
 * fetch implementation that would forward every header on redirects (as old node-fetch did).
 */
import { describe, expect, it } from "vitest";
import { chatCompletion, InferenceProviderApiError, textToImage, textToVideo } from "../../src/index.js";
import {
	CHAT_OUTPUT,
	FAST,
	HF_TOKEN,
	hubModel,
	MESSAGES,
	PNG_BYTES,
	PROVIDER_KEY,
} from "../support/fixtures.js";
import type { RecordedRequest } from "../support/servers.js";
import { useServer } from "../support/setup.js";

const MODEL = "org/chat";
const chatMapping = hubModel(MODEL, {
	together: { providerId: "together-chat", status: "live", task: "conversational" },
});
const DIRECT = "/api.together.xyz/v1/chat/completions";
const args = { accessToken: PROVIDER_KEY, provider: "together" as const, model: MODEL, messages: MESSAGES };

/**
 * A fetch that follows redirects itself and forwards every header (and the body) to wherever they
 * point, unless it is asked for `redirect: "manual"` (then it is the platform's fetch).
 */
function headerForwardingFetch(base: typeof fetch): typeof fetch {
	return async (input, init) => {
		if (init?.redirect === "manual") return await base(input, init);
		let url = String(input);
		for (let hop = 0; ; hop++) {
			const response = await base(url, { ...init, redirect: "manual" });
			const location = response.headers.get("location");
			if (response.status < 300 || response.status >= 400 || !location || hop === 5) return response;
			await response.body?.cancel();
			url = new URL(location, url).href;
		}
	};
}

const authOf = (request: RecordedRequest | undefined) => request?.headers.authorization;

describe("credentials stay on their origin", () => {
	const server = useServer([chatMapping]);

	for (const [name, makeFetch] of [
		["the platform's fetch", (f: typeof fetch) => f],
		["a fetch that forwards every header on redirects", headerForwardingFetch],
	] as const) {
		it(`a submit redirected to another origin is refused: nothing reaches it (${name})`, async () => {
			server().use([
				chatMapping,
				{ path: DIRECT, respond: { status: 307, headers: { location: "https://evil.example/collect?x=1" } } },
				{ path: "/evil.example/collect", respond: { json: CHAT_OUTPUT } },
			]);
			const error = await chatCompletion(args, { fetch: makeFetch(server().fetch) }).catch((e: unknown) => e);
			expect(error).toBeInstanceOf(InferenceProviderApiError);
			expect((error as InferenceProviderApiError).status).toBe(307);
			expect((error as Error).message).toBe(
				"Refusing to follow a redirect from https://api.together.xyz/v1/chat/completions to https://evil.example/collect: a request with credentials follows at most 5 redirects, all on https://api.together.xyz",
			);
			expect(server().requestsTo("/evil.example")).toEqual([]);
		});

		it(`a redirect on the same origin is followed with the credentials, method and body (${name})`, async () => {
			server().use([
				chatMapping,
				{ path: DIRECT, respond: { status: 308, headers: { location: "/v1/chat/completions-moved" } } },
				{
					path: "/api.together.xyz/v1/chat/completions-moved",
					expect: { headers: { authorization: `Bearer ${PROVIDER_KEY}` } },
					respond: { json: CHAT_OUTPUT },
				},
			]);
			await expect(chatCompletion(args, { fetch: makeFetch(server().fetch) })).resolves.toEqual(CHAT_OUTPUT);
			const moved = server().requestsTo("/api.together.xyz/v1/chat/completions-moved")[0];
			expect((moved?.json as { messages?: unknown }).messages).toEqual(MESSAGES);
		});
	}

	it("a 303 on the same origin continues as a GET without a body", async () => {
		server().use([
			chatMapping,
			{ path: DIRECT, respond: { status: 303, headers: { location: "https://api.together.xyz/v1/answer" } } },
			{
				method: "GET",
				path: "/api.together.xyz/v1/answer",
				expect: { headers: { authorization: `Bearer ${PROVIDER_KEY}` } },
				respond: { json: CHAT_OUTPUT },
			},
		]);
		await expect(chatCompletion(args, { fetch: server().fetch })).resolves.toEqual(CHAT_OUTPUT);
		expect(server().requestsTo("/api.together.xyz/v1/answer")[0]?.body.length).toBe(0);
	});

	it("a redirect loop on the same origin stops after 5 redirects", async () => {
		server().use([
			chatMapping,
			{ path: DIRECT, respond: { status: 307, headers: { location: "/v1/chat/completions" } } },
		]);
		const error = await chatCompletion(args, { fetch: server().fetch }).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(InferenceProviderApiError);
		expect((error as Error).message).toMatch(
			/^Refusing to follow a redirect from https:\/\/api\.together\.xyz/,
		);
		expect(server().requestsTo(DIRECT)).toHaveLength(6);
	});

	it("the hub lookup with a hub token is not redirected to another origin", async () => {
		server().use([
			{
				method: "GET",
				path: `/huggingface.co/api/models/${MODEL}?expand[]=inferenceProviderMapping`,
				respond: { status: 302, headers: { location: "https://mirror.example/api/models/org/chat" } },
			},
		]);
		const error = await chatCompletion(
			{ ...args, accessToken: HF_TOKEN },
			{ fetch: headerForwardingFetch(server().fetch) },
		).catch((e: unknown) => e);
		expect((error as Error).message).toMatch(
			/^Refusing to follow a redirect from https:\/\/huggingface\.co\/api\/models\/org\/chat to https:\/\/mirror\.example/,
		);
		expect(server().requestsTo("/mirror.example")).toEqual([]);
	});

	describe("fal queue", () => {
		const key = "fal-key-0123456789abcdef";
		const app = "/queue.fal.run/fal-ai/vid";
		const routes = (status: object, result: object) => [
			hubModel("org/vid", { "fal-ai": { providerId: "fal-ai/vid", status: "live", task: "text-to-video" } }),
			{
				path: app,
				respond: {
					json: {
						request_id: "r1",
						status: "IN_QUEUE",
						response_url: "https://queue.fal.run/fal-ai/vid/requests/r1",
					},
				},
			},
			{ method: "GET", path: `${app}/requests/r1/status`, respond: status },
			{ method: "GET", path: `${app}/requests/r1`, respond: result },
			{ method: "GET", path: "/elsewhere.example/r1", respond: { json: { status: "COMPLETED" } } },
			{
				method: "GET",
				path: "/v3.fal.media/v.mp4",
				respond: { body: PNG_BYTES, headers: { "content-type": "video/mp4" } },
			},
		];
		const call = () =>
			textToVideo(
				{ accessToken: key, provider: "fal-ai", model: "org/vid", inputs: "a cat" },
				{ ...FAST, fetch: headerForwardingFetch(server().fetch) },
			);

		it("a status poll redirected to another origin is refused", async () => {
			server().use(
				routes({ status: 302, headers: { location: "https://elsewhere.example/r1" } }, { json: {} }),
			);
			await expect(call()).rejects.toThrow(
				/^Refusing to follow a redirect from https:\/\/queue\.fal\.run\/fal-ai\/vid\/requests\/r1\/status/,
			);
			expect(server().requestsTo("/elsewhere.example")).toEqual([]);
		});

		it("the result fetch redirected to another origin is refused", async () => {
			server().use(
				routes(
					{ json: { status: "COMPLETED" } },
					{ status: 307, headers: { location: "https://elsewhere.example/r1" } },
				),
			);
			await expect(call()).rejects.toThrow(/^Refusing to follow a redirect/);
			expect(server().requestsTo("/elsewhere.example")).toEqual([]);
		});

		it("every request on the queue carries the key; the file download carries none", async () => {
			server().use(
				routes({ json: { status: "COMPLETED" } }, { json: { video: { url: "https://v3.fal.media/v.mp4" } } }),
			);
			expect(await call()).toBeInstanceOf(Blob);
			for (const request of server().requestsTo("/queue.fal.run")) expect(authOf(request)).toBe(`Key ${key}`);
			expect(authOf(server().requestsTo("/v3.fal.media")[0])).toBeUndefined();
		});
	});

	it("image downloads carry no credentials and follow redirects anywhere", async () => {
		server().use([
			hubModel("org/img", { "fal-ai": { providerId: "fal-ai/img", status: "live", task: "text-to-image" } }),
			{ path: "/fal.run/fal-ai/img", respond: { json: { images: [{ url: "https://v3.fal.media/a.png" }] } } },
			{
				method: "GET",
				path: "/v3.fal.media/a.png",
				respond: { status: 302, headers: { location: "https://cdn.example/a.png" } },
			},
			{
				method: "GET",
				path: "/cdn.example/a.png",
				respond: { body: PNG_BYTES, headers: { "content-type": "image/png" } },
			},
		]);
		const image = await textToImage(
			{ accessToken: "fal-key-0123456789abcdef", provider: "fal-ai", model: "org/img", inputs: "x" },
			// Requests without credentials leave redirects to the fetch: this one follows them on the test server.
			{ fetch: headerForwardingFetch(server().fetch) },
		);
		expect(image.size).toBe(PNG_BYTES.length);
		for (const path of ["/v3.fal.media", "/cdn.example"]) {
			expect(authOf(server().requestsTo(path)[0]), path).toBeUndefined();
		}
	});
});
