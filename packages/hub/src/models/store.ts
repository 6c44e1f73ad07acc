import {
	CHANGE_CHANNEL,
	PG_UNIQUE_VIOLATION,
	pgErrorCode,
	type Database,
	type Queryable,
} from "../db/types.js";
import { encodeCursor, type CursorPosition, type Direction, type SortKey } from "./cursor.js";
import type { ModelMetadata, ModelRecord, ProviderMapping } from "./input.js";

/** A provider mapping as the public hub returns it (keyed by provider in the enclosing object). */
export type PublicMapping = Omit<ProviderMapping, "provider">;

/** A model in the public hub's JSON shape. Absent optional fields are left out. */
export interface PublicModel extends ModelMetadata {
	_id?: string;
	id: string;
	modelId: string;
	author: string;
	pipeline_tag?: string;
	library_name?: string;
	mask_token?: string;
	inferenceProviderMapping?: Record<string, PublicMapping>;
}

/** A write that conflicts with what is stored (a 409). */
export class ConflictError extends Error {
	override name = "ConflictError";
}

interface ModelRow {
	id: string;
	object_id: string | null;
	author: string;
	pipeline_tag: string | null;
	library_name: string | null;
	tags: string[];
	config?: Record<string, unknown> | null;
	card_data?: Record<string, unknown> | null;
	widget_data?: unknown[] | null;
	transformers_info?: Record<string, unknown> | null;
	safetensors?: Record<string, unknown> | null;
	gguf?: Record<string, unknown> | null;
	mask_token?: string | null;
	downloads: number | string;
	likes: number | string;
	last_modified: Date | string;
	private: boolean;
	mappings?: MappingRow[] | string | null;
}

interface MappingRow {
	provider: string;
	providerId: string;
	task: string;
	status: "live" | "staging";
	adapter: string | null;
	adapterWeightsPath: string | null;
}

const COMPACT_COLUMNS =
	"m.id, m.object_id, m.author, m.pipeline_tag, m.library_name, m.tags, m.downloads, m.likes, m.last_modified, m.private";
const FULL_COLUMNS = `${COMPACT_COLUMNS}, m.config, m.card_data, m.widget_data, m.transformers_info, m.safetensors, m.gguf, m.mask_token`;
const MAPPINGS_COLUMN = `(SELECT json_agg(json_build_object('provider', p.provider, 'providerId', p.provider_id, 'task', p.task,
	'status', p.status, 'adapter', p.adapter, 'adapterWeightsPath', p.adapter_weights_path) ORDER BY p.position, p.provider)
	FROM provider_mappings p WHERE p.model_id = m.id) AS mappings`;

function isoDate(value: Date | string): string {
	return (value instanceof Date ? value : new Date(value)).toISOString();
}

function mappingObject(rows: ModelRow["mappings"]): Record<string, PublicMapping> {
	const list: MappingRow[] = typeof rows === "string" ? (JSON.parse(rows) as MappingRow[]) : (rows ?? []);
	const out: Record<string, PublicMapping> = {};
	for (const row of list) {
		const mapping: PublicMapping = { providerId: row.providerId, task: row.task, status: row.status };
		if (row.adapter !== null) mapping.adapter = row.adapter;
		if (row.adapterWeightsPath !== null) mapping.adapterWeightsPath = row.adapterWeightsPath;
		out[row.provider] = mapping;
	}
	return out;
}

function toPublic(row: ModelRow, full: boolean, withMappings: boolean): PublicModel {
	const model: PublicModel = {} as PublicModel;
	if (row.object_id !== null) model._id = row.object_id;
	model.id = row.id;
	model.modelId = row.id;
	model.author = row.author;
	if (row.pipeline_tag !== null) model.pipeline_tag = row.pipeline_tag;
	if (row.library_name !== null) model.library_name = row.library_name;
	model.tags = row.tags;
	if (full) {
		if (row.config != null) model.config = row.config;
		if (row.card_data != null) model.cardData = row.card_data;
		if (row.widget_data != null) model.widgetData = row.widget_data;
		if (row.transformers_info != null) model.transformersInfo = row.transformers_info;
		if (row.safetensors != null) model.safetensors = row.safetensors;
		if (row.gguf != null) model.gguf = row.gguf;
		if (row.mask_token != null) model.mask_token = row.mask_token;
	}
	model.downloads = Number(row.downloads);
	model.likes = Number(row.likes);
	model.lastModified = isoDate(row.last_modified);
	model.private = row.private;
	if (withMappings) model.inferenceProviderMapping = mappingObject(row.mappings);
	return model;
}

/** One model by id (case-insensitive, as on the public hub), or undefined. */
export async function getModel(
	db: Queryable,
	id: string,
	options: { withMappings: boolean },
): Promise<PublicModel | undefined> {
	const columns = options.withMappings ? `${FULL_COLUMNS}, ${MAPPINGS_COLUMN}` : FULL_COLUMNS;
	const result = await db.query<ModelRow>(`SELECT ${columns} FROM models m WHERE lower(m.id) = lower($1)`, [
		id,
	]);
	const row = result.rows[0];
	return row ? toPublic(row, true, options.withMappings) : undefined;
}

export interface ListQuery {
	search?: string;
	pipelineTag?: string;
	library?: string;
	author?: string;
	sort: SortKey;
	direction: Direction;
	limit: number;
	after?: CursorPosition;
	withMappings: boolean;
	/** Include config, cardData and the other large fields (when asked through `expand`). */
	full?: boolean;
}

export interface ListPage {
	models: PublicModel[];
	/** The cursor of the next page, when there is one. */
	next?: string;
}

const SORT_COLUMNS: Record<SortKey, { column: string | undefined; cast: string }> = {
	downloads: { column: "m.downloads", cast: "bigint" },
	likes: { column: "m.likes", cast: "bigint" },
	lastModified: { column: "m.last_modified", cast: "timestamptz" },
	id: { column: undefined, cast: "" },
};

/** Escapes LIKE wildcards so a search matches its text literally. */
function likeLiteral(text: string): string {
	return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** A page of compact models, ordered by (sort value, id), continuing after `query.after`. */
export async function listModels(db: Queryable, query: ListQuery): Promise<ListPage> {
	const where: string[] = [];
	const params: unknown[] = [];
	const param = (value: unknown): string => {
		params.push(value);
		return `$${params.length}`;
	};
	if (query.search)
		where.push(`lower(m.id) LIKE ${param(`%${likeLiteral(query.search.toLowerCase())}%`)} ESCAPE '\\'`);
	if (query.pipelineTag) where.push(`m.pipeline_tag = ${param(query.pipelineTag)}`);
	if (query.library) where.push(`m.library_name = ${param(query.library)}`);
	if (query.author) where.push(`lower(m.author) = lower(${param(query.author)})`);

	const { column, cast } = SORT_COLUMNS[query.sort];
	const op = query.direction === -1 ? "<" : ">";
	const order = query.direction === -1 ? "DESC" : "ASC";
	if (query.after) {
		if (column) {
			where.push(`(${column}, m.id) ${op} (${param(query.after.value)}::${cast}, ${param(query.after.id)})`);
		} else {
			where.push(`m.id ${op} ${param(query.after.id)}`);
		}
	}
	const base = query.full ? FULL_COLUMNS : COMPACT_COLUMNS;
	const columns = query.withMappings ? `${base}, ${MAPPINGS_COLUMN}` : base;
	const sql =
		`SELECT ${columns} FROM models m` +
		(where.length > 0 ? ` WHERE ${where.join(" AND ")}` : "") +
		` ORDER BY ${column ? `${column} ${order}, ` : ""}m.id ${order} LIMIT ${param(query.limit + 1)}`;
	const result = await db.query<ModelRow>(sql, params);
	const rows = result.rows.slice(0, query.limit);
	const models = rows.map((row) => toPublic(row, query.full === true, query.withMappings));
	const page: ListPage = { models };
	const last = models[models.length - 1];
	if (result.rows.length > query.limit && last) {
		const value =
			query.sort === "downloads"
				? last.downloads
				: query.sort === "likes"
					? last.likes
					: query.sort === "lastModified"
						? last.lastModified
						: null;
		page.next = encodeCursor({ sort: query.sort, direction: query.direction, value, id: last.id });
	}
	return page;
}

/** How many models carry each value of a column (library_name or pipeline_tag). */
export async function countBy(
	db: Queryable,
	column: "library_name" | "pipeline_tag",
): Promise<Map<string, number>> {
	const result = await db.query<{ key: string; count: number | string }>(
		`SELECT ${column} AS key, count(*) AS count FROM models WHERE ${column} IS NOT NULL GROUP BY ${column}`,
	);
	return new Map(result.rows.map((row) => [row.key, Number(row.count)]));
}

export async function countModels(db: Queryable): Promise<number> {
	const result = await db.query<{ count: number | string }>("SELECT count(*) AS count FROM models");
	return Number(result.rows[0]?.count ?? 0);
}

function json(value: unknown): string | null {
	return value === undefined ? null : JSON.stringify(value);
}

/**
 * Creates or replaces one model and all its provider mappings, inside the caller's transaction.
 * Returns whether the model is new. Throws ConflictError when the id differs only in case from a stored one.
 */
export async function putModel(tx: Queryable, model: ModelRecord): Promise<{ created: boolean }> {
	let created: boolean;
	try {
		const result = await tx.query<{ created: boolean }>(
			`INSERT INTO models (id, object_id, author, name, pipeline_tag, library_name, tags, config, card_data,
				widget_data, transformers_info, safetensors, gguf, mask_token, downloads, likes, last_modified, private)
			VALUES ($1, $2, $3, $4, $5, $6, $7::text[], $8::jsonb, $9::jsonb, $10::jsonb, $11::jsonb, $12::jsonb,
				$13::jsonb, $14, $15, $16, $17::timestamptz, $18)
			ON CONFLICT (id) DO UPDATE SET object_id = EXCLUDED.object_id, pipeline_tag = EXCLUDED.pipeline_tag,
				library_name = EXCLUDED.library_name, tags = EXCLUDED.tags, config = EXCLUDED.config,
				card_data = EXCLUDED.card_data, widget_data = EXCLUDED.widget_data,
				transformers_info = EXCLUDED.transformers_info, safetensors = EXCLUDED.safetensors, gguf = EXCLUDED.gguf,
				mask_token = EXCLUDED.mask_token, downloads = EXCLUDED.downloads, likes = EXCLUDED.likes,
				last_modified = EXCLUDED.last_modified, private = EXCLUDED.private, updated_at = now()
			RETURNING (xmax = 0) AS created`,
			[
				model.id,
				model.objectId ?? null,
				model.author,
				model.name,
				model.pipelineTag ?? null,
				model.libraryName ?? null,
				model.tags,
				json(model.config),
				json(model.cardData),
				json(model.widgetData),
				json(model.transformersInfo),
				json(model.safetensors),
				json(model.gguf),
				model.maskToken ?? null,
				model.downloads,
				model.likes,
				model.lastModified,
				model.private,
			],
		);
		created = result.rows[0]?.created === true;
	} catch (error) {
		if (pgErrorCode(error) === PG_UNIQUE_VIOLATION) {
			throw new ConflictError(`a model whose id differs from ${model.id} only in letter case already exists`);
		}
		throw error;
	}
	await tx.query("DELETE FROM provider_mappings WHERE model_id = $1", [model.id]);
	if (model.mappings.length > 0) await insertMappings(tx, model.id, model.mappings);
	return { created };
}

async function insertMappings(tx: Queryable, modelId: string, mappings: ProviderMapping[]): Promise<void> {
	const column = <K extends keyof ProviderMapping>(key: K) => mappings.map((m) => m[key] ?? null);
	await tx.query(
		`INSERT INTO provider_mappings (model_id, provider, provider_id, task, status, adapter, adapter_weights_path, position)
		SELECT $1, provider, provider_id, task, status, adapter, adapter_weights_path, (ordinality - 1)::int
		FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
			WITH ORDINALITY AS u(provider, provider_id, task, status, adapter, adapter_weights_path, ordinality)`,
		[
			modelId,
			column("provider"),
			column("providerId"),
			column("task"),
			column("status"),
			column("adapter"),
			column("adapterWeightsPath"),
		],
	);
}

/** Deletes a model (and, by cascade, its mappings). Returns the stored id, or undefined when absent. */
export async function deleteModel(tx: Queryable, id: string): Promise<string | undefined> {
	const result = await tx.query<{ id: string }>(
		"DELETE FROM models WHERE lower(id) = lower($1) RETURNING id",
		[id],
	);
	return result.rows[0]?.id;
}

/** Tells every hub process sharing the database that data changed (delivered at commit). */
export async function notifyChange(tx: Queryable): Promise<void> {
	await tx.query("SELECT pg_notify($1, '')", [CHANGE_CHANNEL]);
}

export interface ImportResult {
	created: number;
	updated: number;
}

/** Writes validated models inside the caller's transaction and notifies other hub processes. */
export async function writeModels(tx: Queryable, models: readonly ModelRecord[]): Promise<ImportResult> {
	let created = 0;
	for (const model of models) {
		if ((await putModel(tx, model)).created) created++;
	}
	await notifyChange(tx);
	return { created, updated: models.length - created };
}

/** Writes validated models in ONE transaction: either all of them are stored or none is. */
export async function importModels(db: Database, models: readonly ModelRecord[]): Promise<ImportResult> {
	return db.transaction((tx) => writeModels(tx, models));
}

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
