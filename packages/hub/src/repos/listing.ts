import { readableNamespaces, type Viewer } from "../accounts/viewer.js";
import type { Queryable } from "../db/types.js";
import { encodeCursor, type CursorPosition, type Direction } from "../models/cursor.js";
import type { RepoType } from "../repo-identity.js";
import type { ModelSort } from "../vocabulary.js";
import type { ModelSibling } from "../api/models.js";
import { mainSnapshots, siblingJson, usedStorage, type FileEntry } from "./read.js";

/**
 * SQL pieces every repository type's listing and lookup share (models and datasets live in the same
 * `repos` table, aliased `m`, and page over the same sort indexes, each leading with the type).
 */

/** Adds a bound parameter and returns its placeholder (`$n`). */
export type BindParameter = (value: unknown) => string;

/** The columns every row is read with: identity and the fields access checks need. */
const IDENTITY_COLUMNS = ["m.id", "m.object_id", "m.namespace", "m.private"] as const;

/** The SELECT list for `properties`, given the SQL columns each property needs (each column once). */
export function columnsFor<Property extends string>(
	columns: Partial<Record<Property, string>>,
	properties: ReadonlySet<Property>,
): string {
	const selected = new Set<string>(IDENTITY_COLUMNS);
	for (const property of properties) {
		const column = columns[property];
		if (column) selected.add(column);
	}
	return [...selected].join(", ");
}

/** A timestamp column's value (a Date from node-postgres, a string from some drivers) as ISO 8601. */
export function isoDate(value: Date | string): string {
	return (value instanceof Date ? value : new Date(value)).toISOString();
}

/** Escapes LIKE wildcards so a search matches its text literally. */
export function likeLiteral(text: string): string {
	return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** The column (and the cast of a cursor's value) each sort key orders by; the id sort has none. */
export const SORT_COLUMNS: Record<ModelSort, { column: string | undefined; cast: string }> = {
	downloads: { column: "(m.downloads + m.downloads_recent)", cast: "bigint" },
	likes: { column: "m.likes", cast: "bigint" },
	lastModified: { column: "m.last_modified", cast: "timestamptz" },
	createdAt: { column: "m.created_at", cast: "timestamptz" },
	trendingScore: { column: "m.trending_score", cast: "bigint" },
	id: { column: undefined, cast: "" },
};

/** The property whose column a sort key orders by: a listing always reads it, as its cursor is made from it. */
export const SORT_PROPERTY: Partial<
	Record<ModelSort, "downloads" | "likes" | "lastModified" | "createdAt" | "trendingScore">
> = {
	downloads: "downloads",
	likes: "likes",
	lastModified: "lastModified",
	createdAt: "createdAt",
	trendingScore: "trendingScore",
};

/** The properties a listing reads: those asked for plus its sort key's. */
export function withSortProperty<Property extends string>(
	properties: ReadonlySet<Property>,
	sort: ModelSort,
): Set<Property | NonNullable<(typeof SORT_PROPERTY)[ModelSort]>> {
	const needed = new Set<Property | NonNullable<(typeof SORT_PROPERTY)[ModelSort]>>(properties);
	const sortProperty = SORT_PROPERTY[sort];
	if (sortProperty) needed.add(sortProperty);
	return needed;
}

/** The comparison and order of a listing's direction (-1: descending). */
export function directionSql(direction: Direction): { op: "<" | ">"; order: "DESC" | "ASC" } {
	return direction === -1 ? { op: "<", order: "DESC" } : { op: ">", order: "ASC" };
}

/**
 * Sorts whose ties go by id the other way round from the sort: descending (the default) lists equal
 * scores by id A to Z. Trending scores tie often (every score is 0 on a new hub), and ties listed Z to A
 * read as a broken sort (issue 22). Index repos_sort_trending_order (migration 22) holds this order.
 */
const IDS_AGAINST_SORT: ReadonlySet<ModelSort> = new Set<ModelSort>(["trendingScore"]);

/** The id order of a listing: the sort's own, or the other way round for IDS_AGAINST_SORT. */
function idDirection(sort: ModelSort, direction: Direction): Direction {
	return IDS_AGAINST_SORT.has(sort) ? (-direction as Direction) : direction;
}

/**
 * The ORDER BY list of a listing: its sort value (`value`, absent for the id sort) then the id, each in
 * its direction.
 */
export function keyOrderSql(
	sort: ModelSort,
	direction: Direction,
	value: string | undefined,
	id: string,
): string {
	const idOrder = `${id} ${directionSql(idDirection(sort, direction)).order}`;
	return value ? `${value} ${directionSql(direction).order}, ${idOrder}` : idOrder;
}

/**
 * The keyset condition that a row (`value`, `id`: SQL of its sort value and id) comes after the
 * position (`after`, `afterId`: placeholders) in keyOrderSql's order. When both go the same way it is
 * one row comparison; otherwise the value bound comes first, so the sort index is entered at it.
 */
export function keyAfterSql(
	sort: ModelSort,
	direction: Direction,
	value: string | undefined,
	id: string,
	after: string,
	afterId: string,
): string {
	const { op } = directionSql(direction);
	const idOp = directionSql(idDirection(sort, direction)).op;
	if (!value) return `${id} ${op} ${afterId}`;
	if (idOp === op) return `(${value}, ${id}) ${op} (${after}, ${afterId})`;
	return `(${value} ${op}= ${after} AND (${value} ${op} ${after} OR ${id} ${idOp} ${afterId}))`;
}

/** The keyset condition that rows come after `after` in the listing's (sort value, id) order. */
export function afterCondition(
	sort: ModelSort,
	direction: Direction,
	after: CursorPosition,
	param: BindParameter,
): string {
	const { column, cast } = SORT_COLUMNS[sort];
	if (!column) return keyAfterSql(sort, direction, undefined, "m.id", "", param(after.id));
	return keyAfterSql(sort, direction, column, "m.id", `${param(after.value)}::${cast}`, param(after.id));
}

/** The condition that hides private repositories from those who may not read their namespace (issue 14). */
export function readableListCondition(viewer: Viewer, param: BindParameter): string | undefined {
	const readable = readableNamespaces(viewer);
	if (readable === "all") return undefined;
	return readable.length === 0
		? "NOT m.private"
		: `(NOT m.private OR lower(m.namespace) = ANY(${param(readable)}::text[]))`;
}

/** The SQL columns of the counts and dates every repository type shows. */
export const COUNT_COLUMNS = {
	// Imported counts plus the hub's own (src/downloads/store.ts), the recent ones over 30 days.
	downloads: "(m.downloads + m.downloads_recent) AS downloads",
	downloadsAllTime: "(m.downloads + m.downloads_counted) AS downloads_all_time",
	likes: "m.likes",
	trendingScore: "m.trending_score",
	lastModified: "m.last_modified",
	createdAt: "m.created_at",
} as const;

/** The count and date columns of a row, as `COUNT_COLUMNS` reads them. */
export interface CountedRow {
	downloads?: number | string;
	downloads_all_time?: number | string;
	likes?: number | string;
	trending_score?: number | string;
	last_modified?: Date | string;
	created_at?: Date | string;
}

/** A count of a row as the API shows it (0 when the row has none). */
export function countOf(
	row: CountedRow,
	property: "downloads" | "downloadsAllTime" | "likes" | "trendingScore",
): number {
	const value =
		property === "downloads"
			? row.downloads
			: property === "downloadsAllTime"
				? row.downloads_all_time
				: property === "likes"
					? row.likes
					: row.trending_score;
	return Number(value ?? 0);
}

/** A date of a row as the API shows it (ISO 8601), when it was read. */
export function dateOf(row: CountedRow, property: "lastModified" | "createdAt"): string | undefined {
	const value = property === "lastModified" ? row.last_modified : row.created_at;
	return value === undefined ? undefined : isoDate(value);
}

/** `siblings`: each file's name, with its size, blob id and LFS details when `withBlobs`. */
export function siblingsOf(files: FileEntry[] | string[], withBlobs: boolean): ModelSibling[] {
	return files.map((file) => (typeof file === "string" ? { rfilename: file } : siblingJson(file, withBlobs)));
}

/** A listed row's value of the sort key, as cursors carry it (null for the id sort). */
export function sortValueOf(row: CountedRow, sort: ModelSort): number | string | null {
	switch (sort) {
		case "downloads":
			return Number(row.downloads);
		case "likes":
			return Number(row.likes);
		case "trendingScore":
			return Number(row.trending_score);
		case "lastModified":
			return isoDate(row.last_modified as Date | string);
		case "createdAt":
			return isoDate(row.created_at as Date | string);
		case "id":
			return null;
	}
}

/**
 * The cursor of the page after `rows` (read with one row more than `query.limit`), when there is one:
 * made from the last row shown.
 */
export function nextPageCursor(
	rows: readonly (CountedRow & { id: string })[],
	query: { sort: ModelSort; direction: Direction; limit: number },
): string | undefined {
	const last = rows[Math.min(rows.length, query.limit) - 1];
	if (rows.length <= query.limit || !last) return undefined;
	const value = sortValueOf(last, query.sort);
	return encodeCursor({ sort: query.sort, direction: query.direction, value, id: last.id });
}

/** Files-based facts of a listed repository: its main branch's commit and file names, its storage. */
export interface ListedFacts {
	sha?: string;
	files?: string[];
	usedStorage?: number;
}

/**
 * The files-based facts of a page of repositories, looked up for all of it at once (only those the
 * properties ask for: `sha`, `siblings`, `usedStorage`).
 */
export async function listedFacts(
	db: Queryable,
	type: RepoType,
	ids: readonly string[],
	properties: ReadonlySet<string>,
): Promise<(id: string) => ListedFacts> {
	const snapshots =
		properties.has("sha") || properties.has("siblings")
			? await mainSnapshots(db, type, ids, properties.has("siblings"))
			: undefined;
	const storage = properties.has("usedStorage") ? await usedStorage(db, type, ids) : undefined;
	return (id) => {
		const snapshot = snapshots?.get(id);
		const facts: ListedFacts = snapshot ? { sha: snapshot.sha, files: snapshot.files } : {};
		if (storage) facts.usedStorage = storage.get(id) ?? 0;
		return facts;
	};
}
