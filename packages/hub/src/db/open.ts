import type { HubConfig } from "../config.js";
import { migrate } from "./migrations.js";
import { openPglite, SMALL_SHARED_BUFFERS } from "./pglite.js";
import { findDatabaseTemplate } from "./template.js";
import type { Database } from "./types.js";

/**
 * Opens the configured database (PostgreSQL when DATABASE_URL is set, PGlite otherwise) and migrates it. A
 * new embedded database starts from the migrated template when the build has made one (src/db/template.ts).
 * `brief`: opened for one command and closed (the embedded database then keeps a small page cache).
 */
export async function openDatabase(
	config: Pick<HubConfig, "databaseUrl" | "dataDir"> & Partial<Pick<HubConfig, "postgresPool">>,
	{ brief = false }: { brief?: boolean } = {},
): Promise<Database> {
	const db = config.databaseUrl
		? await (await import("./postgres.js")).openPostgres(config.databaseUrl, config.postgresPool)
		: await openPglite(config.dataDir, {
				template: findDatabaseTemplate(),
				...(brief ? { sharedBuffers: SMALL_SHARED_BUFFERS } : {}),
			});
	try {
		await migrate(db);
	} catch (error) {
		await db.close().catch(() => {});
		throw error;
	}
	return db;
}
