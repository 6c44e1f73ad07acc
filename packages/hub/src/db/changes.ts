import { CHANGE_CHANNEL, type Queryable } from "./types.js";

/**
 * Tells every hub process sharing the database that data changed (delivered at commit, to the
 * listeners of `Database.subscribe`). The payload says what (see services/changes.ts).
 */
export async function notifyChange(tx: Queryable, payload: string): Promise<void> {
	await tx.query("SELECT pg_notify($1, $2)", [CHANGE_CHANNEL, payload]);
}
