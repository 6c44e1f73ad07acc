import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../src/db/open.js";
import type { Database } from "../src/db/types.js";
import { defineHfClientSuite } from "./support/hf-client-suite.js";
import { ADMIN_TOKEN, defineHubSuite } from "./support/hub-suite.js";
import { startHub } from "./support/hub.js";
import { startPostgresCluster, type PostgresCluster } from "./support/postgres.js";

// A real PostgreSQL server, started for this file from Debian's binaries and removed afterwards. When
// the binaries are missing the suite fails (it is never skipped): install postgresql.
let cluster: PostgresCluster | undefined;
let clusterError: unknown;
const ready = startPostgresCluster().then(
	(started) => {
		cluster = started;
	},
	(error: unknown) => {
		clusterError = error;
	},
);

async function freshDatabase(name: string): Promise<string> {
	await ready;
	if (!cluster) throw clusterError instanceof Error ? clusterError : new Error(String(clusterError));
	return cluster.createDatabase(name);
}

afterAll(() => cluster?.stop());

describe("PostgreSQL cluster", () => {
	it("is available (install Debian's postgresql package when this fails)", async () => {
		await ready;
		if (clusterError) throw clusterError;
		expect(cluster).toBeDefined();
	});
});

defineHubSuite("PostgreSQL", async () =>
	openDatabase({ databaseUrl: await freshDatabase("hub_suite"), dataDir: "memory://" }),
);

defineHfClientSuite("PostgreSQL", async () =>
	openDatabase({ databaseUrl: await freshDatabase("hf_client"), dataDir: "memory://" }),
);

describe("several hub processes on one PostgreSQL database", () => {
	let url: string;
	let dbs: Database[] = [];

	beforeAll(async () => {
		url = await freshDatabase("hub_shared");
	});

	afterAll(async () => {
		await Promise.all(dbs.map((db) => db.close()));
		dbs = [];
	});

	it("migrate and seed once when they start together, and see each other's writes", async () => {
		dbs = await Promise.all([0, 1, 2].map(() => openDatabase({ databaseUrl: url, dataDir: "memory://" })));
		const hubs = await Promise.all(dbs.map((db) => startHub({ db, adminToken: ADMIN_TOKEN })));
		try {
			const migrations = await dbs[0]!.query<{ version: number }>("SELECT version FROM modelhub_migrations");
			expect(migrations.rows).toHaveLength(1);
			const [a, b] = hubs as [(typeof hubs)[0], (typeof hubs)[0]];
			const path = "/api/models/openai/whisper-large-v3?expand[]=inferenceProviderMapping";
			// Warm hub B's cache, write through hub A, read through hub B.
			const before = (await (await fetch(`${b.url}${path}`)).json()) as { downloads: number };
			const put = await fetch(`${a.url}/api/models/openai/whisper-large-v3`, {
				method: "PUT",
				headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
				body: JSON.stringify({
					pipeline_tag: "automatic-speech-recognition",
					tags: [],
					downloads: before.downloads + 1,
				}),
			});
			expect(put.status).toBe(200);
			let after = before.downloads;
			for (let attempt = 0; attempt < 50 && after === before.downloads; attempt++) {
				await new Promise((resolve) => setTimeout(resolve, 20));
				after = ((await (await fetch(`${b.url}${path}`)).json()) as { downloads: number }).downloads;
			}
			expect(after).toBe(before.downloads + 1);
			const count = await dbs[0]!.query<{ count: number }>("SELECT count(*) AS count FROM models");
			const seeded = await dbs[0]!.query<{ value: string }>(
				"SELECT value FROM hub_meta WHERE key = 'seeded_at'",
			);
			expect(seeded.rows).toHaveLength(1);
			expect(Number(count.rows[0]?.count)).toBeGreaterThanOrEqual(220);
		} finally {
			await Promise.all(hubs.map((hub) => hub.close()));
		}
	});
});
