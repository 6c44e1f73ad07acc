// Mirror mode's listings by id: huggingface_hub 2.0's list_models(search="namespace/name") and
// list_models(author=…) (list_datasets likewise) against a mirroring hub show the upstream's repositories
// too, as the upstream token rules, the allow-list and local repositories allow; with the upstream down,
// this hub's own only.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_UPSTREAM_SETTINGS } from "../src/mirror/settings.js";
import { createRepo, createUser, type RunningHub } from "./support/hub.js";
import { startMirrorPair, type MirrorPair } from "./support/mirror.js";
import { runHubClient } from "./support/python.js";

const ADMIN = "mirror-listing-admin-token-0123456789";

interface Listed {
	id: string;
	private: boolean;
	mirroredFrom: string | null;
}

interface Query {
	search?: string;
	author?: string;
}

describe("mirror mode: listings by id show the upstream's repositories", () => {
	const dir = mkdtempSync(join(tmpdir(), "modelhub-mirror-listing-"));
	let pair: MirrorPair | undefined;
	let upstream: RunningHub;
	let downstream: RunningHub;
	let carol = "";
	let dave = "";
	let runs = 0;

	/** Each query's listing as huggingface_hub's list_models gives it (anonymous without a token). */
	async function list(queries: Query[], token?: string, datasets = false): Promise<Listed[][]> {
		const out = await runHubClient<{ answers: Listed[][] }>(
			"list",
			downstream.url,
			join(dir, `list-${runs++}`),
			{ repo: "", queries, datasets, ...(token ? { token } : {}) },
			{},
			"hf_hub_mirror.py",
		);
		return out.answers.map((answer) => [...answer].sort((a, b) => a.id.localeCompare(b.id)));
	}

	beforeAll(async () => {
		pair = await startMirrorPair({
			adminToken: ADMIN,
			settings: {
				ttlMs: 0,
				allow: ["alice", "carol"],
				outbound: { ...DEFAULT_UPSTREAM_SETTINGS.outbound, timeoutMs: 2000, retries: 0 },
			},
			prepare: async (hub) => {
				const alice = await createUser(hub.url, ADMIN, "alice");
				await createRepo(hub, alice, "tiny-listed");
				await createRepo(hub, alice, "private-listed", true);
				await createRepo(hub, alice, "listed-data", false, "dataset");
				await createRepo(hub, await createUser(hub.url, ADMIN, "carol"), "shared");
				await createRepo(hub, await createUser(hub.url, ADMIN, "eve"), "not-allowed");
				// The downstream reads the upstream with alice's token.
				return { token: alice };
			},
		});
		({ upstream, downstream } = pair);
		// carol has a private repository of the same name on the downstream: it wins over the upstream's.
		carol = await createUser(downstream.url, ADMIN, "carol");
		await createRepo(downstream, carol, "shared", true);
		dave = await createUser(downstream.url, ADMIN, "dave");
	}, 120_000);

	afterAll(async () => {
		await pair?.close();
		rmSync(dir, { recursive: true, force: true });
	});

	it("lists upstream repositories by id and by author, with the token's private ones for signed-in users only, local ones winning, the allow-list kept", async () => {
		const from = upstream.url;
		// The upstream has eve's repository; the allow-list leaves it out downstream.
		const eve = await fetch(`${upstream.url}/api/models?author=eve`);
		expect(((await eve.json()) as Array<{ id: string }>).map((m) => m.id)).toEqual(["eve/not-allowed"]);
		const queries: Query[] = [
			{ search: "alice/tiny-listed" },
			{ author: "alice" },
			{ search: "carol/shared" },
			{ author: "eve" },
			{ search: "alice/private-listed" },
		];
		const [byId, byAuthor, shadowed, notAllowed, privateById] = await list(queries);
		expect(byId).toEqual([{ id: "alice/tiny-listed", private: false, mirroredFrom: from }]);
		// Anonymous: the public's view of the upstream (its private repository is not listed).
		expect(byAuthor).toEqual([{ id: "alice/tiny-listed", private: false, mirroredFrom: from }]);
		// The local carol/shared (private: not for anonymous) hides the upstream's public one.
		expect(shadowed).toEqual([]);
		expect(notAllowed).toEqual([]);
		expect(privateById).toEqual([]);

		// A signed-in user gets what the upstream token reads.
		const [daveById, daveByAuthor, daveShadowed] = await list(queries, dave);
		expect(daveById).toEqual([{ id: "alice/tiny-listed", private: false, mirroredFrom: from }]);
		expect(daveByAuthor).toEqual([
			{ id: "alice/private-listed", private: true, mirroredFrom: from },
			{ id: "alice/tiny-listed", private: false, mirroredFrom: from },
		]);
		expect(daveShadowed).toEqual([]);
		// carol sees her own (local, private) repository once: the upstream's of the same id is not added.
		const [carolShadowed, carolAuthor] = await list([{ search: "carol/shared" }, { author: "carol" }], carol);
		expect(carolShadowed).toEqual([{ id: "carol/shared", private: true, mirroredFrom: null }]);
		expect(carolAuthor).toEqual([{ id: "carol/shared", private: true, mirroredFrom: null }]);
		// Datasets the same way (list_datasets): the upstream's dataset, not its models.
		const [dataById, dataByAuthor] = await list(
			[{ search: "alice/listed-data" }, { author: "alice" }],
			undefined,
			true,
		);
		expect(dataById).toEqual([{ id: "alice/listed-data", private: false, mirroredFrom: from }]);
		expect(dataByAuthor).toEqual([{ id: "alice/listed-data", private: false, mirroredFrom: from }]);
		// A search that names no repository is this hub's listing only.
		const plain = await fetch(`${downstream.url}/api/models?search=tiny`);
		expect(await plain.json()).toEqual([]);
	}, 180_000);

	it("lists this hub's repositories only, without an error, while the upstream is down", async () => {
		await upstream.close();
		const [byAuthor, carolShadowed] = await list([{ author: "alice" }, { search: "carol/shared" }], carol);
		expect(byAuthor).toEqual([]);
		expect(carolShadowed).toEqual([{ id: "carol/shared", private: true, mirroredFrom: null }]);
	}, 120_000);
});

describe("mirror mode: a listing by id with an upstream that never answers", () => {
	let silent: Server;
	let pair: MirrorPair | undefined;
	const held: Array<() => void> = [];

	beforeAll(async () => {
		// Takes the request and never sends a status line.
		silent = createServer((_req, res) => held.push(() => res.destroy()));
		await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
		const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
		pair = await startMirrorPair({
			adminToken: ADMIN,
			// The hub's bound for a listing (5 s), not the outbound timeout, is what ends the wait.
			settings: { url, outbound: { ...DEFAULT_UPSTREAM_SETTINGS.outbound, timeoutMs: 60_000, retries: 0 } },
		});
	});

	afterAll(async () => {
		for (const release of held) release();
		await pair?.close();
		silent?.closeAllConnections();
		silent?.close();
	});

	it("answers with this hub's repositories within its bound", async () => {
		const { downstream } = pair as MirrorPair;
		const res = await fetch(`${downstream.url}/api/models?author=alice`, {
			signal: AbortSignal.timeout(20_000),
		});
		expect(res.status).toBe(200);
		expect(await res.json()).toEqual([]);
		expect(held.length).toBeGreaterThan(0);
	}, 30_000);
});
