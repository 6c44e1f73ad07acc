import { randomUUID } from "node:crypto";
import type { Queryable } from "../db/types.js";
import { treeLinks } from "../repos/trees.js";
import type { Tally } from "./store.js";

/**
 * The tree collector's marking, kept in the database (table gc_tree_marks, migration 13) rather than in
 * memory: a run marks every commit's root tree, then follows the marks a page at a time (reading the
 * page's stored rows and marking what they link to), so that its memory is one page (MODELHUB_GC_TREE_BATCH
 * rows and their links) however many trees and commits are stored. What no mark names is unreachable.
 */

/** A run's marks older than this belong to a run that never cleaned up (a crash): removed at the next start. */
const STALE_RUN_MS = 24 * 3_600_000;

/** Starts a marking run: its id (its start time first, so that stale runs sort before a cutoff). */
export async function startMarking(db: Queryable): Promise<string> {
	const now = Date.now();
	await db.query("DELETE FROM gc_tree_marks WHERE run < $1", [new Date(now - STALE_RUN_MS).toISOString()]);
	return `${new Date(now).toISOString()} ${randomUUID()}`;
}

/** Removes a run's marks. */
export async function endMarking(db: Queryable, run: string): Promise<void> {
	await db.query("DELETE FROM gc_tree_marks WHERE run = $1", [run]);
}

/** Marks every commit's root tree (those marked already keep their mark; the new ones are to follow). */
export async function markRoots(db: Queryable, run: string): Promise<void> {
	await db.query(
		`INSERT INTO gc_tree_marks (run, chunk, id)
		SELECT DISTINCT $1, false, tree_id FROM commits ON CONFLICT DO NOTHING`,
		[run],
	);
}

/** Marks trees and chunks (those marked already are left as they are: what is under them is marked too). */
async function mark(db: Queryable, run: string, trees: readonly string[], chunks: readonly string[]) {
	if (trees.length + chunks.length === 0) return;
	await db.query(
		`INSERT INTO gc_tree_marks (run, chunk, id)
		SELECT $1, chunk, id FROM unnest($2::boolean[], $3::text[]) AS m(chunk, id) ON CONFLICT DO NOTHING`,
		[run, [...trees.map(() => false), ...chunks.map(() => true)], [...trees, ...chunks]],
	);
}

/**
 * Follows the run's marks not yet followed, `batch` at a time, until none is left: each page's stored
 * rows are read and what they link to is marked (and followed in a later page).
 */
export async function followMarks(db: Queryable, run: string, batch: number): Promise<void> {
	for (;;) {
		const page = await db.query<{ chunk: boolean; id: string }>(
			`UPDATE gc_tree_marks m SET expanded = true FROM (
				SELECT chunk, id FROM gc_tree_marks WHERE run = $1 AND NOT expanded LIMIT $2
			) p WHERE m.run = $1 AND m.chunk = p.chunk AND m.id = p.id
			RETURNING m.chunk, m.id`,
			[run, batch],
		);
		if (page.rows.length === 0) return;
		const trees = page.rows.filter((row) => !row.chunk).map((row) => row.id);
		const chunks = page.rows.filter((row) => row.chunk).map((row) => row.id);
		const rows = [
			...(trees.length === 0
				? []
				: (
						await db.query<{ entries: Uint8Array }>("SELECT entries FROM trees WHERE oid = ANY($1::text[])", [
							trees,
						])
					).rows),
			...(chunks.length === 0
				? []
				: (
						await db.query<{ entries: Uint8Array }>(
							"SELECT entries FROM tree_chunks WHERE id = ANY($1::text[])",
							[chunks],
						)
					).rows),
		];
		// Links are marked `batch` at a time too (a tree of many folders links to many).
		let linkedTrees: string[] = [];
		let linkedChunks: string[] = [];
		for (const row of rows) {
			const links = treeLinks(row.entries);
			for (const oid of links.trees) linkedTrees.push(oid);
			for (const id of links.chunks) linkedChunks.push(id);
			if (linkedTrees.length + linkedChunks.length >= batch) {
				await mark(db, run, linkedTrees, linkedChunks);
				linkedTrees = [];
				linkedChunks = [];
			}
		}
		await mark(db, run, linkedTrees, linkedChunks);
	}
}

/** The stored table, its key, and whether its rows are chunks (as marks name them). */
const STORED = [
	{ table: "trees", key: "oid", chunk: false },
	{ table: "tree_chunks", key: "id", chunk: true },
] as const;

/**
 * Counts (or with `remove`, deletes) the stored trees and chunks the run has not marked, paging through
 * each table in key order, `batch` rows at a time.
 */
export async function sweepUnmarked(
	db: Queryable,
	run: string,
	batch: number,
	remove: boolean,
): Promise<Tally> {
	const tally: Tally = { count: 0, bytes: 0 };
	for (const { table, key, chunk } of STORED) {
		const unmarked = `NOT EXISTS (SELECT 1 FROM gc_tree_marks m
			WHERE m.run = $1 AND m.chunk = ${chunk} AND m.id = t.${key})`;
		let after = "";
		for (;;) {
			const result = await db.query<{ last: string | null; count: string | number; bytes: string | number }>(
				remove
					? `WITH page AS (SELECT ${key} FROM ${table} WHERE ${key} > $2 ORDER BY ${key} LIMIT $3),
					gone AS (DELETE FROM ${table} t USING page p WHERE t.${key} = p.${key} AND ${unmarked}
						RETURNING octet_length(t.entries) AS bytes)
					SELECT (SELECT max(${key}) FROM page) AS last, (SELECT count(*) FROM gone) AS count,
						(SELECT COALESCE(sum(bytes), 0) FROM gone) AS bytes`
					: `WITH page AS (
						SELECT ${key}, octet_length(entries) AS bytes FROM ${table} WHERE ${key} > $2 ORDER BY ${key} LIMIT $3
					)
					SELECT (SELECT max(${key}) FROM page) AS last, count(*) AS count, COALESCE(sum(t.bytes), 0) AS bytes
					FROM page t WHERE ${unmarked}`,
				[run, after, batch],
			);
			const row = result.rows[0];
			if (!row || row.last === null) break;
			tally.count += Number(row.count);
			tally.bytes += Number(row.bytes);
			after = row.last;
		}
	}
	return tally;
}
