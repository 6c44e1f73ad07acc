/**
 * The hub answering 429 to the provider-mapping lookup: reported as the hub's rate limit (a typed
 * error with the status, the wait the hub asked for and its own words), never as "no inference provider
 * information", never cached, and never sent on to a provider. A real server on 127.0.0.1 answers.
 */
import { describe, expect, it } from "vitest";
import {
	chatCompletion,
	InferenceClient,
	InferenceError,
	InferenceHubError,
	InferenceHubRateLimitError,
} from "../src/index.js";
import { CHAT_OUTPUT, FAST, HF_TOKEN, hubModel, MESSAGES } from "./support/fixtures.js";
import type { Reply, Route } from "./support/servers.js";
import { useServer } from "./support/setup.js";

const MODEL = "org/chat";
const MAPPING_PATH = `/huggingface.co/api/models/${MODEL}?expand[]=inferenceProviderMapping`;
const TOGETHER = "/router.huggingface.co/together/v1/chat/completions";
const mapping = hubModel(MODEL, {
	together: { providerId: "together-chat", status: "live", task: "conversational" },
});
/** What ModelHub answers a blocked credential (its words, its Retry-After). */
const HUB_429: Reply = {
	status: 429,
	headers: { "retry-after": "42" },
	json: { error: "Too many failed authentication attempts with this token: retry in 42 seconds" },
};

function rateLimited(respond: Reply): Route {
	return { method: "GET", path: MAPPING_PATH, respond };
}

describe("a hub that answers 429 to the provider-mapping lookup", () => {
	const server = useServer([]);
	const args = { provider: "together" as const, model: MODEL, messages: MESSAGES, accessToken: HF_TOKEN };

	async function failure(): Promise<unknown> {
		return chatCompletion(args, { ...FAST, fetch: server().fetch }).catch((error: unknown) => error);
	}

	it("is reported as the hub's rate limit: status, Retry-After and the hub's words, typed", async () => {
		server().use([rateLimited(HUB_429), { path: TOGETHER, respond: { json: CHAT_OUTPUT } }]);
		const error = await failure();
		expect(error).toBeInstanceOf(InferenceHubRateLimitError);
		expect(error).toBeInstanceOf(InferenceHubError);
		expect(InferenceError.isInstance(error)).toBe(true);
		const limited = error as InferenceHubRateLimitError;
		expect(limited.name).toBe("InferenceHubRateLimitError");
		expect(limited.status).toBe(429);
		expect(limited.retryAfterMs).toBe(42_000);
		expect(limited.url).toBe(`https://huggingface.co/api/models/${MODEL}`);
		expect(limited.message).toBe(
			`The hub rate-limited the lookup of model ${MODEL}'s inference providers (HTTP 429 Too Many Requests from https://huggingface.co): retry in 42 seconds. The hub said: Too many failed authentication attempts with this token: retry in 42 seconds`,
		);
		expect(limited.message).not.toMatch(/We have not been able to find inference provider information/);
		expect(JSON.stringify(limited)).not.toContain(HF_TOKEN);
		// Nothing reached the provider.
		expect(server().requestsTo(TOGETHER)).toHaveLength(0);
	});

	it("is not cached: once the hub answers again, the call goes through", async () => {
		server().use([rateLimited(HUB_429)]);
		expect(await failure()).toBeInstanceOf(InferenceHubRateLimitError);
		server().use([mapping, { path: TOGETHER, respond: { json: CHAT_OUTPUT } }]);
		await expect(chatCompletion(args, { ...FAST, fetch: server().fetch })).resolves.toEqual(CHAT_OUTPUT);
	});

	it("reads the public hub's RateLimit header when there is no Retry-After, and says 'retry later' without either", async () => {
		server().use([
			rateLimited({
				status: 429,
				headers: { ratelimit: '"api";r=0;t=55', "ratelimit-policy": '"fixed window";"api";q=500;w=300' },
				body: "",
			}),
		]);
		const fromPolicy = (await failure()) as InferenceHubRateLimitError;
		expect(fromPolicy.retryAfterMs).toBe(55_000);
		expect(fromPolicy.message).toMatch(/\): retry in 55 seconds\.$/);

		server().use([
			rateLimited({ status: 429, headers: { "content-type": "text/html" }, body: "<html>slow down</html>" }),
		]);
		const unsaid = (await failure()) as InferenceHubRateLimitError;
		expect(unsaid).toBeInstanceOf(InferenceHubRateLimitError);
		expect(unsaid.retryAfterMs).toBeUndefined();
		expect(unsaid.message).toMatch(/\): retry later\.$/);
	});

	it("ends provider fallback (the hub's limit is no provider's fault) and names a self-hosted hub", async () => {
		const hubPath = `/hub.internal/api/models/${MODEL}?expand[]=inferenceProviderMapping`;
		server().use([{ method: "GET", path: hubPath, respond: HUB_429 }]);
		const client = new InferenceClient(HF_TOKEN, {
			...FAST,
			fetch: server().fetch,
			hubUrl: "https://hub.internal",
		});
		const error = await client
			.chatCompletion({ model: MODEL, messages: MESSAGES }, { fallback: true })
			.catch((e: unknown) => e);
		expect(error).toBeInstanceOf(InferenceHubRateLimitError);
		expect((error as Error).message).toMatch(/from https:\/\/hub\.internal\): retry in 42 seconds\./);
		expect(server().requestsTo(hubPath)).toHaveLength(1);
	});
});
