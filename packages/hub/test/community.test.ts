import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../src/db/open.js";
import type { Database } from "../src/db/types.js";
import { createUser, startHub, type RunningHub } from "./support/hub.js";
import { runHubClient } from "./support/python.js";

const ADMIN_TOKEN = "community-admin-token-0123456789abcdef";
const SCRIPT = "hf_hub_community.py";
const MODEL = "alice/gated-model";
const DATASET = "alice/gated-data";
const README = [
	"---",
	"license: other",
	'extra_gated_prompt: "Use it for research only."',
	"extra_gated_fields:",
	"  Company: text",
	"  I agree to use it for research only: checkbox",
	"---",
	"",
	"# Gated",
	"",
].join("\n");

type Attempt = { ok: unknown } | { error: string; status: number | null; message: string };

function failure(attempt: unknown): { error: string; status: number | null; message: string } {
	expect(attempt).toHaveProperty("error");
	return attempt as { error: string; status: number | null; message: string };
}

function ok(attempt: unknown): unknown {
	if (typeof attempt === "object" && attempt !== null && "error" in attempt) {
		throw new Error(`expected success, got ${JSON.stringify(attempt)}`);
	}
	return (attempt as { ok: unknown }).ok;
}

/**
 * Gated repositories and likes through the real huggingface_hub 2.x: update_repo_settings(gated=…),
 * GatedRepoError for files (README.md and metadata stay visible), the access-request lists and their
 * handling, grant_access, like/unlike, list_repo_likers, list_liked_repos, likes in listings and the
 * likes sort; private repositories leak nothing through likes. One hub and database for the file.
 */
describe("gated repositories and likes with huggingface_hub", () => {
	let db: Database;
	let hub: RunningHub;
	let dir: string;
	const tokens: Record<string, string> = {};

	function client(
		group: string,
		params: Record<string, unknown>,
	): Promise<Record<string, Attempt | unknown>> {
		return runHubClient(
			group,
			hub.url,
			join(dir, `${group}-${Math.random().toString(36).slice(2)}`),
			params,
			{},
			SCRIPT,
		);
	}

	async function api(
		path: string,
		init: { method?: string; token?: string; body?: unknown } = {},
	): Promise<Response> {
		return fetch(`${hub.url}${path}`, {
			method: init.method ?? "GET",
			headers: {
				...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
				...(init.body !== undefined ? { "content-type": "application/json" } : {}),
			},
			...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
		});
	}

	beforeAll(async () => {
		dir = mkdtempSync(join(tmpdir(), "modelhub-community-"));
		db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
		hub = await startHub({ db, seed: false, adminToken: ADMIN_TOKEN });
		for (const name of ["alice", "bob", "carol"]) tokens[name] = await createUser(hub.url, ADMIN_TOKEN, name);
	}, 120_000);

	afterAll(async () => {
		await hub?.close();
		await db?.close();
		if (dir) rmSync(dir, { recursive: true, force: true });
	});

	it("gates a model (manual) and a dataset (auto) with update_repo_settings; metadata stays visible", async () => {
		const setup = await client("owner_setup", {
			token: tokens.alice,
			readme: README,
			repos: [
				[MODEL, "model", "manual"],
				[DATASET, "dataset", "auto"],
			],
		});
		expect(setup[`${MODEL}:gated`]).toBe("manual");
		expect(setup[`${DATASET}:gated`]).toBe("auto");
		expect(setup.gated_listing).toEqual([MODEL]);
		expect(setup.ungated_listing_has_it).toBe(false);
		expect(ok(setup.bad_mode)).toBe(400);

		const info = await api(`/api/models/${MODEL}`);
		expect(info.status).toBe(200);
		expect(((await info.json()) as { gated: unknown }).gated).toBe("manual");
		const tree = await api(`/api/models/${MODEL}/tree/main`);
		expect(tree.status).toBe(200);
		const readme = await fetch(`${hub.url}/${MODEL}/resolve/main/README.md`);
		expect(readme.status).toBe(200);
		expect(await readme.text()).toBe(README);
		const config = await fetch(`${hub.url}/${MODEL}/resolve/main/config.json`);
		expect(config.status).toBe(401);
		expect(config.headers.get("x-error-code")).toBe("GatedRepo");
	});

	it("refuses gated files with GatedRepoError to the anonymous and to users without access", async () => {
		const files = [
			[MODEL, "model", "config.json"],
			[MODEL, "model", "README.md"],
			[DATASET, "dataset", "config.json"],
		];
		const anonymous = await client("download", { files });
		const denied = failure(anonymous[`${MODEL}:config.json`]);
		expect(denied.error).toBe("GatedRepoError");
		expect(denied.status).toBe(401);
		expect(denied.message).toContain(
			`Access to model ${MODEL} is restricted. You must have access to it and be authenticated to access it. Please log in.`,
		);
		expect(ok(anonymous[`${MODEL}:README.md`])).toBe(README);
		expect(ok(anonymous[`${MODEL}:info`])).toBe("manual");
		expect(failure(anonymous[`${DATASET}:config.json`]).error).toBe("GatedRepoError");

		const bob = await client("download", { token: tokens.bob, files });
		const refused = failure(bob[`${MODEL}:config.json`]);
		expect(refused.error).toBe("GatedRepoError");
		expect(refused.status).toBe(403);
		expect(refused.message).toContain(
			`Access to model ${MODEL} is restricted and you are not in the authorized list. Visit ${hub.url}/${MODEL} to ask for access.`,
		);

		// The dataset viewer serves rows, the files' contents: a gated dataset is its 404 to those without
		// access, as on the public viewer (src/services/viewer.ts).
		const splits = await fetch(`${hub.url}/datasets-server/splits?dataset=${DATASET}`);
		expect(splits.status).toBe(404);

		// The owner always has access.
		const alice = await client("download", { token: tokens.alice, files });
		expect(ok(alice[`${MODEL}:config.json`])).toBe('{"hidden_size": 8}\n');
	});

	it("takes access requests from the form, lists and handles them as huggingface_hub calls them", async () => {
		const form = await api(`/api/models/${MODEL}/ask-access`, { token: tokens.bob });
		expect(await form.json()).toEqual({
			gated: "manual",
			access: "none",
			prompt: "Use it for research only.",
			fields: [
				{ name: "Company", type: "text" },
				{ name: "I agree to use it for research only", type: "checkbox" },
			],
		});
		const unticked = await api(`/api/models/${MODEL}/ask-access`, {
			method: "POST",
			token: tokens.bob,
			body: { fields: { Company: "Bob Inc" } },
		});
		expect(unticked.status).toBe(400);
		expect(((await unticked.json()) as { error: string }).error).toContain("must be ticked");
		const anonymous = await api(`/api/models/${MODEL}/ask-access`, { method: "POST", body: {} });
		expect(anonymous.status).toBe(401);
		const asked = await api(`/api/models/${MODEL}/ask-access`, {
			method: "POST",
			token: tokens.bob,
			body: { fields: { Company: "Bob Inc", "I agree to use it for research only": true } },
		});
		expect(asked.status).toBe(200);
		expect(((await asked.json()) as { access: string }).access).toBe("pending");

		// Not a writer of the repository: refused.
		const nosy = await client("owner_requests", {
			token: tokens.carol,
			repo: MODEL,
			repo_type: "model",
			steps: [["list", "pending"]],
		});
		expect(failure(nosy["list:pending:0"]).status).toBe(403);

		const owner = await client("owner_requests", {
			token: tokens.alice,
			repo: MODEL,
			repo_type: "model",
			steps: [
				["list", "pending"],
				["accept", "bob"],
				["accept", "bob"],
				["list", "accepted"],
				["accept", "nobody-here"],
			],
		});
		expect(ok(owner["list:pending:0"])).toEqual([
			{
				user: "bob",
				fullname: "bob",
				status: "pending",
				fields: { Company: "Bob Inc", "I agree to use it for research only": true },
				has_time: true,
			},
		]);
		ok(owner["accept:bob:1"]);
		expect(failure(owner["accept:bob:2"]).status).toBe(404);
		expect((ok(owner["list:accepted:3"]) as Array<{ user: string }>).map((r) => r.user)).toEqual(["bob"]);
		expect(failure(owner["accept:nobody-here:4"]).status).toBe(404);

		const granted = await client("download", { token: tokens.bob, files: [[MODEL, "model", "config.json"]] });
		expect(ok(granted[`${MODEL}:config.json`])).toBe('{"hidden_size": 8}\n');
	});

	it("rejects (with a reason), cancels and grants; a rejected user cannot ask again", async () => {
		const owner = await client("owner_requests", {
			token: tokens.alice,
			repo: MODEL,
			repo_type: "model",
			steps: [
				["reject", "bob", "not this time"],
				["list", "rejected"],
				["grant", "carol"],
				["grant", "carol"],
				["cancel", "carol"],
				["list", "pending"],
				["grant", "carol"],
			],
		});
		ok(owner["reject:bob:0"]);
		expect((ok(owner["list:rejected:1"]) as Array<{ user: string }>).map((r) => r.user)).toEqual(["bob"]);
		ok(owner["grant:carol:2"]);
		expect(failure(owner["grant:carol:3"]).status).toBe(400);
		ok(owner["cancel:carol:4"]);
		expect((ok(owner["list:pending:5"]) as Array<{ user: string }>).map((r) => r.user)).toEqual(["carol"]);
		ok(owner["grant:carol:6"]);

		const bob = await client("download", { token: tokens.bob, files: [[MODEL, "model", "config.json"]] });
		expect(failure(bob[`${MODEL}:config.json`]).error).toBe("GatedRepoError");
		const again = await api(`/api/models/${MODEL}/ask-access`, {
			method: "POST",
			token: tokens.bob,
			body: { fields: { Company: "Bob Inc", "I agree to use it for research only": true } },
		});
		expect(again.status).toBe(403);
		expect(((await again.json()) as { error: string }).error).toBe(
			"Your request to access this repo has been rejected by the repo's authors",
		);
		const carol = await client("download", { token: tokens.carol, files: [[MODEL, "model", "config.json"]] });
		expect(ok(carol[`${MODEL}:config.json`])).toBe('{"hidden_size": 8}\n');
	});

	it("accepts requests to an auto-gated dataset at once; ungating opens the files", async () => {
		const asked = await api(`/api/datasets/${DATASET}/ask-access`, {
			method: "POST",
			token: tokens.bob,
			body: { fields: { Company: "Bob Inc", "I agree to use it for research only": true } },
		});
		expect(((await asked.json()) as { access: string }).access).toBe("accepted");
		const bob = await client("download", { token: tokens.bob, files: [[DATASET, "dataset", "config.json"]] });
		expect(ok(bob[`${DATASET}:config.json`])).toBe('{"hidden_size": 8}\n');

		const ungated = await api(`/api/datasets/${DATASET}/settings`, {
			method: "PUT",
			token: tokens.alice,
			body: { gated: false },
		});
		expect(await ungated.json()).toEqual({ id: DATASET, private: false, gated: false });
		const open = await fetch(`${hub.url}/datasets/${DATASET}/resolve/main/config.json`);
		expect(open.status).toBe(200);
		const notGated = await api(`/api/datasets/${DATASET}/user-access-request/pending`, {
			token: tokens.alice,
		});
		expect(notGated.status).toBe(400);
	});

	it("likes and unlikes, lists likers and liked repositories, counts and sorts by likes", async () => {
		const created = await api("/api/repos/create", {
			method: "POST",
			token: tokens.alice,
			body: { name: "secret", private: true },
		});
		expect(created.status).toBe(200);
		const liked = await client("likes", {
			token: tokens.bob,
			like: [
				[MODEL, "model"],
				[DATASET, "dataset"],
				["alice/secret", "model"],
			],
		});
		expect(ok(liked[`like:${MODEL}`])).toEqual({ liked: true, likes: 1 });
		expect(failure(liked["like:alice/secret"]).error).toBe("RepositoryNotFoundError");

		const carol = await client("likes", {
			token: tokens.carol,
			like: [
				[MODEL, "model"],
				[MODEL, "model"],
			],
			likers: [[MODEL, "model"]],
			liked_by: ["bob"],
			info: [[MODEL, "model"]],
			sorted: "alice",
		});
		expect(ok(carol[`like:${MODEL}`])).toEqual({ liked: true, likes: 2 });
		expect(ok(carol[`likers:${MODEL}`])).toEqual(["bob", "carol"]);
		expect(ok(carol["liked_by:bob"])).toEqual({
			user: "bob",
			total: 2,
			models: [MODEL],
			datasets: [DATASET],
		});
		expect(ok(carol[`info:${MODEL}`])).toBe(2);
		expect((carol.sorted as string[])[0]).toBe(MODEL);

		// The owner likes her private model: only readers of it see that like or its likers.
		const own = await client("likes", {
			token: tokens.alice,
			like: [["alice/secret", "model"]],
			liked_by: ["alice"],
			likers: [["alice/secret", "model"]],
		});
		expect(ok(own["liked_by:alice"])).toMatchObject({ total: 1, models: ["alice/secret"] });
		expect(ok(own["likers:alice/secret"])).toEqual(["alice"]);
		const outsider = await client("likes", {
			token: tokens.bob,
			liked_by: ["alice"],
			likers: [["alice/secret", "model"]],
			unlike: [[MODEL, "model"]],
			info: [[MODEL, "model"]],
		});
		expect(ok(outsider["liked_by:alice"])).toMatchObject({ total: 0, models: [] });
		expect(failure(outsider["likers:alice/secret"]).error).toBe("RepositoryNotFoundError");
		expect(ok(outsider[`info:${MODEL}`])).toBe(1);
		const anonymousLike = await api(`/api/models/${MODEL}/like`, { method: "POST" });
		expect(anonymousLike.status).toBe(401);
	});
});
