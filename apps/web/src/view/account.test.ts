import { describe, expect, it } from "vitest";
import { accountFromWhoami, can, readableNamespaces, repoNameProblem, writableNamespaces } from "./account";

// The hub's whoami-v2 answer (packages/hub/src/accounts/whoami.ts), trimmed to what matters.
const whoami = {
	type: "user",
	name: "alice",
	fullname: "Alice Example",
	orgs: [
		{ type: "org", name: "acme", roleInOrg: "write" },
		{ type: "org", name: "readers", roleInOrg: "read" },
		{ type: "org", name: "Boss", roleInOrg: "admin" },
	],
	auth: { type: "access_token", accessToken: { displayName: "laptop", role: "write" } },
};

describe("the account", () => {
	it("reads the hub's whoami answer", () => {
		expect(accountFromWhoami(whoami)).toEqual({
			name: "alice",
			fullname: "Alice Example",
			orgs: [
				{ name: "acme", role: "write" },
				{ name: "readers", role: "read" },
				{ name: "Boss", role: "admin" },
			],
			tokenRole: "write",
			tokenName: "laptop",
		});
		expect(accountFromWhoami({ error: "x" })).toBeUndefined();
		expect(accountFromWhoami(null)).toBeUndefined();
	});

	it("has the hub's rights: own namespace, org roles, case-insensitive, capped by a read token", () => {
		const account = accountFromWhoami(whoami);
		expect(can(account, "alice", "admin")).toBe(true);
		expect(can(account, "ALICE", "write")).toBe(true);
		expect(can(account, "acme", "write")).toBe(true);
		expect(can(account, "acme", "admin")).toBe(false);
		expect(can(account, "readers", "read")).toBe(true);
		expect(can(account, "readers", "write")).toBe(false);
		expect(can(account, "boss", "admin")).toBe(true);
		expect(can(account, "someone", "read")).toBe(false);
		expect(can(undefined, "alice", "read")).toBe(false);
		expect(writableNamespaces(account)).toEqual(["alice", "acme", "Boss"]);
		expect(readableNamespaces(account)).toEqual(["alice", "acme", "readers", "Boss"]);
		const reader = accountFromWhoami({ ...whoami, auth: { accessToken: { role: "read" } } });
		expect(can(reader, "alice", "read")).toBe(true);
		expect(can(reader, "alice", "write")).toBe(false);
		expect(writableNamespaces(reader)).toEqual([]);
	});

	it("checks repository names as the hub does", () => {
		expect(repoNameProblem("my-model_1.0")).toBeUndefined();
		expect(repoNameProblem("-x")).toMatch(/starting with a letter or digit/);
		expect(repoNameProblem("a b")).toMatch(/must be 1 to 96 characters/);
		expect(repoNameProblem("x".repeat(97))).toMatch(/must be 1 to 96 characters/);
		expect(repoNameProblem("a..b")).toBe("repository name must not contain '..'");
	});
});
