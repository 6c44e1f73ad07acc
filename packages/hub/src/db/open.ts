import type { HubConfig } from "../config.js";
import { migrate } from "./migrations.js";
import { openPglite } from "./pglite.js";
import { openPostgres } from "./postgres.js";
import { findDatabaseTemplate } from "./template.js";
import type { Database } from "./types.js";

/**
 * Opens the configured database (PostgreSQL when DATABASE_URL is set, PGlite otherwise) and migrates it. A
 * new embedded database starts from the migrated template when the build has made one (src/db/template.ts).
 */
export async function openDatabase(
	config: Pick<HubConfig, "databaseUrl" | "dataDir"> & Partial<Pick<HubConfig, "postgresPool">>,
): Promise<Database> {
	const db = config.databaseUrl
		? await openPostgres(config.databaseUrl, config.postgresPool)
		: await openPglite(config.dataDir, { template: findDatabaseTemplate() });
	try {
		await migrate(db);
	} catch (error) {
		await db.close().catch(() => {});
		throw error;
	}
	return db;
}
