import { describe, expect, it } from "vitest";
import { TokenViewerCache } from "./token-cache.js";
import { tokenHash } from "./tokens.js";
import type { Viewer } from "./viewer.js";

function viewerOf(name: string): Viewer {
	return {
		kind: "user",
		account: { name, objectId: `${name}-id`, fullname: name },
		token: {
			id: `${name}-token`,
			displayName: "write",
			role: "write",
			createdAt: "2026-01-01T00:00:00.000Z",
		},
		orgs: [{ name: "acme", objectId: "acme-id", fullname: "Acme", role: "read" }],
	};
}

describe("the token viewer cache", () => {
	it("keys a token by its SHA-256, never the token itself", () => {
		const token = "mh_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG";
		expect(TokenViewerCache.keyOf(token)).toBe(tokenHash(token));
		expect(TokenViewerCache.keyOf(token)).not.toContain(token.slice(3));
	});

	it("remembers a viewer until its time to live has passed", () => {
		let now = 1_000;
		const cache = new TokenViewerCache({ maxEntries: 10, ttlMs: 500 }, () => now);
		cache.set("k", viewerOf("alice"), cache.version);
		now += 499;
		expect(cache.get("k")).toMatchObject({ account: { name: "alice" } });
		now += 1;
		expect(cache.get("k")).toBeUndefined();
		expect(cache.size).toBe(0);
	});

	it("holds at most maxEntries tokens, the least recently used dropped first", () => {
		const cache = new TokenViewerCache({ maxEntries: 2, ttlMs: 60_000 });
		cache.set("a", viewerOf("a"), cache.version);
		cache.set("b", viewerOf("b"), cache.version);
		expect(cache.get("a")).toBeDefined();
		cache.set("c", viewerOf("c"), cache.version);
		expect(cache.size).toBe(2);
		expect(cache.get("b")).toBeUndefined();
		expect(cache.get("a")).toBeDefined();
		expect(cache.get("c")).toBeDefined();
		for (let i = 0; i < 1000; i++) cache.set(`x${i}`, viewerOf("x"), cache.version);
		expect(cache.size).toBe(2);
	});

	it("keeps out a lookup that started before a change", () => {
		const cache = new TokenViewerCache({ maxEntries: 10, ttlMs: 60_000 });
		const version = cache.version;
		cache.clear();
		cache.set("k", viewerOf("alice"), version);
		expect(cache.get("k")).toBeUndefined();
	});

	it("stores nothing while disabled (change notifications not heard), and is cleared when turned off", () => {
		const cache = new TokenViewerCache({ maxEntries: 10, ttlMs: 60_000 });
		cache.set("k", viewerOf("alice"), cache.version);
		cache.setEnabled(false);
		expect(cache.get("k")).toBeUndefined();
		cache.set("k", viewerOf("alice"), cache.version);
		expect(cache.get("k")).toBeUndefined();
		cache.setEnabled(true);
		cache.set("k", viewerOf("alice"), cache.version);
		expect(cache.get("k")).toBeDefined();
	});

	it("is off with 0 entries or a 0 time to live", () => {
		for (const settings of [
			{ maxEntries: 0, ttlMs: 60_000 },
			{ maxEntries: 10, ttlMs: 0 },
		]) {
			const cache = new TokenViewerCache(settings);
			cache.set("k", viewerOf("alice"), cache.version);
			expect(cache.get("k")).toBeUndefined();
		}
	});

	it("hands out frozen viewers: one cached object is shared by many requests", () => {
		const cache = new TokenViewerCache({ maxEntries: 10, ttlMs: 60_000 });
		cache.set("k", viewerOf("alice"), cache.version);
		const viewer = cache.get("k");
		if (viewer?.kind !== "user") throw new Error("expected a user");
		expect(Object.isFrozen(viewer.orgs[0])).toBe(true);
		expect(Object.isFrozen(viewer.orgs)).toBe(true);
		expect(Object.isFrozen(viewer.token)).toBe(true);
	});
});
