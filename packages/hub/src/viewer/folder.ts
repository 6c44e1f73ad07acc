/**
 * Folders of audio or image files (`datasets`' `audiofolder` and `imagefolder` builders, datasets 5.0
 * `folder_based_builder.py`). Without metadata files: one row per file of a split, in path order, its column
 * `audio` or `image` (feature `{"_type": "Audio"}` / `{"_type": "Image"}`, as the builder declares it); and,
 * when the files sit at one depth in more than one folder, a column `label` whose ClassLabel names are the
 * folders' names, sorted. With metadata files (metadata.csv, .jsonl, .parquet) the rows are the metadata
 * files' rows instead (services/viewer.ts reads them): `file_name` becomes the media column, in its place,
 * `x_file_name` becomes `x`; no labels. Cells are the public viewer's (dataset-viewer `viewer_utils/asset.py`):
 * audio a list of one `{ src, type }`, an image `{ src, height, width }`, the source being the file on this
 * hub. Pure: no I/O.
 */

import type { ViewerCell } from "../api/viewer.js";
import { extensionFormat, extensionOf, formatExtensions } from "../datasets/tags.js";
import type { Feature } from "./features.js";
import type { ConfigLayout, LayoutFile } from "./layout.js";

export const AUDIO_FOLDER = "audiofolder";
export const IMAGE_FOLDER = "imagefolder";
export type FolderKind = typeof AUDIO_FOLDER | typeof IMAGE_FOLDER;
export const LABEL_COLUMN = "label";

/** Each folder builder's media column and its feature type (`BASE_COLUMN_NAME`, `BASE_FEATURE`). */
export const FOLDER_MEDIA: Readonly<Record<FolderKind, { column: string; feature: "Audio" | "Image" }>> = {
	audiofolder: { column: "audio", feature: "Audio" },
	imagefolder: { column: "image", feature: "Image" },
};

/** Whether a config's format is one of the folder builders the viewer shows. */
export function isFolderKind(format: string | undefined): format is FolderKind {
	return format === AUDIO_FOLDER || format === IMAGE_FOLDER;
}

/** Most rows of a folder split the viewer lists without metadata (more make the answer partial). */
export const MAX_FOLDER_ROWS = 100_000;

/** Media types of the audio cells (the public viewer's `.wav`, `.mp3`, `.opus`; the others by their files). */
const MEDIA_TYPES: Readonly<Record<string, string>> = {
	wav: "audio/wav",
	mp3: "audio/mpeg",
	opus: "audio/ogg",
	ogg: "audio/ogg",
	flac: "audio/flac",
	m4a: "audio/mp4",
};

/** Bytes of an audio file's start that tell its type. */
export const AUDIO_HEAD_BYTES = 12;
/** Bytes of an image file read at once to find its size (a JPEG's segments are skipped by further reads). */
export const IMAGE_HEAD_BYTES = 64 * 1024;
/** Most reads spent looking for a JPEG's frame header. */
export const MAX_IMAGE_READS = 8;

/** Whether a path is one of the files a folder builder reads. */
export function isMediaPath(kind: FolderKind, path: string): boolean {
	return formatExtensions(kind).includes(extensionOf(path));
}

/** A split's rows: each file's path and, with labels, its label's index. */
export interface FolderRows {
	columns: string[];
	features: Feature[];
	rows: Array<Record<string, string | number>>;
	partial: boolean;
	/** A row's label the names lack (an archive's folder): datasets cannot build the split. */
	invalidLabel?: string;
}

function folderOf(path: string): string {
	const parent = path.slice(0, Math.max(0, path.lastIndexOf("/")));
	return parent.slice(parent.lastIndexOf("/") + 1);
}

/** Python's sort of strings (by code point), not JavaScript's (by UTF-16 unit). */
export function byCodePoint(a: string, b: string): number {
	const left = [...a].map((char) => char.codePointAt(0) ?? 0);
	const right = [...b].map((char) => char.codePointAt(0) ?? 0);
	for (let index = 0; index < Math.min(left.length, right.length); index++) {
		const difference = (left[index] ?? 0) - (right[index] ?? 0);
		if (difference !== 0) return difference;
	}
	return left.length - right.length;
}

/** An archive of a split (its path in the repository) and its files' names, as its central directory lists them. */
export interface ArchiveMembers {
	path: string;
	names: readonly string[];
}

/** Separates an archive's path from one of its files' names in a virtual path (`train/images.zip::img/1.png`). */
export const MEMBER_SEPARATOR = "::";

/** The virtual path of an archive's file (what the viewer's rows hold, and its cells' links name). */
export function memberPath(archive: string, member: string): string {
	return `${archive}${MEMBER_SEPARATOR}${member}`;
}

/**
 * The archive and the file of a virtual path (`x.zip::a/b.png`; the file is empty for `x.zip::`, the folder at
 * the archive's root), or undefined for a repository path.
 */
export function parseMemberPath(path: string): { archive: string; member: string } | undefined {
	const cut = path.indexOf(MEMBER_SEPARATOR);
	if (cut <= 0) return undefined;
	const archive = path.slice(0, cut);
	return extensionOf(archive) === "zip"
		? { archive, member: path.slice(cut + MEMBER_SEPARATOR.length) }
		: undefined;
}

/**
 * The label names of a config (from all its splits' files and archives, as the builder gathers them), or
 * undefined when it adds no label: metadata files found, or the card's `drop_labels: true`; without
 * `drop_labels`, also fewer than two folders or files at several depths. A file at the root is labelled
 * `rootLabel` (the builder takes the name of the folder of its URL, `{name}@{commit}`). An archive's audio or
 * image files are labelled by their folder inside it (none at its root: the empty name), at depths of their
 * own: the builder counts them in the path of its local copy, which never equals a file's URL's depth here.
 */
export function folderLabels(
	files: readonly LayoutFile[],
	config: Pick<ConfigLayout, "hasMetadata" | "labels" | "otherFormat">,
	rootLabel = "",
	archives: readonly ArchiveMembers[] = [],
): string[] | undefined {
	if (config.hasMetadata === true || config.labels === "never") return undefined;
	const labels = new Set<string>();
	const depths = new Set<string>();
	for (const file of files) {
		labels.add(folderOf(file.path) || rootLabel);
		depths.add(`file ${file.path.split("/").length}`);
	}
	const kind = config.otherFormat;
	if (isFolderKind(kind))
		for (const archive of archives)
			for (const name of archiveFiles(kind, archive.names).media) {
				labels.add(folderOf(name));
				depths.add(`archive ${name.split("/").length}`);
			}
	if (config.labels === "always") return [...labels].sort(byCodePoint);
	return labels.size > 1 && depths.size === 1 ? [...labels].sort(byCodePoint) : undefined;
}

/**
 * The rows of one split without metadata: its files (in path order), then each archive's files (every file
 * not hidden, in os.walk's order, whatever its extension: the builder makes a row of each), with their labels
 * when the config has them. An archive's files are labelled by the archive's folder, as the builder labels
 * them (its `original_file` is the archive); a label that is not one of the names (which come from the files'
 * own folders) is `invalidLabel`, on which datasets fails ("Invalid string class label …").
 */
export function folderRows(
	kind: FolderKind,
	split: readonly LayoutFile[],
	labels: readonly string[] | undefined,
	rootLabel = "",
	archives: readonly ArchiveMembers[] = [],
): FolderRows {
	const { column, feature } = FOLDER_MEDIA[kind];
	const items: Array<{ path: string; label: string }> = split.map((file) => ({
		path: file.path,
		label: folderOf(file.path) || rootLabel,
	}));
	for (const archive of archives) {
		const label = folderOf(archive.path) || rootLabel;
		for (const name of archiveFiles(kind, archive.names).rows)
			items.push({ path: memberPath(archive.path, name), label });
	}
	const kept = items.slice(0, MAX_FOLDER_ROWS);
	const partial = kept.length < items.length;
	if (labels === undefined)
		return {
			columns: [column],
			features: [{ _type: feature }],
			rows: kept.map((item) => ({ [column]: item.path })),
			partial,
		};
	const index = new Map(labels.map((name, position) => [name, position]));
	const invalid = items.find((item) => !index.has(item.label));
	return {
		columns: [column, LABEL_COLUMN],
		features: [{ _type: feature }, { names: [...labels], _type: "ClassLabel" }],
		rows: kept.map((item) => ({ [column]: item.path, [LABEL_COLUMN]: index.get(item.label) ?? -1 })),
		partial,
		...(invalid === undefined ? {} : { invalidLabel: invalid.label }),
	};
}

/**
 * The media column a metadata column becomes, or undefined for the others (datasets' `_set_feature`): a string
 * column `file_name` → the builder's column, `x_file_name` → `x`; a list-of-strings column `file_names` → the
 * builder's column with an `s` (`images`, `audios`), `x_file_names` → `x`, a list of media.
 */
export function metadataMediaColumn(kind: FolderKind, name: string, list = false): string | undefined {
	const suffix = list ? "_file_names" : "_file_name";
	const base = FOLDER_MEDIA[kind].column + (list ? "s" : "");
	if (name === suffix.slice(1)) return base;
	// `_file_name` alone names the builder's column too (datasets' `key[:-len(suffix)] or base`).
	if (name.endsWith(suffix)) return name.slice(0, -suffix.length) || base;
	return undefined;
}

/** Most files of one list-of-media cell shown (the rest are cut, the cell named in `truncated_cells`). */
export const MAX_MEDIA_PER_CELL = 20;

/** The feature of a media column made from a metadata column (a list for `file_names` columns). */
export function mediaFeature(kind: FolderKind, list: boolean): Feature {
	const media: Feature = { _type: FOLDER_MEDIA[kind].feature };
	return list ? { feature: media, _type: "List" } : media;
}

/**
 * The repository path a metadata row's file name names: relative to `folder`, the metadata file's, normalised as
 * Python's `os.path.normpath`; an error for what datasets refuses (an absolute path, a URL, `..` out of the
 * folder). A metadata file inside an archive (`folder` a virtual path, `x.zip::sub`) names files of that
 * archive: the answer is a virtual path too.
 */
export function metadataFilePath(folder: string, fileName: string): { path: string } | { problem: string } {
	if (fileName.includes("://")) return { problem: "a file name must be a relative path, not a URL" };
	if (fileName.startsWith("/") || fileName.startsWith("\\"))
		return { problem: "a file name must be a relative path, not an absolute one" };
	const inArchive = parseMemberPath(folder);
	const base = inArchive === undefined ? folder : inArchive.member;
	const parts: string[] = [];
	for (const part of fileName.split("/")) {
		if (part === "" || part === ".") continue;
		if (part === "..") {
			if (parts.length === 0)
				return { problem: "a file name must stay inside the folder of its metadata file" };
			parts.pop();
		} else parts.push(part);
	}
	const path = [...(base === "" ? [] : [base]), ...parts].join("/");
	return { path: inArchive === undefined ? path : memberPath(inArchive.archive, path) };
}

/** The folder of a metadata file (a repository path, or a virtual path inside an archive: `x.zip::sub`, `x.zip::`). */
export function metadataFolder(name: string): string {
	const inArchive = parseMemberPath(name);
	if (inArchive !== undefined)
		return memberPath(
			inArchive.archive,
			inArchive.member.slice(0, Math.max(0, inArchive.member.lastIndexOf("/"))),
		);
	return name.slice(0, Math.max(0, name.lastIndexOf("/")));
}

/**
 * The archive a repository path goes into, when a metadata file outside archives names a file inside one
 * (`images.zip/img/3.png`, `images.zip` being a file of the revision): datasets opens it as a folder and fails
 * (NotADirectoryError). `isFile` says whether a path is a file of the revision.
 */
export async function pathThroughArchive(
	path: string,
	isFile: (path: string) => boolean | Promise<boolean>,
): Promise<string | undefined> {
	const parts = path.split("/");
	for (let end = 1; end < parts.length; end++) {
		const prefix = parts.slice(0, end).join("/");
		if (extensionOf(prefix) === "zip" && (await isFile(prefix))) return prefix;
	}
	return undefined;
}

/**
 * What is wrong with an audio file's first bytes for its extension's format (a `.wav` that is no RIFF/WAVE
 * file, an empty file), or undefined when they are what the name says.
 */
export function audioHeadProblem(path: string, head: Buffer): string | undefined {
	if (head.length === 0) return "it is empty";
	const ascii = (start: number, end: number): string => head.toString("latin1", start, end);
	switch (extensionOf(path)) {
		case "wav":
			return ["RIFF", "RF64", "BW64"].includes(ascii(0, 4)) && ascii(8, 12) === "WAVE"
				? undefined
				: "it does not start as a WAV file does (RIFF…WAVE)";
		case "flac":
			return ascii(0, 4) === "fLaC" || ascii(0, 3) === "ID3"
				? undefined
				: "it does not start as a FLAC file does (fLaC)";
		case "mp3":
			return ascii(0, 3) === "ID3" || (head[0] === 0xff && ((head[1] ?? 0) & 0xe0) === 0xe0)
				? undefined
				: "it does not start as an MP3 file does (ID3 or a frame header)";
		case "ogg":
		case "opus":
			return ascii(0, 4) === "OggS" ? undefined : "it does not start as an Ogg file does (OggS)";
		case "m4a":
			return ascii(4, 8) === "ftyp" ? undefined : "it does not start as an MP4 audio file does (ftyp)";
		default:
			return "it is not one of the audio formats the viewer shows";
	}
}

/** The public viewer's audio cell for a file served at `url`. */
export function audioCell(path: string, url: string): ViewerCell {
	return [{ src: url, type: MEDIA_TYPES[extensionOf(path)] ?? "application/octet-stream" }];
}

/** An image's size, or what keeps it from being known. */
export type ImageSize = { width: number; height: number } | { problem: string };

/** Reads `length` bytes of a file from `start` (fewer at its end). */
export type ReadBytes = (start: number, length: number) => Promise<Buffer>;

/** JPEG markers of frame headers (SOF0–SOF15 less DHT, JPG and DAC), which hold the image's size. */
function isFrameMarker(marker: number): boolean {
	return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/** A JPEG's size from its frame header, skipping the segments before it with further reads. */
async function jpegSize(head: Buffer, read: ReadBytes, fileSize: number): Promise<ImageSize> {
	let buffer = head;
	let base = 0;
	let position = 2;
	let reads = 1;
	while (position + 9 <= fileSize) {
		if (position + 9 > base + buffer.length) {
			if (reads >= MAX_IMAGE_READS)
				return { problem: `its frame header is not within its first ${MAX_IMAGE_READS} segments read` };
			buffer = await read(position, IMAGE_HEAD_BYTES);
			base = position;
			reads += 1;
			if (buffer.length < 9) break;
		}
		const at = position - base;
		if (buffer[at] !== 0xff) return { problem: "its JPEG segments are not well formed" };
		const marker = buffer[at + 1] ?? 0;
		if (marker === 0xff) {
			position += 1;
			continue;
		}
		if (isFrameMarker(marker)) {
			return { height: buffer.readUInt16BE(at + 5), width: buffer.readUInt16BE(at + 7) };
		}
		if (marker === 0xd9 || marker === 0xda) break;
		position += 2 + buffer.readUInt16BE(at + 2);
	}
	return { problem: "it has no JPEG frame header" };
}

/** An image's width and height from its first bytes (PNG, JPEG, GIF, BMP, WebP), as the public viewer gives them. */
export async function imageSize(
	path: string,
	head: Buffer,
	read: ReadBytes,
	fileSize: number,
): Promise<ImageSize> {
	if (head.length === 0) return { problem: "it is empty" };
	const ascii = (start: number, end: number): string => head.toString("latin1", start, end);
	const known = (width: number, height: number, format: string): ImageSize =>
		width > 0 && height > 0 ? { width, height } : { problem: `its ${format} header gives no size` };
	if (head.length >= 24 && ascii(1, 4) === "PNG" && ascii(12, 16) === "IHDR")
		return known(head.readUInt32BE(16), head.readUInt32BE(20), "PNG");
	if (head.length >= 4 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff)
		return jpegSize(head, read, fileSize);
	if (head.length >= 10 && (ascii(0, 6) === "GIF87a" || ascii(0, 6) === "GIF89a"))
		return known(head.readUInt16LE(6), head.readUInt16LE(8), "GIF");
	if (head.length >= 26 && ascii(0, 2) === "BM")
		return known(Math.abs(head.readInt32LE(18)), Math.abs(head.readInt32LE(22)), "BMP");
	if (head.length >= 30 && ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") {
		const chunk = ascii(12, 16);
		if (chunk === "VP8 ")
			return known(head.readUInt16LE(26) & 0x3fff, head.readUInt16LE(28) & 0x3fff, "WebP");
		if (chunk === "VP8L") {
			const bits = head.readUInt32LE(21);
			return known((bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1, "WebP");
		}
		if (chunk === "VP8X") return known(head.readUIntLE(24, 3) + 1, head.readUIntLE(27, 3) + 1, "WebP");
	}
	const extension = extensionOf(path);
	return {
		problem: ["tif", "tiff"].includes(extension)
			? "the viewer shows PNG, JPEG, GIF, BMP and WebP images, not TIFF"
			: "it is not a PNG, JPEG, GIF, BMP or WebP image",
	};
}

/** The public viewer's image cell for a file served at `url`. */
export function imageCell(url: string, size: { width: number; height: number }): ViewerCell {
	return { src: url, height: size.height, width: size.width };
}

/** Bytes of a metadata.csv's start read to count its header's columns. */
export const CSV_HEADER_BYTES = 1024 * 1024;

/**
 * The columns of a CSV file's header line (commas outside quotes, up to its first line end outside quotes, or
 * the end of `head`): counted before the engine reads the file, as a very wide file exhausts its memory first.
 */
export function csvHeaderColumns(head: Buffer): number {
	let columns = 1;
	let quoted = false;
	for (const byte of head) {
		if (byte === 0x22) quoted = !quoted;
		else if (!quoted && byte === 0x2c) columns += 1;
		else if (!quoted && (byte === 0x0a || byte === 0x0d)) break;
	}
	return columns;
}

/** The folder builders' metadata file names, as written (inside an archive the builder compares them exactly). */
const ARCHIVE_METADATA_NAMES: readonly string[] = ["metadata.csv", "metadata.jsonl", "metadata.parquet"];

/**
 * os.walk's order, which datasets' `iter_files` gives an extracted archive's files in: a folder's files
 * (sorted) before its subfolders (sorted), each walked in turn.
 */
export function byWalkOrder(a: string, b: string): number {
	const left = a.split("/");
	const right = b.split("/");
	for (let index = 0; index < Math.min(left.length, right.length); index++) {
		const leftPart = left[index] ?? "";
		const rightPart = right[index] ?? "";
		if (leftPart === rightPart) continue;
		const leftIsFile = index === left.length - 1;
		const rightIsFile = index === right.length - 1;
		if (leftIsFile !== rightIsFile) return leftIsFile ? -1 : 1;
		return byCodePoint(leftPart, rightPart);
	}
	return left.length - right.length;
}

/**
 * The files a folder builder reads from one archive (its entries' names), in the order it reads them: media
 * files by their extension as written (`ext in self.EXTENSIONS`, lower case, unlike the repository's files),
 * metadata files by their exact names; a part starting with `.` or `__` hides what is under it (`iter_files`).
 */
export function archiveFiles(
	kind: FolderKind,
	names: readonly string[],
): { media: string[]; metadata: string[]; rows: string[] } {
	const extensions = formatExtensions(kind);
	const visible = names
		.filter((name) => !name.split("/").some((part) => part.startsWith(".") || part.startsWith("__")))
		.sort(byWalkOrder);
	const base = (name: string): string => name.slice(name.lastIndexOf("/") + 1);
	return {
		media: visible.filter((name) => {
			const dot = base(name).lastIndexOf(".");
			return dot > 0 && extensions.includes(base(name).slice(dot + 1));
		}),
		metadata: visible.filter((name) => ARCHIVE_METADATA_NAMES.includes(base(name))),
		// Without metadata the builder makes a row of every file it walks (`iter_files`), media or not.
		rows: visible.filter((name) => !name.endsWith("/")),
	};
}

/** How many archives datasets looks into to infer a config's builder (`ARCHIVES_MAX_NUMBER_FOR_MODULE_INFERENCE`). */
export const MAX_ARCHIVES_FOR_FORMAT = 10;

/**
 * The format of archives' files as datasets infers it (`infer_module_for_data_files_list_in_archives`): the most
 * common suffix of their names (every suffix of a name counts, lower case; the first seen wins a tie), when a
 * format has it; `listings` are the first archives' entry names, in path order.
 */
export function archiveFormat(listings: readonly (readonly string[])[]): string | undefined {
	const counts = new Map<string, number>();
	for (const names of listings.slice(0, MAX_ARCHIVES_FOR_FORMAT))
		for (const name of names) {
			if (name.endsWith("/")) continue;
			for (const suffix of name
				.slice(name.lastIndexOf("/") + 1)
				.split(".")
				.slice(1))
				counts.set(suffix.toLowerCase(), (counts.get(suffix.toLowerCase()) ?? 0) + 1);
		}
	let best: string | undefined;
	for (const [suffix, count] of counts)
		if (best === undefined || count > (counts.get(best) ?? 0)) best = suffix;
	return best === undefined ? undefined : extensionFormat(best);
}
