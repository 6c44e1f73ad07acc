/**
 * The hub's HTTP suite, run on each database (pglite.test.ts, postgres.test.ts): one hub per run,
 * started here; the checks live in hub-suite/, one module per concern (reads, listing, files, admin
 * writes, imports, web and security), each given the running hub as `HubSuite`.
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe } from "vitest";
import type { Database } from "../../src/db/types.js";
import { loadSeedModels } from "../../src/seed.js";
import { startHub } from "./hub.js";
import { defineAdminWriteChecks } from "./hub-suite/admin-writes.js";
import { ADMIN_TOKEN, type HubSuite } from "./hub-suite/context.js";
import { defineFileChecks } from "./hub-suite/files.js";
import { defineImportChecks } from "./hub-suite/imports.js";
import { defineListingChecks } from "./hub-suite/listing.js";
import { defineReadChecks } from "./hub-suite/reads.js";
import { defineWebSecurityChecks } from "./hub-suite/web-security.js";

export { ADMIN_TOKEN, rawRequest } from "./hub-suite/context.js";

export function defineHubSuite(label: string, openDb: () => Promise<Database>): void {
	describe(`hub over ${label}`, () => {
		// Filled by beforeAll, before any check reads it.
		const suite = { tempDirs: [] as string[] } as HubSuite;

		beforeAll(async () => {
			suite.db = await openDb();
			suite.seedCount = (await loadSeedModels()).length;
			suite.hub = await startHub({ db: suite.db, adminToken: ADMIN_TOKEN });
			suite.base = suite.hub.url;
			// Opening and seeding a database takes a few seconds, more on a busy machine.
		}, 180_000);

		afterAll(async () => {
			await suite.hub?.close();
			await suite.db?.close();
			for (const dir of suite.tempDirs) rmSync(dir, { recursive: true, force: true });
		}, 60_000);

		defineReadChecks(suite);
		defineListingChecks(suite);
		defineFileChecks(suite);
		defineAdminWriteChecks(suite);
		defineImportChecks(suite);
		defineWebSecurityChecks(suite);
	});
}
