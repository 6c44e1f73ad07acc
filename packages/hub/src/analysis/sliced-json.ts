/**
 * Large JSON objects parsed without holding the event loop: a safetensors header of 100,000 tensors
 * (10 MB) took ~0.6 s in one JSON.parse, during which the hub answered nothing, /healthz included. Here
 * the object's members are found by a byte scan (outside strings, at the object's own depth) and parsed
 * a batch at a time with JSON.parse; between batches the event loop runs whenever the current slice has
 * taken `sliceMs`. The result is what JSON.parse gives (same values, key order, last duplicate wins,
 * `__proto__` an own key); invalid JSON throws a SyntaxError.
 */

import {
	afterByteOrderMark,
	BACKSLASH,
	CLOSE_ARRAY,
	CLOSE_OBJECT,
	COLON,
	COMMA,
	isJsonSpace,
	OPEN_ARRAY,
	OPEN_OBJECT,
	QUOTE,
} from "./json-bytes.js";

/** Bytes of members parsed by one JSON.parse (a few milliseconds of work). */
const BATCH_BYTES = 256 * 1024;
/** Bytes scanned between looks at the clock. */
const SCAN_STEP = 1024 * 1024;

export interface SlicedJsonOptions {
	/** Deepest nesting of objects and arrays accepted (deeper text is refused before it is parsed). */
	maxDepth: number;
	/** Longest the event loop is held at a time, in milliseconds. */
	sliceMs: number;
}

/** The SyntaxError message for text that is not an object at all. */
export const NOT_AN_OBJECT = "not a JSON object";

/** Refused for nesting deeper than allowed. */
export class JsonTooDeepError extends Error {
	constructor(readonly maxDepth: number) {
		super(`JSON nested deeper than ${maxDepth} levels`);
	}
}

/** Gives the event loop a turn once the current slice of work has run for `sliceMs`. */
export class TimeSlices {
	private started = performance.now();
	/** How many times the work gave the event loop a turn. */
	yields = 0;

	constructor(private readonly sliceMs: number) {}

	async pause(): Promise<void> {
		if (performance.now() - this.started < this.sliceMs) return;
		await new Promise<void>((resolve) => setImmediate(resolve));
		this.yields++;
		this.started = performance.now();
	}
}

const decoder = new TextDecoder("utf-8", { fatal: true });

/**
 * Parses the JSON object that `bytes` holds (leading and trailing whitespace allowed), in slices.
 * Throws SyntaxError when the text is not a JSON object, TypeError when it is not UTF-8 and
 * JsonTooDeepError when it nests deeper than `maxDepth`.
 */
export async function parseJsonObjectSliced(
	bytes: Uint8Array,
	options: SlicedJsonOptions,
	slices: TimeSlices = new TimeSlices(options.sliceMs),
): Promise<Record<string, unknown>> {
	// A UTF-8 byte order mark is dropped, as the decoder that read these texts whole dropped it.
	let start = afterByteOrderMark(bytes);
	let end = bytes.length;
	while (start < end && isJsonSpace(bytes[start])) start++;
	while (end > start && isJsonSpace(bytes[end - 1])) end--;
	if (bytes[start] !== OPEN_OBJECT) throw new SyntaxError(NOT_AN_OBJECT);
	const members = await scanMembers(bytes, start, end, options.maxDepth, slices);
	return parseMembers(bytes, members, options, slices);
}

/**
 * The members of the JSON object in `bytes`, a batch at a time, each batch an object as JSON.parse makes
 * it: for a caller that goes through the members once and keeps none of them (a header's tensors), so
 * the whole object is never built. The event loop runs between batches; errors are those of
 * parseJsonObjectSliced, raised when reached (a batch may have been given before).
 */
export async function* jsonObjectBatches(
	bytes: Uint8Array,
	options: SlicedJsonOptions,
	slices: TimeSlices = new TimeSlices(options.sliceMs),
): AsyncGenerator<Record<string, unknown>> {
	let start = afterByteOrderMark(bytes);
	let end = bytes.length;
	while (start < end && isJsonSpace(bytes[start])) start++;
	while (end > start && isJsonSpace(bytes[end - 1])) end--;
	if (bytes[start] !== OPEN_OBJECT) throw new SyntaxError(NOT_AN_OBJECT);
	const bounds = await scanMembers(bytes, start, end, options.maxDepth, slices);
	let batchStart = 0;
	while (batchStart < bounds.length) {
		const from = bounds[batchStart] as number;
		let batchEnd = batchStart + 2;
		while (batchEnd < bounds.length && (bounds[batchEnd + 1] as number) - from < BATCH_BYTES) batchEnd += 2;
		const to = bounds[batchEnd - 1] as number;
		yield JSON.parse(`{${decoder.decode(bytes.subarray(from, to))}}`) as Record<string, unknown>;
		batchStart = batchEnd;
		await slices.pause();
	}
}

/** Where each member of the object at [start, end) is: [from, to) pairs, commas excluded. */
async function scanMembers(
	bytes: Uint8Array,
	start: number,
	end: number,
	maxDepth: number,
	slices: TimeSlices,
): Promise<number[]> {
	const bounds: number[] = [];
	let depth = 0;
	let inString = false;
	let memberStart = start + 1;
	let closed = -1;
	let nextPause = start + SCAN_STEP;
	for (let i = start; i < end; i++) {
		if (i >= nextPause) {
			nextPause = i + SCAN_STEP;
			await slices.pause();
		}
		const byte = bytes[i];
		if (inString) {
			if (byte === BACKSLASH) i++;
			else if (byte === QUOTE) inString = false;
			continue;
		}
		if (byte === QUOTE) inString = true;
		else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
			if (++depth > maxDepth) throw new JsonTooDeepError(maxDepth);
		} else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
			if (--depth === 0) {
				closed = i;
				break;
			}
		} else if (byte === COMMA && depth === 1) {
			bounds.push(startOfMember(bytes, memberStart, i), i);
			memberStart = i + 1;
		}
	}
	if (inString || closed < 0) throw new SyntaxError("unterminated JSON object");
	if (closed !== end - 1) throw new SyntaxError("unexpected text after the JSON object");
	if (bytes[closed] !== CLOSE_OBJECT) throw new SyntaxError("mismatched brackets");
	let lastStart = memberStart;
	while (lastStart < closed && isJsonSpace(bytes[lastStart])) lastStart++;
	// `{}` (or `{ }`) has no member; otherwise the last member runs up to the closing brace.
	if (lastStart < closed || bounds.length > 0) bounds.push(startOfMember(bytes, memberStart, closed), closed);
	return bounds;
}

/** Where a member begins (after whitespace): at its key's opening quote, or the text is not JSON. */
function startOfMember(bytes: Uint8Array, from: number, to: number): number {
	let at = from;
	while (at < to && isJsonSpace(bytes[at])) at++;
	if (bytes[at] !== QUOTE) throw new SyntaxError("a JSON object member must begin with its key");
	return at;
}

/**
 * A member too large for one batch whose value is an object (an index's weight_map): its key, and where
 * its value is; undefined for other members.
 */
function bigObjectMember(
	bytes: Uint8Array,
	from: number,
	to: number,
): { key: string; valueStart: number } | undefined {
	let at = from + 1;
	while (at < to && bytes[at] !== QUOTE) at += bytes[at] === BACKSLASH ? 2 : 1;
	if (at >= to) return undefined;
	const key = JSON.parse(decoder.decode(bytes.subarray(from, at + 1))) as string;
	at++;
	while (at < to && isJsonSpace(bytes[at])) at++;
	if (bytes[at] !== COLON) return undefined;
	at++;
	while (at < to && isJsonSpace(bytes[at])) at++;
	return bytes[at] === OPEN_OBJECT ? { key, valueStart: at } : undefined;
}

/** Parses the members a batch at a time into one object, as JSON.parse would build it. */
async function parseMembers(
	bytes: Uint8Array,
	bounds: readonly number[],
	options: SlicedJsonOptions,
	slices: TimeSlices,
): Promise<Record<string, unknown>> {
	const result: Record<string, unknown> = {};
	const set = (key: string, value: unknown): void => {
		// An own data property, as JSON.parse makes it (`__proto__` included, never its setter); a
		// duplicate key keeps its first place and takes the last value, as there.
		Object.defineProperty(result, key, { value, writable: true, enumerable: true, configurable: true });
	};
	let batchStart = 0;
	while (batchStart < bounds.length) {
		const from = bounds[batchStart] as number;
		const firstEnd = bounds[batchStart + 1] as number;
		if (firstEnd - from > BATCH_BYTES) {
			const big = bigObjectMember(bytes, from, firstEnd);
			if (big) {
				const value = await parseJsonObjectSliced(
					bytes.subarray(big.valueStart, firstEnd),
					{ ...options, maxDepth: options.maxDepth - 1 },
					slices,
				);
				set(big.key, value);
				batchStart += 2;
				continue;
			}
		}
		let batchEnd = batchStart + 2;
		while (batchEnd < bounds.length && (bounds[batchEnd + 1] as number) - from < BATCH_BYTES) batchEnd += 2;
		const to = bounds[batchEnd - 1] as number;
		// The members with the commas between them, as one object: JSON.parse checks each member.
		const parsed = JSON.parse(`{${decoder.decode(bytes.subarray(from, to))}}`) as Record<string, unknown>;
		for (const key of Object.keys(parsed)) set(key, parsed[key]);
		batchStart = batchEnd;
		await slices.pause();
	}
	return result;
}
