import { createHash } from "node:crypto";

/**
 * Git object ids, computed as git computes them (SHA-1 over `<type> <size>\0<content>`), so that the
 * ids the hub shows (file `oid`, folder `oid`, commit `sha`) are the ones a git clone of the same
 * content would have.
 */

const FILE_MODE = "100644";
const TREE_MODE = "40000";

/** Git's id of an object: SHA-1 over `<type> <size>\0<content>`. */
export function objectId(type: "blob" | "tree" | "commit", content: Buffer): string {
	return createHash("sha1").update(`${type} ${content.byteLength}\0`).update(content).digest("hex");
}

/** The text of a Git LFS pointer file (git-lfs spec v1) for an object. */
export function lfsPointer(sha256: string, size: number): string {
	return `version https://git-lfs.github.com/spec/v1\noid sha256:${sha256}\nsize ${size}\n`;
}

/** Size in bytes of the LFS pointer of an object (what git stores in place of the file). */
export function lfsPointerSize(sha256: string, size: number): number {
	return Buffer.byteLength(lfsPointer(sha256, size));
}

/** A file as git sees it: an LFS file is its pointer, anything else its bytes. */
export interface GitFile {
	sha256: string;
	size: number;
	lfs: boolean;
	/** The git object id of the bytes; required for files not stored through LFS. */
	gitOid: string | null | undefined;
}

export function fileOid(file: GitFile): string {
	if (file.lfs) return objectId("blob", Buffer.from(lfsPointer(file.sha256, file.size), "utf8"));
	if (!file.gitOid) throw new Error("a file not stored through LFS needs its git object id");
	return file.gitOid;
}

interface TreeEntry {
	name: string;
	mode: string;
	oid: string;
}

/** Git orders tree entries by name bytes, a folder's name compared as if it ended with "/". */
function compareEntries(a: TreeEntry, b: TreeEntry): number {
	const ka = Buffer.from(a.mode === TREE_MODE ? `${a.name}/` : a.name, "utf8");
	const kb = Buffer.from(b.mode === TREE_MODE ? `${b.name}/` : b.name, "utf8");
	return Buffer.compare(ka, kb);
}

function treeOid(entries: TreeEntry[]): string {
	const sorted = [...entries].sort(compareEntries);
	const parts: Buffer[] = [];
	for (const entry of sorted) {
		parts.push(Buffer.from(`${entry.mode} ${entry.name}\0`, "utf8"), Buffer.from(entry.oid, "hex"));
	}
	return objectId("tree", Buffer.concat(parts));
}

/**
 * The tree ids of a snapshot: the root's, and every folder's by path (`a`, `a/b`, …). `files` maps
 * repository paths to their git object ids.
 */
export function buildTrees(files: ReadonlyMap<string, string>): {
	root: string;
	folders: Map<string, string>;
} {
	// Children of each folder ("" is the root): files with their oid, sub-folders by name.
	const children = new Map<string, { files: TreeEntry[]; folders: Set<string> }>();
	const folderOf = (path: string) => {
		let entry = children.get(path);
		if (!entry) {
			entry = { files: [], folders: new Set() };
			children.set(path, entry);
		}
		return entry;
	};
	folderOf("");
	for (const [path, oid] of files) {
		const parts = path.split("/");
		const name = parts.pop() as string;
		let parent = "";
		for (const part of parts) {
			folderOf(parent).folders.add(part);
			parent = parent ? `${parent}/${part}` : part;
		}
		folderOf(parent).files.push({ name, mode: FILE_MODE, oid });
	}
	const folders = new Map<string, string>();
	const hashFolder = (path: string): string => {
		const entry = folderOf(path);
		const entries = [...entry.files];
		for (const name of entry.folders) {
			const childPath = path ? `${path}/${name}` : name;
			const oid = hashFolder(childPath);
			folders.set(childPath, oid);
			entries.push({ name, mode: TREE_MODE, oid });
		}
		return treeOid(entries);
	};
	const root = hashFolder("");
	return { root, folders };
}

export interface CommitObject {
	tree: string;
	parent: string | null;
	authorName: string;
	authorEmail: string;
	date: Date;
	/** Title and optional body, as in `git commit -m`. */
	title: string;
	message?: string;
}

/**
 * A commit object's bytes, as git stores them: the author is the committer, dates in UTC. The one place
 * commit bytes are made (commitOid hashes them; git serving writes them into its object store).
 */
export function commitObjectBytes(commit: CommitObject): Buffer {
	const seconds = Math.floor(commit.date.getTime() / 1000);
	const person = `${commit.authorName} <${commit.authorEmail}> ${seconds} +0000`;
	const lines = [`tree ${commit.tree}`];
	if (commit.parent) lines.push(`parent ${commit.parent}`);
	lines.push(`author ${person}`, `committer ${person}`, "");
	const body = commit.message ? `${commit.title}\n\n${commit.message}` : commit.title;
	return Buffer.from(`${lines.join("\n")}\n${body}\n`, "utf8");
}

/** A commit's id: git's id of commitObjectBytes. */
export function commitOid(commit: CommitObject): string {
	return objectId("commit", commitObjectBytes(commit));
}

/** A commit object as git wrote it (git's commit format: header lines, a blank line, the message). */
export interface ParsedCommitObject {
	tree: string;
	parents: string[];
	authorName: string;
	authorEmail: string;
	/** The committer's time (what `git log` sorts by and the hub shows as the commit's date). */
	date: Date;
	/** The message's first line, and the rest after the blank line(s) that follow it. */
	title: string;
	message: string;
}

const PERSON = /^(.*) <([^<>\n]*)> (\d{1,12}) [+-]\d{4}$/;

/**
 * Reads a commit object's bytes; a string says why they are not a commit the hub can show (not UTF-8,
 * a header missing or malformed). Headers the hub does not show (`encoding`, `gpgsig`, `mergetag`) are
 * skipped: the bytes are kept as they are, so nothing of them is lost.
 */
export function parseCommitObject(bytes: Buffer): ParsedCommitObject | string {
	let text: string;
	try {
		text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
	} catch {
		return "its text is not UTF-8";
	}
	const split = text.indexOf("\n\n");
	const head = (split < 0 ? text : text.slice(0, split)).split("\n");
	const body = split < 0 ? "" : text.slice(split + 2);
	let tree: string | undefined;
	const parents: string[] = [];
	let author: RegExpExecArray | null = null;
	let committer: RegExpExecArray | null = null;
	for (const line of head) {
		if (line.startsWith(" ")) continue; // the continuation of a multi-line header (a signature)
		const space = line.indexOf(" ");
		const key = space < 0 ? line : line.slice(0, space);
		const value = space < 0 ? "" : line.slice(space + 1);
		if (key === "tree" && tree === undefined && /^[0-9a-f]{40}$/.test(value)) tree = value;
		else if (key === "parent" && /^[0-9a-f]{40}$/.test(value)) parents.push(value);
		else if (key === "author" && author === null) author = PERSON.exec(value);
		else if (key === "committer" && committer === null) committer = PERSON.exec(value);
		else if (key === "tree" || key === "parent" || key === "author" || key === "committer")
			return `its ${key} header is malformed`;
	}
	if (tree === undefined) return "it has no tree";
	if (author === null || committer === null) return "its author or committer is missing or malformed";
	const lines = body.replace(/\r\n?/g, "\n").split("\n");
	const first = lines.findIndex((line) => line.trim() !== "");
	const title = first < 0 ? "" : (lines[first] as string).trim();
	const message =
		first < 0
			? ""
			: lines
					.slice(first + 1)
					.join("\n")
					.trim();
	return {
		tree,
		parents,
		authorName: author[1] as string,
		authorEmail: author[2] as string,
		date: new Date(Number(committer[3]) * 1000),
		title,
		message,
	};
}
