import { describe, expect, it } from "vitest";
import { backoffDelay, parseRetryAfter, sleep } from "./retry.js";

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
});
