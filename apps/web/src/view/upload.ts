/**
 * The browser upload's pure parts: the repository path of each chosen file, the checks the hub makes on
 * it (the shared rules of `@modelhub/tasks/repositories`), the pending list, the commit message and
 * the multipart form the hub reads (packages/hub/README.md, "From a browser": a `header` field first,
 * then one `file` part per file, named by its path in the repository).
 */
import type { CommitHeaderRequest } from "@modelhub/hub/api";
import { writablePathProblem } from "@modelhub/tasks/repositories";

/** The hub's longest commit summary (packages/hub/src/uploads/operations.ts). */
export const MAX_SUMMARY_LENGTH = 1000;
/** Files in one browser commit; the hub's default limit is 25 000 operations, a browser list stays shorter. */
export const MAX_PENDING_FILES = 1000;

export interface PendingFile {
	/** The path in the repository. */
	path: string;
	file: Blob;
	size: number;
	/** Why the hub would refuse this path, if it would. */
	problem?: string;
}

/** A chosen or dropped file: its name, and the folder path when a folder was chosen. */
export interface ChosenFile {
	file: Blob;
	name: string;
	/** `webkitRelativePath` of a folder input, or the path a dropped folder's entries give. */
	relativePath?: string;
}

/** A path as the person wrote or the browser gave it, in the repository's form: "/" separators, no leading "./" or "/". */
export function normalizeUploadPath(raw: string): string {
	let path = raw.replace(/\\/g, "/").replace(/\/{2,}/g, "/");
	while (path.startsWith("./")) path = path.slice(2);
	return path.replace(/^\/+/, "");
}

/** Why `path` cannot name a file in a repository on the hub, or undefined when it can. */
export const uploadPathProblem = writablePathProblem;

/**
 * The pending list with `chosen` added under `folder` (a path in the repository, "" for the root): a
 * file whose path is already pending replaces it in place (choosing a file again updates it), the list
 * keeps at most MAX_PENDING_FILES files; `dropped` counts the files left out.
 */
export function addPending(
	current: readonly PendingFile[],
	chosen: readonly ChosenFile[],
	folder = "",
): { files: PendingFile[]; dropped: number } {
	const files = [...current];
	const index = new Map(files.map((entry, at) => [entry.path, at]));
	const prefix = normalizeUploadPath(folder).replace(/\/+$/, "");
	let dropped = 0;
	for (const item of chosen) {
		const relative = normalizeUploadPath(item.relativePath || item.name);
		const path = prefix ? `${prefix}/${relative}` : relative;
		const problem = uploadPathProblem(path);
		const entry: PendingFile = {
			path,
			file: item.file,
			size: item.file.size,
			...(problem ? { problem } : {}),
		};
		const at = index.get(path);
		if (at !== undefined) files[at] = entry;
		else if (files.length >= MAX_PENDING_FILES) dropped++;
		else {
			index.set(path, files.length);
			files.push(entry);
		}
	}
	return { files, dropped };
}

export function totalBytes(files: readonly PendingFile[]): number {
	return files.reduce((sum, entry) => sum + entry.size, 0);
}

/** The summary proposed for a commit of these files, as the Hub's own upload page words it. */
export function defaultSummary(files: readonly PendingFile[]): string {
	if (files.length === 1) return `Upload ${files[0]?.path.split("/").pop() ?? "file"}`;
	return `Upload ${files.length} files`;
}

/** Why this upload cannot be sent yet, or undefined when it can. */
export function uploadProblem(files: readonly PendingFile[], summary: string): string | undefined {
	if (files.length === 0) return "Add at least one file.";
	const bad = files.find((entry) => entry.problem);
	if (bad) return `Remove or rename ${bad.path}: ${bad.problem}.`;
	if (summary.trim().length > MAX_SUMMARY_LENGTH) {
		return `The commit summary must be at most ${MAX_SUMMARY_LENGTH} characters.`;
	}
	return undefined;
}

/**
 * The commit as `multipart/form-data`: the header (`{ summary, description }`) first, as the hub
 * requires, then every file under its repository path; a file uploaded through LFS already (`lfs`, by
 * path) is named by its SHA-256 in an `lfsFile` operation instead of sent again.
 */
export function buildCommitForm(
	files: readonly PendingFile[],
	summary: string,
	description = "",
	lfs: ReadonlyMap<string, { oid: string; size: number }> = new Map(),
): FormData {
	const form = new FormData();
	form.append(
		"header",
		JSON.stringify({
			summary: summary.trim(),
			description: description.trim(),
		} satisfies CommitHeaderRequest),
	);
	for (const entry of files) {
		const object = lfs.get(entry.path);
		if (object === undefined) form.append("file", entry.file, entry.path);
		else {
			const value = { path: entry.path, algo: "sha256", oid: object.oid, size: object.size };
			form.append("operation", JSON.stringify({ key: "lfsFile", value }));
		}
	}
	return form;
}

/** Whole percent of an upload, 0–100; 0 while the total is unknown. */
export function uploadPercent(loaded: number, total: number): number {
	if (!(total > 0) || !(loaded > 0)) return 0;
	return Math.min(100, Math.floor((loaded / total) * 100));
}
