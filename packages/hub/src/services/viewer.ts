import type { Viewer } from "../accounts/viewer.js";
import type {
	ViewerCell,
	ViewerDatasetInfo,
	ViewerFeatureItem,
	ViewerIsValidAnswer,
	ViewerParquetFile,
	ViewerRowItem,
	ViewerSplitItem,
	ViewerSplitSize,
	ViewerColumnStatistics,
	ViewerFeature,
	ViewerNumericalStatistics,
	ViewerStatisticsAnswer,
} from "../api/viewer.js";
import {
	binEdges,
	isStringLabel,
	MAX_NUM_STRING_LABELS,
	proportion,
	round5,
	statisticsType,
	type StatisticsColumnType,
} from "../viewer/statistics.js";
import { readFrontMatter } from "../cards/front-matter.js";
import { HubError } from "../errors.js";
import { listFiles } from "../repos/read.js";
import { createHash } from "node:crypto";
import type { Readable } from "node:stream";
import { extensionOf } from "../datasets/tags.js";
import {
	archiveFiles,
	AUDIO_HEAD_BYTES,
	audioCell,
	audioHeadProblem,
	CSV_HEADER_BYTES,
	csvHeaderColumns,
	FOLDER_MEDIA,
	folderLabels,
	folderRows,
	IMAGE_HEAD_BYTES,
	imageCell,
	imageSize,
	isFolderKind,
	MAX_MEDIA_PER_CELL,
	mediaFeature,
	memberPath,
	metadataFilePath,
	metadataMediaColumn,
	parseMemberPath,
	pathThroughArchive,
	type ArchiveMembers,
	type FolderKind,
	type ReadBytes,
} from "../viewer/folder.js";
import { listZip, openZipEntry, readZipEntries, type ZipListing, type ZipRead } from "../viewer/zip.js";
import {
	METADATA_FOLDER_END,
	sqlName,
	sqlString,
	type EngineSession,
	type FileSource,
	type MetadataSource,
	type RowsSource,
} from "../viewer/engine.js";
import {
	datasetNotFound,
	invalidParameter,
	isEngineReadError,
	notFound,
	viewerError,
} from "../viewer/errors.js";
import { parquetHeadFill } from "../viewer/parquet-head.js";
import {
	CROISSANT_MAX_CONFIGS,
	croissantDocument,
	type CroissantConfig,
	type JsonLd,
} from "../viewer/croissant.js";
import { featureOf, FeatureDepthError, storedFeatures, type EngineType } from "../viewer/features.js";
import {
	datasetLayout,
	isDataPath,
	isViewable,
	MAX_CONFIGS,
	type ConfigLayout,
	type LayoutFile,
	type SplitLayout,
} from "../viewer/layout.js";
import type { DatasetViewer, SplitFacts } from "../viewer/runtime.js";
import { fileAt, fileBytes, readableRevision, type ReadableRevision } from "./contents.js";
import { requireFileAccess } from "./gated.js";
import { repoPagePath } from "../repo-identity.js";
import type { ReadContext } from "./models.js";
import type { RepoContext } from "./repos.js";

/**
 * The dataset viewer (`/datasets-server/…`): what a dataset's revision (main by default) holds as configs, splits,
 * features and rows, computed on demand from its data files by the engine (src/viewer/) and remembered by
 * commit. Rights are the repository's: a dataset the viewer may not read is answered as a missing one.
 */

export interface ViewerContext extends ReadContext, Pick<RepoContext, "storage"> {
	datasetViewer: DatasetViewer;
}

/** Rows in one page (the public viewer's MAX_NUM_ROWS_PER_PAGE) and in `/first-rows`. */
export const ROWS_PER_PAGE = 100;
/** Largest card read for its `configs:` (the front matter itself is bounded by the card parser). */
const MAX_CARD_BYTES = 1024 * 1024;
/** Most words of a `/search` query looked for. */
const MAX_SEARCH_WORDS = 16;
/** Column of the row index in search and filter queries. */
const ROW_INDEX = "__hf_row_idx";

/** A dataset's main revision, as the viewer reads it, with its configs. */
export interface ViewedDataset {
	at: ReadableRevision;
	configs: ConfigLayout[];
	/** The hub's public origin, for the URLs of the files the answers link (audio and image cells); relative without. */
	origin?: string;
	/** The files of the folder configs' `.zip` archives (or their problems), by the archive's path. */
	archives?: ReadonlyMap<string, ZipListing>;
}

/** The URL of a file of the dataset's revision on this hub (its resolve route, with the repository's rights). */
function fileUrl(dataset: ViewedDataset, path: string): string {
	const id = dataset.at.id.split("/").map(encodeURIComponent).join("/");
	return `${dataset.origin ?? ""}/datasets/${id}/resolve/${dataset.at.commitId}/${path.split("/").map(encodeURIComponent).join("/")}`;
}

/**
 * The URL of a file inside one of the revision's archives (`path` a virtual path, `x.zip::a/1.png`): the
 * viewer's member route, with the archive's rights (no token: a browser's session cookie, or the caller's header).
 */
function memberUrl(dataset: ViewedDataset, path: string): string {
	const query = new URLSearchParams({ dataset: dataset.at.id, revision: dataset.at.commitId, path });
	return `${dataset.origin ?? ""}/datasets-server/archive-member?${query.toString()}`;
}

/** Most `.zip` files of a revision whose files are listed to derive its configs (their builder, their metadata files). */
export const MAX_LISTED_ARCHIVES = 100;

/** The files of a `.zip` file of the revision (its central directory, by range reads), or its problem; remembered by SHA-256. */
async function archiveListing(context: ViewerContext, file: LayoutFile): Promise<ZipListing> {
	const cache = context.datasetViewer.archives;
	const key = `${file.sha256}\n${file.size}`;
	const known = cache.get(key);
	if (known) return known;
	let listing: ZipListing;
	try {
		listing = await listZip((start, length) => readRange(context, file, start, length), file.size);
	} catch (error) {
		listing = { problem: `it cannot be read: ${error instanceof Error ? error.message : String(error)}` };
	}
	cache.set(key, listing);
	return listing;
}

/** The 422 of an archive that cannot be read (over a limit, corrupt, encrypted, unsafe names). */
function archiveError(path: string, problem: string): HubError {
	return viewerError(
		"Unprocessable",
		/more than|zip bomb/.test(problem) ? "TooBigContentError" : "DatasetGenerationError",
		`The archive '${path}' cannot be read: ${problem}.`,
	);
}

/** The dataset card's text (README.md), when it has one within MAX_CARD_BYTES. */
async function cardText(context: ViewerContext, at: ReadableRevision): Promise<string | undefined> {
	const readme = await fileAt(context, at, "README.md");
	if (!readme || readme.size > MAX_CARD_BYTES) return undefined;
	const chunks: Buffer[] = [];
	for await (const chunk of (await fileBytes(context, readme)) as AsyncIterable<Buffer>) chunks.push(chunk);
	return Buffer.concat(chunks).toString("utf8");
}

async function cardOf(
	context: ViewerContext,
	at: ReadableRevision,
): Promise<Record<string, unknown> | undefined> {
	const text = await cardText(context, at);
	return text === undefined ? undefined : readFrontMatter(text, "dataset").data;
}

/**
 * A dataset's revision the viewer may read (`path`: a file whose rights are checked, "" for the repository's),
 * or the public viewer's 404; a missing revision of a readable dataset is a 404 of its own.
 */
async function readableDataset(
	context: ViewerContext,
	viewer: Viewer,
	dataset: string,
	revision: string,
	path: string,
): Promise<ReadableRevision> {
	let at: ReadableRevision;
	try {
		at = await readableRevision(context, viewer, { type: "dataset", id: dataset }, revision);
	} catch (error) {
		if (error instanceof HubError && error.code === "RevisionNotFound")
			throw viewerError("NotFound", "ResponseNotFound", `The revision '${revision}' does not exist.`);
		if (error instanceof HubError && (error.status === 404 || error.status === 400)) throw datasetNotFound();
		throw error;
	}
	// A gated dataset's rows are its files' contents: shown only to viewers with access, and to others
	// as the public viewer answers a gated dataset (its 404, "… (private or gated) …").
	try {
		await requireFileAccess(context, viewer, at, path, () => repoPagePath(at));
	} catch (error) {
		if (error instanceof HubError && (error.status === 401 || error.status === 403)) throw datasetNotFound();
		throw error;
	}
	return at;
}

/**
 * The dataset at a revision (`main` unless asked: a branch, tag, commit or `refs/pr/N`, as `load_dataset`'s
 * `revision=`) and its configs, or the public viewer's 404 when the viewer may not read it. A revision
 * missing from a dataset the viewer may read is a 404 of its own (the dataset's existence is no secret then).
 */
export async function viewedDataset(
	context: ViewerContext,
	viewer: Viewer,
	dataset: string,
	revision = "main",
): Promise<ViewedDataset> {
	const at = await readableDataset(context, viewer, dataset, revision, "");
	const key = `${at.id}\n${at.commitId}`;
	let configs = context.datasetViewer.layouts.get(key);
	if (configs === undefined) {
		const files: LayoutFile[] = (await listFiles(context.db, at, at.commitId)).map((file) => ({
			path: file.path,
			size: file.size,
			sha256: file.sha256,
		}));
		// The archives' files decide a folder config's builder and its metadata files (datasets looks inside them).
		const listed = new Map<string, string[]>();
		const zips = files
			.filter((file) => extensionOf(file.path) === "zip" && isDataPath(file.path))
			.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
			.slice(0, MAX_LISTED_ARCHIVES);
		for (const zip of zips) {
			const listing = await archiveListing(context, zip);
			listed.set(zip.path, "entries" in listing ? listing.entries.map((entry) => entry.name) : []);
		}
		configs = datasetLayout(await cardOf(context, at), files, listed);
		if (configs.length > MAX_CONFIGS) {
			throw viewerError(
				"Unprocessable",
				"DatasetWithTooManyConfigsError",
				`The dataset has more than ${MAX_CONFIGS} configs.`,
			);
		}
		context.datasetViewer.layouts.set(key, configs);
	}
	// The folder configs' archives (at most MAX_LISTED_ARCHIVES: a config with more is refused by withFolderSplit).
	const archives = new Map<string, ZipListing>();
	for (const zip of configs.flatMap((config) => config.splits.flatMap((split) => split.archives ?? []))) {
		if (archives.size >= MAX_LISTED_ARCHIVES) break;
		if (!archives.has(zip.path)) archives.set(zip.path, await archiveListing(context, zip));
	}
	return { at, configs, archives };
}

/** The files of archives as the folder helpers take them (an archive that cannot be read: none). */
function archiveMembers(dataset: ViewedDataset, archives: readonly LayoutFile[]): ArchiveMembers[] {
	return archives.map((file) => {
		const listing = dataset.archives?.get(file.path);
		return {
			path: file.path,
			names: listing !== undefined && "entries" in listing ? listing.entries.map((entry) => entry.name) : [],
		};
	});
}

/** A split's archives and their files, or the 422 of the first that cannot be read. */
function splitArchives(
	dataset: ViewedDataset,
	split: SplitLayout,
): Map<string, { file: LayoutFile; names: Set<string> }> {
	const found = new Map<string, { file: LayoutFile; names: Set<string> }>();
	for (const file of split.archives ?? []) {
		const listing = dataset.archives?.get(file.path);
		if (listing === undefined) continue;
		if ("problem" in listing) throw archiveError(file.path, listing.problem);
		found.set(file.path, { file, names: new Set(listing.entries.map((entry) => entry.name)) });
	}
	return found;
}

/** The label datasets gives a folder builder's file at the repository's root: its URL's folder, `{name}@{commit}`. */
function rootLabel(dataset: ViewedDataset): string {
	return `${dataset.at.id.slice(dataset.at.id.lastIndexOf("/") + 1)}@${dataset.at.commitId}`;
}

export function splitItems(dataset: ViewedDataset, config?: string): ViewerSplitItem[] {
	const configs =
		config === undefined ? dataset.configs : dataset.configs.filter((item) => item.name === config);
	if (config !== undefined && configs.length === 0) throw notFound();
	return configs.flatMap((item) =>
		item.splits.map((split) => ({ dataset: dataset.at.id, config: item.name, split: split.name })),
	);
}

/**
 * What the viewer can do with a dataset (or one config or split): everything, for the formats it reads; for a
 * folder of audio or image files all but search and statistics unless its metadata or labels give columns for them.
 */
export function capabilities(dataset: ViewedDataset, config?: string, split?: string): ViewerIsValidAnswer {
	const shown = dataset.configs.filter(
		(item) =>
			(config === undefined || item.name === config) &&
			isViewable(item) &&
			item.splits.some((candidate) => split === undefined || candidate.name === split),
	);
	const readable = shown.some((item) => item.format !== undefined || item.hasMetadata === true);
	const labelled = shown.some(
		(item) =>
			isFolderKind(item.otherFormat) &&
			folderLabels(
				item.splits.flatMap((part) => part.files),
				item,
				rootLabel(dataset),
				archiveMembers(
					dataset,
					item.splits.flatMap((part) => part.archives ?? []),
				),
			) !== undefined,
	);
	const any = shown.length > 0;
	return { preview: any, viewer: any, search: readable, filter: any, statistics: readable || labelled };
}

/** A config and split of the dataset, or the public viewer's 404. */
export function findSplit(
	dataset: ViewedDataset,
	config: string,
	split: string,
): { config: ConfigLayout; split: SplitLayout } {
	const found = dataset.configs.find((item) => item.name === config);
	const part = found?.splits.find((item) => item.name === split);
	if (!found || !part) throw notFound();
	return { config: found, split: part };
}

/** The files of a split the viewer reads: all of them, or the first ones within MODELHUB_VIEWER_MAX_SPLIT_BYTES. */
function readFiles(context: ViewerContext, split: SplitLayout): { files: LayoutFile[]; partial: boolean } {
	const files: LayoutFile[] = [];
	let bytes = 0;
	for (const file of split.files) {
		if (bytes + file.size > context.datasetViewer.settings.maxSplitBytes) break;
		files.push(file);
		bytes += file.size;
	}
	if (files.length === 0) {
		throw viewerError(
			"Unprocessable",
			"TooBigContentError",
			`the split's first file is larger than the viewer reads (MODELHUB_VIEWER_MAX_SPLIT_BYTES=${context.datasetViewer.settings.maxSplitBytes})`,
		);
	}
	return { files, partial: files.length < split.files.length };
}

/** A split opened in the engine: its facts, and a session to query its view `data`. */
export interface OpenSplit {
	facts: SplitFacts;
	partial: boolean;
	session: EngineSession;
	cellChars: number;
	/** Makes a page's cells what the answer shows (an audio or image file's path becomes its cell). */
	finish: (rows: ViewerRowItem[]) => Promise<ViewerRowItem[]>;
	/** A folder's media columns made from metadata file names: whether each is a list (`file_names`). */
	media?: ReadonlyMap<string, boolean>;
}

/** Longest a cell's JSON text is shown: the viewer's cell bound, less when a row has many columns. */
function cellCharsFor(context: ViewerContext, columns: number): number {
	const { settings } = context.datasetViewer;
	return Math.max(100, Math.min(settings.cellChars, Math.floor(settings.rowChars / Math.max(1, columns))));
}

async function splitFacts(
	context: ViewerContext,
	session: EngineSession,
	config: ConfigLayout,
	files: readonly LayoutFile[],
	paths: readonly string[],
): Promise<SplitFacts> {
	const described = await session.query("SELECT * FROM data LIMIT 0");
	const { columns } = described;
	if (columns.length > context.datasetViewer.settings.maxColumns) {
		throw viewerError(
			"Unprocessable",
			"TooManyColumnsError",
			`The split has ${columns.length} columns, more than the viewer shows (MODELHUB_VIEWER_MAX_COLUMNS=${context.datasetViewer.settings.maxColumns}).`,
		);
	}
	let features = described.types.map((type: EngineType) => featureOf(type));
	let numRows: number;
	let memoryBytes = files.reduce((sum, file) => sum + file.size, 0);
	if (config.format === "parquet") {
		const list = `[${paths.map(sqlString).join(", ")}]`;
		const counted = await session.query(
			`SELECT sum(num_rows)::DOUBLE AS n FROM parquet_file_metadata(${list})`,
		);
		numRows = Number(counted.rows[0]?.n ?? 0);
		const sized = await session.query(
			`SELECT sum(total_uncompressed_size)::DOUBLE AS n FROM parquet_metadata(${list})`,
		);
		memoryBytes = Number(sized.rows[0]?.n ?? memoryBytes);
		const stored = await session.query(
			`SELECT decode(value) AS v FROM parquet_kv_metadata(${sqlString(paths[0] ?? "")}) WHERE decode(key) = 'huggingface' LIMIT 1`,
		);
		const fromFile = storedFeatures(stored.rows[0]?.v as string | undefined, columns);
		if (fromFile) features = columns.map((column) => fromFile[column] ?? { dtype: "string", _type: "Value" });
	} else {
		const counted = await session.query("SELECT count(*)::DOUBLE AS n FROM data");
		numRows = Number(counted.rows[0]?.n ?? 0);
	}
	const textColumns = columns.filter((_column, index) => described.types[index]?.typeId === 17);
	return { columns, features, textColumns, numRows, memoryBytes };
}

/**
 * Opens a split of the dataset in the engine (its files copied locally first) and runs `work` on it,
 * within the viewer's limits. Errors of the data files are answered in the public viewer's words.
 * `firstRows`: the work reads only the split's first rows, so a Parquet split's work starts once its
 * footers and leading row groups are copied; should it fail on the part-copied files, it runs again on
 * the whole ones.
 */
export async function withSplit<T>(
	context: ViewerContext,
	dataset: ViewedDataset,
	configName: string,
	splitName: string,
	work: (open: OpenSplit) => Promise<T>,
	firstRows?: number,
): Promise<T> {
	const { config, split } = findSplit(dataset, configName, splitName);
	if (isFolderKind(config.otherFormat))
		return withFolderSplit(context, dataset, config.otherFormat, config, split, work);
	if (config.format === undefined) {
		// Archives that cannot be read make no builder: their problem is the answer.
		for (const file of split.files) {
			if (extensionOf(file.path) !== "zip") continue;
			const listing = await archiveListing(context, file);
			if ("problem" in listing) throw archiveError(file.path, listing.problem);
		}
		throw viewerError(
			"NotImplemented",
			"UnsupportedFormatError",
			`The dataset viewer reads Parquet, CSV and JSON Lines files; this config's files are ${config.otherFormat ?? "of another format"}.`,
		);
	}
	const { files, partial } = readFiles(context, split);
	const storage = context.storage;
	const held = await context.datasetViewer.spool.acquire(
		files,
		{
			read: (file, span) => fileBytes(context, { ...file, path: "", lfs: true, gitOid: null }, span),
			localFile: (file) => storage.localFile?.(file.sha256),
		},
		firstRows !== undefined && config.format === "parquet" ? parquetHeadFill(firstRows) : undefined,
	);
	const source: FileSource = {
		format: config.format,
		paths: held.paths,
		tabs: config.format === "csv" && files.every((file) => file.path.toLowerCase().endsWith(".tsv")),
		...(config.jsonField === undefined ? {} : { jsonField: config.jsonField }),
	};
	const splitFiles: SplitFiles = { config, split, files, partial, source };
	try {
		if (!held.complete) {
			try {
				return await openSplit(context, dataset, splitFiles, work, 1);
			} catch (error) {
				// Only the engine's read errors can come from bytes not copied yet (or the files are bad: the
				// whole copies say which); the request's own errors and time-outs would only repeat.
				if (!isEngineReadError(error)) throw error;
				await held.completed();
			}
		}
		return await openSplit(context, dataset, splitFiles, work);
	} finally {
		held.release();
	}
}

/** A split's files and the engine's source reading their local copies. */
interface SplitFiles {
	config: ConfigLayout;
	split: SplitLayout;
	files: readonly LayoutFile[];
	partial: boolean;
	source: FileSource;
}

/** Runs `work` on a split's local copies (see withSplit). */
async function openSplit<T>(
	context: ViewerContext,
	dataset: ViewedDataset,
	{ config, split, files, partial, source }: SplitFiles,
	work: (open: OpenSplit) => Promise<T>,
	threads?: number,
): Promise<T> {
	const runtime = context.datasetViewer;
	const paths = source.paths;
	// Engine messages name local copies: they are told by the repository's paths instead.
	const describe = (message: string): string => {
		let text = message;
		paths.forEach((path, index) => {
			text = text.replaceAll(path, files[index]?.path ?? "file");
		});
		text = text.replaceAll(runtime.spool.dir, "");
		return `Cannot read the split's files: ${text.slice(0, 1000)}`;
	};
	return await runtime.engine.run(
		source,
		async (session) => {
			const key = `${dataset.at.id}\n${dataset.at.commitId}\n${config.name}\n${split.name}`;
			let facts = runtime.splits.get(key);
			if (facts === undefined) {
				try {
					facts = await splitFacts(context, session, config, files, paths);
				} catch (error) {
					if (error instanceof FeatureDepthError) {
						throw viewerError(
							"Unprocessable",
							"FeaturesError",
							`Cannot read the split's features: ${error.message}`,
						);
					}
					throw error;
				}
				runtime.splits.set(key, facts);
			}
			const cellChars = cellCharsFor(context, facts.columns.length);
			return work({ facts, partial, session, cellChars, finish: async (rows) => rows });
		},
		describe,
		threads,
	);
}

/** Most bytes of a split's metadata files read (datasets reads them whole; beyond this the answer is an error). */
export const MAX_METADATA_BYTES = 256 * 1024 * 1024;

/** Reads a range of a file of the revision (`start` inclusive, `end` exclusive, within its size). */
async function readRange(
	context: ViewerContext,
	file: LayoutFile,
	start: number,
	length: number,
): Promise<Buffer> {
	const end = Math.min(file.size, start + length);
	if (end <= start) return Buffer.alloc(0);
	const chunks: Buffer[] = [];
	const stream = await fileBytes(context, { ...file, path: "", lfs: true, gitOid: null }, { start, end });
	for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
	return Buffer.concat(chunks);
}

/** A file a media cell links: its name (for messages and its type), size, URL on this hub and a reader of its bytes. */
interface MediaSource {
	path: string;
	size: number;
	url: string;
	read: ReadBytes;
}

/**
 * An audio or image cell of a folder split: its file's first bytes checked (and an image's size read), then
 * the public viewer's cell linking the file on this hub.
 */
async function mediaCellOf(kind: FolderKind, source: MediaSource, row: number): Promise<ViewerCell> {
	const fail = (problem: string): never => {
		throw viewerError(
			"Unprocessable",
			"RowsPostProcessingError",
			`Cannot show the ${FOLDER_MEDIA[kind].column} file '${source.path}' (row ${row}): ${problem}.`,
		);
	};
	if (kind === "audiofolder") {
		const problem = audioHeadProblem(source.path, await source.read(0, AUDIO_HEAD_BYTES));
		return problem === undefined ? audioCell(source.path, source.url) : fail(problem);
	}
	const head = await source.read(0, IMAGE_HEAD_BYTES);
	const size = await imageSize(source.path, head, source.read, source.size);
	return "problem" in size ? fail(size.problem) : imageCell(source.url, size);
}

/** The cell of a file of the revision. */
function mediaCell(
	context: ViewerContext,
	dataset: ViewedDataset,
	kind: FolderKind,
	file: LayoutFile,
	row: number,
): Promise<ViewerCell> {
	return mediaCellOf(
		kind,
		{
			path: file.path,
			size: file.size,
			url: fileUrl(dataset, file.path),
			read: (start, length) => readRange(context, file, start, length),
		},
		row,
	);
}

/** Bytes of an archive's file read at once for its cell (an image's size, an audio file's type). */
function headBytes(kind: FolderKind): number {
	return kind === "audiofolder" ? AUDIO_HEAD_BYTES : IMAGE_HEAD_BYTES;
}

/** What was read of an archive's file for its cell. */
interface MemberHead {
	archive: LayoutFile;
	member: string;
	read: ZipRead;
}

/**
 * The first bytes of the archives' files a page shows (`paths`: virtual paths, others ignored), one pass over
 * each archive's central directory; only files of `archives` (the split's) are read.
 */
async function memberHeads(
	context: ViewerContext,
	kind: FolderKind,
	archives: ReadonlyMap<string, { file: LayoutFile; names: Set<string> }>,
	paths: Iterable<string>,
): Promise<Map<string, MemberHead>> {
	const wanted = new Map<string, Set<string>>();
	for (const path of paths) {
		const parsed = parseMemberPath(path);
		if (parsed === undefined || !archives.get(parsed.archive)?.names.has(parsed.member)) continue;
		wanted.set(parsed.archive, (wanted.get(parsed.archive) ?? new Set()).add(parsed.member));
	}
	const heads = new Map<string, MemberHead>();
	for (const [path, members] of wanted) {
		const archive = archives.get(path)?.file;
		if (archive === undefined) continue;
		const found = await readZipEntries(
			(start, length) => readRange(context, archive, start, length),
			archive.size,
			members,
			{ maxBytes: headBytes(kind) },
		);
		if ("problem" in found) throw archiveError(archive.path, found.problem);
		for (const [member, read] of found.entries)
			heads.set(memberPath(path, member), { archive, member, read });
	}
	return heads;
}

/** The cell of a file inside an archive (its first bytes read by memberHeads; further reads, as a JPEG's, read again). */
async function memberCell(
	context: ViewerContext,
	dataset: ViewedDataset,
	kind: FolderKind,
	head: MemberHead,
	row: number,
): Promise<ViewerCell> {
	const path = memberPath(head.archive.path, head.member);
	if ("problem" in head.read) {
		throw viewerError(
			"Unprocessable",
			"RowsPostProcessingError",
			`Cannot show the ${FOLDER_MEDIA[kind].column} file '${path}' (row ${row}): the archive ${head.read.problem}.`,
		);
	}
	const { bytes, size } = head.read;
	const read: ReadBytes = async (start, length) => {
		if (start + length <= bytes.length || bytes.length >= size) return bytes.subarray(start, start + length);
		const again = await readZipEntries(
			(from, count) => readRange(context, head.archive, from, count),
			head.archive.size,
			new Set([head.member]),
			{ maxBytes: start + length },
		);
		const entry = "entries" in again ? again.entries.get(head.member) : undefined;
		return entry !== undefined && "bytes" in entry
			? entry.bytes.subarray(start, start + length)
			: Buffer.alloc(0);
	};
	return mediaCellOf(kind, { path, size, url: memberUrl(dataset, path), read }, row);
}

/** A metadata file of a split: one of the revision, or one inside an archive (read from it, then copied locally). */
type MetadataFile = LayoutFile & { inArchive?: { archive: LayoutFile; member: string } };

/** The first `maxBytes` of an archive's file, or the 422 of what keeps them from being read. */
async function memberBytes(
	context: ViewerContext,
	archive: LayoutFile,
	member: string,
	maxBytes: number,
): Promise<Buffer> {
	const found = await readZipEntries(
		(start, length) => readRange(context, archive, start, length),
		archive.size,
		new Set([member]),
		{ maxBytes },
	);
	if ("problem" in found) throw archiveError(archive.path, found.problem);
	const entry = found.entries.get(member);
	if (entry === undefined || "problem" in entry)
		throw archiveError(archive.path, entry?.problem ?? `it has no file ${member}`);
	return entry.bytes;
}

/**
 * A split of a folder of audio or image files (viewer/folder.ts). Without metadata files: its rows (the files'
 * paths, their labels) made into the engine's table; with them: the metadata files' rows, read by the engine
 * (local copies, bounded by MAX_METADATA_BYTES), their file names made media columns. Either way paging, filter
 * and statistics are the engine's as for any split, and each page's media cells link the files on this hub
 * after their first bytes show they are the audio or image their names say. A metadata row naming a file the
 * revision does not hold has a null cell (datasets keeps the row; its file cannot be read).
 */
async function withFolderSplit<T>(
	context: ViewerContext,
	dataset: ViewedDataset,
	kind: FolderKind,
	config: ConfigLayout,
	split: SplitLayout,
	work: (open: OpenSplit) => Promise<T>,
): Promise<T> {
	const runtime = context.datasetViewer;
	const oneMedia = mediaFeature(kind, false);
	// Labels and metadata formats are the whole config's: every archive of it must have been listed.
	const unlisted = config.splits
		.flatMap((part) => part.archives ?? [])
		.find((file) => dataset.archives?.has(file.path) !== true);
	if (unlisted !== undefined) {
		throw viewerError(
			"Unprocessable",
			"TooBigContentError",
			`The dataset's folder configs have more .zip archives than the viewer reads (${MAX_LISTED_ARCHIVES}); '${unlisted.path}' is not read.`,
		);
	}
	const archives = splitArchives(dataset, split);
	const archiveBytes = [...archives.values()].reduce((sum, archive) => sum + archive.file.size, 0);
	if (!config.hasMetadata) {
		const labels = folderLabels(
			config.splits.flatMap((part) => part.files),
			config,
			rootLabel(dataset),
			archiveMembers(
				dataset,
				config.splits.flatMap((part) => part.archives ?? []),
			),
		);
		const made = folderRows(
			kind,
			split.files,
			labels,
			rootLabel(dataset),
			archiveMembers(dataset, split.archives ?? []),
		);
		if (made.invalidLabel !== undefined) {
			throw viewerError(
				"Unprocessable",
				"DatasetGenerationError",
				`datasets cannot build this split: it labels an archive's files by the archive's folder ('${made.invalidLabel}'), which is not one of the labels the folders inside give (${(labels ?? []).join(", ")}): "Invalid string class label ${made.invalidLabel}".`,
			);
		}
		const column = FOLDER_MEDIA[kind].column;
		const source: RowsSource = {
			format: "rows",
			columns: made.columns.map((name) => ({ name, type: name === column ? "VARCHAR" : "BIGINT" })),
			rows: made.rows,
		};
		const facts: SplitFacts = {
			columns: made.columns,
			features: made.features,
			textColumns: [],
			numRows: made.rows.length,
			memoryBytes: split.files.reduce((sum, file) => sum + file.size, 0) + archiveBytes,
		};
		const files = new Map(split.files.map((file) => [file.path, file]));
		const finish = async (rows: ViewerRowItem[]): Promise<ViewerRowItem[]> => {
			const paths = rows.map((item) => item.row[column]).filter((path) => typeof path === "string");
			const heads = await memberHeads(context, kind, archives, paths);
			for (const item of rows) {
				const path = item.row[column];
				if (typeof path !== "string") continue;
				const file = files.get(path);
				const head = heads.get(path);
				if (file !== undefined)
					item.row[column] = await mediaCell(context, dataset, kind, file, item.row_idx);
				else if (head !== undefined)
					item.row[column] = await memberCell(context, dataset, kind, head, item.row_idx);
			}
			return rows;
		};
		return runtime.engine.run(
			source,
			(session) =>
				work({
					facts,
					partial: made.partial,
					session,
					cellChars: cellCharsFor(context, facts.columns.length),
					finish,
				}),
			(message) => `Cannot list the split's ${column} files: ${message.slice(0, 1000)}`,
		);
	}
	// A split's metadata files: its own, then those inside its archives (datasets finds both; it reads them as a
	// set, in no order of its own).
	const metadataOf = (part: SplitLayout): MetadataFile[] => [
		...(part.metadata ?? []),
		...(part.archives ?? []).flatMap((archive) => {
			const listing = dataset.archives?.get(archive.path);
			if (listing === undefined || "problem" in listing) return [];
			const sizes = new Map(listing.entries.map((entry) => [entry.name, entry.uncompressedSize]));
			return archiveFiles(kind, [...sizes.keys()]).metadata.map((member) => ({
				path: memberPath(archive.path, member),
				size: sizes.get(member) ?? 0,
				// The local copy's name: the archive's and the file's (never a stored blob's SHA-256).
				sha256: createHash("sha256").update(`${archive.sha256}\n${member}`).digest("hex"),
				inArchive: { archive, member },
			}));
		}),
	];
	// datasets reads one metadata format per dataset and refuses a mix.
	const metadata = metadataOf(split);
	const all = config.splits.flatMap(metadataOf);
	const extensions = [
		...new Set(all.map((file) => file.path.slice(file.path.lastIndexOf(".") + 1).toLowerCase())),
	];
	if (extensions.length > 1) {
		throw viewerError(
			"Unprocessable",
			"DatasetGenerationError",
			`The config's metadata files have different formats (${extensions.map((extension) => `metadata.${extension}`).join(", ")}); datasets reads one.`,
		);
	}
	const bytes = metadata.reduce((sum, file) => sum + file.size, 0);
	if (bytes > MAX_METADATA_BYTES) {
		throw viewerError(
			"Unprocessable",
			"TooBigContentError",
			`The split's metadata files hold ${bytes} bytes, more than the viewer reads (${MAX_METADATA_BYTES}).`,
		);
	}
	const memoryBytes = split.files.reduce((sum, file) => sum + file.size, 0) + archiveBytes;
	const empty = (): Promise<T> =>
		// A split without metadata files has no rows when the config's other splits have them (as datasets builds it).
		runtime.engine.run(
			{ format: "rows", columns: [{ name: FOLDER_MEDIA[kind].column, type: "VARCHAR" }], rows: [] },
			(session) =>
				work({
					facts: {
						columns: [FOLDER_MEDIA[kind].column],
						features: [oneMedia],
						textColumns: [],
						numRows: 0,
						memoryBytes,
					},
					partial: false,
					session,
					cellChars: cellCharsFor(context, 1),
					finish: async (rows) => rows,
				}),
			(message) => message.slice(0, 1000),
		);
	if (metadata.length === 0) return empty();
	const extension = extensions[0] ?? "csv";
	if (extension === "csv") {
		for (const file of metadata) {
			const head =
				file.inArchive === undefined
					? await readRange(context, file, 0, CSV_HEADER_BYTES)
					: await memberBytes(context, file.inArchive.archive, file.inArchive.member, CSV_HEADER_BYTES);
			const columns = csvHeaderColumns(head);
			if (columns > runtime.settings.maxColumns) {
				throw viewerError(
					"Unprocessable",
					"TooManyColumnsError",
					`The metadata file '${file.path}' has ${columns} columns, more than the viewer shows (MODELHUB_VIEWER_MAX_COLUMNS=${runtime.settings.maxColumns}).`,
				);
			}
		}
	}
	const bySha = new Map(metadata.map((file) => [file.sha256, file]));
	const held = await runtime.spool.acquire(metadata, {
		read: async (file) => {
			const inArchive = bySha.get(file.sha256)?.inArchive;
			if (inArchive === undefined) return fileBytes(context, { ...file, path: "", lfs: true, gitOid: null });
			const { archive, member } = inArchive;
			const opened = await openZipEntry(
				(start, length) => readRange(context, archive, start, length),
				archive.size,
				member,
			);
			if ("problem" in opened) throw archiveError(archive.path, opened.problem);
			return opened.stream;
		},
		localFile: (file) =>
			bySha.get(file.sha256)?.inArchive === undefined ? context.storage.localFile?.(file.sha256) : undefined,
	});
	try {
		const source: MetadataSource = {
			format: "metadata",
			reader: extension === "parquet" ? "parquet" : extension === "jsonl" ? "json" : "csv",
			paths: held.paths,
			names: metadata.map((file) => file.path),
			mediaColumn: (name, list) => metadataMediaColumn(kind, name, list),
			maxColumns: runtime.settings.maxColumns,
		};
		const describe = (message: string): string => {
			let text = message;
			held.paths.forEach((path, index) => {
				text = text.replaceAll(path, metadata[index]?.path ?? "metadata");
			});
			text = text.replaceAll(runtime.spool.dir, "");
			return `Cannot read the split's metadata files: ${text.slice(0, 1000)}`;
		};
		return await runtime.engine.run(
			source,
			async (session) => {
				const media = new Map((session.media ?? []).map((made) => [made.column, made.list]));
				const key = `${dataset.at.id}\n${dataset.at.commitId}\n${config.name}\n${split.name}`;
				let facts = runtime.splits.get(key);
				if (facts === undefined) {
					const described = await session.query("SELECT * FROM data LIMIT 0");
					let features: ViewerFeature[];
					try {
						features = described.types.map((type: EngineType, index) => {
							const list = media.get(described.columns[index] ?? "");
							if (list !== undefined) return mediaFeature(kind, list);
							const feature = featureOf(type);
							// datasets reads metadata.csv with pandas, whose strings arrow makes large_string.
							return source.reader === "csv" && feature.dtype === "string"
								? { ...feature, dtype: "large_string" }
								: feature;
						});
					} catch (error) {
						if (error instanceof FeatureDepthError) {
							throw viewerError(
								"Unprocessable",
								"FeaturesError",
								`Cannot read the metadata's features: ${error.message}`,
							);
						}
						throw error;
					}
					const counted = await session.query("SELECT count(*)::DOUBLE AS n FROM data");
					facts = {
						columns: described.columns,
						features,
						textColumns: described.columns.filter(
							(column, index) => !media.has(column) && described.types[index]?.typeId === 17,
						),
						numRows: Number(counted.rows[0]?.n ?? 0),
						memoryBytes,
					};
					runtime.splits.set(key, facts);
				}
				// Files named by metadata rows are looked up in the revision once per page.
				const known = new Map<string, LayoutFile | null>();
				/**
				 * The file a `{folder}//{name}` value names: a path of the revision, or a virtual path when the
				 * metadata file is inside an archive (its names are the archive's files).
				 */
				const resolve = (
					value: string,
					column: string,
					row: number,
				): { path: string; inArchive: boolean } => {
					const cut = value.indexOf(METADATA_FOLDER_END);
					const folder = value.slice(0, Math.max(0, cut));
					const named = value.slice(cut + METADATA_FOLDER_END.length);
					const resolved = metadataFilePath(folder, named);
					if ("problem" in resolved) {
						throw viewerError(
							"Unprocessable",
							"RowsPostProcessingError",
							`Cannot show the ${column} of row ${row} ('${named.slice(0, 200)}'): ${resolved.problem}.`,
						);
					}
					return { path: resolved.path, inArchive: parseMemberPath(folder) !== undefined };
				};
				/** The cell of one value: the file's, or null when the revision (or the archive) lacks it. */
				const cellOf = async (
					value: string,
					column: string,
					row: number,
					heads: ReadonlyMap<string, MemberHead>,
				): Promise<ViewerCell> => {
					const { path, inArchive } = resolve(value, column, row);
					if (inArchive) {
						const head = heads.get(path);
						return head === undefined ? null : memberCell(context, dataset, kind, head, row);
					}
					let file = known.get(path);
					if (file === undefined) {
						const entry = await fileAt(context, dataset.at, path);
						file = entry ? { path: entry.path, size: entry.size, sha256: entry.sha256 } : null;
						known.set(path, file);
					}
					if (file !== null) return mediaCell(context, dataset, kind, file, row);
					// A name through an archive (`images.zip/img/3.png`): datasets opens the archive as a folder and fails.
					const through = await pathThroughArchive(
						path,
						async (prefix) => (await fileAt(context, dataset.at, prefix)) !== undefined,
					);
					if (through !== undefined) {
						throw viewerError(
							"Unprocessable",
							"RowsPostProcessingError",
							`Cannot show the ${column} of row ${row} ('${path}'): it names a file inside the archive '${through}', which datasets opens as a folder and cannot (NotADirectoryError). A metadata file inside the archive names its files.`,
						);
					}
					return null;
				};
				/** The values of a page's media cells (a list's first MAX_MEDIA_PER_CELL). */
				const valuesOf = (
					rows: readonly ViewerRowItem[],
				): Array<{ value: string; column: string; row: number }> =>
					rows.flatMap((item) =>
						[...media].flatMap(([column, list]) => {
							const value = item.row[column];
							const names = list ? (Array.isArray(value) ? value.slice(0, MAX_MEDIA_PER_CELL) : []) : [value];
							return names.flatMap((name) =>
								typeof name === "string" ? [{ value: name, column, row: item.row_idx }] : [],
							);
						}),
					);
				const finish = async (rows: ViewerRowItem[]): Promise<ViewerRowItem[]> => {
					// The archives' files the page shows, read together (one pass over each archive).
					const inArchives = valuesOf(rows).flatMap(({ value, column, row }) => {
						const resolved = resolve(value, column, row);
						return resolved.inArchive ? [resolved.path] : [];
					});
					const heads =
						inArchives.length === 0 ? new Map() : await memberHeads(context, kind, archives, inArchives);
					for (const item of rows) {
						for (const [column, list] of media) {
							const value = item.row[column];
							if (!list) {
								if (typeof value === "string")
									item.row[column] = await cellOf(value, column, item.row_idx, heads);
								continue;
							}
							// datasets cannot build a row whose list is empty or missing (it iterates None).
							if (!Array.isArray(value) || value.length === 0) {
								throw viewerError(
									"Unprocessable",
									"RowsPostProcessingError",
									`Cannot show the ${column} of row ${item.row_idx}: its list of file names is ${value === null ? "missing" : "empty"}, and datasets cannot build such a row.`,
								);
							}
							// The query gave one name more than is shown when there are more (see cellColumns).
							const cells: ViewerCell[] = [];
							for (const name of value.slice(0, MAX_MEDIA_PER_CELL))
								cells.push(typeof name === "string" ? await cellOf(name, column, item.row_idx, heads) : null);
							item.row[column] = cells;
							if (value.length > MAX_MEDIA_PER_CELL) item.truncated_cells.push(column);
						}
					}
					return rows;
				};
				return work({
					facts,
					partial: false,
					session,
					cellChars: cellCharsFor(context, facts.columns.length),
					finish,
					media,
				});
			},
			describe,
		);
	} finally {
		held.release();
	}
}

export function featureItems(facts: SplitFacts): ViewerFeatureItem[] {
	return facts.columns.map((name, index) => ({
		feature_idx: index,
		name,
		type: facts.features[index] ?? { dtype: "string", _type: "Value" },
	}));
}

/**
 * Each column's cell as JSON text cut to `cellChars + 1` characters (so a cut shows), computed by the engine;
 * an audio or image column's path whole (it becomes a link), a list of them its first MAX_MEDIA_PER_CELL + 1.
 */
function cellColumns(open: OpenSplit): string {
	return open.facts.columns
		.map((column, index) => {
			const name = sqlName(column);
			const json = `CAST(to_json(${name}) AS VARCHAR)`;
			const kind = open.facts.features[index]?._type;
			const shown =
				open.media?.get(column) === true
					? `CAST(to_json(list_slice(${name}, 1, ${MAX_MEDIA_PER_CELL + 1})) AS VARCHAR)`
					: kind === "Audio" || kind === "Image"
						? json
						: `left(${json}, ${open.cellChars + 1})`;
			return `${shown} AS ${name}`;
		})
		.join(", ");
}

function rowItems(
	open: OpenSplit,
	rows: Array<Record<string, unknown>>,
	firstIndex: (row: Record<string, unknown>, position: number) => number,
): ViewerRowItem[] {
	return rows.map((raw, position) => {
		const row: Record<string, ViewerCell> = {};
		const truncated: string[] = [];
		for (const column of open.facts.columns) {
			const text = raw[column];
			if (typeof text !== "string") {
				row[column] = null;
				continue;
			}
			// File names become links whole (a list of them is bounded by its count, in cellColumns).
			if (text.length > open.cellChars && !open.media?.has(column)) {
				row[column] = text.slice(0, open.cellChars);
				truncated.push(column);
				continue;
			}
			try {
				row[column] = JSON.parse(text) as ViewerCell;
			} catch {
				// DuckDB writes NaN and infinities as bare words, which JSON has not.
				row[column] = text;
			}
		}
		return { row_idx: firstIndex(raw, position), row, truncated_cells: truncated };
	});
}

/** A page of the split's rows from `offset`. */
export async function rowsPage(open: OpenSplit, offset: number, length: number): Promise<ViewerRowItem[]> {
	if (length === 0 || offset >= open.facts.numRows) return [];
	const result = await open.session.query(
		`SELECT ${cellColumns(open)} FROM data LIMIT ${length} OFFSET ${offset}`,
	);
	return open.finish(rowItems(open, result.rows, (_row, position) => offset + position));
}

/** Rows matching a condition (SQL, already checked), in `order` (SQL, checked) or the split's order, and how many match. */
async function matchingRows(
	open: OpenSplit,
	condition: string,
	values: string[],
	order: string | undefined,
	offset: number,
	length: number,
): Promise<{ rows: ViewerRowItem[]; total: number }> {
	const numbered = `(SELECT (row_number() OVER ()) - 1 AS ${ROW_INDEX}, * FROM data)`;
	const counted = await open.session.query(
		`SELECT count(*)::DOUBLE AS n FROM data WHERE ${condition}`,
		values,
	);
	const total = Number(counted.rows[0]?.n ?? 0);
	if (length === 0 || offset >= total) return { rows: [], total };
	const result = await open.session.query(
		`SELECT ${ROW_INDEX}::DOUBLE AS ${ROW_INDEX}, ${cellColumns(open)} FROM ${numbered} WHERE ${condition}
		ORDER BY ${order === undefined ? "" : `${order}, `}${ROW_INDEX} LIMIT ${length} OFFSET ${offset}`,
		values,
	);
	return { rows: await open.finish(rowItems(open, result.rows, (row) => Number(row[ROW_INDEX]))), total };
}

/** `/search`: rows where a string column contains one of the query's words (case-insensitive). */
export async function searchRows(
	open: OpenSplit,
	query: string,
	offset: number,
	length: number,
): Promise<{ rows: ViewerRowItem[]; total: number }> {
	const words = [
		...new Set(
			query
				.toLowerCase()
				.split(/\s+/)
				.filter((word) => word !== ""),
		),
	].slice(0, MAX_SEARCH_WORDS);
	if (words.length === 0 || open.facts.textColumns.length === 0) return { rows: [], total: 0 };
	const tests: string[] = [];
	const values: string[] = [];
	for (const column of open.facts.textColumns) {
		for (const word of words) {
			tests.push(`contains(lower(${sqlName(column)}), ?)`);
			values.push(word);
		}
	}
	return matchingRows(open, `(${tests.join(" OR ")})`, values, undefined, offset, length);
}

/** `/filter`: rows where `where` holds, ordered by `orderby` (both checked by viewer/where.ts). */
export async function filterRows(
	open: OpenSplit,
	where: string | undefined,
	orderby: string | undefined,
	offset: number,
	length: number,
): Promise<{ rows: ViewerRowItem[]; total: number }> {
	try {
		return await matchingRows(open, where === undefined ? "true" : `(${where})`, [], orderby, offset, length);
	} catch (error) {
		// The split was read already (its facts): what fails now is the clause (a missing column, wrong
		// types), the public viewer's "A query parameter is invalid". Time limits stay what they are.
		if (error instanceof HubError || (error instanceof Error && /INTERRUPT/i.test(error.message)))
			throw error;
		throw invalidParameter("A query parameter is invalid");
	}
}

/** The size of each split (row counts from the files: Parquet footers, or a count for CSV and JSON). */
export async function splitSizes(
	context: ViewerContext,
	dataset: ViewedDataset,
	config: ConfigLayout,
): Promise<{ splits: ViewerSplitSize[]; partial: boolean }> {
	const splits: ViewerSplitSize[] = [];
	let partial = false;
	for (const split of config.splits) {
		const size = await withSplit(context, dataset, config.name, split.name, async (open) => {
			partial ||= open.partial;
			const original = split.files.reduce((sum, file) => sum + file.size, 0);
			return {
				dataset: dataset.at.id,
				config: config.name,
				split: split.name,
				num_bytes_original_files: original,
				num_bytes_parquet_files: config.format === "parquet" ? original : 0,
				num_bytes_memory: open.facts.memoryBytes,
				num_rows: open.facts.numRows,
				num_columns: open.facts.columns.length,
				estimated_num_rows: null,
			};
		});
		splits.push(size);
	}
	return { splits, partial };
}

/** One config's DatasetInfo, as `datasets` would describe the loaded config. */
export async function configInfo(
	context: ViewerContext,
	dataset: ViewedDataset,
	config: ConfigLayout,
): Promise<{ info: ViewerDatasetInfo; partial: boolean }> {
	const sizes = await splitSizes(context, dataset, config);
	const first = config.splits[0];
	const features = first
		? await withSplit(context, dataset, config.name, first.name, async (open) =>
				Object.fromEntries(
					open.facts.columns.map((column, index) => [
						column,
						open.facts.features[index] ?? { dtype: "string", _type: "Value" },
					]),
				),
			)
		: {};
	const datasetName = dataset.at.id.slice(dataset.at.id.lastIndexOf("/") + 1);
	const info: ViewerDatasetInfo = {
		description: "",
		citation: "",
		homepage: "",
		license: "",
		features,
		builder_name: config.format ?? config.otherFormat ?? "",
		dataset_name: datasetName,
		config_name: config.name,
		version: { version_str: "0.0.0", major: 0, minor: 0, patch: 0 },
		splits: Object.fromEntries(
			sizes.splits.map((split) => [
				split.split,
				{
					name: split.split,
					num_bytes: split.num_bytes_memory,
					num_examples: split.num_rows,
					dataset_name: datasetName,
				},
			]),
		),
		download_size: sizes.splits.reduce((sum, split) => sum + split.num_bytes_original_files, 0),
		dataset_size: sizes.splits.reduce((sum, split) => sum + split.num_bytes_memory, 0),
	};
	return { info, partial: sizes.partial };
}

/** The Parquet files of the dataset's Parquet configs (the hub converts nothing, so CSV and JSON have none). */
export function parquetFiles(dataset: ViewedDataset, origin: string, config?: string): ViewerParquetFile[] {
	const configs =
		config === undefined ? dataset.configs : dataset.configs.filter((item) => item.name === config);
	if (config !== undefined && configs.length === 0) throw notFound();
	const located = { ...dataset, origin };
	return configs
		.filter((item) => item.format === "parquet")
		.flatMap((item) =>
			item.splits.flatMap((split) =>
				split.files.map((file) => ({
					dataset: dataset.at.id,
					config: item.name,
					split: split.name,
					url: fileUrl(located, file.path),
					filename: file.path.slice(file.path.lastIndexOf("/") + 1),
					size: file.size,
				})),
			),
		);
}

/** A numeric expression's statistics over `data` (`expression` is SQL over the split's columns). */
async function numericalStatistics(
	open: OpenSplit,
	expression: string,
	type: "int" | "float",
	samples: number,
): Promise<ViewerNumericalStatistics> {
	const values = `(SELECT (${expression})::DOUBLE AS x FROM data)`;
	const summary = await open.session.query(
		`SELECT count(*) FILTER (WHERE x IS NULL)::DOUBLE AS nulls, min(x) AS lo, max(x) AS hi, avg(x) AS mean,
		median(x) AS median, stddev_samp(x) AS std, count(x)::DOUBLE AS filled FROM ${values}`,
	);
	const row = summary.rows[0] ?? {};
	const nulls = Number(row.nulls ?? 0);
	const filled = Number(row.filled ?? 0);
	if (filled === 0) {
		return {
			nan_count: samples,
			nan_proportion: 1,
			min: null,
			max: null,
			mean: null,
			median: null,
			std: null,
			histogram: null,
		};
	}
	const min = Number(row.lo);
	const max = Number(row.hi);
	const edges = binEdges(min, max, type);
	let hist: number[];
	if (edges.length === 2 && edges[0] === edges[1]) hist = [filled];
	else {
		// Bins are [a, b), the last [a, b] (numpy's, which the public viewer's polars code reproduces).
		const bins = edges.slice(0, -1).map((_edge, index) => {
			const last = index === edges.length - 2;
			return `count(*) FILTER (WHERE x >= ?::DOUBLE AND x ${last ? "<=" : "<"} ?::DOUBLE)::DOUBLE AS b${index}`;
		});
		const parameters = edges.slice(0, -1).flatMap((edge, index) => [edge, edges[index + 1] as number]);
		const counted = await open.session.query(`SELECT ${bins.join(", ")} FROM ${values}`, parameters);
		hist = bins.map((_bin, index) => Number(counted.rows[0]?.[`b${index}`] ?? 0));
	}
	const rounded = (value: unknown): number | null =>
		value === null || value === undefined ? null : round5(Number(value));
	return {
		nan_count: nulls,
		nan_proportion: proportion(nulls, samples),
		min: type === "int" ? Math.trunc(min) : round5(min),
		max: type === "int" ? Math.trunc(max) : round5(max),
		mean: rounded(row.mean),
		median: rounded(row.median),
		// One value has no sample deviation (polars answers null too).
		std: rounded(row.std),
		histogram: { hist, bin_edges: type === "float" ? edges.map(round5) : edges },
	};
}

/** Counts of a column's values (nulls apart), most frequent first, at most `limit`. */
async function valueCounts(
	open: OpenSplit,
	column: string,
	limit: number,
): Promise<{ counts: Array<[unknown, number]>; nulls: number }> {
	const name = sqlName(column);
	const result = await open.session.query(
		`SELECT ${name} AS v, count(*)::DOUBLE AS n FROM data GROUP BY ${name} ORDER BY n DESC, v NULLS FIRST LIMIT ${limit + 1}`,
	);
	let nulls = 0;
	const counts: Array<[unknown, number]> = [];
	for (const row of result.rows) {
		if (row.v === null || row.v === undefined) nulls = Number(row.n);
		else counts.push([row.v, Number(row.n)]);
	}
	return { counts, nulls };
}

/** One column's statistics, computed by the engine over the split's rows. */
async function columnStatistics(
	open: OpenSplit,
	column: string,
	feature: ViewerFeature,
	type: StatisticsColumnType,
	samples: number,
): Promise<ViewerColumnStatistics> {
	const name = sqlName(column);
	switch (type) {
		case "int":
		case "float": {
			const expression = type === "float" ? `CASE WHEN isnan(${name}) THEN NULL ELSE ${name} END` : name;
			return {
				column_name: column,
				column_type: type,
				column_statistics: await numericalStatistics(open, expression, type, samples),
			};
		}
		case "list":
			return {
				column_name: column,
				column_type: "list",
				column_statistics: await numericalStatistics(open, `len(${name})`, "int", samples),
			};
		case "bool": {
			const { counts, nulls } = await valueCounts(open, column, 2);
			const frequencies: Record<string, number> = {};
			for (const [value, count] of counts.sort(([a], [b]) => Number(a) - Number(b)))
				frequencies[value === true ? "True" : "False"] = count;
			return {
				column_name: column,
				column_type: "bool",
				column_statistics: { nan_count: nulls, nan_proportion: proportion(nulls, samples), frequencies },
			};
		}
		case "class_label": {
			const names = Array.isArray(feature.names) ? feature.names.map(String) : [];
			const { counts, nulls } = await valueCounts(open, column, names.length + 1);
			const byId = new Map(counts.map(([value, count]) => [Number(value), count]));
			const noLabel = byId.get(-1) ?? 0;
			return {
				column_name: column,
				column_type: "class_label",
				column_statistics: {
					nan_count: nulls,
					nan_proportion: proportion(nulls, samples),
					no_label_count: noLabel,
					no_label_proportion: proportion(noLabel, samples),
					n_unique: names.length,
					frequencies: Object.fromEntries(names.map((label, id) => [label, byId.get(id) ?? 0])),
				},
			};
		}
		case "string": {
			const distinct = await open.session.query(
				`SELECT count(DISTINCT ${name})::DOUBLE AS n, count(*) FILTER (WHERE ${name} IS NULL)::DOUBLE AS nulls FROM data`,
			);
			const nulls = Number(distinct.rows[0]?.nulls ?? 0);
			// polars' n_unique counts null as a value.
			const unique = Number(distinct.rows[0]?.n ?? 0) + (nulls > 0 ? 1 : 0);
			if (isStringLabel(unique, samples)) {
				const { counts } = await valueCounts(open, column, MAX_NUM_STRING_LABELS);
				return {
					column_name: column,
					column_type: "string_label",
					column_statistics: {
						nan_count: nulls,
						nan_proportion: proportion(nulls, samples),
						no_label_count: 0,
						no_label_proportion: 0,
						n_unique: counts.length,
						frequencies: Object.fromEntries(counts.map(([value, count]) => [String(value), count])),
					},
				};
			}
			return {
				column_name: column,
				column_type: "string_text",
				column_statistics: await numericalStatistics(open, `length(${name})`, "int", samples),
			};
		}
	}
}

/**
 * `/statistics`: per column of a supported type (ints, floats, bools, ClassLabels, strings, lists), the
 * public viewer's statistics, sorted by column name; computed by the engine within its limits (time,
 * memory) and remembered by commit. No supported column: the public viewer's NoSupportedFeaturesError.
 */
export async function splitStatistics(
	context: ViewerContext,
	dataset: ViewedDataset,
	configName: string,
	splitName: string,
): Promise<ViewerStatisticsAnswer> {
	findSplit(dataset, configName, splitName);
	const cache = context.datasetViewer.statistics;
	const key = `${dataset.at.id}\n${dataset.at.commitId}\n${configName}\n${splitName}`;
	const known = cache.get(key);
	if (known) return known;
	const answer = await withSplit(context, dataset, configName, splitName, async (open) => {
		const samples = open.facts.numRows;
		const statistics: ViewerColumnStatistics[] = [];
		for (const [index, column] of open.facts.columns.entries()) {
			const feature = open.facts.features[index];
			const type = statisticsType(feature);
			if (type === undefined || feature === undefined) continue;
			statistics.push(await columnStatistics(open, column, feature, type, samples));
		}
		if (statistics.length === 0) {
			throw viewerError(
				"NotImplemented",
				"NoSupportedFeaturesError",
				"No columns for statistics computation found. Currently supported feature types are: integers, floats, strings, ClassLabel, lists and bool.",
			);
		}
		statistics.sort((a, b) => (a.column_name < b.column_name ? -1 : a.column_name > b.column_name ? 1 : 0));
		return { num_examples: samples, statistics, partial: open.partial };
	});
	cache.set(key, answer);
	return answer;
}

/**
 * The dataset's Croissant metadata (`GET /api/datasets/{id}/croissant`): the configs the viewer reads, with the
 * features of their first split (as `/info`), and the card's description, license and citation.
 */
export async function croissantOf(
	context: ViewerContext,
	dataset: ViewedDataset,
	pageUrl: string,
): Promise<JsonLd> {
	const configs: CroissantConfig[] = [];
	const readable = dataset.configs.filter((config) => config.format !== undefined);
	for (const config of readable.slice(0, CROISSANT_MAX_CONFIGS)) {
		if (config.format === undefined) continue;
		const { info, partial } = await configInfo(context, dataset, config);
		configs.push({
			name: config.name,
			format: config.format,
			splits: config.splits.map((split) => ({
				name: split.name,
				files: split.files.map((file) => file.path),
			})),
			features: info.features,
			partial,
		});
	}
	const card = await cardText(context, dataset.at);
	const data = card === undefined ? undefined : readFrontMatter(card, "dataset").data;
	return croissantDocument({
		id: dataset.at.id,
		url: pageUrl,
		revision: dataset.at.commitId,
		...(card === undefined ? {} : { card }),
		...(data?.license === undefined ? {} : { license: data.license }),
		configs,
		configsCut: readable.length > CROISSANT_MAX_CONFIGS,
	});
}

/** Media types of the files served from archives (others are application/octet-stream). */
const MEMBER_TYPES: Readonly<Record<string, string>> = {
	png: "image/png",
	jpg: "image/jpeg",
	jpeg: "image/jpeg",
	gif: "image/gif",
	bmp: "image/bmp",
	webp: "image/webp",
	tif: "image/tiff",
	tiff: "image/tiff",
	wav: "audio/wav",
	mp3: "audio/mpeg",
	flac: "audio/flac",
	ogg: "audio/ogg",
	opus: "audio/ogg",
	m4a: "audio/mp4",
};

/** One file of an archive of a dataset's revision, as the member route serves it. */
export interface ArchiveMember {
	at: ReadableRevision;
	/** The file's name inside the archive. */
	member: string;
	contentType: string;
	size: number;
	stream: Readable;
}

/**
 * The bytes of a file inside a `.zip` file of a dataset's revision (`path` a virtual path, `x.zip::a/1.png`),
 * with the archive's rights (as its resolve route checks them; the viewer's 404 otherwise) and within the zip
 * limits (viewer/zip.ts): a stream, never the whole file in memory.
 */
export async function archiveMember(
	context: ViewerContext,
	viewer: Viewer,
	dataset: string,
	revision: string,
	path: string,
): Promise<ArchiveMember> {
	const parsed = parseMemberPath(path);
	if (parsed === undefined || parsed.member === "" || parsed.member.endsWith("/"))
		throw invalidParameter("Parameter 'path' must name a file inside a .zip file: {archive}::{file}");
	const at = await readableDataset(context, viewer, dataset, revision, parsed.archive);
	const entry = await fileAt(context, at, parsed.archive);
	if (!entry) throw notFound();
	const archive: LayoutFile = { path: entry.path, size: entry.size, sha256: entry.sha256 };
	const opened = await openZipEntry(
		(start, length) => readRange(context, archive, start, length),
		archive.size,
		parsed.member,
	);
	if ("problem" in opened) {
		if (opened.problem === `it has no file ${parsed.member}`) throw notFound();
		throw archiveError(archive.path, opened.problem);
	}
	return {
		at,
		member: parsed.member,
		contentType: MEMBER_TYPES[extensionOf(parsed.member)] ?? "application/octet-stream",
		size: opened.size,
		stream: opened.stream,
	};
}
