/**
 * Provider fallback (opt-in): a provider list, or "auto" with `fallback: true` (the hub's order),
 * against real local servers for several providers. A 429, a 5xx or a connection failure moves on;
 * anything else stops; streams fall back only before their first chunk; the final error names every
 * provider tried and why it failed.
 */
import { describe, expect, it } from "vitest";
import {
	chatCompletion,
	chatCompletionStream,
	InferenceClient,
	InferenceFallbackError,
	InferenceProviderApiError,
	InferenceTimeoutError,
	textToImage,
	withProviderFallback,
} from "../src/index.js";
import {
	CHAT_OUTPUT,
	chatChunk,
	FAST,
	HF_TOKEN,
	hubModel,
	MESSAGES,
	PNG_BYTES,
	sseFrames,
} from "./support/fixtures.js";
import type { Reply, Route } from "./support/servers.js";
import { useServer } from "./support/setup.js";

const MODEL = "org/chat";
const ROUTES = {
	together: "/router.huggingface.co/together/v1/chat/completions",
	groq: "/router.huggingface.co/groq/openai/v1/chat/completions",
	"fireworks-ai": "/router.huggingface.co/fireworks-ai/inference/v1/chat/completions",
} as const;
type Provider = keyof typeof ROUTES;
/** The hub's order (the user's preference): together, groq, fireworks-ai. */
const mapping = hubModel(MODEL, {
	together: { providerId: "together-chat", status: "live", task: "conversational" },
	groq: { providerId: "groq-chat", status: "live", task: "conversational" },
	"fireworks-ai": { providerId: "fireworks-chat", status: "live", task: "conversational" },
});
const base = { accessToken: HF_TOKEN, model: MODEL, messages: MESSAGES };
const chat = withProviderFallback(chatCompletion);
const chatStream = withProviderFallback(chatCompletionStream);

const answer = (provider: string) => ({ ...CHAT_OUTPUT, model: `${provider}-model` });

describe("provider fallback", () => {
	const server = useServer([mapping]);
	const serve = (replies: Partial<Record<Provider, Reply | ((hit: number) => Reply)>>, extra: Route[] = []) =>
		server().use([
			mapping,
			...extra,
			...Object.entries(replies).map(([provider, reply]) => ({
				path: ROUTES[provider as Provider],
				respond: typeof reply === "function" ? (_request: unknown, hit: number) => reply(hit) : reply,
			})),
		]);
	const hits = (provider: Provider) => server().requestsTo(ROUTES[provider]).length;

	it("a list: 429 and 503 move on, the next provider answers; a 503 is not retried before moving on", async () => {
		serve({
			groq: { status: 429, json: { error: "rate limited" } },
			together: { status: 503, json: { error: "overloaded" } },
			"fireworks-ai": { json: answer("fireworks") },
		});
		const result = await chat(
			{ ...base, provider: ["groq", "together", "fireworks-ai"] },
			{ ...FAST, fetch: server().fetch },
		);
		expect(result.model).toBe("fireworks-model");
		expect([hits("groq"), hits("together"), hits("fireworks-ai")]).toEqual([1, 1, 1]);
		// Each attempt is a normal call with that provider: its own route and model id.
		expect((server().requestsTo(ROUTES.groq)[0]?.json as { model?: string }).model).toBe("groq-chat");
	});

	it('"auto" with fallback: true tries the mapped providers in the hub\'s order', async () => {
		serve({
			together: { status: 500, json: { error: "boom" } },
			groq: { json: answer("groq") },
			"fireworks-ai": { json: answer("fireworks") },
		});
		const result = await chat(
			{ ...base, provider: "auto" },
			{ ...FAST, fetch: server().fetch, fallback: true },
		);
		expect(result.model).toBe("groq-model");
		expect([hits("together"), hits("groq"), hits("fireworks-ai")]).toEqual([1, 1, 0]);
		// Without a provider at all, too (with 3.12.1's notice).
		server().reset();
		const again = await chat(base, { ...FAST, fetch: server().fetch, fallback: true });
		expect(again.model).toBe("groq-model");
		expect(console.log).toHaveBeenCalledWith(expect.stringContaining("Defaulting to 'auto'"));
	});

	it("a connection failure moves on", async () => {
		serve({ together: { drop: true }, groq: { json: answer("groq") } });
		const result = await chat({ ...base, provider: ["together", "groq"] }, { fetch: server().fetch });
		expect(result.model).toBe("groq-model");
	});

	it("a provider the hub does not map the model to is skipped", async () => {
		server().use([
			hubModel(MODEL, { groq: { providerId: "groq-chat", status: "live", task: "conversational" } }),
			{ path: ROUTES.groq, respond: { json: answer("groq") } },
		]);
		const result = await chat({ ...base, provider: ["together", "groq"] }, { fetch: server().fetch });
		expect(result.model).toBe("groq-model");
		expect(hits("together")).toBe(0);
	});

	it("all providers failing: an InferenceFallbackError naming each provider and its error; the last one is retried on 503", async () => {
		serve({
			together: { status: 429, json: { error: "rate limited" } },
			groq: { drop: true },
			"fireworks-ai": { status: 503, json: { error: "loading" } },
		});
		const error = await chat(
			{ ...base, provider: ["together", "groq", "fireworks-ai"] },
			{ ...FAST, fetch: server().fetch, maxRetries: 2 },
		).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(InferenceFallbackError);
		const fallback = error as InferenceFallbackError;
		expect(fallback.attempts.map((attempt) => attempt.provider)).toEqual([
			"together",
			"groq",
			"fireworks-ai",
		]);
		expect(fallback.message).toMatch(
			/^No provider could serve org\/chat; tried 3: together \(HTTP 429: "rate limited"\); groq \(Could not reach https:\/\/router\.huggingface\.co\/groq\/openai\/v1\/chat\/completions: .+\); fireworks-ai \(HTTP 503: "loading"\)$/,
		);
		expect(fallback.cause).toBe(fallback.attempts[2]?.error);
		expect((fallback.cause as InferenceProviderApiError).status).toBe(503);
		expect(hits("fireworks-ai")).toBe(3);
		expect(JSON.stringify(fallback)).not.toContain(HF_TOKEN);
	});

	it("an error that does not move on stops at once: thrown as is when it is the first", async () => {
		serve({ together: { status: 400, json: { error: "bad request" } }, groq: { json: answer("groq") } });
		const error = await chat({ ...base, provider: ["together", "groq"] }, { fetch: server().fetch }).catch(
			(e: unknown) => e,
		);
		expect(error).toBeInstanceOf(InferenceProviderApiError);
		expect((error as InferenceProviderApiError).status).toBe(400);
		expect(hits("groq")).toBe(0);
	});

	it("an error that does not move on after a fallback: an InferenceFallbackError with both", async () => {
		serve({
			together: { status: 429, json: { error: "slow down" } },
			groq: { status: 401, json: { error: "who are you" } },
			"fireworks-ai": { json: answer("fireworks") },
		});
		const error = await chat(
			{ ...base, provider: ["together", "groq", "fireworks-ai"] },
			{ fetch: server().fetch },
		).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(InferenceFallbackError);
		expect((error as InferenceFallbackError).attempts.map((a) => a.provider)).toEqual(["together", "groq"]);
		expect(hits("fireworks-ai")).toBe(0);
	});

	it("the timeout spans all attempts, and an abort stops at once", async () => {
		serve({
			together: { delayMs: 40, status: 503, body: "" },
			groq: { hang: true },
			"fireworks-ai": { json: answer("fw") },
		});
		const error = await chat(
			{ ...base, provider: ["together", "groq", "fireworks-ai"] },
			{ fetch: server().fetch, timeout: 100 },
		).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(InferenceTimeoutError);
		expect((error as InferenceTimeoutError).timeout).toBe(100);
		expect(hits("fireworks-ai")).toBe(0);
	});

	it("streams fall back before their first chunk", async () => {
		serve({
			together: { status: 503, json: { error: "overloaded" } },
			groq: { sse: sseFrames([chatChunk("Hel"), chatChunk("lo")]) },
		});
		const chunks: string[] = [];
		for await (const chunk of chatStream(
			{ ...base, provider: ["together", "groq"] },
			{ fetch: server().fetch },
		)) {
			chunks.push(chunk.choices[0]?.delta.content ?? "");
		}
		expect(chunks).toEqual(["Hel", "lo"]);
		expect(hits("together")).toBe(1);
	});

	it("streams do not fall back after their first chunk", async () => {
		serve({
			together: { sse: [`data: ${JSON.stringify(chatChunk("Hel"))}\n\n`, 'data: {"x'], reset: true },
			groq: { sse: sseFrames([chatChunk("other")]) },
		});
		const chunks: string[] = [];
		const error = await (async () => {
			for await (const chunk of chatStream(
				{ ...base, provider: ["together", "groq"] },
				{ fetch: server().fetch },
			)) {
				chunks.push(chunk.choices[0]?.delta.content ?? "");
			}
		})().catch((e: unknown) => e);
		expect(chunks).toEqual(["Hel"]);
		expect((error as Error).name).toBe("InferenceConnectionError");
		expect(hits("groq")).toBe(0);
	});

	it("InferenceClient methods take provider lists, and fallback: true as a client option", async () => {
		serve({ together: { status: 502, body: "" }, groq: { json: answer("groq") } });
		const client = new InferenceClient(HF_TOKEN, { fetch: server().fetch });
		const listed = await client.chatCompletion({
			model: MODEL,
			messages: MESSAGES,
			provider: ["together", "groq"],
		});
		expect(listed.model).toBe("groq-model");
		const auto = new InferenceClient(HF_TOKEN, { fetch: server().fetch, fallback: true });
		expect((await auto.chatCompletion({ model: MODEL, messages: MESSAGES, provider: "auto" })).model).toBe(
			"groq-model",
		);
	});

	it("other tasks fall back too (text-to-image)", async () => {
		server().use([
			hubModel("org/img", {
				nscale: { providerId: "nscale-img", status: "live", task: "text-to-image" },
				together: { providerId: "together-img", status: "live", task: "text-to-image" },
			}),
			{ path: "/router.huggingface.co/nscale/v1/images/generations", respond: { status: 500, body: "" } },
			{
				path: "/router.huggingface.co/together/v1/images/generations",
				respond: { json: { data: [{ b64_json: Buffer.from(PNG_BYTES).toString("base64") }] } },
			},
		]);
		const image = await withProviderFallback(textToImage)(
			{ accessToken: HF_TOKEN, model: "org/img", inputs: "a cat" },
			{ fetch: server().fetch, fallback: true },
		);
		expect(image).toBeInstanceOf(Blob);
	});

	it("the wrapped function keeps the task's argument types, with provider lists of known providers", () => {
		const calls = [
			// @ts-expect-error messages must be a list of messages
			() => chat({ ...base, messages: "hello", provider: ["groq"] }),
			// @ts-expect-error only known providers
			() => chat({ ...base, provider: ["groq", "nobody"] }),
			() => chat({ ...base, provider: ["groq", "together"] }),
		];
		expect(calls).toHaveLength(3);
	});

	it("without a list or fallback: true, the wrapped function is the plain one; the plain one never falls back", async () => {
		serve({ together: { status: 503, json: { error: "busy" } }, groq: { json: answer("groq") } });
		await expect(
			chat({ ...base, provider: "together" }, { fetch: server().fetch, retry_on_error: false }),
		).rejects.toMatchObject({ status: 503 });
		const plain = await chatCompletion(
			{ ...base, provider: ["together", "groq"] as unknown as "together" },
			{ fetch: server().fetch },
		).catch((e: unknown) => e);
		expect((plain as Error).message).toMatch(/^Provider 'together,groq' not supported/);
		expect(hits("groq")).toBe(0);
	});
});
