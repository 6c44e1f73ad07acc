/**
 * Credentials only go to the provider's own origin or the router, on every path: the submit, its
 * redirects, status polls and their redirects, the result JSON, the hub lookup, media downloads. A
 * redirect to another origin never carries Authorization — also with a fetch implementation that would
 * forward every header on redirects (as old node-fetch did), because redirects of credentialed
 * requests are followed by the client itself (`redirect: "manual"`).
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
 * A fetch that follows redirects itself and forwards every header to wherever they point, unless it
 * is asked for `redirect: "manual"` (then it is the platform's fetch).
 */
function headerForwardingFetch(base: typeof fetch): typeof fetch {
	return async (input, init) => {
		if (init?.redirect === "manual") return await base(input, init);
		let url = String(input);
		let method = init?.method ?? "GET";
		let body = init?.body;
		for (let hop = 0; ; hop++) {
			const response = await base(url, { ...init, method, body, redirect: "manual" });
			const location = response.headers.get("location");
			if (response.status < 300 || response.status >= 400 || !location || hop === 5) return response;
			await response.body?.cancel();
			url = new URL(location, url).href;
			if (response.status === 303) {
				method = "GET";
				body = undefined;
			}
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
		it(`a submit redirected to another origin reaches it without Authorization (${name})`, async () => {
			server().use([
				chatMapping,
				{ path: DIRECT, respond: { status: 307, headers: { location: "https://evil.example/collect" } } },
				{ path: "/evil.example/collect", respond: { json: CHAT_OUTPUT } },
			]);
			await expect(chatCompletion(args, { fetch: makeFetch(server().fetch) })).resolves.toEqual(CHAT_OUTPUT);
			const stolen = server().requestsTo("/evil.example/collect");
			expect(stolen).toHaveLength(1);
			expect(authOf(stolen[0])).toBeUndefined();
			// A 307 keeps the method and the body.
			expect(stolen[0]?.method).toBe("POST");
			expect((stolen[0]?.json as { messages?: unknown }).messages).toEqual(MESSAGES);
		});

		it(`a redirect on the same origin keeps the credentials (${name})`, async () => {
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
		});
	}

	it("a 303 turns the request into a GET without body or content type", async () => {
		server().use([
			chatMapping,
			{ path: DIRECT, respond: { status: 303, headers: { location: "https://api.together.xyz/v1/answer" } } },
			{
				method: "GET",
				path: "/api.together.xyz/v1/answer",
				expect: { headers: { authorization: `Bearer ${PROVIDER_KEY}`, "content-type": null } },
				respond: { json: CHAT_OUTPUT },
			},
		]);
		await expect(chatCompletion(args, { fetch: server().fetch })).resolves.toEqual(CHAT_OUTPUT);
		expect(server().requestsTo("/api.together.xyz/v1/answer")[0]?.body.length).toBe(0);
	});

	it("a redirect loop stops with a clear error after 5 redirects", async () => {
		server().use([
			chatMapping,
			{
				path: DIRECT,
				respond: { status: 307, headers: { location: DIRECT.replace("/api.together.xyz", "") } },
			},
		]);
		const error = await chatCompletion(args, { fetch: server().fetch }).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(InferenceProviderApiError);
		expect((error as Error).message).toBe(
			"Stopped following redirects from https://api.together.xyz/v1/chat/completions: more than 5",
		);
		expect(server().requestsTo(DIRECT)).toHaveLength(6);
	});

	it("the hub lookup (hub token) is not carried to another origin by a redirect", async () => {
		server().use([
			{
				method: "GET",
				path: `/huggingface.co/api/models/${MODEL}?expand[]=inferenceProviderMapping`,
				respond: { status: 307, headers: { location: "https://mirror.example/api/models/org/chat" } },
			},
			{
				...hubModel(MODEL, { together: { providerId: "t", status: "live", task: "conversational" } }),
				path: "/mirror.example/api/models/org/chat",
			},
			{ path: "/router.huggingface.co/together/v1/chat/completions", respond: { json: CHAT_OUTPUT } },
		]);
		await chatCompletion(
			{ ...args, accessToken: HF_TOKEN },
			{ fetch: headerForwardingFetch(server().fetch) },
		);
		const mirror = server().requestsTo("/mirror.example");
		expect(mirror).toHaveLength(1);
		expect(authOf(mirror[0])).toBeUndefined();
	});

	it("fal queue: status polls and the result fetch redirected elsewhere lose the key; files are fetched without it", async () => {
		const key = "fal-key-0123456789abcdef";
		const app = "/queue.fal.run/fal-ai/vid";
		server().use([
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
			{
				method: "GET",
				path: `${app}/requests/r1/status`,
				respond: { status: 302, headers: { location: "https://status.example/r1" } },
			},
			{ method: "GET", path: "/status.example/r1", respond: { json: { status: "COMPLETED" } } },
			{
				method: "GET",
				path: `${app}/requests/r1`,
				respond: { status: 307, headers: { location: "https://results.example/r1" } },
			},
			{
				method: "GET",
				path: "/results.example/r1",
				respond: { json: { video: { url: "https://v3.fal.media/v.mp4" } } },
			},
			{
				method: "GET",
				path: "/v3.fal.media/v.mp4",
				respond: { body: PNG_BYTES, headers: { "content-type": "video/mp4" } },
			},
		]);
		const video = await textToVideo(
			{ accessToken: key, provider: "fal-ai", model: "org/vid", inputs: "a cat" },
			{ ...FAST, fetch: headerForwardingFetch(server().fetch) },
		);
		expect(video).toBeInstanceOf(Blob);
		expect(authOf(server().requestsTo(app)[0])).toBe(`Key ${key}`);
		expect(authOf(server().requestsTo(`${app}/requests/r1/status`)[0])).toBe(`Key ${key}`);
		for (const foreign of ["/status.example", "/results.example", "/v3.fal.media"]) {
			const requests = server().requestsTo(foreign);
			expect(requests.length, foreign).toBeGreaterThan(0);
			expect(requests.map(authOf), foreign).toEqual(requests.map(() => undefined));
		}
	});

	it("image downloads carry no credentials, also through redirects", async () => {
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
		await textToImage(
			{ accessToken: "fal-key-0123456789abcdef", provider: "fal-ai", model: "org/img", inputs: "x" },
			// Uncredentialed requests leave redirects to the fetch: this one follows them on the test server.
			{ fetch: headerForwardingFetch(server().fetch) },
		);
		for (const path of ["/v3.fal.media", "/cdn.example"]) {
			expect(authOf(server().requestsTo(path)[0]), path).toBeUndefined();
		}
	});
});
