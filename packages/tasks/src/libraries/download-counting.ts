/**
 * Download counting, made executable. A library's `countDownloads` is a small Elasticsearch
 * `query_string` over the fields of a requested file path; this module parses that query and decides
 * whether one request for one file counts as a download of the model.
 *
 * Supported query language (everything the catalogue uses, nothing more):
 * - terms `field:"value"` or `field:value`, with fields `path`, `path_prefix`, `path_extension`,
 *   `path_filename`; and `_exists_:"field"` (true when that field is non-empty for the path);
 * - `AND` binds tighter than `OR`; parentheses group; any white space (newlines, tabs) separates.
 * Matching is exact and case-sensitive, as with keyword fields. A leading dot in an extension value
 * (`.pth`) is ignored, since the field never holds one.
 */
import { isModelLibraryKey, type ModelLibraryKey } from "./keys.js";

export type PathField = "path" | "path_prefix" | "path_extension" | "path_filename";

export type DownloadQuery =
	| { kind: "term"; field: PathField; value: string }
	| { kind: "exists"; field: PathField }
	| { kind: "and"; clauses: DownloadQuery[] }
	| { kind: "or"; clauses: DownloadQuery[] };

/** Files that count as a download for libraries without a rule of their own (and for no library). */
export const DEFAULT_DOWNLOAD_FILES = [
	"config.json",
	"config.yaml",
	"hyperparams.yaml",
	"meta.yaml",
] as const;

export const DEFAULT_DOWNLOAD_QUERY = DEFAULT_DOWNLOAD_FILES.map((file) => `path:"${file}"`).join(" OR ");

const PATH_FIELDS: ReadonlySet<string> = /* @__PURE__ */ new Set([
	"path",
	"path_prefix",
	"path_extension",
	"path_filename",
]);

export class DownloadQueryError extends Error {
	constructor(
		message: string,
		readonly query: string,
	) {
		super(`${message} in download query ${JSON.stringify(query)}`);
		this.name = "DownloadQueryError";
	}
}

type Token = { type: "word"; text: string } | { type: "(" } | { type: ")" };

function tokenize(query: string): Token[] {
	const tokens: Token[] = [];
	let i = 0;
	while (i < query.length) {
		const char = query[i]!;
		if (/\s/.test(char)) {
			i++;
		} else if (char === "(" || char === ")") {
			tokens.push({ type: char });
			i++;
		} else {
			let text = "";
			while (i < query.length && !/[\s()]/.test(query[i]!)) {
				if (query[i] === '"') {
					const end = query.indexOf('"', i + 1);
					if (end === -1) throw new DownloadQueryError("Unterminated quote", query);
					text += query.slice(i, end + 1);
					i = end + 1;
				} else {
					text += query[i];
					i++;
				}
			}
			tokens.push({ type: "word", text });
		}
	}
	return tokens;
}

function parseTerm(text: string, query: string): DownloadQuery {
	const colon = text.indexOf(":");
	if (colon <= 0) throw new DownloadQueryError(`Expected field:value, got ${JSON.stringify(text)}`, query);
	const field = text.slice(0, colon);
	let value = text.slice(colon + 1);
	if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
	if (field === "_exists_") {
		if (!PATH_FIELDS.has(value))
			throw new DownloadQueryError(`Unknown field ${JSON.stringify(value)}`, query);
		return { kind: "exists", field: value as PathField };
	}
	if (!PATH_FIELDS.has(field)) throw new DownloadQueryError(`Unknown field ${JSON.stringify(field)}`, query);
	if (value === "") throw new DownloadQueryError(`Empty value for ${field}`, query);
	return { kind: "term", field: field as PathField, value };
}

/** Parses a download query; throws `DownloadQueryError` with the position of the problem. */
export function parseDownloadQuery(query: string): DownloadQuery {
	const tokens = tokenize(query);
	let position = 0;
	const peekWord = (word: string) => {
		const token = tokens[position];
		return token?.type === "word" && token.text === word;
	};
	function parseOr(): DownloadQuery {
		const clauses = [parseAnd()];
		while (peekWord("OR")) {
			position++;
			clauses.push(parseAnd());
		}
		return clauses.length === 1 ? clauses[0]! : { kind: "or", clauses };
	}
	function parseAnd(): DownloadQuery {
		const clauses = [parsePrimary()];
		while (peekWord("AND")) {
			position++;
			clauses.push(parsePrimary());
		}
		return clauses.length === 1 ? clauses[0]! : { kind: "and", clauses };
	}
	function parsePrimary(): DownloadQuery {
		const token = tokens[position++];
		if (!token) throw new DownloadQueryError("Unexpected end", query);
		if (token.type === "(") {
			const inner = parseOr();
			if (tokens[position++]?.type !== ")") throw new DownloadQueryError("Missing )", query);
			return inner;
		}
		if (token.type === ")" || token.text === "AND" || token.text === "OR") {
			throw new DownloadQueryError(`Unexpected ${token.type === ")" ? ")" : token.text}`, query);
		}
		return parseTerm(token.text, query);
	}
	const result = parseOr();
	if (position !== tokens.length) throw new DownloadQueryError("Unexpected trailing input", query);
	return result;
}

/** The fields of a repository-relative file path, as the download log indexes them. */
export function pathFields(path: string): Record<PathField, string> {
	const clean = path.replace(/^\/+/, "");
	const slash = clean.lastIndexOf("/");
	const prefix = slash === -1 ? "" : clean.slice(0, slash + 1);
	const base = clean.slice(slash + 1);
	const dot = base.lastIndexOf(".");
	const hasExtension = dot > 0;
	return {
		path: clean,
		path_prefix: prefix,
		path_extension: hasExtension ? base.slice(dot + 1) : "",
		path_filename: hasExtension ? base.slice(0, dot) : base,
	};
}

/**
 * What the public hub counts beyond the catalogue's queries, as its "Models Download Stats" page
 * documents it (huggingface/hub-docs, docs/hub/models-download-stats.md):
 * - the default query files include `params.json` besides the four of the catalogue's doc comment;
 * - every `.gguf` file counts, whatever the library (GGUF files are self-contained);
 * - `diffusers` counts `model_index.json` (loads through the library) and root-level `.safetensors`,
 *   `.ckpt` and `.bin` files (direct downloads of single-file checkpoints); nested weights do not, so a
 *   pipeline loaded through the library counts once.
 */
export const HUB_DEFAULT_EXTRA_FILES = ["params.json"] as const;
const DIFFUSERS_ROOT_EXTENSIONS: ReadonlySet<string> = /* @__PURE__ */ new Set([
	"safetensors",
	"ckpt",
	"bin",
]);

/** Whether a file path matches a parsed query. */
export function matchesDownloadQuery(query: DownloadQuery, path: string): boolean {
	const fields = pathFields(path);
	const test = (node: DownloadQuery): boolean => {
		switch (node.kind) {
			case "term": {
				const expected = node.field === "path_extension" ? node.value.replace(/^\./, "") : node.value;
				return fields[node.field] === expected;
			}
			case "exists":
				return fields[node.field] !== "";
			case "and":
				return node.clauses.every(test);
			case "or":
				return node.clauses.some(test);
		}
	};
	return test(query);
}

const parsedCache = new Map<string, DownloadQuery>();

function cachedParse(query: string): DownloadQuery {
	let parsed = parsedCache.get(query);
	if (!parsed) {
		parsed = parseDownloadQuery(query);
		parsedCache.set(query, parsed);
	}
	return parsed;
}

/**
 * Whether a request for `path` counts as a download of a model of `library` (a key of the catalogue, or
 * undefined/unknown for models without one, which use the default rule). Never throws.
 */
export function countsAsDownload(
	library: string | undefined,
	path: string,
	queries: Partial<Record<ModelLibraryKey, string | undefined>>,
): boolean {
	const query = (isModelLibraryKey(library) ? queries[library] : undefined) ?? DEFAULT_DOWNLOAD_QUERY;
	try {
		return matchesDownloadQuery(cachedParse(query), path);
	} catch {
		return false;
	}
}

/**
 * Whether a request for `path` counts as a download of a model of `library` on the public hub: the
 * catalogue's rule (`countsAsDownload`) plus the hub-side rules documented for GGUF files, diffusers and
 * the default files (see `HUB_DEFAULT_EXTRA_FILES`). Never throws.
 */
export function countsAsHubDownload(
	library: string | undefined,
	path: string,
	queries: Partial<Record<ModelLibraryKey, string | undefined>>,
): boolean {
	const fields = pathFields(path);
	if (fields.path_extension === "gguf") return true;
	if (library === "diffusers") {
		return (
			fields.path === "model_index.json" ||
			(fields.path_prefix === "" && DIFFUSERS_ROOT_EXTENSIONS.has(fields.path_extension))
		);
	}
	const ownRule = isModelLibraryKey(library) && queries[library] !== undefined;
	if (!ownRule && (HUB_DEFAULT_EXTRA_FILES as readonly string[]).includes(fields.path)) return true;
	return countsAsDownload(library, path, queries);
}
