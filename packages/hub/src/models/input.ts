import { PIPELINE_TYPES_SET } from "@modelhub/tasks";
import { HubError } from "../errors.js";
import { parseIsoDate } from "./dates.js";
import { writablePathProblem } from "../repos/paths.js";
import { modelIdProblem, quoteForMessage } from "./ids.js";
import { hasControlCharacter } from "@modelhub/tasks/literals";

/** One provider that serves a model, in the hub's words. */
export interface ProviderMapping {
	provider: string;
	providerId: string;
	/** A pipeline type, or "conversational" for chat completion. */
	task: string;
	status: "live" | "staging";
	adapter?: string;
	adapterWeightsPath?: string;
}

/** The fields a stored model and its public JSON share, under the same names. */
export interface ModelMetadata {
	tags: string[];
	config?: Record<string, unknown>;
	cardData?: Record<string, unknown>;
	widgetData?: unknown[];
	transformersInfo?: Record<string, unknown>;
	safetensors?: Record<string, unknown>;
	gguf?: Record<string, unknown>;
	downloads: number;
	likes: number;
	/** ISO 8601, millisecond precision, UTC. */
	lastModified: string;
	private: boolean;
}

/** A file of an import record: where it goes in the repository, and the local file it comes from. */
export interface ImportFile {
	path: string;
	source: string;
}

/** A validated model, ready to be written. */
export interface ModelRecord extends ModelMetadata {
	id: string;
	objectId?: string;
	/** The namespace; undefined for ids without one. */
	author: string | undefined;
	name: string;
	/** When the repository was created (ISO 8601); lastModified when the record does not say. */
	createdAt: string;
	/** Whether the record gave createdAt (a replaced model keeps its own otherwise). */
	createdAtGiven: boolean;
	trendingScore: number;
	/** Files of the record (`files` of an import, see ImportFile); undefined means "generate them". */
	files?: ImportFile[];
	pipelineTag?: string;
	libraryName?: string;
	maskToken?: string;
	/** In the user-preference order. */
	mappings: ProviderMapping[];
}

export type ParseResult = { ok: true; model: ModelRecord } | { ok: false; error: string };

/** A record that cannot be stored; `message` says which field and why. */
export class ModelInputError extends HubError {
	override name = "ModelInputError";
	constructor(message: string) {
		super("Invalid", message);
	}
}

const MAX_TAGS = 1000;
const MAX_TAG_LENGTH = 256;
const MAX_JSON_DEPTH = 32;
const PROVIDER_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;
const ADAPTER_PATTERN = /^[a-z0-9][a-z0-9_-]{0,31}$/;
const LIBRARY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$/;
const OBJECT_ID_PATTERN = /^[A-Za-z0-9]{1,64}$/;

/** Task values a provider mapping may carry: every pipeline type, plus the hub's "conversational". */
export function isMappingTask(task: string): boolean {
	return task === "conversational" || PIPELINE_TYPES_SET.has(task);
}

// PostgreSQL text and jsonb hold Unicode only: a lone surrogate (valid in JSON's \\u escapes) is refused.
const UNPAIRED = (field: string): string => `${field} must not contain unpaired UTF-16 surrogates`;

function fail(message: string): never {
	throw new ModelInputError(message);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Checks a free-form JSON value (config, cardData, ...): bounded depth, and no NUL character anywhere,
 * since PostgreSQL text and jsonb cannot store it. Iterative, so hostile nesting cannot overflow the stack.
 */
export function checkJson(value: unknown, field: string): void {
	const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
	while (stack.length > 0) {
		const item = stack.pop() as { value: unknown; depth: number };
		if (item.depth > MAX_JSON_DEPTH) fail(`${field} is nested more than ${MAX_JSON_DEPTH} levels deep`);
		const current = item.value;
		if (typeof current === "string") {
			if (current.includes("\u0000")) fail(`${field} must not contain NUL characters`);
			if (!current.isWellFormed()) fail(UNPAIRED(field));
		} else if (typeof current === "number") {
			if (!Number.isFinite(current)) fail(`${field} must contain only finite numbers`);
		} else if (Array.isArray(current)) {
			for (const entry of current) stack.push({ value: entry, depth: item.depth + 1 });
		} else if (current !== null && typeof current === "object") {
			for (const [key, entry] of Object.entries(current)) {
				if (key.includes("\u0000")) fail(`${field} must not contain NUL characters`);
				if (!key.isWellFormed()) fail(UNPAIRED(field));
				stack.push({ value: entry, depth: item.depth + 1 });
			}
		} else if (typeof current !== "boolean" && current !== null) {
			fail(`${field} must be JSON`);
		}
	}
}

function optionalObject(body: Record<string, unknown>, key: string): Record<string, unknown> | undefined {
	const value = body[key];
	if (value === undefined || value === null) return undefined;
	if (!isPlainObject(value)) fail(`'${key}' must be an object`);
	checkJson(value, `'${key}'`);
	return value;
}

function optionalString(
	body: Record<string, unknown>,
	key: string,
	check: (value: string) => string | undefined,
): string | undefined {
	const value = body[key];
	if (value === undefined || value === null) return undefined;
	if (typeof value !== "string") fail(`'${key}' must be a string`);
	const problem = check(value);
	if (problem) fail(`'${key}' ${problem}`);
	return value;
}

function count(body: Record<string, unknown>, key: string): number {
	const value = body[key];
	if (value === undefined || value === null) return 0;
	if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
		fail(`'${key}' must be a non-negative whole number`);
	}
	return value;
}

function plainText(max: number) {
	return (value: string): string | undefined => {
		if (value.length === 0) return "must not be empty";
		if (value.length > max) return `must be at most ${max} characters`;
		if (hasControlCharacter(value)) return "must not contain control characters";
		if (!value.isWellFormed()) return "must not contain unpaired UTF-16 surrogates";
		return undefined;
	};
}

function parseTags(value: unknown): string[] {
	if (value === undefined || value === null) return [];
	if (!Array.isArray(value)) fail("'tags' must be an array of strings");
	if (value.length > MAX_TAGS) fail(`'tags' must have at most ${MAX_TAGS} entries`);
	const seen = new Set<string>();
	const tags: string[] = [];
	value.forEach((tag, index) => {
		if (typeof tag !== "string") fail(`'tags[${index}]' must be a string`);
		const problem = plainText(MAX_TAG_LENGTH)(tag);
		if (problem) fail(`'tags[${index}]' ${problem}`);
		if (!seen.has(tag)) {
			seen.add(tag);
			tags.push(tag);
		}
	});
	return tags;
}

function parseDate(value: unknown, field: string, fallback: string): string {
	if (value === undefined || value === null) return fallback;
	if (typeof value !== "string") fail(`'${field}' must be an ISO 8601 date string`);
	const date = parseIsoDate(value);
	if (!date) fail(`'${field}' must be an ISO 8601 date between 1970 and 9999 that exists on the calendar`);
	return date.toISOString();
}

function parseMapping(provider: string, value: unknown, where: string): ProviderMapping {
	if (!PROVIDER_PATTERN.test(provider)) {
		fail(`${where}: provider ${quoteForMessage(provider)} must be lowercase letters, digits and '-'`);
	}
	if (!isPlainObject(value)) fail(`${where} must be an object`);
	const providerId = value.providerId;
	if (typeof providerId !== "string") fail(`${where}.providerId must be a string`);
	const idProblem = plainText(512)(providerId);
	if (idProblem) fail(`${where}.providerId ${idProblem}`);
	const task = value.task;
	if (typeof task !== "string" || !isMappingTask(task)) {
		fail(`${where}.task must be a pipeline type or "conversational", got ${quoteForMessage(task)}`);
	}
	const status = value.status;
	if (status !== "live" && status !== "staging") fail(`${where}.status must be "live" or "staging"`);
	const mapping: ProviderMapping = { provider, providerId, task, status };
	if (value.adapter !== undefined && value.adapter !== null) {
		if (typeof value.adapter !== "string" || !ADAPTER_PATTERN.test(value.adapter)) {
			fail(`${where}.adapter must be a short lowercase name such as "lora"`);
		}
		mapping.adapter = value.adapter;
	}
	if (value.adapterWeightsPath !== undefined && value.adapterWeightsPath !== null) {
		const path = value.adapterWeightsPath;
		if (typeof path !== "string") fail(`${where}.adapterWeightsPath must be a string`);
		const problem = plainText(512)(path);
		if (problem) fail(`${where}.adapterWeightsPath ${problem}`);
		if (path.startsWith("/") || path.split("/").includes("..")) {
			fail(`${where}.adapterWeightsPath must be a relative path inside the repository`);
		}
		mapping.adapterWeightsPath = path;
	}
	return mapping;
}

/**
 * Reads `inferenceProviderMapping` in the public hub's object form (provider → mapping, in preference
 * order) or its newer array form (`[{ provider, providerId, ... }]`).
 */
function parseMappings(value: unknown): ProviderMapping[] {
	if (value === undefined || value === null) return [];
	const mappings: ProviderMapping[] = [];
	if (Array.isArray(value)) {
		if (value.length > 100) fail("'inferenceProviderMapping' must have at most 100 providers");
		value.forEach((entry, index) => {
			const where = `'inferenceProviderMapping[${index}]'`;
			if (!isPlainObject(entry) || typeof entry.provider !== "string")
				fail(`${where}.provider must be a string`);
			mappings.push(parseMapping(entry.provider, entry, where));
		});
	} else if (isPlainObject(value)) {
		const entries = Object.entries(value);
		if (entries.length > 100) fail("'inferenceProviderMapping' must have at most 100 providers");
		for (const [provider, entry] of entries) {
			mappings.push(parseMapping(provider, entry, `'inferenceProviderMapping.${provider}'`));
		}
	} else {
		fail("'inferenceProviderMapping' must be an object keyed by provider");
	}
	const seen = new Set<string>();
	for (const mapping of mappings) {
		if (seen.has(mapping.provider)) fail(`'inferenceProviderMapping' lists ${mapping.provider} twice`);
		seen.add(mapping.provider);
	}
	return mappings;
}

function isCount(value: unknown): value is number {
	return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

// huggingface_hub 2.0 builds TransformersInfo(**transformersInfo): any other key makes it raise.
const TRANSFORMERS_INFO_KEYS = new Set(["auto_model", "custom_class", "pipeline_tag", "processor"]);

function checkTransformersInfo(info: Record<string, unknown>): Record<string, unknown> {
	if (typeof info.auto_model !== "string") fail("'transformersInfo.auto_model' must be a string");
	for (const [key, value] of Object.entries(info)) {
		if (!TRANSFORMERS_INFO_KEYS.has(key)) {
			fail(
				`'transformersInfo' has an unknown key ${quoteForMessage(key)} (allowed: ${[...TRANSFORMERS_INFO_KEYS].join(", ")})`,
			);
		}
		if (value !== null && typeof value !== "string") fail(`'transformersInfo.${key}' must be a string`);
	}
	return info;
}

// huggingface_hub 2.0 reads safetensors["parameters"] and safetensors["total"] without a default.
function checkSafetensors(info: Record<string, unknown>): Record<string, unknown> {
	if (!isCount(info.total)) fail("'safetensors.total' must be a non-negative whole number");
	const parameters = info.parameters;
	if (!isPlainObject(parameters) || !Object.values(parameters).every(isCount)) {
		fail("'safetensors.parameters' must map dtypes to non-negative whole numbers");
	}
	if (info.sharded !== undefined && typeof info.sharded !== "boolean")
		fail("'safetensors.sharded' must be true or false");
	return info;
}

const MAX_IMPORT_FILES = 10_000;

/** `files` of an import record: repository path → local file (relative to the record's JSON file). */
function parseImportFiles(value: unknown): ImportFile[] {
	if (!isPlainObject(value)) fail("'files' must be an object mapping repository paths to local files");
	const entries = Object.entries(value);
	if (entries.length > MAX_IMPORT_FILES) fail(`'files' must list at most ${MAX_IMPORT_FILES} files`);
	return entries.map(([path, source]) => {
		const problem = writablePathProblem(path);
		if (problem) fail(`'files' ${quoteForMessage(path)}: ${problem}`);
		if (typeof source !== "string" || source.length === 0 || source.includes("\u0000")) {
			fail(`'files.${path}' must be the path of a local file`);
		}
		return { path, source };
	});
}

/**
 * Validates one model in the public hub's JSON shape and turns it into a record. `expectedId` is the id
 * from the URL of a PUT: the body may then leave `id` out, and must agree with it otherwise. Unknown
 * fields (the public hub sends many, such as `sha` or `siblings`) are ignored. Throws ModelInputError.
 */
export function parseModelInput(value: unknown, expectedId?: string): ModelRecord {
	if (!isPlainObject(value)) fail("a model must be a JSON object");
	const body = value;
	for (const key of ["id", "modelId"] as const) {
		if (body[key] !== undefined && typeof body[key] !== "string") fail(`'${key}' must be a string`);
	}
	const bodyId = (body.id ?? body.modelId) as string | undefined;
	if (body.id !== undefined && body.modelId !== undefined && body.id !== body.modelId) {
		fail("'id' and 'modelId' differ");
	}
	if (expectedId !== undefined && bodyId !== undefined && bodyId !== expectedId) {
		fail(`'id' ${quoteForMessage(bodyId)} does not match the URL (${quoteForMessage(expectedId)})`);
	}
	const id = expectedId ?? bodyId;
	if (id === undefined) fail("'id' is required");
	const idProblem = modelIdProblem(id);
	if (idProblem) fail(`${idProblem}, got ${quoteForMessage(id)}`);
	const slash = id.indexOf("/");
	const author = slash < 0 ? undefined : id.slice(0, slash);
	const name = id.slice(slash + 1);
	if (body.author !== undefined && body.author !== null && body.author !== author) {
		fail(
			author === undefined
				? "'author' must be left out for an id without a namespace"
				: `'author' must be the id's namespace (${quoteForMessage(author)})`,
		);
	}

	const lastModified = parseDate(body.lastModified, "lastModified", new Date().toISOString());
	const model: ModelRecord = {
		id,
		author,
		name,
		tags: parseTags(body.tags),
		downloads: count(body, "downloads"),
		likes: count(body, "likes"),
		lastModified,
		createdAt: parseDate(body.createdAt, "createdAt", lastModified),
		createdAtGiven: body.createdAt !== undefined && body.createdAt !== null,
		trendingScore: count(body, "trendingScore"),
		private: false,
		mappings: parseMappings(body.inferenceProviderMapping),
	};
	if (Date.parse(model.createdAt) > Date.parse(model.lastModified))
		fail("'createdAt' is after 'lastModified'");
	if (body.private !== undefined && body.private !== null) {
		if (typeof body.private !== "boolean") fail("'private' must be true or false");
		model.private = body.private;
	}
	const objectId = optionalString(body, "_id", (v) =>
		OBJECT_ID_PATTERN.test(v) ? undefined : "must be 1 to 64 letters or digits",
	);
	if (objectId !== undefined) model.objectId = objectId;
	const pipelineTag = optionalString(body, "pipeline_tag", (v) =>
		PIPELINE_TYPES_SET.has(v) ? undefined : `is not a known pipeline type: ${quoteForMessage(v)}`,
	);
	if (pipelineTag !== undefined) model.pipelineTag = pipelineTag;
	const libraryName = optionalString(body, "library_name", (v) =>
		LIBRARY_PATTERN.test(v) ? undefined : 'must be a library key such as "transformers"',
	);
	if (libraryName !== undefined) model.libraryName = libraryName;
	const maskToken = optionalString(body, "mask_token", plainText(128));
	if (maskToken !== undefined) model.maskToken = maskToken;

	const config = optionalObject(body, "config");
	if (config !== undefined) model.config = config;
	const cardData = optionalObject(body, "cardData");
	if (cardData !== undefined) model.cardData = cardData;
	const transformersInfo = optionalObject(body, "transformersInfo");
	if (transformersInfo !== undefined) model.transformersInfo = checkTransformersInfo(transformersInfo);
	const safetensors = optionalObject(body, "safetensors");
	if (safetensors !== undefined) model.safetensors = checkSafetensors(safetensors);
	const gguf = optionalObject(body, "gguf");
	if (gguf !== undefined) {
		if (gguf.total !== undefined && !isCount(gguf.total))
			fail("'gguf.total' must be a non-negative whole number");
		model.gguf = gguf;
	}
	if (body.files !== undefined && body.files !== null) model.files = parseImportFiles(body.files);
	if (body.widgetData !== undefined && body.widgetData !== null) {
		if (!Array.isArray(body.widgetData)) fail("'widgetData' must be an array");
		checkJson(body.widgetData, "'widgetData'");
		model.widgetData = body.widgetData;
	}
	return model;
}

/** Like parseModelInput, but returns the problem instead of throwing. */
export function tryParseModelInput(value: unknown, expectedId?: string): ParseResult {
	try {
		return { ok: true, model: parseModelInput(value, expectedId) };
	} catch (error) {
		if (error instanceof ModelInputError) return { ok: false, error: error.message };
		throw error;
	}
}

/**
 * Validates a whole import: one model or a list. Every record is checked before anything is written;
 * ids must be unique (case-insensitively, as the hub stores them). Throws ModelInputError naming the record.
 */
export function parseModelList(value: unknown): ModelRecord[] {
	const list = Array.isArray(value) ? value : [value];
	const models: ModelRecord[] = [];
	const seen = new Map<string, number>();
	list.forEach((entry, index) => {
		const result = tryParseModelInput(entry);
		const label =
			isPlainObject(entry) && typeof (entry.id ?? entry.modelId) === "string"
				? `record ${index} (${quoteForMessage(entry.id ?? entry.modelId)})`
				: `record ${index}`;
		if (!result.ok) fail(`${label}: ${result.error}`);
		const key = result.model.id.toLowerCase();
		const previous = seen.get(key);
		if (previous !== undefined) fail(`${label}: the same id as record ${previous}`);
		seen.set(key, index);
		models.push(result.model);
	});
	return models;
}
