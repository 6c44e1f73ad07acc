import { canRead, readableNamespaces, type Viewer } from "../accounts/viewer.js";
import type { Queryable } from "../db/types.js";
import type { DatasetAnswer } from "../api/datasets.js";
import type { RepoType } from "../repo-identity.js";
import { listFiles, readableCondition, readableParameters, type FileEntry } from "../repos/read.js";
import type { CursorPosition, Direction } from "../models/cursor.js";
import {
	afterCondition,
	columnsFor as listedColumns,
	countOf,
	dateOf,
	siblingsOf,
	COUNT_COLUMNS,
	type CountedRow,
	keyOrderSql,
	likeLiteral,
	listedFacts,
	nextPageCursor,
	readableListCondition,
	SORT_COLUMNS,
	withSortProperty,
} from "../repos/listing.js";
import type { DatasetProperty, ModelSort } from "../vocabulary.js";
import { ABSENT_DATASET_PROPERTIES, DATASET_PROPERTY_ORDER } from "./properties.js";

/** The repository type of every statement here. */
const DATASET: RepoType = "dataset";

interface DatasetRow extends CountedRow {
	id: string;
	object_id: string | null;
	namespace: string | null;
	private: boolean;
	gated?: "auto" | "manual" | null;
	tags?: string[];
	card_data?: Record<string, unknown> | null;
	derived?: { description?: unknown; citation?: unknown } | null;
}

/** The SQL columns each property needs (files-based properties are looked up separately). */
const COLUMNS: Partial<Record<DatasetProperty, string>> = {
	tags: "m.tags",
	cardData: "m.card_data",
	paperswithcode_id: "m.card_data",
	// The card's prose and citation, which analysis keeps with its derivation (src/services/analysis.ts).
	description:
		"(SELECT a.derived FROM repo_analysis a WHERE a.repo_type = m.type AND a.repo_id = m.id) AS derived",
	citation:
		"(SELECT a.derived FROM repo_analysis a WHERE a.repo_type = m.type AND a.repo_id = m.id) AS derived",
	gated: "m.gated",
	...COUNT_COLUMNS,
};

function columnsFor(properties: ReadonlySet<DatasetProperty>): string {
	return listedColumns(COLUMNS, properties);
}

/** Files-based facts of a dataset, looked up after its row. */
interface DatasetFacts {
	sha?: string;
	files?: FileEntry[] | string[];
	withBlobs?: boolean;
	usedStorage?: number;
}

function derivedText(row: DatasetRow, key: "description" | "citation"): string | undefined {
	const value = row.derived?.[key];
	return typeof value === "string" && value !== "" ? value : undefined;
}

function render(
	row: DatasetRow,
	properties: ReadonlySet<DatasetProperty>,
	facts: DatasetFacts,
): DatasetAnswer {
	// `_id` first, as the public hub's JSON has it.
	const dataset = (
		row.object_id !== null ? { _id: row.object_id, id: row.id } : { id: row.id }
	) as DatasetAnswer;
	for (const property of DATASET_PROPERTY_ORDER) {
		if (!properties.has(property) || ABSENT_DATASET_PROPERTIES.has(property)) continue;
		switch (property) {
			case "author":
				if (row.namespace !== null) dataset.author = row.namespace;
				break;
			case "sha":
				if (facts.sha !== undefined) dataset.sha = facts.sha;
				break;
			case "lastModified":
			case "createdAt": {
				const date = dateOf(row, property);
				if (date !== undefined) dataset[property] = date;
				break;
			}
			case "private":
				dataset.private = row.private;
				break;
			case "gated":
				dataset.gated = row.gated ?? false;
				break;
			// The hub has no disabled repositories.
			case "disabled":
				dataset.disabled = false;
				break;
			case "citation":
			case "description": {
				const text = derivedText(row, property);
				if (text !== undefined) dataset[property] = text;
				break;
			}
			case "downloads":
			case "downloadsAllTime":
			case "likes":
			case "trendingScore":
				dataset[property] = countOf(row, property);
				break;
			case "paperswithcode_id": {
				const id = row.card_data?.paperswithcode_id;
				if (typeof id === "string" && id !== "") dataset.paperswithcode_id = id;
				break;
			}
			case "tags":
				dataset.tags = row.tags ?? [];
				break;
			case "cardData":
				if (row.card_data != null) dataset.cardData = row.card_data;
				break;
			case "siblings":
				if (facts.files !== undefined) dataset.siblings = siblingsOf(facts.files, facts.withBlobs === true);
				break;
			case "usedStorage":
				if (facts.usedStorage !== undefined) dataset.usedStorage = facts.usedStorage;
				break;
			case "mainSize":
				if (facts.files !== undefined) {
					dataset.mainSize = facts.files.reduce(
						(total, file) => total + (typeof file === "string" ? 0 : file.size),
						0,
					);
				}
				break;
		}
	}
	return dataset;
}

export interface DatasetInfoOptions {
	/** Who asks: a private dataset they may not read is answered as missing. */
	viewer: Viewer;
	properties: ReadonlySet<DatasetProperty>;
	/** The commit whose files and sha to show (the main branch when undefined). */
	commitId?: string;
	/** `blobs=true`: size, blob id and LFS details of each file. */
	withBlobs?: boolean;
}

/** One dataset (case-insensitive id) in the shape of `GET /api/datasets/{id}`, or undefined. */
export async function getDataset(
	db: Queryable,
	id: string,
	options: DatasetInfoOptions,
): Promise<DatasetAnswer | undefined> {
	const { properties } = options;
	const wantsFiles = properties.has("siblings") || properties.has("mainSize");
	const wantsSha = properties.has("sha") || wantsFiles;
	const extra: string[] = [];
	if (wantsSha && options.commitId === undefined) {
		extra.push(`(SELECT r.commit_id FROM refs r WHERE r.repo_type = m.type AND r.repo_id = m.id
			AND r.kind = 'branch' AND r.name = 'main') AS main_sha`);
	}
	if (properties.has("usedStorage")) {
		extra.push(`(SELECT COALESCE(sum(b.size), 0) FROM repo_blobs d JOIN blobs b ON b.sha256 = d.sha256
			WHERE d.repo_type = m.type AND d.repo_id = m.id) AS used_storage`);
	}
	// Hidden datasets are filtered in the query itself: a private one the viewer may not read costs what
	// a missing one costs (as for models, issue 21).
	const result = await db.query<DatasetRow & { main_sha?: string | null; used_storage?: number | string }>(
		`SELECT ${[columnsFor(properties), ...extra].join(", ")} FROM repos m
		WHERE m.type = $1 AND lower(m.id) = lower($2) AND ${readableCondition(3)}`,
		[DATASET, id, ...readableParameters(readableNamespaces(options.viewer))],
	);
	const row = result.rows[0];
	if (!row || !canRead(options.viewer, { namespace: row.namespace, private: row.private })) return undefined;
	const facts: DatasetFacts = { withBlobs: options.withBlobs === true };
	const commitId = options.commitId ?? row.main_sha ?? undefined;
	if (commitId !== undefined) {
		facts.sha = commitId;
		if (wantsFiles) facts.files = await listFiles(db, { type: DATASET, id: row.id }, commitId);
	}
	if (properties.has("usedStorage")) facts.usedStorage = Number(row.used_storage ?? 0);
	return render(row, properties, facts);
}

export interface DatasetListQuery {
	/** Who asks: private datasets appear only to those who may read them. */
	viewer: Viewer;
	/** Every term must occur in the id (case-insensitively). */
	searchTerms?: string[];
	/** Every value must be one of the dataset's tags. */
	filters?: string[];
	author?: string;
	/** `gated=true`: gated datasets only; `gated=false`: the others. */
	gated?: boolean;
	sort: ModelSort;
	direction: Direction;
	limit: number;
	after?: CursorPosition;
	properties: ReadonlySet<DatasetProperty>;
}

export interface DatasetListPage {
	datasets: DatasetAnswer[];
	/** The cursor of the next page, when there is one. */
	next?: string;
}

/** What a listing and a count filter by (no sort, no paging). */
export type DatasetFilters = Pick<
	DatasetListQuery,
	"viewer" | "searchTerms" | "filters" | "author" | "gated"
>;

/** The WHERE conditions of `filters`, the type first (every sort index leads with it). */
function filterConditions(filters: DatasetFilters, param: (value: unknown) => string): string[] {
	const where = [`m.type = ${param(DATASET)}`];
	for (const term of filters.searchTerms ?? []) {
		where.push(`lower(m.id) LIKE ${param(`%${likeLiteral(term.toLowerCase())}%`)} ESCAPE '\\'`);
	}
	if (filters.filters && filters.filters.length > 0)
		where.push(`m.filter_tags @> ${param(filters.filters)}::text[]`);
	const readable = readableListCondition(filters.viewer, param);
	if (readable) where.push(readable);
	if (filters.author) where.push(`lower(m.namespace) = lower(${param(filters.author)})`);
	if (filters.gated !== undefined) where.push(filters.gated ? "m.gated IS NOT NULL" : "m.gated IS NULL");
	return where;
}

/**
 * How many datasets match `filters`, counting no further than `cap` (then `exact: false`), as the model
 * count does (`GET /api/datasets-count`).
 */
export async function countDatasets(
	db: Queryable,
	filters: DatasetFilters,
	cap: number,
): Promise<{ count: number; exact: boolean }> {
	const params: unknown[] = [];
	const param = (value: unknown): string => {
		params.push(value);
		return `$${params.length}`;
	};
	const where = filterConditions(filters, param);
	const limit = param(cap + 1);
	const result = await db.query<{ n: number | string }>(
		`SELECT count(*) AS n FROM (SELECT 1 FROM repos m WHERE ${where.join(" AND ")} LIMIT ${limit}) matches`,
		params,
	);
	const n = Number(result.rows[0]?.n ?? 0);
	return n > cap ? { count: cap, exact: false } : { count: n, exact: true };
}

/**
 * A page of datasets, ordered by (sort value, id), continuing after `query.after` (keyset paging on the
 * same sort indexes as models: each leads with the type).
 */
export async function listDatasets(db: Queryable, query: DatasetListQuery): Promise<DatasetListPage> {
	const params: unknown[] = [];
	const param = (value: unknown): string => {
		params.push(value);
		return `$${params.length}`;
	};
	const where = filterConditions(query, param);
	const { column } = SORT_COLUMNS[query.sort];
	if (query.after) where.push(afterCondition(query.sort, query.direction, query.after, param));
	const needed = withSortProperty(query.properties, query.sort);
	const result = await db.query<DatasetRow>(
		`SELECT ${columnsFor(needed)} FROM repos m WHERE ${where.join(" AND ")}
		ORDER BY ${keyOrderSql(query.sort, query.direction, column, "m.id")} LIMIT ${param(query.limit + 1)}`,
		params,
	);
	const rows = result.rows.slice(0, query.limit);
	const { properties } = query;
	const factsOf = await listedFacts(
		db,
		DATASET,
		rows.map((row) => row.id),
		properties,
	);
	const datasets = rows.map((row) => render(row, properties, factsOf(row.id)));
	const page: DatasetListPage = { datasets };
	const next = nextPageCursor(result.rows, query);
	if (next) page.next = next;
	return page;
}
