/**
 * The `timeout` and `pollTimeout` options against real servers: values above the timer limit are
 * clamped (2^31 ms used to fire after ~1 ms), 0 and Infinity mean none, NaN / negative / non-numbers
 * are input errors; a fal queue that never completes ends at the polling deadline, and nothing is
 * polled after the call has ended.
 */
import { describe, expect, it } from "vitest";
import {
	chatCompletion,
	chatCompletionStream,
	InferenceInputError,
	InferenceTimeoutError,
	textToVideo,
} from "../../src/index.js";
import { CHAT_OUTPUT, chatChunk, FAST, falQueueJob, MESSAGES, TOGETHER_CHAT } from "../support/fixtures.js";
import { useServer } from "../support/setup.js";

const { model: MODEL, mapping, routed: PATH } = TOGETHER_CHAT;
const args = { provider: "together" as const, model: MODEL, messages: MESSAGES };

describe("timeouts", () => {
	const server = useServer([mapping]);

	it.each([2 ** 31, 2 ** 31 + 1, 2 ** 40, Number.MAX_VALUE, Infinity, 0])(
		"timeout %d does not fire early: a 60 ms answer arrives",
		async (timeout) => {
			server().use([mapping, { path: PATH, respond: { delayMs: 60, json: CHAT_OUTPUT } }]);
			await expect(chatCompletion(args, { fetch: server().fetch, timeout })).resolves.toEqual(CHAT_OUTPUT);
		},
	);

	it.each([Number.NaN, -1, -Infinity, "100" as unknown as number])(
		"timeout %s is an input error and sends nothing",
		async (timeout) => {
			server().use([mapping, { path: PATH, respond: { json: CHAT_OUTPUT } }]);
			const error = await chatCompletion(args, { fetch: server().fetch, timeout }).catch((e: unknown) => e);
			expect(error).toBeInstanceOf(InferenceInputError);
			expect((error as Error).message).toBe(
				`The timeout option must be a number of milliseconds (0 or Infinity for none), got ${String(timeout)}.`,
			);
			expect(server().requests).toHaveLength(0);
		},
	);

	it("a stream reports an invalid timeout at its first next(), not when it is created", async () => {
		server().use([
			mapping,
			{ path: PATH, respond: { sse: [`data: ${JSON.stringify(chatChunk("a"))}\n\n`] } },
		]);
		const stream = chatCompletionStream(args, { fetch: server().fetch, timeout: Number.NaN });
		await expect(stream.next()).rejects.toBeInstanceOf(InferenceInputError);
		// And the clamp applies to streams too.
		const chunks = [];
		for await (const chunk of chatCompletionStream(args, { fetch: server().fetch, timeout: 2 ** 31 })) {
			chunks.push(chunk);
		}
		expect(chunks).toHaveLength(1);
	});

	it("a stream's timeout starts at the first next()", async () => {
		server().use([
			mapping,
			{ path: PATH, respond: { sse: [`data: ${JSON.stringify(chatChunk("a"))}\n\n`] } },
		]);
		const stream = chatCompletionStream(args, { fetch: server().fetch, timeout: 80 });
		await new Promise((resolve) => setTimeout(resolve, 120));
		expect((await stream.next()).value?.choices[0]?.delta.content).toBe("a");
	});

	describe("a fal queue that never completes", () => {
		const job = falQueueJob({
			app: "slow",
			task: "text-to-video",
			routed: true,
			status: { json: { status: "IN_QUEUE" } },
		});
		const STATUS = `${job.base}/requests/r/status`;
		const routes = job.routes;

		it("ends at the pollTimeout with no timeout or signal given", async () => {
			server().use(routes);
			const error = await textToVideo(
				{ provider: "fal-ai", model: job.model, inputs: "x" },
				{ ...FAST, fetch: server().fetch, pollTimeout: 60 },
			).catch((e: unknown) => e);
			expect(error).toBeInstanceOf(InferenceTimeoutError);
			expect((error as InferenceTimeoutError).timeout).toBe(60);
			expect((error as Error).message).toBe(
				"Polling https://router.huggingface.co/fal-ai/fal-ai/slow/requests/r/status gave no result within the 60 ms pollTimeout.",
			);
			expect(server().requestsTo(STATUS).length).toBeGreaterThan(0);
		});

		it("nothing is polled after the call ended (at most the poll already in flight lands)", async () => {
			server().use(routes);
			await textToVideo(
				{ provider: "fal-ai", model: job.model, inputs: "x" },
				{ ...FAST, fetch: server().fetch, timeout: 40 },
			).catch(() => undefined);
			const atEnd = server().requestsTo(STATUS).length;
			await new Promise((resolve) => setTimeout(resolve, 60));
			expect(server().requestsTo(STATUS).length - atEnd).toBeLessThanOrEqual(1);
		});
	});
});
