import { decodeText, MAX_ANALYSED_JSON_BYTES, parseJsonObject } from "./json.js";
import { ANALYSED_JSON_FILES, type AnalysedJsonFile, type RevisionSnapshot } from "./snapshot.js";
import type { ReadRange, RevisionFile } from "./types.js";

/** Front matter and the paper links sit near the top: this much of a README is read. */
export const README_HEAD_BYTES = 300 * 1024;

/** A file analysis could not use, for the one log line of an analysis. */
export interface SkippedFile {
	path: string;
	reason: string;
}

/**
 * Reads what derivation needs from a revision: the small JSON files whole (each at most
 * MAX_ANALYSED_JSON_BYTES, larger ones skipped unread) and the README's head. A file that cannot be
 * read or parsed is skipped and reported; the others still count.
 */
export async function readSnapshot(
	files: readonly RevisionFile[],
	read: ReadRange,
	card: Record<string, unknown> | undefined,
): Promise<{ snapshot: RevisionSnapshot; skipped: SkippedFile[] }> {
	const byPath = new Map(files.map((file) => [file.path, file]));
	const json: RevisionSnapshot["json"] = {};
	const skipped: SkippedFile[] = [];
	for (const path of ANALYSED_JSON_FILES) {
		const file = byPath.get(path);
		if (!file) continue;
		if (file.size > MAX_ANALYSED_JSON_BYTES) {
			skipped.push({ path, reason: "too large" });
			continue;
		}
		try {
			const parsed = parseJsonObject(await read(path, 0, file.size));
			if (parsed.ok) json[path as AnalysedJsonFile] = parsed.value;
			else skipped.push({ path, reason: parsed.reason });
		} catch (error) {
			skipped.push({ path, reason: error instanceof Error ? error.message : "unreadable" });
		}
	}
	let readme: string | undefined;
	const readmeFile = byPath.get("README.md");
	if (readmeFile) {
		try {
			// The head may end inside a character: decoded leniently, only links are looked for.
			const head = await read("README.md", 0, Math.min(readmeFile.size, README_HEAD_BYTES));
			readme = decodeText(head) ?? Buffer.from(head).toString("utf8");
		} catch (error) {
			skipped.push({ path: "README.md", reason: error instanceof Error ? error.message : "unreadable" });
		}
	}
	return { snapshot: { files, json, card, readme }, skipped };
}
