// The event loop is never held by one upload's analysis: a safetensors header of 100,000 tensors (about
// 10 MB of JSON) took ~0.5 s in one JSON.parse on the main thread, during which the hub answered nothing.
// Measured by structure, not wall time (this machine's load stretches any time): the event loop's turns
// during the analysis, and the longest time between two of them relative to the whole.
import { performance } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { readSafetensorsInfo } from "../src/analysis/safetensors.js";

const TENSORS = 100_000;

/** A safetensors file of `count` one-element F16 tensors (a header of about 100 bytes per tensor). */
function manyTensors(count: number): Buffer {
	const header: Record<string, unknown> = {};
	for (let i = 0; i < count; i++) {
		header[`model.layers.${i}.self_attn.q_proj.weight`] = {
			dtype: "F16",
			shape: [1],
			data_offsets: [i * 2, i * 2 + 2],
		};
	}
	const json = Buffer.from(JSON.stringify(header));
	const prefix = Buffer.alloc(8);
	prefix.writeBigUInt64LE(BigInt(json.length));
	return Buffer.concat([prefix, json, Buffer.alloc(count * 2)]);
}

describe("analysis and the event loop", () => {
	it("reads a 100,000-tensor safetensors header giving the event loop turns all along", async () => {
		const file = manyTensors(TENSORS);
		// Storage answers at once, so the turns counted are the ones the parse itself gives.
		const read = async (_path: string, start: number, end: number) =>
			new Uint8Array(file.subarray(start, end));
		let turns = 0;
		let longestGap = 0;
		let last = performance.now();
		let running = true;
		const tick = (): void => {
			const now = performance.now();
			longestGap = Math.max(longestGap, now - last);
			last = now;
			turns++;
			if (running) setImmediate(tick);
		};
		setImmediate(tick);
		const started = performance.now();
		const result = await readSafetensorsInfo([{ path: "model.safetensors", size: file.length }], read);
		const took = performance.now() - started;
		running = false;
		// The stretch since the last turn counts too (work that ends the call without a turn after it).
		longestGap = Math.max(longestGap, performance.now() - last);
		expect(result.info).toEqual({ parameters: { F16: TENSORS }, total: TENSORS, sharded: false });
		// Before: a handful of turns, and one gap (the JSON.parse) of most of the call.
		expect(turns).toBeGreaterThan(20);
		expect(longestGap / took).toBeLessThan(0.25);
	}, 120_000);
});
