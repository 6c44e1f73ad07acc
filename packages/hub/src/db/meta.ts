import type { Queryable } from "./types.js";

/** A hub-wide setting kept in the database (`hub_meta`): the seed's date, the upload signing key. */
export async function getMeta(db: Queryable, key: string): Promise<string | undefined> {
	const result = await db.query<{ value: string }>("SELECT value FROM hub_meta WHERE key = $1", [key]);
	return result.rows[0]?.value;
}

export async function setMeta(db: Queryable, key: string, value: string): Promise<void> {
	await db.query(
		"INSERT INTO hub_meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
		[key, value],
	);
}
