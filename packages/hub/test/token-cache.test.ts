// Who a token is is remembered between requests (src/accounts/token-cache.ts): a request carrying a token
// costs no token query once its viewer is cached, and every change that alters it (a token revoked, a
// membership removed, a role lowered) applies at once, in this process and in another hub process on
// the same PostgreSQL database (by NOTIFY). Unknown and revoked tokens are still looked up and counted
// by the authentication limits. Real hubs on 127.0.0.1; the embedded database, and a throwaway
// PostgreSQL cluster.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../src/db/open.js";
import type { Database } from "../src/db/types.js";
import { openBlobStore } from "../src/storage/open.js";
import { startHub, type RunningHub } from "./support/hub.js";
import { startPostgresCluster, type PostgresCluster } from "./support/postgres.js";

const ADMIN = "token-cache-admin-token-0123456789abc";

/** The statement that finds a token's user (accounts/store.ts, viewerWhere) by the token's hash. */
const isTokenLookup = (sql: string): boolean =>
	sql.includes("FROM access_tokens t") && sql.includes("token_hash");

/** A database that counts the token lookups sent through it. */
function counting(db: Database): { db: Database; lookups: () => number } {
	let lookups = 0;
	return {
		db: {
			...db,
			query: (sql, params, options) => {
				if (isTokenLookup(sql)) lookups++;
				return db.query(sql, params, options);
			},
		},
		lookups: () => lookups,
	};
}

async function call(
	hub: RunningHub,
	method: string,
	path: string,
	token: string,
	body?: unknown,
): Promise<Response> {
	return fetch(`${hub.url}${path}`, {
		method,
		headers: {
			authorization: `Bearer ${token}`,
			...(body === undefined ? {} : { "content-type": "application/json" }),
		},
		...(body === undefined ? {} : { body: JSON.stringify(body) }),
	});
}

async function admin(hub: RunningHub, method: string, path: string, body?: unknown): Promise<Response> {
	const res = await call(hub, method, path, ADMIN, body);
	expect(res.status).toBeLessThan(300);
	return res;
}

async function newToken(hub: RunningHub, user: string): Promise<{ token: string; id: string }> {
	return (await (await admin(hub, "POST", `/api/admin/users/${user}/tokens`, { role: "write" })).json()) as {
		token: string;
		id: string;
	};
}

describe("the token cache of one hub process", () => {
	let raw: Database;
	let counted: ReturnType<typeof counting>;
	let hub: RunningHub;

	beforeAll(async () => {
		raw = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
		counted = counting(raw);
		hub = await startHub({
			db: counted.db,
			seed: false,
			adminToken: ADMIN,
			authCredentialFailureLimit: 3,
			logLevel: "silent",
		});
		await admin(hub, "POST", "/api/admin/users", { name: "alice" });
		await admin(hub, "POST", "/api/admin/orgs", {
			name: "acme",
			members: [{ user: "alice", role: "write" }],
		});
		await admin(hub, "POST", "/api/repos/create", { name: "secret", organization: "acme", private: true });
	}, 60_000);

	afterAll(async () => {
		await hub?.close();
		await raw?.close();
	});

	it("looks a token up once, not on every request carrying it", async () => {
		const { token } = await newToken(hub, "alice");
		const before = counted.lookups();
		for (let i = 0; i < 10; i++) {
			const res = await call(hub, "GET", "/api/models/acme/secret", token);
			expect(res.status).toBe(200);
		}
		expect(counted.lookups() - before).toBe(1);
	});

	it("ends a revoked token at once, and counts its further use as failures", async () => {
		const { token, id } = await newToken(hub, "alice");
		expect((await call(hub, "GET", "/api/whoami-v2", token)).status).toBe(200);
		await admin(hub, "DELETE", `/api/admin/tokens/${id}`);
		const before = counted.lookups();
		const answers: number[] = [];
		for (let i = 0; i < 4; i++) answers.push((await call(hub, "GET", "/api/whoami-v2", token)).status);
		// The limit is 3 failures per credential: looked up (and refused) 3 times, then 429.
		expect(answers).toEqual([401, 401, 401, 429]);
		expect(counted.lookups() - before).toBe(3);
	});

	it("applies a membership removed, or a role lowered, at once", async () => {
		const { token } = await newToken(hub, "alice");
		expect((await call(hub, "GET", "/api/models/acme/secret", token)).status).toBe(200);
		await admin(hub, "PUT", "/api/admin/orgs/acme/members/alice", { role: "read" });
		const refused = await call(hub, "POST", "/api/repos/create", token, {
			name: "more",
			organization: "acme",
		});
		expect(refused.status).toBe(403);
		expect(((await refused.json()) as { error: string }).error).toMatch(/'read' role in acme/);
		await admin(hub, "DELETE", "/api/admin/orgs/acme/members/alice");
		expect((await call(hub, "GET", "/api/models/acme/secret", token)).status).toBe(404);
		await admin(hub, "PUT", "/api/admin/orgs/acme/members/alice", { role: "write" });
		expect((await call(hub, "GET", "/api/models/acme/secret", token)).status).toBe(200);
	});

	it("never counts a valid token as a failure, however often it is used", async () => {
		const { token } = await newToken(hub, "alice");
		for (let i = 0; i < 10; i++) expect((await call(hub, "GET", "/api/whoami-v2", token)).status).toBe(200);
	});
});

describe("the token cache of hub processes sharing one PostgreSQL database", () => {
	let cluster: PostgresCluster;

	beforeAll(async () => {
		cluster = await startPostgresCluster();
	}, 120_000);

	afterAll(() => cluster?.stop());

	it("forgets a token revoked, or a member removed, through another process", async () => {
		const url = await cluster.createDatabase("token_cache");
		const dbs = await Promise.all([0, 1].map(() => openDatabase({ databaseUrl: url, dataDir: "memory://" })));
		const storage = await openBlobStore({ kind: "disk", dir: undefined });
		// Hub B remembers tokens for an hour: only the change notification can make it forget in time.
		const [a, b] = (await Promise.all(
			dbs.map((db) =>
				startHub({
					db,
					storage,
					seed: false,
					adminToken: ADMIN,
					logLevel: "silent",
					tokenCache: { ttlMs: 3_600_000 },
				}),
			),
		)) as [RunningHub, RunningHub];
		try {
			await admin(a, "POST", "/api/admin/users", { name: "bob" });
			await admin(a, "POST", "/api/admin/orgs", { name: "lab", members: [{ user: "bob", role: "read" }] });
			await admin(a, "POST", "/api/repos/create", { name: "hidden", organization: "lab", private: true });
			const { token, id } = await newToken(a, "bob");
			/** Hub B's answer once it is `status` (bounded: 2 s of 20 ms polls), or its last answer. */
			const fromB = async (path: string, status: number): Promise<number> => {
				let answer = (await call(b, "GET", path, token)).status;
				for (let attempt = 0; attempt < 100 && answer !== status; attempt++) {
					await new Promise((resolve) => setTimeout(resolve, 20));
					answer = (await call(b, "GET", path, token)).status;
				}
				return answer;
			};
			expect((await call(b, "GET", "/api/models/lab/hidden", token)).status).toBe(200);
			await admin(a, "DELETE", "/api/admin/orgs/lab/members/bob");
			expect(await fromB("/api/models/lab/hidden", 404)).toBe(404);
			expect((await call(b, "GET", "/api/whoami-v2", token)).status).toBe(200);
			await admin(a, "DELETE", `/api/admin/tokens/${id}`);
			expect(await fromB("/api/whoami-v2", 401)).toBe(401);
		} finally {
			await Promise.all([a, b].map((hub) => hub.close()));
			await storage.close();
			await Promise.all(dbs.map((db) => db.close()));
		}
	});
});
