import { describe, expect, it } from "vitest";
import { repoId } from "@modelhub/tasks/repositories";
import { newToken, plausibleToken, tokenHash } from "./tokens.js";
import {
	ADMIN,
	ANONYMOUS,
	canRead,
	namespaceRefusal,
	readableNamespaces,
	repoRefusal,
	type Viewer,
} from "./viewer.js";

function user(
	name: string,
	tokenRole: "read" | "write",
	orgs: Array<[string, "read" | "write" | "admin"]> = [],
): Viewer {
	return {
		kind: "user",
		account: { name, objectId: "0".repeat(24), fullname: name },
		token: { id: "t", displayName: `${name}-token`, role: tokenRole, createdAt: "2026-01-01T00:00:00.000Z" },
		orgs: orgs.map(([org, role]) => ({ name: org, objectId: "1".repeat(24), fullname: org, role })),
	};
}

describe("rights", () => {
	const alice = user("alice", "write", [
		["Acme", "read"],
		["labs", "write"],
		["ops", "admin"],
	]);
	const repo = (id: string, isPrivate = true) => ({ ...repoId("model", id), private: isPrivate });

	it("let only the namespace's members read private repositories (names case-insensitive)", () => {
		expect(canRead(alice, repo("ALICE/x"))).toBe(true);
		expect(canRead(alice, repo("acme/x"))).toBe(true);
		expect(canRead(alice, repo("bob/x"))).toBe(false);
		expect(canRead(ANONYMOUS, repo("bob/x", false))).toBe(true);
		expect(canRead(ANONYMOUS, repo("bob/x"))).toBe(false);
		expect(canRead(ADMIN, repo("gpt2"))).toBe(true);
		expect(readableNamespaces(alice)).toEqual(["alice", "acme", "labs", "ops"]);
		expect(readableNamespaces(ADMIN)).toBe("all");
		expect(readableNamespaces(ANONYMOUS)).toEqual([]);
	});

	it("answer each refusal with its status and a message that says what is missing", () => {
		expect(repoRefusal(alice, repo("alice/x"), "admin")).toBeUndefined();
		expect(repoRefusal(alice, repo("labs/x"), "write")).toBeUndefined();
		expect(repoRefusal(alice, repo("labs/x"), "admin")?.message).toMatch(
			/'write' role in labs; deleting .* needs the 'admin' role/,
		);
		expect(repoRefusal(alice, repo("acme/x"), "write")?.status).toBe(403);
		expect(repoRefusal(alice, repo("bob/x", false), "write")?.message).toMatch(
			/don't have write access to bob\/x/,
		);
		expect(repoRefusal(alice, repo("bob/x"), "read")).toEqual({
			status: 404,
			message: "Repository not found",
			hidden: true,
		});
		expect(repoRefusal(ANONYMOUS, repo("bob/x", false), "write")?.status).toBe(401);
		expect(repoRefusal(alice, repo("gpt2", false), "write")?.message).toMatch(/only the hub admin/);
		expect(repoRefusal(user("alice", "read"), repo("alice/x"), "write")?.message).toMatch(/read-only/);
		expect(repoRefusal(user("alice", "read"), repo("alice/x"), "read")).toBeUndefined();
		expect(namespaceRefusal(alice, "Ops", "admin")).toBeUndefined();
		expect(namespaceRefusal(alice, "nowhere", "write")?.message).toMatch(/neither yours nor an organisation/);
	});
});

describe("tokens", () => {
	it("are 256 random bits in base62 after their prefix, kept only as SHA-256", () => {
		const a = newToken("mh_");
		const b = newToken("mh_");
		expect(a).toMatch(/^mh_[0-9A-Za-z]{43}$/);
		expect(a).not.toBe(b);
		expect(tokenHash(a)).toMatch(/^[0-9a-f]{64}$/);
		expect(plausibleToken(a)).toBe(true);
		expect(plausibleToken("short")).toBe(false);
		expect(plausibleToken(`mh_${"x".repeat(300)}`)).toBe(false);
		expect(plausibleToken("mh_with space")).toBe(false);
	});
});
