import type { Queryable } from "../db/types.js";
import { treeLinks } from "../repos/trees.js";
import type { Tally } from "./store.js";

/** Rows read per query while marking. */
const MARK_BATCH = 1000;

/** Trees and chunks found reachable from root trees. */
export interface Reachable {
	trees: Set<string>;
	chunks: Set<string>;
}

/** Every commit's root tree. */
export async function commitRoots(db: Queryable): Promise<Set<string>> {
	const result = await db.query<{ tree_id: string }>("SELECT DISTINCT tree_id FROM commits");
	return new Set(result.rows.map((row) => row.tree_id));
}

/**
 * Adds to `reachable` the trees and chunks under `roots` (level by level, a batch of rows per query),
 * not descending into trees already in it (what is under them was marked with them).
 */
export async function markTrees(db: Queryable, roots: Iterable<string>, reachable: Reachable): Promise<void> {
	let level = [...roots].filter((oid) => !reachable.trees.has(oid));
	for (const oid of level) reachable.trees.add(oid);
	while (level.length > 0) {
		const next: string[] = [];
		const follow = (links: { trees: string[]; chunks: string[] }, chunkIds: string[]): void => {
			for (const oid of links.trees)
				if (!reachable.trees.has(oid)) {
					reachable.trees.add(oid);
					next.push(oid);
				}
			for (const id of links.chunks)
				if (!reachable.chunks.has(id)) {
					reachable.chunks.add(id);
					chunkIds.push(id);
				}
		};
		for (let start = 0; start < level.length; start += MARK_BATCH) {
			const chunkIds: string[] = [];
			const trees = await db.query<{ entries: Uint8Array }>(
				"SELECT entries FROM trees WHERE oid = ANY($1::text[])",
				[level.slice(start, start + MARK_BATCH)],
			);
			for (const row of trees.rows) follow(treeLinks(row.entries), chunkIds);
			for (let from = 0; from < chunkIds.length; from += MARK_BATCH) {
				const chunks = await db.query<{ entries: Uint8Array }>(
					"SELECT entries FROM tree_chunks WHERE id = ANY($1::text[])",
					[chunkIds.slice(from, from + MARK_BATCH)],
				);
				for (const row of chunks.rows) follow(treeLinks(row.entries), []);
			}
		}
		level = next;
	}
}

/** Stored trees and chunks not in `reachable`, each with its size (bytes of packed entries). */
export async function unreachableTrees(
	db: Queryable,
	reachable: Reachable,
): Promise<{ trees: Map<string, number>; chunks: Map<string, number> }> {
	const pick = async (
		table: "trees" | "tree_chunks",
		key: "oid" | "id",
		marked: Set<string>,
	): Promise<Map<string, number>> => {
		const result = await db.query<{ key: string; bytes: string | number }>(
			`SELECT ${key} AS key, octet_length(entries) AS bytes FROM ${table}`,
		);
		const found = new Map<string, number>();
		for (const row of result.rows) if (!marked.has(row.key)) found.set(row.key, Number(row.bytes));
		return found;
	};
	return {
		trees: await pick("trees", "oid", reachable.trees),
		chunks: await pick("tree_chunks", "id", reachable.chunks),
	};
}

/** How many trees and chunks, and their bytes. */
export function treeTally(...sets: ReadonlyArray<ReadonlyMap<string, number>>): Tally {
	const tally: Tally = { count: 0, bytes: 0 };
	for (const set of sets)
		for (const bytes of set.values()) {
			tally.count++;
			tally.bytes += bytes;
		}
	return tally;
}

/** Deletes trees and chunks by id (the caller holds the collection lock and checked they are unreachable). */
export async function deleteTrees(
	tx: Queryable,
	trees: readonly string[],
	chunks: readonly string[],
): Promise<void> {
	for (let start = 0; start < trees.length; start += MARK_BATCH)
		await tx.query("DELETE FROM trees WHERE oid = ANY($1::text[])", [trees.slice(start, start + MARK_BATCH)]);
	for (let start = 0; start < chunks.length; start += MARK_BATCH)
		await tx.query("DELETE FROM tree_chunks WHERE id = ANY($1::text[])", [
			chunks.slice(start, start + MARK_BATCH),
		]);
}
