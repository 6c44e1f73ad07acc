import { describe, expect, it } from "vitest";
import { hashPassword, passwordProblem, verifyPassword } from "./passwords.js";

const CHEAP = { log2N: 14 };

describe("passwords", () => {
	it("hash with scrypt, a fresh salt each time, and verify", async () => {
		const a = await hashPassword("correct horse", CHEAP);
		const b = await hashPassword("correct horse", CHEAP);
		expect(a).toMatch(/^scrypt\$ln=14,r=8,p=1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
		expect(a).not.toBe(b);
		expect(await verifyPassword("correct horse", a, CHEAP)).toEqual({ ok: true, rehash: false });
		expect(await verifyPassword("correct horsf", a, CHEAP)).toEqual({ ok: false, rehash: false });
	});
	it("ask for a new hash when the cost changed, and never match a malformed or out-of-bounds hash", async () => {
		const old = await hashPassword("correct horse", CHEAP);
		expect(await verifyPassword("correct horse", old, { log2N: 15 })).toEqual({ ok: true, rehash: true });
		expect((await verifyPassword("x", "plain", CHEAP)).ok).toBe(false);
		expect((await verifyPassword("x", old.replace("ln=14", "ln=30"), CHEAP)).ok).toBe(false);
	});
	it("bound the length", () => {
		expect(passwordProblem("short")).toMatch(/at least 8/);
		expect(passwordProblem("x".repeat(257))).toMatch(/at most 256/);
		expect(passwordProblem("a fine password")).toBeUndefined();
		expect(passwordProblem(42)).toMatch(/string/);
	});
});
