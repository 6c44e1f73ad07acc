import type { Queryable } from "../db/types.js";
import type { ShardTerm } from "./shard.js";
import type { StoredXorb } from "./store.js";
import { unpackU32 } from "./xorb.js";

/**
 * Files uploaded through Xet, kept as their recipes (`xet_file_terms`): the file is the concatenation of
 * its terms, each a chunk range of a stored xorb. Downloads read the xorbs' chunks (src/xet/serve.ts)
 * instead of a second full copy of every file (issue 21: a Xet upload wrote each file twice, its xorbs
 * and the rebuilt file).
 */

/** One term of a file's recipe, as kept. */
export interface RecipeTerm {
	/** Where the term's bytes start in the file. */
	fileOffset: number;
	/** Its uncompressed bytes. */
	size: number;
	/** The xorb's stored bytes (xet_xorbs.blob_sha256). */
	xorbSha256: string;
	chunkStart: number;
	chunkEnd: number;
}

/** A recipe's terms, from a shard's (checked against the xorbs by planRebuild). */
export function recipeOf(terms: readonly ShardTerm[], xorbs: ReadonlyMap<string, StoredXorb>): RecipeTerm[] {
	let fileOffset = 0;
	return terms.map((term) => {
		const recipe: RecipeTerm = {
			fileOffset,
			size: term.size,
			xorbSha256: (xorbs.get(term.xorb) as StoredXorb).blobSha256,
			chunkStart: term.chunkStart,
			chunkEnd: term.chunkEnd,
		};
		fileOffset += term.size;
		return recipe;
	});
}

/** Terms inserted per statement: 6 parameters each (PostgreSQL allows 65,535 a statement). */
const TERMS_PER_STATEMENT = 5000;

/**
 * Records a file's recipe unless it has one. The caller's transaction holds the file's `blobs` row
 * (touchBlobs updates it, which locks it): two uploads of one file then record one recipe, never a mix.
 * True when this call recorded it.
 */
export async function recordRecipe(
	tx: Queryable,
	sha256: string,
	terms: readonly RecipeTerm[],
): Promise<boolean> {
	const held = await tx.query("SELECT 1 FROM xet_file_terms WHERE file_sha256 = $1 LIMIT 1", [sha256]);
	if (held.rows.length > 0) return false;
	for (let start = 0; start < terms.length; start += TERMS_PER_STATEMENT) {
		const part = terms.slice(start, start + TERMS_PER_STATEMENT);
		await tx.query(
			`INSERT INTO xet_file_terms (file_sha256, position, file_offset, size, xorb_sha256, chunk_start, chunk_end)
			SELECT $1, p, o, z, x, s, e FROM unnest($2::int[], $3::bigint[], $4::bigint[], $5::text[], $6::int[], $7::int[])
				AS t(p, o, z, x, s, e)`,
			[
				sha256,
				part.map((_, index) => start + index),
				part.map((term) => term.fileOffset),
				part.map((term) => term.size),
				part.map((term) => term.xorbSha256),
				part.map((term) => term.chunkStart),
				part.map((term) => term.chunkEnd),
			],
		);
	}
	return true;
}

/** Whether the blob is kept as a recipe. */
export async function holdsRecipe(db: Queryable, sha256: string): Promise<boolean> {
	const result = await db.query("SELECT 1 FROM xet_file_terms WHERE file_sha256 = $1 LIMIT 1", [sha256], {
		prepare: true,
	});
	return result.rows.length > 0;
}

/** Which of these blobs (by SHA-256) are kept as Xet recipes: one query by the primary key. */
export async function recipesAmong(db: Queryable, sha256s: readonly string[]): Promise<Set<string>> {
	if (sha256s.length === 0) return new Set();
	const result = await db.query<{ file_sha256: string }>(
		"SELECT DISTINCT file_sha256 FROM xet_file_terms WHERE file_sha256 = ANY($1::text[]) AND position = 0",
		[[...new Set(sha256s)]],
	);
	return new Set(result.rows.map((row) => row.file_sha256));
}

/** The chunk layout of stored xorbs (by their blob's SHA-256), as their upload recorded it. */
export type XorbLayouts = ReadonlyMap<string, { chunkOffsets: number[]; chunkSizes: number[] }>;

/**
 * The terms of a file's recipe that hold bytes in `start` ≤ byte < `end` (all of them without a range),
 * in order, with the layouts of the xorbs they name; undefined when the blob has no recipe.
 */
export async function recipeTerms(
	db: Queryable,
	sha256: string,
	range?: { start: number; end: number },
): Promise<{ terms: RecipeTerm[]; layouts: XorbLayouts } | undefined> {
	const result = await db.query<{
		file_offset: string | number;
		size: string | number;
		xorb_sha256: string;
		chunk_start: number;
		chunk_end: number;
	}>(
		`SELECT file_offset, size, xorb_sha256, chunk_start, chunk_end FROM xet_file_terms
		WHERE file_sha256 = $1 AND file_offset + size > $2 AND file_offset < $3 ORDER BY position`,
		[sha256, range?.start ?? 0, range?.end ?? Number.MAX_SAFE_INTEGER],
		{ prepare: true },
	);
	if (result.rows.length === 0) {
		// An empty range of a file with a recipe, or no recipe at all.
		return range && range.end <= range.start && (await holdsRecipe(db, sha256))
			? { terms: [], layouts: new Map() }
			: undefined;
	}
	const terms = result.rows.map((row) => ({
		fileOffset: Number(row.file_offset),
		size: Number(row.size),
		xorbSha256: row.xorb_sha256,
		chunkStart: Number(row.chunk_start),
		chunkEnd: Number(row.chunk_end),
	}));
	// Any account's row for these bytes: a xorb's layout is a function of its bytes.
	const layouts = await db.query<{ blob_sha256: string; chunk_offsets: Uint8Array; chunk_sizes: Uint8Array }>(
		`SELECT DISTINCT ON (blob_sha256) blob_sha256, chunk_offsets, chunk_sizes FROM xet_xorbs
		WHERE blob_sha256 = ANY($1::text[])`,
		[[...new Set(terms.map((term) => term.xorbSha256))]],
	);
	return {
		terms,
		layouts: new Map(
			layouts.rows.map((row) => [
				row.blob_sha256,
				{ chunkOffsets: unpackU32(row.chunk_offsets), chunkSizes: unpackU32(row.chunk_sizes) },
			]),
		),
	};
}
