// Profiles, organisation members and the header search over HTTP against the real hub (embedded
// database), and the same users and organisations read by the real huggingface_hub 2.x.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../src/db/open.js";
import type { Database } from "../src/db/types.js";
import { createUser, startHub, type RunningHub } from "./support/hub.js";
import { runHubClient } from "./support/python.js";

const ADMIN = "people-admin-token-0123456789";

let db: Database;
let hub: RunningHub;
let work: string;
const tokens: Record<string, string> = {};

async function call(method: string, path: string, token?: string, body?: unknown): Promise<Response> {
	return fetch(hub.url + path, {
		method,
		headers: {
			...(token ? { authorization: `Bearer ${token}` } : {}),
			...(body === undefined ? {} : { "content-type": "application/json" }),
		},
		...(body === undefined ? {} : { body: JSON.stringify(body) }),
	});
}

async function json<T>(response: Response, status = 200): Promise<T> {
	const text = await response.text();
	expect(response.status, text).toBe(status);
	return JSON.parse(text) as T;
}

async function createRepo(
	token: string,
	name: string,
	isPrivate: boolean,
	organization?: string,
	type: "model" | "dataset" = "model",
) {
	await json(
		await call("POST", "/api/repos/create", token, {
			type,
			name,
			private: isPrivate,
			...(organization ? { organization } : {}),
		}),
	);
}

beforeAll(async () => {
	work = mkdtempSync(join(tmpdir(), "modelhub-people-"));
	db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
	hub = await startHub({ db, seed: false, adminToken: ADMIN });
	for (const name of ["alice", "bob", "carol", "alicia"])
		tokens[name] = await createUser(hub.url, ADMIN, name);
	await json(
		await call("POST", "/api/admin/orgs", ADMIN, {
			name: "acme",
			fullname: "Acme Research",
			members: [
				{ user: "alice", role: "admin" },
				{ user: "carol", role: "write" },
			],
		}),
		201,
	);
	await createRepo(tokens.alice as string, "open-model", false);
	await createRepo(tokens.alice as string, "secret-model", true);
	await createRepo(tokens.alice as string, "acme-open", false, "acme");
	await createRepo(tokens.alice as string, "acme-secret", true, "acme");
	await createRepo(tokens.alice as string, "acme-reviews", false, "acme", "dataset");
	await createRepo(tokens.alice as string, "acme-ledger", true, "acme", "dataset");
});

afterAll(async () => {
	await hub?.close();
	await db?.close();
	if (work) rmSync(work, { recursive: true, force: true });
});

describe("profiles", () => {
	it("a user's overview counts only the models whoever asks may see, and names their organisations", async () => {
		type Overview = { user: string; type: string; numModels: number; orgs: Array<{ name: string }> };
		const anonymous = await json<Overview>(await call("GET", "/api/users/alice/overview"));
		expect(anonymous).toMatchObject({ user: "alice", type: "user", numModels: 1 });
		expect(anonymous.orgs.map((org) => org.name)).toEqual(["acme"]);
		expect(
			(await json<Overview>(await call("GET", "/api/users/ALICE/overview", tokens.alice))).numModels,
		).toBe(2);
		expect((await json<Overview>(await call("GET", "/api/users/alice/overview", tokens.bob))).numModels).toBe(
			1,
		);
		// An organisation is not a user, and a missing user is a 404.
		expect((await call("GET", "/api/users/acme/overview")).status).toBe(404);
		expect((await call("GET", "/api/users/nobody/overview")).status).toBe(404);
	});

	it("an organisation's overview and members: private models and roles for its members only", async () => {
		type Overview = { name: string; fullname: string; numUsers: number; numModels: number };
		expect(await json<Overview>(await call("GET", "/api/organizations/acme/overview"))).toMatchObject({
			name: "acme",
			fullname: "Acme Research",
			type: "org",
			numUsers: 2,
			numModels: 1,
		});
		expect(
			(await json<Overview>(await call("GET", "/api/organizations/acme/overview", tokens.carol))).numModels,
		).toBe(2);
		expect((await call("GET", "/api/organizations/alice/overview")).status).toBe(404);

		type Member = { user: string; role?: string };
		const seen = await json<Member[]>(await call("GET", "/api/organizations/acme/members"));
		expect(seen).toEqual([
			expect.objectContaining({ user: "alice", type: "user" }),
			expect.objectContaining({ user: "carol", type: "user" }),
		]);
		expect(seen.every((member) => member.role === undefined)).toBe(true);
		const asMember = await json<Member[]>(await call("GET", "/api/organizations/acme/members", tokens.carol));
		expect(asMember.map((member) => [member.user, member.role])).toEqual([
			["alice", "admin"],
			["carol", "write"],
		]);
	});

	it("members come in pages linked by a Link header", async () => {
		const first = await call("GET", "/api/organizations/acme/members?limit=1");
		expect((await json<Array<{ user: string }>>(first)).map((member) => member.user)).toEqual(["alice"]);
		const next = /<([^>]+)>;\s*rel="next"/.exec(first.headers.get("link") ?? "")?.[1];
		expect(next).toBeDefined();
		const second = await fetch(next as string);
		expect((await json<Array<{ user: string }>>(second)).map((member) => member.user)).toEqual(["carol"]);
		expect(second.headers.get("link")).toBeNull();
		expect((await call("GET", "/api/organizations/acme/members?limit=0")).status).toBe(400);
	});

	it("huggingface_hub 2.x reads users, organisations and members", async () => {
		const client = await runHubClient<Record<string, { ok?: unknown; error?: string; status?: number }>>(
			"people",
			hub.url,
			work,
			{ user: "alice", org: "acme", token: tokens.alice },
			{},
			"hf_hub_people.py",
		);
		expect(client.user?.ok).toEqual({ username: "alice", fullname: "alice", num_models: 2, orgs: ["acme"] });
		expect(client.org?.ok).toEqual({ name: "acme", fullname: "Acme Research", num_users: 2, num_models: 2 });
		expect(client.members?.ok).toEqual(["alice", "carol"]);
		expect(client.missing_user).toMatchObject({ status: 404 });
		expect(client.missing_org).toMatchObject({ status: 404 });
	});

	it("no account may take the name of one of the app's pages", async () => {
		for (const name of ["models", "Settings", "organizations", "login"]) {
			const response = await call("POST", "/api/admin/users", ADMIN, { name });
			expect(response.status, name).toBe(400);
			expect(((await response.json()) as { error: string }).error).toMatch(/reserved/);
		}
		const org = await call("POST", "/api/admin/orgs", ADMIN, { name: "tasks" });
		expect(org.status).toBe(400);
	});

	it("profile and organisation-settings addresses answer 200 for accounts and 404 for the rest", async () => {
		const status = async (path: string) =>
			(await fetch(hub.url + path, { headers: { accept: "text/html" } })).status;
		expect(await status("/alice")).toBe(200);
		expect(await status("/acme")).toBe(200);
		expect(await status("/nobody")).toBe(404);
		expect(await status("/organizations/acme/settings")).toBe(200);
		expect(await status("/organizations/alice/settings")).toBe(404);
		expect(await status("/organizations/acme")).toBe(404);
		// A model's page is still the model's.
		expect(await status("/alice/open-model")).toBe(200);
		expect(await status("/alice/secret-model")).toBe(404);
	});
});

describe("organisation members, changed by the organisation's admins", () => {
	const member = (org: string, user: string) => `/api/organizations/${org}/members/${user}`;

	it("an org admin adds a member, changes their role and removes them; others may not", async () => {
		expect(await json(await call("PUT", member("acme", "bob"), tokens.alice, { role: "read" }))).toEqual({
			org: "acme",
			user: "bob",
			role: "read",
		});
		// Bob now sees the organisation's private model.
		expect((await call("GET", "/api/models/acme/acme-secret", tokens.bob)).status).toBe(200);
		expect(
			(
				await json<{ role: string }>(
					await call("PUT", member("acme", "bob"), tokens.alice, { role: "write" }),
				)
			).role,
		).toBe("write");
		// A member who is not an admin, a stranger and nobody at all are refused.
		expect((await call("PUT", member("acme", "alicia"), tokens.carol, { role: "read" })).status).toBe(403);
		expect((await call("PUT", member("acme", "alicia"), tokens.alicia, { role: "admin" })).status).toBe(403);
		expect((await call("DELETE", member("acme", "carol"))).status).toBe(401);
		// Bad input: an unknown role, an unknown user, an unknown organisation.
		expect((await call("PUT", member("acme", "alicia"), tokens.alice, { role: "owner" })).status).toBe(400);
		expect((await call("PUT", member("acme", "nobody"), tokens.alice, { role: "read" })).status).toBe(404);
		expect((await call("PUT", member("nothing", "bob"), ADMIN, { role: "read" })).status).toBe(404);

		expect(await json(await call("DELETE", member("acme", "bob"), tokens.alice))).toEqual({
			org: "acme",
			user: "bob",
			role: null,
		});
		expect((await call("GET", "/api/models/acme/acme-secret", tokens.bob)).status).toBe(404);
		expect((await call("DELETE", member("acme", "bob"), tokens.alice)).status).toBe(404);
		const audit = await json<{ entries: Array<{ action: string; actor: string }> }>(
			await call("GET", "/api/admin/audit?action=org.member.set", ADMIN),
		);
		expect(audit.entries.filter((entry) => entry.actor === "alice")).toHaveLength(2);
	});

	it("an organisation keeps an admin: its last admin can neither step down nor leave", async () => {
		const demote = await call("PUT", member("acme", "alice"), tokens.alice, { role: "write" });
		expect(demote.status).toBe(409);
		expect(((await demote.json()) as { error: string }).error).toMatch(/without an admin/);
		expect((await call("DELETE", member("acme", "alice"), tokens.alice)).status).toBe(409);
		// With a second admin, the first may step down.
		await json(await call("PUT", member("acme", "carol"), tokens.alice, { role: "admin" }));
		await json(await call("PUT", member("acme", "alice"), tokens.alice, { role: "write" }));
		// Alice is no admin any more: she may not change members.
		expect((await call("PUT", member("acme", "bob"), tokens.alice, { role: "read" })).status).toBe(403);
		await json(await call("PUT", member("acme", "alice"), tokens.carol, { role: "admin" }));
	});
});

describe("the header search", () => {
	type Answer = {
		q: string;
		models: Array<{ id: string }>;
		modelsCount: number;
		datasets: Array<{ _id: string; id: string }>;
		datasetsCount: number;
		users: Array<{ user: string }>;
		orgs: Array<{ name: string }>;
	};

	it("finds models, users and organisations; private models only for those who may read them", async () => {
		const anonymous = await json<Answer>(await call("GET", "/api/quicksearch?q=acme"));
		expect(anonymous.models.map((model) => model.id)).toEqual(["acme/acme-open"]);
		expect(anonymous.modelsCount).toBe(1);
		expect(anonymous.orgs.map((org) => org.name)).toEqual(["acme"]);
		const member = await json<Answer>(await call("GET", "/api/quicksearch?q=acme", tokens.carol));
		expect(member.models.map((model) => model.id).sort()).toEqual(["acme/acme-open", "acme/acme-secret"]);

		// Exact names first, then names that start with the text.
		const users = await json<Answer>(await call("GET", "/api/quicksearch?q=ali&type=user"));
		expect(users.users.map((user) => user.user)).toEqual(["alice", "alicia"]);
		expect(users.models).toEqual([]);
		expect(users.orgs).toEqual([]);
		const limited = await json<Answer>(await call("GET", "/api/quicksearch?q=ali&type=user&limit=1"));
		expect(limited.users.map((user) => user.user)).toEqual(["alice"]);
		// Types this hub has nothing of are ignored; LIKE wildcards are literal text.
		expect((await json<Answer>(await call("GET", "/api/quicksearch?q=a&type=space"))).users).toEqual([]);
		expect((await json<Answer>(await call("GET", "/api/quicksearch?q=%25"))).users).toEqual([]);
	});

	it("finds datasets; a private dataset only for readers of its namespace", async () => {
		const anonymous = await json<Answer>(await call("GET", "/api/quicksearch?q=acme"));
		expect(anonymous.datasets.map((dataset) => dataset.id)).toEqual(["acme/acme-reviews"]);
		expect(anonymous.datasets[0]?._id).toMatch(/^[0-9a-f]{24}$/);
		expect(anonymous.datasetsCount).toBe(1);
		// Bob is no member of acme: the private dataset is neither listed nor counted for him.
		const outsider = await json<Answer>(await call("GET", "/api/quicksearch?q=ledger", tokens.bob));
		expect(outsider.datasets).toEqual([]);
		expect(outsider.datasetsCount).toBe(0);
		const member = await json<Answer>(await call("GET", "/api/quicksearch?q=acme", tokens.carol));
		expect(member.datasets.map((dataset) => dataset.id).sort()).toEqual([
			"acme/acme-ledger",
			"acme/acme-reviews",
		]);
		expect(member.datasetsCount).toBe(2);
		// Datasets are not models, and type=dataset asks for datasets only.
		expect(member.models.map((model) => model.id)).not.toContain("acme/acme-ledger");
		const only = await json<Answer>(await call("GET", "/api/quicksearch?q=acme&type=dataset", tokens.carol));
		expect(only.datasets).toHaveLength(2);
		expect([only.models, only.users, only.orgs]).toEqual([[], [], []]);
		expect((await json<Answer>(await call("GET", "/api/quicksearch?q=acme&type=model"))).datasets).toEqual(
			[],
		);
	});

	it("refuses a search text longer than any name", async () => {
		const response = await call("GET", `/api/quicksearch?q=${"a".repeat(201)}`);
		expect(response.status).toBe(400);
		expect(((await response.json()) as { error: string }).error).toMatch(/'q'/);
	});
});
