import { isControlCode } from "@modelhub/tasks/literals";
import { createHash } from "node:crypto";
import { execFile } from "node:child_process";
import { createWriteStream } from "node:fs";
import { access, mkdir, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { promisify } from "node:util";
import { createDeflate, deflateSync } from "node:zlib";
import type { Queryable } from "../db/types.js";
import { HubError } from "../errors.js";
import type { RepoKey } from "../repo-identity.js";
import { commitObjectBytes, lfsPointer, objectId } from "../repos/git.js";
import { gitTreeBytes, loadTree, type TreeItem } from "../repos/trees.js";
import { readBlob } from "../services/blobs.js";
import type { BlobStore } from "../storage/types.js";

/**
 * A bare git repository per hub repository, holding exactly the hub's objects: blobs (a file's bytes,
 * or an LFS file's pointer), trees and commits, each written as a loose object (zlib of
 * `<type> <size>\0<content>`, git's object format) with the id the hub computed (repos/git.ts), checked
 * as written. The real `git upload-pack` then serves them (git/upload-pack.ts): git's own code
 * negotiates and packs, the hub only fills the object store and the refs. It is a cache: any of it can
 * be deleted, the next request rebuilds it from the database and the blob store.
 */

const run = promisify(execFile);

/** What materialising reads: the database and the blob store. */
export interface GitSource {
	db: Queryable;
	storage: BlobStore;
}

/** Commits read per query when walking back from a ref to what the cache already holds. */
const CHAIN_BATCH = 200;
/** Files read from storage at once. */
const BLOB_READS = 8;

function objectPath(dir: string, oid: string): string {
	return join(dir, "objects", oid.slice(0, 2), oid.slice(2));
}

async function exists(path: string): Promise<boolean> {
	try {
		await access(path);
		return true;
	} catch {
		return false;
	}
}

/** A history the cache cannot hold with the hub's ids: served as an error, never as other ids. */
function idMismatch(kind: string, expected: string, actual: string): HubError {
	return new HubError(
		"Internal",
		`git serving: the ${kind} ${expected} does not hash to its id (got ${actual}); this repository cannot be served over git`,
	);
}

/** Writes one loose object (atomically: a temporary file renamed into place); its id must be `oid`. */
async function writeObject(
	dir: string,
	type: "blob" | "tree" | "commit",
	content: Buffer,
	oid: string,
): Promise<void> {
	const actual = objectId(type, content);
	if (actual !== oid) throw idMismatch(type, oid, actual);
	const path = objectPath(dir, oid);
	if (await exists(path)) return;
	await mkdir(join(dir, "objects", oid.slice(0, 2)), { recursive: true });
	const temporary = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
	const header = Buffer.from(`${type} ${content.byteLength}\0`, "utf8");
	await writeFile(temporary, deflateSync(Buffer.concat([header, content])));
	await rename(temporary, path);
}

/** Creates the bare repository when it is not there yet. */
export async function initBare(dir: string): Promise<void> {
	if (await exists(join(dir, "HEAD"))) return;
	const temporary = `${dir}.${process.pid}.init`;
	await rm(temporary, { recursive: true, force: true });
	await run("git", ["init", "--bare", "--quiet", temporary], { env: gitEnv() });
	try {
		await rename(temporary, dir);
	} catch (error) {
		// Another process made it first.
		await rm(temporary, { recursive: true, force: true });
		if (!(await exists(join(dir, "HEAD")))) throw error;
	}
}

/** The environment git runs with: no user or system configuration, nothing from the hub's environment. */
export function gitEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
	return {
		PATH: process.env.PATH ?? "/usr/bin:/bin",
		GIT_CONFIG_NOSYSTEM: "1",
		GIT_CONFIG_GLOBAL: "/dev/null",
		HOME: "/nonexistent",
		GIT_TERMINAL_PROMPT: "0",
		...extra,
	};
}

/** Files up to this size are read whole (most of a repository's: one write each, no stream's overhead). */
const WHOLE_BLOB_MAX = 256 * 1024;

async function smallBlobBytes(source: GitSource, item: { sha256: string; size: number }): Promise<Buffer> {
	const stream = await readBlob(source, { sha256: item.sha256, size: item.size });
	const chunks: Buffer[] = [];
	let length = 0;
	for await (const chunk of stream as AsyncIterable<Buffer>) {
		length += chunk.byteLength;
		// More than the stored size: the id check below refuses it; nothing more is read.
		if (length > item.size) break;
		chunks.push(chunk);
	}
	return Buffer.concat(chunks);
}

/**
 * Writes a file's blob as a loose object; a larger one is streamed from the blob store, hashed and
 * deflated as it is read, never held whole (8 files at once of up to MODELHUB_MAX_REGULAR_FILE_BYTES,
 * each with its copies, made a cache build after a push of large files take 145 MiB more, and
 * deflateSync held the event loop for each). Its id must be `oid`, its length the stored size.
 */
async function writeFileBlob(
	source: GitSource,
	dir: string,
	item: Extract<TreeItem, { type: "file" }>,
	oid: string,
): Promise<void> {
	if (item.lfs) {
		await writeObject(dir, "blob", Buffer.from(lfsPointer(item.sha256, item.size), "utf8"), oid);
		return;
	}
	if (item.size <= WHOLE_BLOB_MAX) {
		await writeObject(dir, "blob", await smallBlobBytes(source, item), oid);
		return;
	}
	const path = objectPath(dir, oid);
	if (await exists(path)) return;
	await mkdir(join(dir, "objects", oid.slice(0, 2)), { recursive: true });
	const temporary = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
	const stream = await readBlob(source, { sha256: item.sha256, size: item.size });
	const hash = createHash("sha1");
	let length = 0;
	async function* loose(): AsyncGenerator<Buffer> {
		const header = Buffer.from(`blob ${item.size}\0`, "utf8");
		hash.update(header);
		yield header;
		for await (const chunk of stream as AsyncIterable<Buffer>) {
			length += chunk.byteLength;
			if (length > item.size) break;
			hash.update(chunk);
			yield chunk;
		}
	}
	try {
		await pipeline(Readable.from(loose()), createDeflate(), createWriteStream(temporary));
		const actual = hash.digest("hex");
		if (actual !== oid || length !== item.size) throw idMismatch("blob", oid, actual);
		await rename(temporary, path);
	} catch (error) {
		stream.destroy();
		await rm(temporary, { force: true });
		throw error;
	}
}

/** Writes a tree and everything under it that the cache lacks (a tree is written after its entries). */
async function writeTree(source: GitSource, dir: string, oid: string, done: Set<string>): Promise<void> {
	if (done.has(oid) || (await exists(objectPath(dir, oid)))) {
		done.add(oid);
		return;
	}
	const tree = await loadTree(source.db, oid);
	if (tree === undefined) throw new HubError("Internal", `git serving: tree ${oid} is not stored`);
	const files: Array<Extract<TreeItem, { type: "file" }>> = [];
	for (const item of tree.items) {
		if (item.type === "directory") await writeTree(source, dir, item.oid, done);
		else files.push(item);
	}
	for (let start = 0; start < files.length; start += BLOB_READS) {
		await Promise.all(
			files.slice(start, start + BLOB_READS).map(async (item) => {
				const oid = item.lfs
					? objectId("blob", Buffer.from(lfsPointer(item.sha256, item.size)))
					: item.gitOid;
				if (oid === null || done.has(oid) || (await exists(objectPath(dir, oid)))) return;
				await writeFileBlob(source, dir, item, oid);
				done.add(oid);
			}),
		);
	}
	await writeObject(dir, "tree", gitTreeBytes(tree.items), oid);
	done.add(oid);
}

interface CommitRow {
	id: string;
	parent_id: string | null;
	tree_id: string;
	title: string;
	message: string;
	author: string;
	created_at: Date | string;
	/** A pushed commit's bytes as its client made them (migration 23); null for the hub's own. */
	git_object: Uint8Array | null;
}

/** `Name <email>` → its parts (the name is everything before the last `<`). */
function splitAuthor(author: string): { name: string; email: string } {
	const open = author.lastIndexOf("<");
	if (open < 0 || !author.endsWith(">")) return { name: author, email: "" };
	return { name: author.slice(0, open).trimEnd(), email: author.slice(open + 1, -1) };
}

/** The commits from `head` back to the first one the cache holds, newest first. */
async function missingChain(
	source: GitSource,
	repo: RepoKey,
	dir: string,
	head: string,
): Promise<CommitRow[]> {
	const missing: CommitRow[] = [];
	let next: string | null = head;
	while (next !== null) {
		const from: string = next;
		const result: { rows: CommitRow[] } = await source.db.query<CommitRow>(
			`WITH RECURSIVE chain AS (
				SELECT id, parent_id, tree_id, title, message, author, created_at, git_object, 0 AS depth FROM commits
				WHERE repo_type = $1 AND repo_id = $2 AND id = $3
				UNION ALL
				SELECT c.id, c.parent_id, c.tree_id, c.title, c.message, c.author, c.created_at, c.git_object,
					chain.depth + 1
				FROM commits c JOIN chain ON c.repo_type = $1 AND c.repo_id = $2 AND c.id = chain.parent_id
				WHERE chain.depth < $4
			) SELECT id, parent_id, tree_id, title, message, author, created_at, git_object FROM chain ORDER BY depth`,
			[repo.type, repo.id, from, CHAIN_BATCH - 1],
		);
		if (result.rows.length === 0) throw new HubError("Internal", `git serving: commit ${from} is not stored`);
		for (const row of result.rows) {
			if (await exists(objectPath(dir, row.id))) return missing;
			missing.push(row);
			next = row.parent_id;
		}
	}
	return missing;
}

/** Writes the commits of a ref's history the cache lacks, oldest first (each after its tree). */
export async function writeHistory(
	source: GitSource,
	repo: RepoKey,
	dir: string,
	head: string,
): Promise<number> {
	const chain = await missingChain(source, repo, dir, head);
	const done = new Set<string>();
	for (const row of chain.reverse()) {
		await writeTree(source, dir, row.tree_id, done);
		if (row.git_object !== null) {
			await writeObject(dir, "commit", Buffer.from(row.git_object), row.id);
			continue;
		}
		const { name, email } = splitAuthor(row.author);
		const bytes = commitObjectBytes({
			tree: row.tree_id,
			parent: row.parent_id,
			authorName: name,
			authorEmail: email,
			date: row.created_at instanceof Date ? row.created_at : new Date(row.created_at),
			title: row.title,
			...(row.message ? { message: row.message } : {}),
		});
		await writeObject(dir, "commit", bytes, row.id);
	}
	return chain.length;
}

/** Whether a hub ref name is a valid git ref name (git check-ref-format's rules that hub names could break). */
export function validRefName(ref: string): boolean {
	if ([...ref].some((char) => char === " " || isControlCode(char.charCodeAt(0)))) return false;
	if (/[~^:?*[\\]/.test(ref) || ref.includes("..") || ref.includes("@{") || ref.includes("//")) return false;
	if (ref.endsWith("/") || ref.endsWith(".") || ref.endsWith(".lock")) return false;
	return ref.split("/").every((part) => part !== "" && !part.startsWith("."));
}

/** Replaces the refs (one `packed-refs` file, renamed into place) and points HEAD at `head`. */
export async function writeRefs(dir: string, refs: ReadonlyMap<string, string>, head: string): Promise<void> {
	const lines = ["# pack-refs with: peeled fully-peeled sorted "];
	const names = [...refs.keys()].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
	for (const name of names) lines.push(`${refs.get(name)} ${name}`);
	const temporary = join(dir, `packed-refs.${process.pid}.tmp`);
	await writeFile(temporary, `${lines.join("\n")}\n`);
	await rename(temporary, join(dir, "packed-refs"));
	const headTemporary = join(dir, `HEAD.${process.pid}.tmp`);
	await writeFile(headTemporary, `ref: ${head}\n`);
	await rename(headTemporary, join(dir, "HEAD"));
}

/** A stable directory name for a repository's cache: its object id when it has one (kept across renames). */
export function cacheName(repo: RepoKey, objectIdOfRepo: string | null): string {
	const key = objectIdOfRepo ?? `${repo.type}:${repo.id.toLowerCase()}`;
	return `${repo.type}-${createHash("sha256").update(key).digest("hex").slice(0, 32)}.git`;
}

/**
 * The sizes of the blobs among `sha256s` a repository holds (one of its commits refers to them): one
 * query for a whole LFS batch (up to MAX_BATCH_OBJECTS objects), not one per object.
 */
export async function heldBlobSizes(
	db: Queryable,
	repo: RepoKey,
	sha256s: readonly string[],
): Promise<Map<string, number>> {
	if (sha256s.length === 0) return new Map();
	const result = await db.query<{ sha256: string; size: number | string }>(
		`SELECT b.sha256, b.size FROM repo_blobs r JOIN blobs b ON b.sha256 = r.sha256
		WHERE r.repo_type = $1 AND r.repo_id = $2 AND r.sha256 = ANY($3::text[])`,
		[repo.type, repo.id, [...new Set(sha256s)]],
	);
	return new Map(result.rows.map((row) => [row.sha256, Number(row.size)]));
}
