import { describe, expect, it } from "vitest";
import { iterateSseEvents, SseParser, type SseEvent } from "./sse.js";

const encoder = new TextEncoder();

function parseAll(chunks: Uint8Array[]): SseEvent[] {
	const parser = new SseParser();
	const events: SseEvent[] = [];
	for (const chunk of chunks) events.push(...parser.feed(chunk));
	events.push(...parser.finish());
	return events;
}

/** Deterministic PRNG (mulberry32) so every run splits the same way. */
function prng(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

function splitAt(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
	const chunks: Uint8Array[] = [];
	let start = 0;
	for (const cut of [...cuts].sort((a, b) => a - b)) {
		chunks.push(bytes.subarray(start, cut));
		start = cut;
	}
	chunks.push(bytes.subarray(start));
	return chunks;
}

describe("SseParser", () => {
	it("parses data, event, id and retry fields; an empty line dispatches", () => {
		const events = parseAll([encoder.encode("event: delta\nid: 7\nretry: 1500\ndata: hello\n\n")]);
		expect(events).toEqual([{ event: "delta", data: "hello", id: "7", retry: 1500 }]);
	});

	it("joins several data lines with \\n and skips exactly one leading space", () => {
		expect(parseAll([encoder.encode("data:  two spaces\ndata:none\n\n")])).toEqual([
			{ event: "", data: " two spaces\nnone", id: "" },
		]);
	});

	it("accepts \\n, \\r and \\r\\n line ends", () => {
		const text = "data: a\r\n\r\ndata: b\r\rdata: c\n\n";
		expect(parseAll([encoder.encode(text)]).map((event) => event.data)).toEqual(["a", "b", "c"]);
	});

	it("ignores comments and lines without a colon", () => {
		expect(parseAll([encoder.encode(": keep-alive\nnonsense\ndata: x\n\n")]).map((e) => e.data)).toEqual([
			"x",
		]);
	});

	it("drops an event not terminated by a blank line", () => {
		expect(parseAll([encoder.encode("data: a\n\ndata: unterminated\n")]).map((e) => e.data)).toEqual(["a"]);
	});

	it("keeps a \\r\\n split across two chunks as one line break", () => {
		const events = parseAll([
			encoder.encode("data: a\r"),
			encoder.encode("\n\r"),
			encoder.encode("\ndata: b\n\n"),
		]);
		expect(events.map((e) => e.data)).toEqual(["a", "b"]);
	});

	it("decodes a multi-byte character split across chunks", () => {
		const bytes = encoder.encode("data: héllo 🌍\n\n");
		const emoji = bytes.indexOf(0xf0);
		const events = parseAll([
			bytes.subarray(0, emoji + 1),
			bytes.subarray(emoji + 1, emoji + 3),
			bytes.subarray(emoji + 3),
		]);
		expect(events.map((e) => e.data)).toEqual(["héllo 🌍"]);
	});

	it("fuzz: thousands of random splits give the same events", () => {
		const frames: string[] = [];
		for (let i = 0; i < 40; i++) {
			const ending = ["\n", "\r", "\r\n"][i % 3] as string;
			frames.push(
				`: comment ${i}${ending}event: e${i % 4}${ending}data: {"i":${i},"text":"ünï ✓ 🚀 ${"x".repeat(i % 7)}"}${ending}` +
					(i % 5 === 0 ? `data: second line${ending}` : "") +
					ending,
			);
		}
		const bytes = encoder.encode(frames.join("") + "data: [DONE]\n\n");
		const expected = parseAll([bytes]);
		expect(expected).toHaveLength(41);
		const random = prng(42);
		for (let round = 0; round < 3000; round++) {
			const cutCount = 1 + Math.floor(random() * 40);
			const cuts = Array.from({ length: cutCount }, () => Math.floor(random() * bytes.length));
			expect(parseAll(splitAt(bytes, cuts))).toEqual(expected);
		}
		// And byte by byte.
		expect(parseAll(Array.from(bytes, (byte) => new Uint8Array([byte])))).toEqual(expected);
	});
});

describe("iterateSseEvents", () => {
	it("reads events from a ReadableStream and cancels it when the consumer stops early", async () => {
		let cancelled = false;
		const stream = new ReadableStream<Uint8Array>({
			start(controller) {
				controller.enqueue(encoder.encode("data: 1\n\ndata: 2\n\n"));
			},
			cancel() {
				cancelled = true;
			},
		});
		for await (const event of iterateSseEvents(stream)) {
			expect(event.data).toBe("1");
			break;
		}
		expect(cancelled).toBe(true);
		expect(stream.locked).toBe(false);
	});

	it("ends with the stream", async () => {
		const stream = new ReadableStream<Uint8Array>({
			start(controller) {
				controller.enqueue(encoder.encode("data: a\n\n"));
				controller.enqueue(encoder.encode("data: b\n\n"));
				controller.close();
			},
		});
		const data: string[] = [];
		for await (const event of iterateSseEvents(stream)) data.push(event.data);
		expect(data).toEqual(["a", "b"]);
	});
});

describe("SseParser size bound", () => {
	const message = (limit: number) =>
		`Server-sent event larger than ${limit} characters (maxEventSize): a line or an event that does not end`;

	it("stops at a line that never ends, before it grows past the limit; later calls throw", () => {
		const parser = new SseParser({ maxEventSize: 1000 });
		expect(parser.feed(encoder.encode(`data: ${"x".repeat(900)}`))).toEqual([]);
		expect(parser.error).toBeUndefined();
		expect(parser.feed(encoder.encode("x".repeat(200)))).toEqual([]);
		expect(parser.error).toEqual(new RangeError(message(1000)));
		expect(() => parser.feed(encoder.encode("\n\n"))).toThrow(new RangeError(message(1000)));
		expect(() => parser.finish()).toThrow(RangeError);
	});

	it("stops at an event whose data lines never meet a blank line", () => {
		const parser = new SseParser({ maxEventSize: 1000 });
		const line = encoder.encode(`data: ${"y".repeat(99)}\n`);
		let fed = 0;
		while (!parser.error && fed < 100) {
			parser.feed(line);
			fed++;
		}
		expect(parser.error).toEqual(new RangeError(message(1000)));
		// The 11th line crosses 1000 characters (100 per line with the joining newlines).
		expect(fed).toBe(11);
	});

	it("returns the events completed before the overflow in the same chunk, and none after it", () => {
		const parser = new SseParser({ maxEventSize: 100 });
		const events = parser.feed(encoder.encode(`data: a\n\ndata: ${"b".repeat(200)}\n\ndata: c\n\n`));
		expect(events.map((e) => e.data)).toEqual(["a"]);
		expect(parser.error).toBeInstanceOf(RangeError);
	});

	it("iterateSseEvents yields the events before the overflow, then throws", async () => {
		const body = new Response(`data: a\n\ndata: ${"b".repeat(200)}`).body as ReadableStream<Uint8Array>;
		const seen: string[] = [];
		await expect(
			(async () => {
				for await (const event of iterateSseEvents(body, { maxEventSize: 100 })) seen.push(event.data);
			})(),
		).rejects.toThrow(message(100));
		expect(seen).toEqual(["a"]);
	});

	it("accepts events up to the limit (a line counts its field name), whatever the chunking, counting again after each", () => {
		const parser = new SseParser({ maxEventSize: 1000 });
		const event = encoder.encode(`data: ${"z".repeat(994)}\n\n`);
		const events: SseEvent[] = [];
		for (let round = 0; round < 5; round++) {
			for (const chunk of splitAt(event, [3, 500, 1003])) events.push(...parser.feed(chunk));
		}
		expect(events).toHaveLength(5);
		expect(events.every((e) => e.data.length === 994)).toBe(true);
	});

	it("defaults to 4 Mi characters", () => {
		const parser = new SseParser();
		parser.feed(encoder.encode(`data: ${"a".repeat(4 * 1024 * 1024 - 6)}`));
		expect(parser.error).toBeUndefined();
		parser.feed(encoder.encode("aa"));
		expect(parser.error).toBeInstanceOf(RangeError);
	});
});
