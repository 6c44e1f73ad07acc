import { CHANGE_CHANNEL, type Queryable } from "./types.js";

/** Tells every hub process sharing the database that data changed (delivered at commit). */
export async function notifyChange(tx: Queryable): Promise<void> {
	await tx.query("SELECT pg_notify($1, '')", [CHANGE_CHANNEL]);
}
