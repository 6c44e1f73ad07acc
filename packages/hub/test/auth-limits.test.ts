// Authentication failure limits that cannot lock out reads: failures are counted per credential tried
// and per address; a request the hub reads as anonymous is never refused for anyone's failures; a
// blocked credential gets 429 with Retry-After; an address past its limit has only its further
// credential attempts refused; guesses at the admin token count, on read routes too. Real hubs on
// 127.0.0.1 (each with limits of its own), embedded database.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../src/db/open.js";
import type { Database } from "../src/db/types.js";
import { createUser, startHub, type RunningHub, type StartOptions } from "./support/hub.js";

const ADMIN = "auth-limits-admin-token-0123456789ab";
/** Another service's token (the public hub's form), which this hub reads as no token on reads. */
const FOREIGN = "hf_aTokenOfThePublicHub0123456789abcd";

let db: Database;
let setup: RunningHub;
let alice: string;

async function get(hub: RunningHub, path: string, token?: string): Promise<Response> {
	return fetch(`${hub.url}${path}`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
}

async function withHub(options: Partial<StartOptions>, body: (hub: RunningHub) => Promise<void>) {
	const hub = await startHub({ db, storage: setup.storage, seed: false, adminToken: ADMIN, ...options });
	try {
		await body(hub);
	} finally {
		await hub.close();
	}
}

async function expectTooMany(res: Response, message: RegExp): Promise<void> {
	expect(res.status).toBe(429);
	expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
	expect(((await res.json()) as { error: string }).error).toMatch(message);
}

beforeAll(async () => {
	db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
	setup = await startHub({ db, seed: false, adminToken: ADMIN });
	alice = await createUser(setup.url, ADMIN, "alice");
	for (const [name, isPrivate] of [
		["open", false],
		["secret", true],
	] as const) {
		const res = await fetch(`${setup.url}/api/repos/create`, {
			method: "POST",
			headers: { authorization: `Bearer ${alice}`, "content-type": "application/json" },
			body: JSON.stringify({ name, private: isPrivate }),
		});
		expect(res.status).toBe(200);
	}
}, 60_000);

afterAll(async () => {
	await setup?.close();
	await db?.close();
});

describe("one script retrying one wrong token", () => {
	it("blocks that token alone (429, Retry-After); the address's reads and other tokens go on", async () => {
		await withHub({ authCredentialFailureLimit: 3, authFailureLimit: 20 }, async (hub) => {
			const stale = "mh_revokedLongAgo0000000000000000000000000000";
			for (let i = 0; i < 3; i++) expect((await get(hub, "/api/models/alice/open", stale)).status).toBe(401);
			for (let i = 0; i < 40; i++) {
				await expectTooMany(
					await get(hub, "/api/models/alice/open", stale),
					/^Too many failed authentication attempts with this token: retry in \d+ seconds$/,
				);
			}
			// The office behind the same address: anonymous reads, another service's token on reads, and
			// this hub's valid tokens are all served.
			expect((await get(hub, "/api/models/alice/open")).status).toBe(200);
			for (let i = 0; i < 30; i++) {
				expect((await get(hub, "/api/models/alice/open", FOREIGN)).status).toBe(200);
			}
			expect((await get(hub, "/alice/open/resolve/main/.gitattributes", FOREIGN)).status).toBe(200);
			expect((await get(hub, "/api/whoami-v2", alice)).status).toBe(200);
			expect((await get(hub, "/api/models/alice/secret", alice)).status).toBe(200);
		});
	});
});

describe("many different wrong tokens from one address", () => {
	it("refuse its further unknown credentials with 429, never its anonymous reads nor valid tokens", async () => {
		await withHub({ authCredentialFailureLimit: 3, authFailureLimit: 5 }, async (hub) => {
			for (let i = 0; i < 5; i++) {
				expect((await get(hub, "/api/whoami-v2", `mh_guess${i}000000000000000000`)).status).toBe(401);
			}
			await expectTooMany(
				await get(hub, "/api/whoami-v2", "mh_guess9000000000000000000"),
				/^Too many failed authentication attempts from this address: retry in \d+ seconds$/,
			);
			await expectTooMany(
				await get(hub, "/api/models/alice/open", "mh_guess8000000000000000000"),
				/from this address/,
			);
			expect((await get(hub, "/api/models/alice/open")).status).toBe(200);
			expect((await get(hub, "/api/models/alice/open", FOREIGN)).status).toBe(200);
			expect((await get(hub, "/api/whoami-v2", alice)).status).toBe(200);
		});
	});

	it("keeps a bounded number of credentials and addresses", async () => {
		await withHub(
			{ authCredentialFailureLimit: 3, authFailureLimit: 1_000_000, authFailureTracked: 50 },
			async (hub) => {
				const statuses = await Promise.all(
					Array.from({ length: 150 }, (_, i) => get(hub, "/api/whoami-v2", `mh_flood${i}0000000000000000`)),
				);
				expect(statuses.every((res) => res.status === 401)).toBe(true);
				const limits = hub.server.authLimits;
				expect(limits.size.credentials).toBeLessThanOrEqual(50);
				expect(limits.size.addresses).toBeLessThanOrEqual(50);
			},
		);
	});
});

describe("guesses at the admin token", () => {
	it("count as failures on read routes: past the limit the admin token is not even compared from that address", async () => {
		await withHub({ authCredentialFailureLimit: 3, authFailureLimit: 5 }, async (hub) => {
			// Wrong guesses on a read are served as anonymous (a private model is not found)...
			for (let i = 0; i < 5; i++) {
				const guess = await get(hub, "/api/models/alice/secret", `${ADMIN.slice(0, -2)}${i}x`);
				expect(guess.status).toBe(404);
			}
			// ...and counted: the right token, guessed now, gains nothing from this address.
			expect((await get(hub, "/api/models/alice/secret", ADMIN)).status).toBe(404);
			await expectTooMany(await get(hub, "/api/whoami-v2", ADMIN), /from this address/);
			const admin = await fetch(`${hub.url}/api/admin/users`, {
				headers: { authorization: `Bearer ${ADMIN}` },
			});
			await expectTooMany(admin, /from this address/);
			// Reads without a token are served as ever.
			expect((await get(hub, "/api/models/alice/open")).status).toBe(200);
		});
		// A hub whose limits saw no guesses: the admin token is the admin.
		await withHub({ authCredentialFailureLimit: 3, authFailureLimit: 5 }, async (hub) => {
			expect((await get(hub, "/api/models/alice/secret", ADMIN)).status).toBe(200);
			expect((await get(hub, "/api/whoami-v2", ADMIN)).status).toBe(200);
		});
	});

	it("count on the admin routes, where one guess repeated is blocked by itself", async () => {
		await withHub({ authCredentialFailureLimit: 3, authFailureLimit: 50 }, async (hub) => {
			const guess = { headers: { authorization: `Bearer ${ADMIN}-nope` } };
			for (let i = 0; i < 3; i++) expect((await fetch(`${hub.url}/api/admin/users`, guess)).status).toBe(403);
			await expectTooMany(await fetch(`${hub.url}/api/admin/users`, guess), /with this token/);
			const admin = await fetch(`${hub.url}/api/admin/users`, {
				headers: { authorization: `Bearer ${ADMIN}` },
			});
			expect(admin.status).toBe(200);
		});
	});
});
