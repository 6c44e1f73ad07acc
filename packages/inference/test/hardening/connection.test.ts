/**
 * Network failures surface as an InferenceConnectionError in the ladder: a readable message naming
 * where the request went and what failed ("Could not reach https://…: ECONNREFUSED"), the platform's
 * error as `cause`. Against a closed port and servers that reset the connection.
 */
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import {
	chatCompletion,
	chatCompletionStream,
	InferenceConnectionError,
	InferenceError,
	textToVideo,
} from "../../src/index.js";
import { chatChunk, FAST, falQueueJob, MESSAGES, PROVIDER_KEY, TOGETHER_CHAT } from "../support/fixtures.js";
import { realFetch } from "../support/servers.js";
import { useServer } from "../support/setup.js";

const { model: MODEL, mapping, direct: PATH } = TOGETHER_CHAT;
const URL = "https://api.together.xyz/v1/chat/completions";
const args = { accessToken: PROVIDER_KEY, provider: "together" as const, model: MODEL, messages: MESSAGES };

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
	const probe = createServer();
	await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
	const { port } = probe.address() as { port: number };
	await new Promise<void>((resolve) => probe.close(() => resolve()));
	return port;
}

describe("connection failures", () => {
	const server = useServer([mapping]);

	it("a closed port: InferenceConnectionError naming the URL and ECONNREFUSED, the platform's error as cause", async () => {
		const port = await closedPort();
		// The hub answers; the provider's host is the closed port.
		const toClosedProvider: typeof fetch = (input, init) => {
			const url = new globalThis.URL(String(input));
			return url.host === "api.together.xyz"
				? realFetch(`http://127.0.0.1:${port}${url.pathname}`, init)
				: server().fetch(input, init);
		};
		const error = await chatCompletion(args, { fetch: toClosedProvider }).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(InferenceConnectionError);
		expect(error).toBeInstanceOf(InferenceError);
		expect(InferenceError.isInstance(error)).toBe(true);
		expect((error as Error).name).toBe("InferenceConnectionError");
		expect((error as Error).message).toBe(`Could not reach ${URL}: ECONNREFUSED`);
		expect((error as InferenceConnectionError).url).toBe(URL);
		const cause = (error as Error).cause as Error & { cause?: { code?: string } };
		expect(cause).toBeInstanceOf(TypeError);
		expect(cause.cause?.code).toBe("ECONNREFUSED");
	});

	it("a connection reset before any answer", async () => {
		server().use([mapping, { path: PATH, respond: { drop: true } }]);
		const error = await chatCompletion(args, { fetch: server().fetch }).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(InferenceConnectionError);
		expect((error as Error).message).toMatch(new RegExp(`^Could not reach ${URL}: \\S`));
		expect((error as Error).cause).toBeDefined();
	});

	it("a connection reset in the middle of a JSON answer", async () => {
		server().use([
			mapping,
			{
				path: PATH,
				respond: { headers: { "content-type": "application/json" }, body: '{"id":"x","cho', reset: true },
			},
		]);
		const error = await chatCompletion(args, { fetch: server().fetch }).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(InferenceConnectionError);
		expect((error as Error).message).toMatch(
			new RegExp(`^Lost the connection to ${URL} while reading its answer: \\S`),
		);
	});

	it("a connection reset mid-stream: the chunks received first, then the connection error", async () => {
		server().use([
			mapping,
			{
				path: PATH,
				respond: { sse: [`data: ${JSON.stringify(chatChunk("Hel"))}\n\n`, 'data: {"partial'], reset: true },
			},
		]);
		const received: string[] = [];
		const error = await (async () => {
			for await (const chunk of chatCompletionStream(args, { fetch: server().fetch })) {
				received.push(chunk.choices[0]?.delta.content ?? "");
			}
		})().catch((e: unknown) => e);
		expect(received).toEqual(["Hel"]);
		expect(error).toBeInstanceOf(InferenceConnectionError);
		expect((error as Error).message).toMatch(/^Lost the connection to .* while reading its answer: /);
	});

	it("a status poll whose connection is reset", async () => {
		const job = falQueueJob({ app: "vid", task: "text-to-video", status: { drop: true } });
		server().use(job.routes);
		const error = await textToVideo(
			{ accessToken: PROVIDER_KEY, provider: "fal-ai", model: job.model, inputs: "x" },
			{ ...FAST, fetch: server().fetch },
		).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(InferenceConnectionError);
		expect((error as Error).message).toMatch(
			/^Could not reach https:\/\/queue\.fal\.run\/fal-ai\/vid\/requests\/r\/status: /,
		);
	});

	it("an error the caller's own fetch throws passes through as it is (only network failures are wrapped)", async () => {
		class Stop extends Error {}
		const stop = new Stop("stopped by the caller's fetch");
		const stopping: typeof fetch = (input, init) =>
			String(input).includes("api.together.xyz") ? Promise.reject(stop) : server().fetch(input, init);
		await expect(chatCompletion(args, { fetch: stopping })).rejects.toBe(stop);
	});

	it("an abort is not a connection error", async () => {
		server().use([mapping, { path: PATH, respond: { hang: true } }]);
		const error = await chatCompletion(args, {
			fetch: server().fetch,
			signal: AbortSignal.timeout(30),
		}).catch((e: unknown) => e);
		expect(error).not.toBeInstanceOf(InferenceConnectionError);
		expect((error as Error).name).toBe("TimeoutError");
	});
});
