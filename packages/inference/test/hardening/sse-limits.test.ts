/**
 * A server that streams an event that never ends — one endless line, or endless data lines with no
 * blank line — gets a clear InferenceProviderApiError once the event passes `maxEventSize` (default
 * 4 Mi characters), and the client stops reading: the server is not let to write much past the limit,
 * and the heap does not grow with what it sends.
 */
import { describe, expect, it } from "vitest";
import { chatCompletionStream, InferenceInputError, InferenceProviderApiError } from "../../src/index.js";
import { DEFAULT_MAX_EVENT_SIZE } from "../../src/core/sse.js";
import { chatChunk, MESSAGES, TOGETHER_CHAT } from "../support/fixtures.js";
import { useServer } from "../support/setup.js";

const { model: MODEL, mapping, routed: PATH } = TOGETHER_CHAT;
const args = { provider: "together" as const, model: MODEL, messages: MESSAGES };
const MiB = 1024 * 1024;
/** What the server would send if nobody stopped it: far more than any bound we accept. */
const SERVER_MAX = 256 * MiB;

/** Writes `first`, then `unit` again and again until the client goes away or SERVER_MAX is reached. */
function endless(first: string, unit: string, sent: { bytes: number }): AsyncIterable<string> {
	return (async function* () {
		sent.bytes += first.length;
		yield first;
		while (sent.bytes < SERVER_MAX) {
			sent.bytes += unit.length;
			yield unit;
		}
	})();
}

describe("SSE size bounds", () => {
	const server = useServer([mapping]);

	const cases = [
		["one line that never ends", `data: {"x":"`, "x".repeat(64 * 1024)],
		["data lines never closed by a blank line", "", `data: ${"y".repeat(64 * 1024)}\n`],
	] as const;

	it.each(cases)("%s: a clear error past the default limit, reading stops", async (_name, first, unit) => {
		const sent = { bytes: 0 };
		server().use([mapping, { path: PATH, respond: () => ({ frames: endless(first, unit, sent) }) }]);
		global.gc?.();
		const heapBefore = process.memoryUsage().heapUsed;
		const error = await chatCompletionStream(args, { fetch: server().fetch })
			.next()
			.catch((e: unknown) => e);
		const heapGrowth = process.memoryUsage().heapUsed - heapBefore;
		expect(error).toBeInstanceOf(InferenceProviderApiError);
		expect((error as InferenceProviderApiError).message).toBe(
			`Server-sent event larger than ${DEFAULT_MAX_EVENT_SIZE} characters (maxEventSize): a line or an event that does not end`,
		);
		expect((error as InferenceProviderApiError).status).toBe(200);
		// Give the server a moment to notice the client left, then check how much it could write.
		await new Promise((resolve) => setTimeout(resolve, 50));
		expect(sent.bytes).toBeGreaterThan(DEFAULT_MAX_EVENT_SIZE);
		// The limit plus what sockets buffer on the way; without a bound it would be SERVER_MAX.
		expect(sent.bytes).toBeLessThan(DEFAULT_MAX_EVENT_SIZE + 32 * MiB);
		// Loose: the event is held a few times over (bytes, string, joined string), never the whole stream.
		expect(heapGrowth).toBeLessThan(128 * MiB);
	});

	it("maxEventSize sets the bound; events under it stream normally", async () => {
		const small = `data: ${JSON.stringify(chatChunk("a".repeat(100)))}\n\n`;
		const big = `data: ${JSON.stringify(chatChunk("b".repeat(3000)))}\n\n`;
		server().use([mapping, { path: PATH, respond: { sse: [small, big, "data: [DONE]\n\n"] } }]);
		const stream = chatCompletionStream(args, { fetch: server().fetch, maxEventSize: 2000 });
		expect((await stream.next()).value?.choices[0]?.delta.content).toHaveLength(100);
		await expect(stream.next()).rejects.toThrow(
			"Server-sent event larger than 2000 characters (maxEventSize): a line or an event that does not end",
		);
		const chunks = [];
		for await (const chunk of chatCompletionStream(args, { fetch: server().fetch, maxEventSize: 10_000 })) {
			chunks.push(chunk);
		}
		expect(chunks).toHaveLength(2);
	});

	it("an invalid maxEventSize is reported at the first next(), before anything is sent", async () => {
		const stream = chatCompletionStream(args, { fetch: server().fetch, maxEventSize: -1 });
		const error = await stream.next().catch((e: unknown) => e);
		expect(error).toBeInstanceOf(InferenceInputError);
		expect((error as Error).message).toBe(
			"The maxEventSize option must be a positive number of characters, got -1.",
		);
		expect(server().requests).toHaveLength(0);
	});
});
