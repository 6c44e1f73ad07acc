/**
 * Faults: 503 storms (backoff, Retry-After, abort, timeout), slow servers, connection resets
 * mid-stream, malformed JSON. Delays are tiny; no test asserts how fast anything is.
 */
import { describe, expect, it } from "vitest";
import {
	chatCompletion,
	chatCompletionStream,
	InferenceProviderApiError,
	InferenceTimeoutError,
	textToImage,
} from "../src/index.js";
import { CHAT_OUTPUT, chatChunk, FAST, falQueueJob, hubModel, MESSAGES } from "./support/fixtures.js";
import type { Route } from "./support/servers.js";
import { useServer } from "./support/setup.js";

const MODEL = "org/chat";
const URL_PATH = "/router.huggingface.co/together/v1/chat/completions";
const mapping = hubModel(MODEL, {
	together: { providerId: "together-chat", status: "live", task: "conversational" },
});
const args = { provider: "together" as const, model: MODEL, messages: MESSAGES };

describe("faults", () => {
	const server = useServer([mapping]);
	const use = (respond: Route["respond"]) => server().use([mapping, { path: URL_PATH, respond }]);
	const posts = () => server().requestsTo(URL_PATH);

	it("503 is retried (with backoff) until the server recovers", async () => {
		use((_request, hit) => (hit < 3 ? { status: 503, json: { error: "loading" } } : { json: CHAT_OUTPUT }));
		await expect(chatCompletion(args, { ...FAST, fetch: server().fetch })).resolves.toEqual(CHAT_OUTPUT);
		expect(posts()).toHaveLength(4);
	});

	it("retry_on_error: false surfaces the 503 at once", async () => {
		use({ status: 503, json: { error: "Model is loading" } });
		const error = await chatCompletion(args, { ...FAST, fetch: server().fetch, retry_on_error: false }).catch(
			(e: unknown) => e,
		);
		expect(error).toBeInstanceOf(InferenceProviderApiError);
		expect((error as InferenceProviderApiError).message).toBe('"Model is loading"');
		expect((error as InferenceProviderApiError).isRetryable).toBe(true);
		expect(posts()).toHaveLength(1);
	});

	it("Retry-After is honoured (seconds)", async () => {
		use((_request, hit) =>
			hit === 0 ? { status: 503, headers: { "retry-after": "0.05" }, body: "" } : { json: CHAT_OUTPUT },
		);
		const started = performance.now();
		await chatCompletion(args, { ...FAST, fetch: server().fetch });
		expect(performance.now() - started).toBeGreaterThanOrEqual(40);
	});

	it("Retry-After is honoured (HTTP date)", async () => {
		use((_request, hit) =>
			hit === 0
				? { status: 503, headers: { "retry-after": new Date(Date.now() + 1100).toUTCString() }, body: "" }
				: { json: CHAT_OUTPUT },
		);
		const started = performance.now();
		await chatCompletion(args, { ...FAST, fetch: server().fetch });
		// An HTTP date has one-second resolution: the wait is at least what remains of it.
		expect(performance.now() - started).toBeGreaterThanOrEqual(50);
	});

	it("a 503 storm is ended by the caller's signal", async () => {
		const controller = new AbortController();
		use((_request, hit) => {
			if (hit === 2) controller.abort();
			return { status: 503, body: "" };
		});
		await expect(
			chatCompletion(args, { ...FAST, fetch: server().fetch, signal: controller.signal }),
		).rejects.toMatchObject({
			name: "AbortError",
		});
		await new Promise((resolve) => setTimeout(resolve, 30));
		expect(posts()).toHaveLength(3);
	});

	it("a 503 storm is ended by the timeout option", async () => {
		use({ status: 503, body: "" });
		const error = await chatCompletion(args, {
			...FAST,
			fetch: server().fetch,
			timeout: 40,
			maxRetries: Infinity,
		}).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(InferenceTimeoutError);
		expect((error as InferenceTimeoutError).timeout).toBe(40);
	});

	it("a slow server is ended by the timeout option", async () => {
		use({ hang: true });
		await expect(chatCompletion(args, { fetch: server().fetch, timeout: 30 })).rejects.toBeInstanceOf(
			InferenceTimeoutError,
		);
	});

	it("a slow server is ended by the signal", async () => {
		use({ hang: true });
		await expect(
			chatCompletion(args, { fetch: server().fetch, signal: AbortSignal.timeout(30) }),
		).rejects.toMatchObject({ name: "TimeoutError" });
	});

	it("the timeout also bounds a stream that stalls after its first event", async () => {
		use({ sse: [`data: ${JSON.stringify(chatChunk("a"))}\n\n`], keepOpen: true });
		const stream = chatCompletionStream(args, { fetch: server().fetch, timeout: 400 });
		expect((await stream.next()).value?.choices[0]?.delta.content).toBe("a");
		await expect(stream.next()).rejects.toBeInstanceOf(InferenceTimeoutError);
	});

	it("a connection reset mid-stream rejects after the chunks already received", async () => {
		use({
			sse: [
				`data: ${JSON.stringify(chatChunk("Hel"))}\n\n`,
				`data: ${JSON.stringify(chatChunk("lo"))}\n\n`,
				'data: {"partial',
			],
			reset: true,
		});
		const received: string[] = [];
		const consume = async () => {
			for await (const chunk of chatCompletionStream(args, { fetch: server().fetch })) {
				received.push(chunk.choices[0]?.delta.content ?? "");
			}
		};
		await expect(consume()).rejects.toThrow();
		expect(received).toEqual(["Hel", "lo"]);
	});

	it("malformed JSON in a 200 answer surfaces as a SyntaxError", async () => {
		use({ body: "{not json", headers: { "content-type": "application/json" } });
		await expect(chatCompletion(args, { fetch: server().fetch })).rejects.toBeInstanceOf(SyntaxError);
	});

	it("malformed JSON in an SSE event surfaces as a SyntaxError", async () => {
		use({ sse: ["data: {bad\n\n"] });
		await expect(chatCompletionStream(args, { fetch: server().fetch }).next()).rejects.toBeInstanceOf(
			SyntaxError,
		);
	});

	it("a stream without [DONE] ends with the body; an unterminated last event is dropped", async () => {
		use({
			sse: [`data: ${JSON.stringify(chatChunk("a"))}\n\n`, `data: ${JSON.stringify(chatChunk("b"))}\n`],
		});
		const chunks = [];
		for await (const chunk of chatCompletionStream(args, { fetch: server().fetch })) chunks.push(chunk);
		expect(chunks).toHaveLength(1);
	});

	it("a stream sends nothing before the first next()", async () => {
		use({ sse: ["data: [DONE]\n\n"] });
		const stream = chatCompletionStream(args, { fetch: server().fetch });
		await new Promise((resolve) => setTimeout(resolve, 20));
		expect(server().requests).toHaveLength(0);
		await expect(stream.next()).resolves.toEqual({ done: true, value: undefined });
		expect(posts()).toHaveLength(1);
	});

	it("chunks before a forwarded error in the same read are delivered first", async () => {
		use({
			sse: [
				`data: ${JSON.stringify(chatChunk("a"))}\n\ndata: {"error":"boom"}\n\ndata: ${JSON.stringify(chatChunk("b"))}\n\n`,
			],
		});
		const stream = chatCompletionStream(args, { fetch: server().fetch });
		expect((await stream.next()).value?.choices[0]?.delta.content).toBe("a");
		await expect(stream.next()).rejects.toThrow("Error forwarded from backend: boom");
		await expect(stream.next()).resolves.toEqual({ done: true, value: undefined });
	});

	it("breaking out of a stream releases the connection", async () => {
		use({
			sse: [
				`data: ${JSON.stringify(chatChunk("a"))}\n\n`,
				`data: ${JSON.stringify(chatChunk("b"))}\n\n`,
				"data: [DONE]\n\n",
			],
		});
		for await (const chunk of chatCompletionStream(args, { fetch: server().fetch })) {
			expect(chunk.choices[0]?.delta.content).toBe("a");
			break;
		}
		// The next call works on the same server.
		use({ json: CHAT_OUTPUT });
		await expect(chatCompletion(args, { fetch: server().fetch })).resolves.toEqual(CHAT_OUTPUT);
	});

	it("polling waits honour the timeout (fal queue that never completes)", async () => {
		const job = falQueueJob({
			app: "slow",
			task: "text-to-video",
			routed: true,
			status: { json: { status: "IN_PROGRESS" } },
		});
		server().use(job.routes);
		const { textToVideo } = await import("../src/index.js");
		await expect(
			textToVideo(
				{ provider: "fal-ai", model: job.model, inputs: "x" },
				{ ...FAST, fetch: server().fetch, timeout: 50 },
			),
		).rejects.toBeInstanceOf(InferenceTimeoutError);
	});

	it("downloads use the caller's fetch and signal", async () => {
		server().use([
			hubModel("org/img", { "fal-ai": { providerId: "fal-ai/img", status: "live", task: "text-to-image" } }),
			{
				path: "/fal.run/fal-ai/img",
				respond: { json: { images: [{ url: "https://v3.fal.media/slow.png" }] } },
			},
			{ method: "GET", path: "/v3.fal.media/slow.png", respond: { hang: true } },
		]);
		await expect(
			textToImage(
				{ accessToken: "key", provider: "fal-ai", model: "org/img", inputs: "x" },
				{ fetch: server().fetch, timeout: 400 },
			),
		).rejects.toBeInstanceOf(InferenceTimeoutError);
		expect(server().requestsTo("/v3.fal.media/slow.png")).toHaveLength(1);
	});
});
