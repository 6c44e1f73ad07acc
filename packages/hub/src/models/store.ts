import { canRead, readableNamespaces, type Viewer } from "../accounts/viewer.js";
import { PG_UNIQUE_VIOLATION, pgErrorCode, type Queryable } from "../db/types.js";
import { ConflictError } from "../errors.js";
import type { RepoType } from "../repo-identity.js";
import {
	listFiles,
	listTreeFiles,
	readableCondition,
	readableParameters,
	type FileEntry,
} from "../repos/read.js";
import {
	afterCondition,
	columnsFor as listedColumns,
	countOf,
	dateOf,
	siblingsOf,
	COUNT_COLUMNS,
	type CountedRow,
	keyAfterSql,
	keyOrderSql,
	likeLiteral,
	listedFacts,
	nextPageCursor,
	readableListCondition,
	SORT_COLUMNS,
	sortValueOf,
	withSortProperty,
} from "../repos/listing.js";
import { GENERATED_COMMIT_TITLES, HUB_AUTHOR_TEXT } from "../repos/catalogue-commit.js";
import type { ModelProperty, ModelSort as SortKey } from "../vocabulary.js";
import type { CursorPosition, Direction } from "./cursor.js";
import type { PipelineType } from "@modelhub/tasks";
import type {
	GgufInfo,
	ListedModel,
	ListedProviderMapping,
	ModelAnswer,
	ModelCount,
	ModelInfo,
	ProviderMapping,
	ProviderMappingEntry,
	SafetensorsInfo,
	TransformersInfo,
} from "../api/models.js";
import type { ModelRecord } from "./input.js";
import { ABSENT_PROPERTIES, PROPERTY_ORDER } from "./properties.js";

/** The repository type of every statement here (bound as a parameter, as the other types' will be). */
const MODEL: RepoType = "model";

interface ModelRow extends CountedRow {
	id: string;
	object_id: string | null;
	namespace: string | null;
	pipeline_tag?: PipelineType | null;
	library_name?: string | null;
	tags?: string[];
	config?: Record<string, unknown> | null;
	card_data?: Record<string, unknown> | null;
	widget_data?: unknown[] | null;
	transformers_info?: TransformersInfo | null;
	safetensors?: SafetensorsInfo | null;
	gguf?: GgufInfo | null;
	mask_token?: string | null;
	private?: boolean;
	gated?: "auto" | "manual" | null;
	mappings?: MappingRow[] | string | null;
	warm?: boolean;
}

interface MappingRow {
	provider: string;
	providerId: string;
	task: string;
	status: "live" | "staging";
	adapter: string | null;
	adapterWeightsPath: string | null;
}

const MAPPINGS_SQL = `(SELECT json_agg(json_build_object('provider', p.provider, 'providerId', p.provider_id, 'task', p.task,
	'status', p.status, 'adapter', p.adapter, 'adapterWeightsPath', p.adapter_weights_path) ORDER BY p.position, p.provider)
	FROM provider_mappings p WHERE p.repo_type = m.type AND p.repo_id = m.id) AS mappings`;
const WARM_SQL =
	"EXISTS (SELECT 1 FROM provider_mappings p WHERE p.repo_type = m.type AND p.repo_id = m.id AND p.status = 'live') AS warm";

/** The SQL columns each property needs (files-based properties are looked up separately). */
const COLUMNS: Partial<Record<ModelProperty, string>> = {
	pipeline_tag: "m.pipeline_tag",
	library_name: "m.library_name",
	tags: "m.tags",
	config: "m.config",
	cardData: "m.card_data",
	"model-index": "m.card_data",
	widgetData: "m.widget_data",
	transformersInfo: "m.transformers_info",
	safetensors: "m.safetensors",
	gguf: "m.gguf",
	mask_token: "m.mask_token",
	...COUNT_COLUMNS,
	private: "m.private",
	gated: "m.gated",
	inference: WARM_SQL,
	inferenceProviderMapping: MAPPINGS_SQL,
};

function columnsFor(properties: ReadonlySet<ModelProperty>): string {
	return listedColumns(COLUMNS, properties);
}

function mappingRows(rows: ModelRow["mappings"]): MappingRow[] {
	return typeof rows === "string" ? (JSON.parse(rows) as MappingRow[]) : (rows ?? []);
}

function publicMapping(row: MappingRow): ProviderMappingEntry {
	const mapping: ProviderMappingEntry = { providerId: row.providerId, task: row.task, status: row.status };
	if (row.adapter !== null) mapping.adapter = row.adapter;
	if (row.adapterWeightsPath !== null) mapping.adapterWeightsPath = row.adapterWeightsPath;
	return mapping;
}

/** The mapping as model info shows it: an object keyed by provider, in preference order. */
function mappingObject(rows: ModelRow["mappings"]): ProviderMapping {
	const out: ProviderMapping = {};
	for (const row of mappingRows(rows)) out[row.provider] = publicMapping(row);
	return out;
}

/** The mapping as listings show it: an array of `{ provider, … }` (huggingface_hub reads both forms). */
function mappingArray(rows: ModelRow["mappings"]): ListedProviderMapping[] {
	return mappingRows(rows).map((row) => ({ provider: row.provider, ...publicMapping(row) }));
}

/** Files-based facts of a model, looked up after its row. */
export interface RepoFacts {
	sha?: string;
	files?: FileEntry[] | string[];
	withBlobs?: boolean;
	usedStorage?: number;
	/** The revision is an import's generated first commit: the model carries only metadata. */
	metadataOnly?: boolean;
}

/**
 * Whether `commitId` is the commit an import generates for a model without files of its own (by the
 * hub, no parent, one of the generator's titles; repos/catalogue-commit.ts).
 */
async function isGeneratedCommit(db: Queryable, repo: { type: RepoType; id: string }, commitId: string) {
	const result = await db.query<{ generated: boolean }>(
		`SELECT (parent_id IS NULL AND author = $4 AND title = ANY($5::text[])) AS generated
		FROM commits WHERE repo_type = $1 AND repo_id = $2 AND id = $3`,
		[repo.type, repo.id, commitId, HUB_AUTHOR_TEXT, Object.values(GENERATED_COMMIT_TITLES)],
	);
	return result.rows[0]?.generated === true;
}

/** A model row as the API shows it; `mappings` gives the provider mapping in the route's form. */
function render<Mapping>(
	row: ModelRow,
	properties: ReadonlySet<ModelProperty>,
	mappings: (rows: ModelRow["mappings"]) => Mapping,
	repo: RepoFacts,
): ModelAnswer<Mapping> {
	// Filled in PROPERTY_ORDER (the JSON's order); the fields every answer has are in every property set.
	const model = {} as ModelAnswer<Mapping>;
	if (row.object_id !== null) model._id = row.object_id;
	model.id = row.id;
	model.modelId = row.id;
	for (const property of PROPERTY_ORDER) {
		if (!properties.has(property) || ABSENT_PROPERTIES.has(property)) continue;
		switch (property) {
			case "author":
				if (row.namespace !== null) model.author = row.namespace;
				break;
			case "sha":
				if (repo.sha !== undefined) model.sha = repo.sha;
				break;
			case "pipeline_tag":
				if (row.pipeline_tag != null) model.pipeline_tag = row.pipeline_tag;
				break;
			case "library_name":
				if (row.library_name != null) model.library_name = row.library_name;
				break;
			case "mask_token":
				if (row.mask_token != null) model.mask_token = row.mask_token;
				break;
			case "tags":
				model.tags = row.tags ?? [];
				break;
			case "config":
				if (row.config != null) model.config = row.config;
				break;
			case "gguf":
				if (row.gguf != null) model.gguf = row.gguf;
				break;
			case "safetensors":
				if (row.safetensors != null) model.safetensors = row.safetensors;
				break;
			case "cardData":
				if (row.card_data != null) model.cardData = row.card_data;
				break;
			case "model-index":
				if (row.card_data?.["model-index"] != null) model["model-index"] = row.card_data["model-index"];
				break;
			case "widgetData":
				if (row.widget_data != null) model.widgetData = row.widget_data;
				break;
			case "transformersInfo":
				if (row.transformers_info != null) model.transformersInfo = row.transformers_info;
				break;
			case "downloads":
			case "downloadsAllTime":
			case "likes":
			case "trendingScore":
				model[property] = countOf(row, property);
				break;
			case "lastModified":
			case "createdAt": {
				const date = dateOf(row, property);
				if (date !== undefined) model[property] = date;
				break;
			}
			case "private":
				model.private = row.private ?? false;
				break;
			case "gated":
				model.gated = row.gated ?? false;
				break;
			// The hub has no disabled repositories.
			case "disabled":
				model.disabled = false;
				break;
			case "inference":
				if (row.warm) model.inference = "warm";
				break;
			case "inferenceProviderMapping":
				model.inferenceProviderMapping = mappings(row.mappings);
				break;
			case "siblings":
				if (repo.files !== undefined) model.siblings = siblingsOf(repo.files, repo.withBlobs === true);
				break;
			case "usedStorage":
				if (repo.usedStorage !== undefined) model.usedStorage = repo.usedStorage;
				break;
		}
	}
	if (repo.metadataOnly === true) model.metadataOnly = true;
	return model;
}

/**
 * Root trees up to this size are read with the model they belong to (a stored row this small is kept
 * in the table's own page, not TOASTed: reading it costs the lookup no extra page); larger ones, and
 * chunked ones, are loaded after it (usually from the tree cache).
 */
const ROOT_ROW_BYTES = 2000;

const USED_STORAGE_SQL = `SELECT COALESCE(sum(b.size), 0) FROM repo_blobs d JOIN blobs b ON b.sha256 = d.sha256
	WHERE d.repo_type = m.type AND d.repo_id = m.id`;

export interface InfoOptions {
	/** Who asks: a private model they may not read is answered as missing. */
	viewer: Viewer;
	properties: ReadonlySet<ModelProperty>;
	/** The commit whose files and sha to show (the main branch when undefined). */
	commitId?: string;
	/** `blobs=true`: size, blob id and LFS details of each file. */
	withBlobs?: boolean;
	/** `securityStatus=true`. */
	securityStatus?: boolean;
}

/** One model (case-insensitive id) in the shape of `GET /api/models/{id}`, or undefined. */
export async function getModel(
	db: Queryable,
	id: string,
	options: InfoOptions,
): Promise<ModelInfo | undefined> {
	const wantsSha = options.properties.has("sha") || options.properties.has("siblings");
	const wantsFiles = options.properties.has("siblings");
	const params: unknown[] = [MODEL, id, ...readableParameters(readableNamespaces(options.viewer))];
	const param = (value: unknown): string => {
		params.push(value);
		return `$${params.length}`;
	};
	// The main branch's commit, whether it is an import's generated one, its root tree (the stored row
	// too, when small) and the storage used come in the same statement as the model: one statement per
	// lookup of a typical repository instead of three (at 50 connections on a million models, each extra
	// statement queued for the pool: issue 21).
	const extra: string[] = [];
	let mainJoin = "";
	if (wantsSha && options.commitId === undefined) {
		extra.push("main.commit_id AS main_sha");
		const files = wantsFiles
			? `, (c.parent_id IS NULL AND c.author = ${param(HUB_AUTHOR_TEXT)} AND c.title = ANY(${param(
					Object.values(GENERATED_COMMIT_TITLES),
				)}::text[])) AS generated, c.tree_id, CASE WHEN octet_length(t.entries) <= ${ROOT_ROW_BYTES}
					AND substring(t.entries FROM 1 FOR 1) <> '\\x03'::bytea THEN encode(t.entries, 'base64') END AS root_row`
			: "";
		if (wantsFiles)
			extra.push("main.generated AS main_generated", "main.tree_id AS main_tree", "main.root_row");
		mainJoin = ` LEFT JOIN LATERAL (SELECT r.commit_id${files} FROM refs r${
			wantsFiles
				? " JOIN commits c ON c.repo_type = r.repo_type AND c.repo_id = r.repo_id AND c.id = r.commit_id" +
					" LEFT JOIN trees t ON t.oid = c.tree_id"
				: ""
		} WHERE r.repo_type = m.type AND r.repo_id = m.id AND r.kind = 'branch' AND r.name = 'main') main ON true`;
	}
	if (options.properties.has("usedStorage")) extra.push(`(${USED_STORAGE_SQL}) AS used_storage`);
	const result = await db.query<
		ModelRow & {
			main_sha?: string | null;
			main_generated?: boolean | null;
			main_tree?: string | null;
			root_row?: string | null;
			used_storage?: number | string | null;
		}
	>(
		// Hidden models are filtered in the query itself: a private model the viewer may not read costs
		// what a missing one costs, so timing does not reveal that it exists (issue 21).
		`SELECT ${[columnsFor(options.properties), ...extra].join(", ")} FROM repos m${mainJoin}
		WHERE m.type = $1 AND lower(m.id) = lower($2) AND ${readableCondition(3)}`,
		params,
		{ prepare: true },
	);
	const row = result.rows[0];
	if (!row || !canRead(options.viewer, { namespace: row.namespace, private: row.private === true }))
		return undefined;
	const repo: RepoFacts = { withBlobs: options.withBlobs === true };
	const commitId = options.commitId ?? row.main_sha ?? undefined;
	if (commitId !== undefined) {
		repo.sha = commitId;
		if (wantsFiles && options.commitId === undefined) {
			repo.files = row.main_tree ? await listTreeFiles(db, row.main_tree, row.root_row) : [];
			repo.metadataOnly = row.main_generated === true;
		} else if (wantsFiles) {
			repo.files = await listFiles(db, { type: MODEL, id: row.id }, commitId);
			repo.metadataOnly = await isGeneratedCommit(db, { type: MODEL, id: row.id }, commitId);
		}
	}
	if (options.properties.has("usedStorage")) repo.usedStorage = Number(row.used_storage ?? 0);
	const model = render(row, options.properties, mappingObject, repo);
	// This hub runs no security scans: it says so rather than claiming clean results.
	if (options.securityStatus) model.securityRepoStatus = { scansDone: false, filesWithIssues: [] };
	return model;
}

export type ProviderFilter = { kind: "all" } | { kind: "some"; providers: string[] };

export interface ListQuery {
	/** Who asks: private models appear only to those who may read them. */
	viewer: Viewer;
	/** Every term must occur in the id (case-insensitively). */
	searchTerms?: string[];
	/** Every value must be the model's pipeline tag, its library or one of its tags. */
	filters?: string[];
	pipelineTag?: string;
	library?: string;
	author?: string;
	/** Models served live by any of these providers (or by any provider). */
	providers?: ProviderFilter;
	/** `gated=true`: gated models only; `gated=false`: the others. */
	gated?: boolean;
	numParameters?: { min?: number; max?: number };
	sort: SortKey;
	direction: Direction;
	limit: number;
	after?: CursorPosition;
	properties: ReadonlySet<ModelProperty>;
}

export interface ListPage {
	models: ListedModel[];
	/** The cursor of the next page, when there is one. */
	next?: string;
}

/** Rows of the sort index a listing walks before it falls back to collecting every match. */
const SORTED_SCAN = 20_000;
/**
 * Ids of the sort index a search walks at most (index only, about 1 µs each) before it collects its
 * matches through the trigram index instead (about 10 µs a candidate, each read from its row): past this
 * the words are rare enough that collecting costs less.
 */
const SEARCH_WALK_LIMIT = 150_000;
/** How much further than the matching rate promises a page a second walk goes. */
const WALK_MARGIN = 1.25;

/** The filters of a listing (everything but sort and paging). */
export type ModelFilters = Omit<ListQuery, "sort" | "direction" | "limit" | "after" | "properties">;

/** The bound LIKE patterns of a listing's search words (each must occur in the id, case-insensitively). */
function searchPatterns(query: ModelFilters, param: (value: unknown) => string): string[] {
	return (query.searchTerms ?? []).map((term) => param(`%${likeLiteral(term.toLowerCase())}%`));
}

/** The condition that the id of the rows aliased `alias` matches a search pattern. */
function idMatches(alias: string, pattern: string): string {
	return `lower(${alias}.id) LIKE ${pattern} ESCAPE '\\'`;
}

/** The WHERE conditions of a listing's filters; `param` adds a bound parameter and returns its placeholder. */
function filterConditions(query: ModelFilters, param: (value: unknown) => string): string[] {
	return [
		...searchPatterns(query, param).map((pattern) => idMatches("m", pattern)),
		...tagConditions(query, param)("m"),
		...rowConditions(query, param),
	];
}

/**
 * The condition on `filter=` values (each must be the model's pipeline tag, library or one of its tags),
 * for the rows or index entries of an alias: the downloads index carries the tags (migration 11).
 */
function tagConditions(query: ModelFilters, param: (value: unknown) => string): (alias: string) => string[] {
	if (!query.filters || query.filters.length === 0) return () => [];
	const values = param(query.filters);
	return (alias) => [`${alias}.filter_tags @> ${values}::text[]`];
}

/** The conditions of a listing's filters but its search words and tags: they read more of a row. */
function rowConditions(query: ModelFilters, param: (value: unknown) => string): string[] {
	const where: string[] = [];
	// Private models only for readers of their namespace (issue 14): listings and counts alike.
	const readable = readableListCondition(query.viewer, param);
	if (readable) where.push(readable);
	if (query.pipelineTag) where.push(`m.pipeline_tag = ${param(query.pipelineTag)}`);
	if (query.library) where.push(`m.library_name = ${param(query.library)}`);
	if (query.author) where.push(`lower(m.namespace) = lower(${param(query.author)})`);
	if (query.providers) {
		const which =
			query.providers.kind === "some"
				? ` AND p.provider = ANY(${param(query.providers.providers)}::text[])`
				: "";
		where.push(
			`EXISTS (SELECT 1 FROM provider_mappings p WHERE p.repo_type = m.type AND p.repo_id = m.id AND p.status = 'live'${which})`,
		);
	}
	if (query.gated !== undefined) where.push(query.gated ? "m.gated IS NOT NULL" : "m.gated IS NULL");
	if (query.numParameters?.min !== undefined)
		where.push(`m.num_parameters >= ${param(query.numParameters.min)}`);
	if (query.numParameters?.max !== undefined)
		where.push(`m.num_parameters <= ${param(query.numParameters.max)}`);
	return where;
}

/**
 * How many models match a listing's filters, counted up to `cap` (so a count over a huge hub stays a
 * bounded walk): `{ count, exact: true }`, or `{ count: cap, exact: false }` when there are more.
 */
export async function countMatchingModels(
	db: Queryable,
	query: ModelFilters,
	cap: number,
): Promise<ModelCount> {
	const params: unknown[] = [];
	const param = (value: unknown): string => {
		params.push(value);
		return `$${params.length}`;
	};
	const where = [`m.type = ${param(MODEL)}`, ...filterConditions(query, param)];
	const limit = param(cap + 1);
	const result = await db.query<{ n: number | string }>(
		`SELECT count(*) AS n FROM (SELECT 1 FROM repos m WHERE ${where.join(" AND ")} LIMIT ${limit}) matches`,
		params,
	);
	const n = Number(result.rows[0]?.n ?? 0);
	return n > cap ? { count: cap, exact: false } : { count: n, exact: true };
}

/** A page of models, ordered by (sort value, id), continuing after `query.after`. */
export async function listModels(db: Queryable, query: ListQuery): Promise<ListPage> {
	const params: unknown[] = [];
	const param = (value: unknown): string => {
		params.push(value);
		return `$${params.length}`;
	};
	// Every sort index leads with the type, so the type is the first condition of each statement.
	const type = `m.type = ${param(MODEL)}`;
	const patterns = searchPatterns(query, param);
	const tagsOf = tagConditions(query, param);
	const tags = tagsOf("w");
	const rest = rowConditions(query, param);
	const where = [...patterns.map((pattern) => idMatches("m", pattern)), ...tagsOf("m"), ...rest];

	const { column, cast } = SORT_COLUMNS[query.sort];
	const filters = [...where];
	const cursor = query.after ? afterCondition(query.sort, query.direction, query.after, param) : undefined;
	// The sort column is always read: the cursor is made from it.
	const properties = new Set(query.properties);
	const needed = withSortProperty(properties, query.sort);
	const orderBy = ` ORDER BY ${keyOrderSql(query.sort, query.direction, column, "m.id")}`;
	const limit = param(query.limit + 1);
	const all = [type, ...filters, ...(cursor ? [cursor] : [])];
	const direct = `SELECT ${columnsFor(needed)} FROM repos m WHERE ${all.join(" AND ")}${orderBy} LIMIT ${limit}`;

	// Search words, tag filters, providers and parameter counts may match many models or almost none,
	// and the planner cannot tell which: at a million models, walking the sort index for a filter that
	// matches nothing reads every row, and collecting and sorting every match of a common filter takes a
	// second. So the walk goes first, over a bounded stretch of the sort index (stopping at a page);
	// when it finds less than a page, the filter is rare, and its matches are collected through the
	// filter indexes (GIN, trigram) and then sorted: few rows, cheap.
	const broad =
		(query.searchTerms?.length ?? 0) > 0 ||
		(query.filters?.length ?? 0) > 0 ||
		query.providers !== undefined ||
		query.numParameters !== undefined;
	let result: { rows: ModelRow[] } | undefined;
	if (broad && !query.author && filters.length > 0) {
		// A number of the hub's own, written into the statement (the direct query has no such parameter).
		const scan = Math.max(SORTED_SCAN, (query.limit + 1) * 50);
		// The sort value is a column of the walked rows, so that the planner knows they come sorted and
		// stops at a page (an expression such as the downloads sum, recomputed outside, would be sorted again).
		const sortValue = column ? `, ${column} AS sort_value` : "";
		const keyOrder = ` ORDER BY ${keyOrderSql(query.sort, query.direction, column && "w.sort_value", "w.id")}`;
		const rowWalk = (): string => {
			const walkOrder = column
				? ` ORDER BY ${keyOrderSql(query.sort, query.direction, "m.sort_value", "m.id")}`
				: orderBy;
			return (
				`SELECT ${columnsFor(needed)} FROM (SELECT *${sortValue} FROM repos m WHERE ${type}` +
				(cursor ? ` AND ${cursor}` : "") +
				`${orderBy} LIMIT ${scan}) m WHERE ${filters.join(" AND ")}${walkOrder} LIMIT ${limit}`
			);
		};
		// Search words need only the id, which every sort index holds, and `filter=` values the tags,
		// which the downloads index holds: the walk reads the index alone (an index-only scan; migrations
		// 7 and 11 put the downloads and the tags in the downloads index) and fetches the rows of the ids
		// that match, not the row of every id walked. At a million models the rows do not fit in shared
		// buffers, and fetching each walked row made search 2.4× slower (issue 21).
		const keyed = patterns.length > 0 || tags.length > 0;
		// `from`: where a walk starts (beyond the listing's own cursor); `rows`: the SQL of how many matches
		// it returns (it stops there, short of the stretch when the matches are common).
		const keyWalk = (stretch: number, from?: string, rows = limit): string => {
			const start = [cursor, from].filter((condition) => condition !== undefined);
			const keys = `SELECT m.id${tags.length > 0 ? ", m.filter_tags" : ""}${sortValue} FROM repos m WHERE ${[type, ...start].join(" AND ")}${orderBy} LIMIT ${stretch}`;
			const conditions = [...patterns.map((pattern) => idMatches("w", pattern)), ...tags, ...rest];
			return `SELECT ${columnsFor(needed)} FROM (${keys}) w JOIN repos m ON ${type} AND m.id = w.id WHERE ${conditions.join(" AND ")}${keyOrder} LIMIT ${rows}`;
		};
		let walked = await db.query<ModelRow>(keyed ? keyWalk(scan) : rowWalk(), params);
		const found = walked.rows.length;
		const lastFound = walked.rows[found - 1];
		if (keyed && lastFound && found <= query.limit) {
			// Words or tags that matched some walked ids but not a page: walking on, at the rate they matched, is
			// cheaper than collecting every match through the trigram index when they are common (which
			// reads the row of each candidate: 15,329 matches of "llama 3.3" at a million models, 0.6 s).
			const stretch = Math.ceil(((query.limit + 1) * scan * WALK_MARGIN) / found);
			if (stretch <= SEARCH_WALK_LIMIT) {
				// The walk goes on after the last match found, for the rest of the page: before (issue 21) it
				// started again from the top, walking the first stretch twice (50,050 of the ~175,000 index
				// entries a default-page search of two common words walked at a million models).
				const more = [...params];
				const next = (value: unknown): string => {
					more.push(value);
					return `$${more.length}`;
				};
				const value = sortValueOf(lastFound, query.sort);
				const from = column
					? keyAfterSql(
							query.sort,
							query.direction,
							column,
							"m.id",
							`${next(value)}::${cast}`,
							next(lastFound.id),
						)
					: keyAfterSql(query.sort, query.direction, undefined, "m.id", "", next(lastFound.id));
				// The entries between the last match and the end of the first stretch are walked again:
				// about as many as walked per match.
				const rest = stretch - scan + Math.ceil(scan / found);
				const continued = await db.query<ModelRow>(
					keyWalk(rest, from, `(${limit}::int - ${next(found)}::int)`),
					more,
				);
				walked = { rows: [...walked.rows, ...continued.rows], rowCount: found + continued.rows.length };
			}
		}
		if (walked.rows.length > query.limit) result = walked;
		else {
			// The matches are collected as keys (id and sort value), and only a page of rows is read:
			// materialising whole rows copied every match's JSON columns.
			const collected =
				`WITH matches AS MATERIALIZED (SELECT m.id${sortValue} FROM repos m WHERE ${all.join(" AND ")}) ` +
				`SELECT ${columnsFor(needed)} FROM (SELECT * FROM matches w${keyOrder} LIMIT ${limit}) w ` +
				`JOIN repos m ON ${type} AND m.id = w.id${keyOrder}`;
			result = await db.query<ModelRow>(collected, params);
		}
	}
	result ??= await db.query<ModelRow>(direct, params);
	const rows = result.rows.slice(0, query.limit);

	const factsOf = await listedFacts(
		db,
		MODEL,
		rows.map((row) => row.id),
		properties,
	);
	const models = rows.map((row) => render(row, properties, mappingArray, factsOf(row.id)));
	const page: ListPage = { models };
	const next = nextPageCursor(result.rows, query);
	if (next) page.next = next;
	return page;
}

/** How many public models carry each value of a column (library_name or pipeline_tag). */
export async function countBy(
	db: Queryable,
	column: "library_name" | "pipeline_tag",
): Promise<Map<string, number>> {
	const result = await db.query<{ key: string; count: number | string }>(
		`SELECT ${column} AS key, count(*) AS count FROM repos
		WHERE type = $1 AND ${column} IS NOT NULL AND NOT private GROUP BY ${column}`,
		[MODEL],
	);
	return new Map(result.rows.map((row) => [row.key, Number(row.count)]));
}

export async function countModels(db: Queryable): Promise<number> {
	const result = await db.query<{ count: number | string }>(
		"SELECT count(*) AS count FROM repos WHERE type = $1",
		[MODEL],
	);
	return Number(result.rows[0]?.count ?? 0);
}

/** Serialises writers of the same models (see putModels); an arbitrary constant. */
const WRITE_LOCK = 7_261_950_433;
/** Batches larger than this take the whole-table write lock instead of one lock per id. */
const PER_ID_LOCK_LIMIT = 100;

function recordJson(model: ModelRecord): Record<string, unknown> {
	return {
		id: model.id,
		object_id: model.objectId ?? null,
		namespace: model.author ?? null,
		name: model.name,
		pipeline_tag: model.pipelineTag ?? null,
		library_name: model.libraryName ?? null,
		tags: model.tags,
		config: model.config ?? null,
		card_data: model.cardData ?? null,
		widget_data: model.widgetData ?? null,
		transformers_info: model.transformersInfo ?? null,
		safetensors: model.safetensors ?? null,
		gguf: model.gguf ?? null,
		mask_token: model.maskToken ?? null,
		downloads: model.downloads,
		likes: model.likes,
		trending_score: model.trendingScore,
		last_modified: model.lastModified,
		created_at: model.createdAtGiven ? model.createdAt : null,
		private: model.private,
	};
}

const RECORD_COLUMNS = `r(id text, object_id text, namespace text, name text, pipeline_tag text, library_name text,
	tags jsonb, config jsonb, card_data jsonb, widget_data jsonb, transformers_info jsonb, safetensors jsonb, gguf jsonb,
	mask_token text, downloads bigint, likes bigint, trending_score bigint, last_modified timestamptz,
	created_at timestamptz, private boolean)`;

/** The record's derivable metadata, kept apart (see analysis/effective.ts): `derived` falls back to it. */
const IMPORTED_SQL = `jsonb_build_object('pipeline_tag', r.pipeline_tag, 'library_name', r.library_name, 'tags', r.tags,
	'config', r.config, 'widget_data', r.widget_data, 'transformers_info', r.transformers_info,
	'safetensors', r.safetensors, 'gguf', r.gguf, 'mask_token', r.mask_token)`;

/**
 * Creates or replaces models and all their provider mappings, inside the caller's transaction, in a
 * fixed number of statements. Returns the ids that were new. Concurrent writers of the same id are
 * serialised by advisory locks (one per id for small batches, the whole table for bulk imports), so
 * they never deadlock or fail on each other's insert. Throws ConflictError when an id differs only in
 * letter case from a stored one.
 */
export async function putModels(tx: Queryable, models: readonly ModelRecord[]): Promise<Set<string>> {
	if (models.length === 0) return new Set();
	if (models.length > PER_ID_LOCK_LIMIT) {
		await tx.query("SELECT pg_advisory_xact_lock($1)", [WRITE_LOCK]);
	} else {
		await tx.query("SELECT pg_advisory_xact_lock_shared($1)", [WRITE_LOCK]);
		await tx.query(
			"SELECT pg_advisory_xact_lock(hashtextextended(k, 0)) FROM (SELECT DISTINCT $2 || ':' || lower(x) AS k FROM unnest($1::text[]) x ORDER BY 1) s",
			[models.map((model) => model.id), MODEL],
		);
	}
	const records = JSON.stringify(models.map(recordJson));
	const updated = await tx.query<{ id: string }>(
		`UPDATE repos m SET object_id = r.object_id, pipeline_tag = r.pipeline_tag, library_name = r.library_name,
			tags = ARRAY(SELECT jsonb_array_elements_text(r.tags)), config = r.config, card_data = r.card_data,
			widget_data = r.widget_data, transformers_info = r.transformers_info, safetensors = r.safetensors,
			gguf = r.gguf, mask_token = r.mask_token, downloads = r.downloads, likes = r.likes,
			trending_score = r.trending_score, last_modified = r.last_modified,
			created_at = COALESCE(r.created_at, least(m.created_at, r.last_modified)), private = r.private,
			updated_at = now()
		FROM jsonb_to_recordset($1::jsonb) AS ${RECORD_COLUMNS}
		WHERE m.type = $2 AND m.id = r.id
		RETURNING m.id`,
		[records, MODEL],
	);
	const existing = new Set(updated.rows.map((row) => row.id));
	const fresh = models.filter((model) => !existing.has(model.id));
	if (fresh.length > 0) {
		try {
			await tx.query(
				`INSERT INTO repos (type, id, object_id, namespace, name, pipeline_tag, library_name, tags, config,
					card_data, widget_data, transformers_info, safetensors, gguf, mask_token, downloads, likes,
					trending_score, last_modified, created_at, private)
				SELECT $2, r.id, r.object_id, r.namespace, r.name, r.pipeline_tag, r.library_name,
					ARRAY(SELECT jsonb_array_elements_text(r.tags)), r.config, r.card_data, r.widget_data,
					r.transformers_info, r.safetensors, r.gguf, r.mask_token, r.downloads, r.likes, r.trending_score,
					r.last_modified, COALESCE(r.created_at, r.last_modified), r.private
				FROM jsonb_to_recordset($1::jsonb) AS ${RECORD_COLUMNS}`,
				[JSON.stringify(fresh.map(recordJson)), MODEL],
			);
		} catch (error) {
			if (pgErrorCode(error) === PG_UNIQUE_VIOLATION) {
				const detail = String((error as { detail?: unknown }).detail ?? "");
				const key = /\(type, lower\(id\)\)=\([a-z]+, (.*)\) already exists/.exec(detail)?.[1];
				throw new ConflictError(
					`a model whose id differs from ${key ?? "one of these"} only in letter case already exists`,
				);
			}
			throw error;
		}
	}
	// The record is what analysis falls back to; a new record is analysed afresh (repo_analysis, kept
	// apart from the repository rows: migration 11).
	await tx.query(
		`INSERT INTO repo_analysis (repo_type, repo_id, imported, derived, analysed_commit)
		SELECT $2, r.id, ${IMPORTED_SQL}, NULL, NULL FROM jsonb_to_recordset($1::jsonb) AS ${RECORD_COLUMNS}
		ON CONFLICT (repo_type, repo_id) DO UPDATE SET imported = EXCLUDED.imported, derived = NULL, analysed_commit = NULL`,
		[records, MODEL],
	);
	// A replaced record is analysed afresh: a model that has a main branch is listed as behind (as a
	// commit to main lists it, migration 15).
	if (existing.size > 0) {
		await tx.query(
			`INSERT INTO analysis_due (repo_type, repo_id, commit_id)
			SELECT r.repo_type, r.repo_id, r.commit_id FROM refs r
			WHERE r.repo_type = $1 AND r.repo_id = ANY($2::text[]) AND r.kind = 'branch' AND r.name = 'main'
			ON CONFLICT (repo_type, repo_id) DO UPDATE SET commit_id = EXCLUDED.commit_id`,
			[MODEL, [...existing]],
		);
	}
	await tx.query("DELETE FROM provider_mappings WHERE repo_type = $1 AND repo_id = ANY($2::text[])", [
		MODEL,
		models.map((m) => m.id),
	]);
	const mappings = models.flatMap((model) =>
		model.mappings.map((mapping, position) => ({
			repo_type: MODEL,
			repo_id: model.id,
			provider: mapping.provider,
			provider_id: mapping.providerId,
			task: mapping.task,
			status: mapping.status,
			adapter: mapping.adapter ?? null,
			adapter_weights_path: mapping.adapterWeightsPath ?? null,
			position,
		})),
	);
	if (mappings.length > 0) {
		await tx.query(
			`INSERT INTO provider_mappings (repo_type, repo_id, provider, provider_id, task, status, adapter,
				adapter_weights_path, position)
			SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(repo_type text, repo_id text, provider text,
				provider_id text, task text, status text, adapter text, adapter_weights_path text, position int)`,
			[JSON.stringify(mappings)],
		);
	}
	return new Set(fresh.map((model) => model.id));
}

/** Deletes a model (and, by cascade, its mappings and revisions). Returns the stored id, or undefined. */
export async function deleteModel(tx: Queryable, id: string): Promise<string | undefined> {
	const result = await tx.query<{ id: string }>(
		"DELETE FROM repos WHERE type = $1 AND lower(id) = lower($2) RETURNING id",
		[MODEL, id],
	);
	return result.rows[0]?.id;
}
