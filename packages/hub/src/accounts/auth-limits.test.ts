import { describe, expect, it } from "vitest";
import { AuthFailureLimits } from "./auth-limits.js";

describe("the authentication failure limits", () => {
	it("block a credential by its own failures, and an address by its credentials' failures", () => {
		let now = 1_000_000;
		const limits = new AuthFailureLimits({
			perCredential: 2,
			perAddress: 5,
			windowMs: 60_000,
			maxEntries: 100,
			now: () => now,
		});
		limits.fail("10.0.0.1", "mh_one");
		expect(limits.blocked("10.0.0.1", "mh_one")).toBeUndefined();
		limits.fail("10.0.0.1", "mh_one");
		expect(limits.blocked("10.0.0.1", "mh_one")).toEqual({ by: "credential", seconds: 60 });
		// The same credential from elsewhere is blocked too; other credentials from the address are not.
		expect(limits.blocked("10.0.0.2", "mh_one")).toEqual({ by: "credential", seconds: 60 });
		expect(limits.blocked("10.0.0.1", "mh_two")).toBeUndefined();
		for (const credential of ["a", "b", "c"]) limits.fail("10.0.0.1", credential);
		expect(limits.blocked("10.0.0.1", "mh_two")).toEqual({ by: "address", seconds: 60 });
		expect(limits.blocked("10.0.0.2", "mh_two")).toBeUndefined();
		now += 60_000;
		expect(limits.blocked("10.0.0.1", "mh_one")).toBeUndefined();
		expect(limits.blocked("10.0.0.1", "mh_two")).toBeUndefined();
	});

	it("track a bounded number of credentials and addresses", () => {
		const limits = new AuthFailureLimits({
			perCredential: 1,
			perAddress: 1,
			windowMs: 60_000,
			maxEntries: 50,
		});
		for (let i = 0; i < 5000; i++) limits.fail(`10.0.${i >> 8}.${i & 255}`, `mh_${i}`);
		expect(limits.size).toEqual({ credentials: 50, addresses: 50 });
		expect(limits.blocked("10.0.19.135", "x")).toEqual({ by: "address", seconds: 60 });
		expect(limits.blocked("10.9.9.9", "mh_4999")?.by).toBe("credential");
		expect(limits.blocked("10.9.9.9", "mh_0")).toBeUndefined();
	});
});
