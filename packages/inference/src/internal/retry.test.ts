import { describe, expect, it } from "vitest";
import { backoffDelay, DEFAULT_BACKOFF, parseRetryAfter, sleep } from "./retry.js";

describe("parseRetryAfter", () => {
	it("reads delay-seconds", () => {
		expect(parseRetryAfter("2")).toBe(2000);
		expect(parseRetryAfter("0.5")).toBe(500);
	});
	it("reads an HTTP date relative to now", () => {
		const now = Date.parse("2025-01-01T00:00:00Z");
		expect(parseRetryAfter("Wed, 01 Jan 2025 00:00:03 GMT", now)).toBe(3000);
		expect(parseRetryAfter("Tue, 31 Dec 2024 00:00:00 GMT", now)).toBe(0);
	});
	it("ignores missing or unreadable values", () => {
		expect(parseRetryAfter(null)).toBeUndefined();
		expect(parseRetryAfter("soon")).toBeUndefined();
	});
});

describe("backoffDelay", () => {
	const options = { baseMs: 250, capMs: 8000 };
	it("uses full jitter under an exponential ceiling, capped", () => {
		expect(backoffDelay(0, null, { ...options, random: () => 0.999 })).toBe(249);
		expect(backoffDelay(3, null, { ...options, random: () => 0.5 })).toBe(1000);
		expect(backoffDelay(20, null, { ...options, random: () => 0.999 })).toBe(7992);
		expect(backoffDelay(5, null, { ...options, random: () => 0 })).toBe(0);
	});
	it("prefers Retry-After", () => {
		expect(backoffDelay(0, "3", options)).toBe(3000);
	});
	it("keeps every delay between the floor and the ceiling, whatever Retry-After says", () => {
		const now = Date.now();
		const bounded = { ...DEFAULT_BACKOFF, random: () => 0 };
		const floor = DEFAULT_BACKOFF.floorMs as number;
		const ceiling = DEFAULT_BACKOFF.retryAfterCapMs as number;
		expect(floor).toBe(100);
		expect(ceiling).toBe(60_000);
		for (const header of ["0", "0.001", new Date(now - 60_000).toUTCString(), "-5", " 0 "]) {
			expect(backoffDelay(0, header, bounded), header).toBe(floor);
		}
		for (const header of [String(2 ** 31), "99999999999999", new Date(now + 10 * 86_400_000).toUTCString()]) {
			expect(backoffDelay(0, header, bounded), header).toBe(ceiling);
		}
		// Unreadable values fall back to the jittered backoff, floor included.
		for (const header of ["soon", "1e9", "NaN", "Infinity", ""]) {
			expect(backoffDelay(0, header, bounded), header).toBe(floor);
			expect(backoffDelay(0, header, { ...bounded, random: () => 0.999 }), header).toBe(249);
		}
	});
});

describe("sleep", () => {
	it("rejects with the signal's reason when aborted", async () => {
		const controller = new AbortController();
		const waiting = sleep(10_000, controller.signal);
		controller.abort(new Error("stop"));
		await expect(waiting).rejects.toThrow("stop");
	});
	it("rejects at once for an aborted signal", async () => {
		await expect(sleep(10, AbortSignal.abort())).rejects.toMatchObject({ name: "AbortError" });
	});
	it("resolves after the delay", async () => {
		await expect(sleep(1)).resolves.toBeUndefined();
	});
	it("does not fire at once for a delay above the timer limit (2^31 ms)", async () => {
		const controller = new AbortController();
		let settled = false;
		const waiting = sleep(2 ** 31 + 10, controller.signal).then(
			() => (settled = true),
			() => undefined,
		);
		await new Promise((resolve) => setTimeout(resolve, 20));
		expect(settled).toBe(false);
		controller.abort();
		await waiting;
	});
});
