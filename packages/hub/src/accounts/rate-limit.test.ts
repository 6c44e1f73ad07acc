import { describe, expect, it } from "vitest";
import { FailureLimiter } from "./rate-limit.js";

describe("the authentication failure limiter", () => {
	it("blocks an address after its failures until its window ends, others untouched", () => {
		let now = 1_000_000;
		const limiter = new FailureLimiter({ maxFailures: 3, windowMs: 60_000, now: () => now });
		expect(limiter.fail("a")).toBe(0);
		expect(limiter.fail("a")).toBe(0);
		expect(limiter.fail("a")).toBe(60);
		expect(limiter.blockedFor("a")).toBe(60);
		expect(limiter.blockedFor("b")).toBe(0);
		now += 45_000;
		expect(limiter.blockedFor("a")).toBe(15);
		now += 15_000;
		expect(limiter.blockedFor("a")).toBe(0);
		expect(limiter.fail("a")).toBe(0);
	});

	it("tracks a bounded number of addresses, dropping the oldest", () => {
		const limiter = new FailureLimiter({ maxFailures: 1, windowMs: 60_000, maxEntries: 100 });
		for (let i = 0; i < 10_000; i++) limiter.fail(`10.0.${i >> 8}.${i & 255}`);
		expect(limiter.size).toBe(100);
		expect(limiter.blockedFor("10.0.39.15")).toBeGreaterThan(0);
		expect(limiter.blockedFor("10.0.0.0")).toBe(0);
	});
});
