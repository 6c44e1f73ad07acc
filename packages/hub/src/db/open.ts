import type { HubConfig } from "../config.js";
import { migrate } from "./migrations.js";
import { openPglite } from "./pglite.js";
import { openPostgres } from "./postgres.js";
import type { Database } from "./types.js";

/** Opens the configured database (PostgreSQL when DATABASE_URL is set, PGlite otherwise) and migrates it. */
export async function openDatabase(
	config: Pick<HubConfig, "databaseUrl" | "dataDir"> & Partial<Pick<HubConfig, "postgresPool">>,
): Promise<Database> {
	const db = config.databaseUrl
		? await openPostgres(config.databaseUrl, config.postgresPool)
		: await openPglite(config.dataDir, { fromTemplate: true });
	try {
		await migrate(db);
	} catch (error) {
		await db.close().catch(() => {});
		throw error;
	}
	return db;
}
