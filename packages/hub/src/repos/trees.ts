import { createHash } from "node:crypto";
import type { Queryable } from "../db/types.js";
import { fileOid } from "./git.js";

/**
 * Trees as git stores them: one row per distinct folder content, addressed by its git tree id
 * (git.ts), shared by every commit and repository that has it. A commit names its root tree; a commit
 * writes only the trees on the paths it changed, so its cost follows its change, not the repository.
 *
 * A tree's entries are packed in one `bytea` (table `trees`), in name byte order: a folder of 10,000
 * files is one row read and written at once (rows per entry made a one-file commit in such a folder
 * write 10,000 rows). Trees never change, so parsed ones are kept in a bounded LRU by id.
 *
 * A tree of more than CHUNKED_FROM entries is stored as a list of chunks instead (`tree_chunks`, each a
 * run of entries in name order, by the SHA-1 of its bytes), cut where an entry's name hashes to a
 * boundary: a one-file change rewrites one chunk of ~CHUNK_AVERAGE entries and the list, not the folder.
 *
 * Entry layout (all built by plain SQL too, see the migration that made the table):
 *   kind (1 byte: 0 file, 1 LFS file, 2 folder) · name length (4 bytes, big-endian) · name (UTF-8)
 *   folder: tree id (20 bytes)
 *   file:   git blob id (20 bytes) · SHA-256 (32 bytes) · size (8 bytes, big-endian)
 *   LFS:    SHA-256 (32 bytes) · size (8 bytes); its git id is its pointer's (git.ts lfsPointer)
 */

const KIND_FILE = 0;
const KIND_LFS = 1;
const KIND_FOLDER = 2;
/** A `trees` row that lists chunks: this byte, then each chunk's id (20 bytes). */
const KIND_CHUNKS = 3;

/** Trees with more entries than this are stored in chunks. */
export const CHUNKED_FROM = 1024;
/** Chunks end after an entry whose name hash is 0 modulo this (so ~this many entries on average)… */
const CHUNK_AVERAGE = 128;
/** … or at this many entries. */
const CHUNK_MAX = 1024;

/** A file in a tree: its bytes by SHA-256, how git holds it. */
export interface TreeFile {
	type: "file";
	name: string;
	sha256: string;
	size: number;
	lfs: boolean;
	/** Git's id of the bytes: set for files stored in git, null for LFS files. */
	gitOid: string | null;
}

/** A sub-folder in a tree, by its tree id. */
export interface TreeFolder {
	type: "directory";
	name: string;
	oid: string;
}

export type TreeItem = TreeFile | TreeFolder;

/** A run of a chunked tree's entries: `length` entries from `start`, stored as `id`. */
export interface TreeChunk {
	id: string;
	start: number;
	length: number;
}

/** A stored tree, parsed: its entries in name byte order. */
export interface Tree {
	oid: string;
	items: readonly TreeItem[];
	/** Size of the packed entries (what the cache counts). */
	bytes: number;
	/** How it is stored when in chunks. */
	chunks?: readonly TreeChunk[];
}

/** A tree to store: its row, and the chunks not stored yet. */
export interface PackedTree {
	tree: Tree;
	row: Buffer;
	newChunks: Array<{ id: string; packed: Buffer }>;
}

/**
 * Orders strings by Unicode code point, which is UTF-8 byte order (PostgreSQL's "C" collation).
 * JavaScript's `<` compares UTF-16 units, which puts U+E000–U+FFFF after astral characters.
 */
export function compareCodePoints(a: string, b: string): number {
	const length = Math.min(a.length, b.length);
	for (let index = 0; index < length; index++) {
		const x = a.charCodeAt(index);
		const y = b.charCodeAt(index);
		if (x !== y) return codeUnitRank(x) - codeUnitRank(y);
	}
	return a.length - b.length;
}

/** Surrogates (astral code points) rank after U+E000–U+FFFF. */
function codeUnitRank(unit: number): number {
	if (unit < 0xd800) return unit;
	return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;
}

/** The git id of a file entry (an LFS file's is its pointer's, computed once). */
const lfsOids = new WeakMap<TreeFile, string>();
export function treeFileOid(file: TreeFile): string {
	if (!file.lfs) return file.gitOid as string;
	let oid = lfsOids.get(file);
	if (oid === undefined) {
		oid = fileOid({ sha256: file.sha256, size: file.size, lfs: true, gitOid: null });
		lfsOids.set(file, oid);
	}
	return oid;
}

/** Packs entries (already in name byte order) into the stored layout, in one buffer. */
export function encodeTree(items: readonly TreeItem[]): Buffer {
	let bound = 0;
	for (const item of items) bound += 65 + item.name.length * 3;
	const out = Buffer.allocUnsafe(bound);
	let at = 0;
	for (const item of items) {
		out[at] = item.type === "directory" ? KIND_FOLDER : item.lfs ? KIND_LFS : KIND_FILE;
		const nameLength = out.write(item.name, at + 5, "utf8");
		out.writeUInt32BE(nameLength, at + 1);
		at += 5 + nameLength;
		if (item.type === "directory") {
			at += out.write(item.oid, at, "hex");
			continue;
		}
		if (!item.lfs) at += out.write(item.gitOid as string, at, "hex");
		at += out.write(item.sha256, at, "hex");
		out.writeUInt32BE(Math.floor(item.size / 2 ** 32), at);
		out.writeUInt32BE(item.size >>> 0, at + 4);
		at += 8;
	}
	return out.subarray(0, at);
}

/** Unpacks a stored tree (one not in chunks). */
export function decodeTree(oid: string, packed: Uint8Array): Tree {
	const items = decodeEntries(oid, packed);
	return { oid, items, bytes: packed.byteLength };
}

/** Unpacks entries (a tree's or a chunk's). */
function decodeEntries(oid: string, packed: Uint8Array): TreeItem[] {
	const bytes = Buffer.from(packed.buffer, packed.byteOffset, packed.byteLength);
	const items: TreeItem[] = [];
	let at = 0;
	while (at < bytes.length) {
		const kind = bytes[at] as number;
		const nameLength = bytes.readUInt32BE(at + 1);
		at += 5;
		const name = bytes.toString("utf8", at, at + nameLength);
		at += nameLength;
		if (kind === KIND_FOLDER) {
			items.push({ type: "directory", name, oid: bytes.toString("hex", at, at + 20) });
			at += 20;
			continue;
		}
		let gitOid: string | null = null;
		if (kind === KIND_FILE) {
			gitOid = bytes.toString("hex", at, at + 20);
			at += 20;
		} else if (kind !== KIND_LFS) {
			throw new Error(`tree ${oid}: unknown entry kind ${kind}`);
		}
		const sha256 = bytes.toString("hex", at, at + 32);
		const size = bytes.readUInt32BE(at + 32) * 2 ** 32 + bytes.readUInt32BE(at + 36);
		at += 40;
		items.push({ type: "file", name, sha256, size, lfs: kind === KIND_LFS, gitOid });
	}
	return items;
}

/** FNV-1a of a name's UTF-16 units: where chunks end depends on names only. */
function nameHash(name: string): number {
	let hash = 0x811c9dc5;
	for (let index = 0; index < name.length; index++) {
		hash ^= name.charCodeAt(index);
		hash = Math.imul(hash, 0x01000193);
	}
	return hash >>> 0;
}

/** Whether a chunk ends after this entry (kept per entry: most entries are packed again and again). */
const chunkEnds = new WeakMap<TreeItem, boolean>();
function endsChunk(item: TreeItem): boolean {
	let ends = chunkEnds.get(item);
	if (ends === undefined) {
		ends = nameHash(item.name) % CHUNK_AVERAGE === 0;
		chunkEnds.set(item, ends);
	}
	return ends;
}

/** A tree's entries by name, made on first use. */
const namesOf = new WeakMap<Tree, Map<string, TreeItem>>();
export function itemNamed(tree: Tree, name: string): TreeItem | undefined {
	let names = namesOf.get(tree);
	if (names === undefined) {
		names = new Map(tree.items.map((item) => [item.name, item]));
		namesOf.set(tree, names);
	}
	return names.get(name);
}

/**
 * Entries in git's order: by name bytes, a folder's name as if it ended in "/". For entries already in
 * name byte order this only moves the few folders that git puts later; a depth-first walk in this order
 * lists paths in byte order.
 */
export function gitOrder(items: readonly TreeItem[]): readonly TreeItem[] {
	if (!items.some((item) => item.type === "directory")) return items;
	const keyed = items.map((item) => ({ item, key: item.type === "directory" ? `${item.name}/` : item.name }));
	keyed.sort((a, b) => compareCodePoints(a.key, b.key));
	return keyed.map(({ item }) => item);
}

function sha1Hex(bytes: Buffer): string {
	return createHash("sha1").update(bytes).digest("hex");
}

/**
 * A tree ready to store (entries in name byte order, `oid` their git tree id). A large one is cut into
 * chunks; a chunk holding exactly the same entries as one of `base` (the tree it was edited from) is
 * that chunk again, neither packed nor written.
 */
export function packTree(oid: string, items: readonly TreeItem[], base?: Tree): PackedTree {
	if (items.length <= CHUNKED_FROM) {
		const row = encodeTree(items);
		return { tree: { oid, items, bytes: row.length }, row, newChunks: [] };
	}
	const baseChunks = new Map<TreeItem, TreeChunk>();
	for (const chunk of base?.chunks ?? []) baseChunks.set(base?.items[chunk.start] as TreeItem, chunk);
	const chunks: TreeChunk[] = [];
	const newChunks: PackedTree["newChunks"] = [];
	let bytes = 0;
	let start = 0;
	for (let index = 0; index < items.length; index++) {
		const length = index + 1 - start;
		const last = index === items.length - 1;
		if (!last && length < CHUNK_MAX && !endsChunk(items[index] as TreeItem)) continue;
		const same = baseChunks.get(items[start] as TreeItem);
		let reused = same !== undefined && same.length === length;
		for (let k = 0; reused && k < length; k++)
			reused = base?.items[(same as TreeChunk).start + k] === items[start + k];
		if (reused) {
			chunks.push({ id: (same as TreeChunk).id, start, length });
		} else {
			const packed = encodeTree(items.slice(start, index + 1));
			const id = sha1Hex(packed);
			chunks.push({ id, start, length });
			newChunks.push({ id, packed });
		}
		bytes += length * 80;
		start = index + 1;
	}
	const row = Buffer.allocUnsafe(1 + chunks.length * 20);
	row[0] = KIND_CHUNKS;
	chunks.forEach((chunk, index) => row.write(chunk.id, 1 + index * 20, "hex"));
	return { tree: { oid, items, bytes, chunks }, row, newChunks };
}

/** Each entry's bytes in a git tree object (kept per entry: most entries are hashed again and again). */
const gitEntries = new WeakMap<TreeItem, Buffer>();
function gitEntry(item: TreeItem): Buffer {
	let bytes = gitEntries.get(item);
	if (bytes === undefined) {
		bytes = Buffer.concat([
			Buffer.from(`${item.type === "directory" ? "40000" : "100644"} ${item.name}\0`, "utf8"),
			Buffer.from(item.type === "directory" ? item.oid : treeFileOid(item), "hex"),
		]);
		gitEntries.set(item, bytes);
	}
	return bytes;
}

/** A git tree object's content (entries in any order; git's is gitOrder). */
export function gitTreeBytes(items: readonly TreeItem[]): Buffer {
	return Buffer.concat(gitOrder(items).map(gitEntry));
}

/** Git's tree id of entries (in any order; git's is gitOrder). */
export function gitTreeOid(items: readonly TreeItem[]): string {
	const parts = gitOrder(items).map(gitEntry);
	let length = 0;
	for (const part of parts) length += part.length;
	const hash = createHash("sha1").update(`tree ${length}\0`);
	for (const part of parts) hash.update(part);
	return hash.digest("hex");
}

/** Parsed trees by id, least recently used first; bounded by their packed size. */
class TreeCache {
	private readonly trees = new Map<string, Tree>();
	private bytes = 0;
	constructor(private maxBytes: number) {}

	get(oid: string): Tree | undefined {
		const tree = this.trees.get(oid);
		if (tree) {
			this.trees.delete(oid);
			this.trees.set(oid, tree);
		}
		return tree;
	}

	set(tree: Tree): void {
		if (this.trees.has(tree.oid) || tree.bytes > this.maxBytes) return;
		this.trees.set(tree.oid, tree);
		this.bytes += tree.bytes;
		this.trim();
	}

	resize(maxBytes: number): void {
		this.maxBytes = maxBytes;
		this.trim();
	}

	private trim(): void {
		for (const [oid, old] of this.trees) {
			if (this.bytes <= this.maxBytes) break;
			this.trees.delete(oid);
			this.bytes -= old.bytes;
		}
	}
}

/** Default bound of the parsed-tree cache (packed bytes; parsed trees take a few times more memory). */
export const DEFAULT_TREE_CACHE_BYTES = 32 * 1024 * 1024;
const cache = new TreeCache(DEFAULT_TREE_CACHE_BYTES);

/** Sets the bound of the parsed-tree cache (MODELHUB_TREE_CACHE_BYTES); 0 keeps none. */
export function setTreeCacheBytes(bytes: number): void {
	cache.resize(bytes);
}

/** The trees with these ids (each stored tree is immutable; a missing one is a broken database). */
export async function loadTrees(db: Queryable, oids: Iterable<string>): Promise<Map<string, Tree>> {
	const found = new Map<string, Tree>();
	const missing: string[] = [];
	for (const oid of new Set(oids)) {
		const tree = cache.get(oid);
		if (tree) found.set(oid, tree);
		else missing.push(oid);
	}
	if (missing.length === 0) return found;
	// As base64 text: PGlite turns a large bytea into bytes several times slower than this.
	const result = await db.query<{ oid: string; entries: string }>(
		"SELECT oid, encode(entries, 'base64') AS entries FROM trees WHERE oid = ANY($1::text[])",
		[missing],
		{ prepare: true },
	);
	const chunked: Array<{ oid: string; ids: string[] }> = [];
	for (const row of result.rows) {
		const packed = Buffer.from(row.entries, "base64");
		if (packed[0] === KIND_CHUNKS) {
			const ids: string[] = [];
			for (let at = 1; at < packed.length; at += 20) ids.push(packed.toString("hex", at, at + 20));
			chunked.push({ oid: row.oid, ids });
			continue;
		}
		const tree = decodeTree(row.oid, packed);
		cache.set(tree);
		found.set(row.oid, tree);
	}
	if (chunked.length > 0) {
		const parts = await db.query<{ id: string; entries: string }>(
			"SELECT id, encode(entries, 'base64') AS entries FROM tree_chunks WHERE id = ANY($1::text[])",
			[[...new Set(chunked.flatMap((tree) => tree.ids))]],
		);
		const byId = new Map(parts.rows.map((row) => [row.id, Buffer.from(row.entries, "base64")]));
		for (const { oid, ids } of chunked) {
			const items: TreeItem[] = [];
			const chunks: TreeChunk[] = [];
			let bytes = 0;
			for (const id of ids) {
				const packed = byId.get(id);
				if (packed === undefined) throw new Error(`tree ${oid}: chunk ${id} is missing from the database`);
				const entries = decodeEntries(oid, packed);
				chunks.push({ id, start: items.length, length: entries.length });
				for (const entry of entries) items.push(entry);
				bytes += packed.length;
			}
			const tree: Tree = { oid, items, bytes, chunks };
			cache.set(tree);
			found.set(oid, tree);
		}
	}
	for (const oid of missing) if (!found.has(oid)) throw new Error(`tree ${oid} is missing from the database`);
	return found;
}

export async function loadTree(db: Queryable, oid: string): Promise<Tree> {
	return (await loadTrees(db, [oid])).get(oid) as Tree;
}

/** The root tree of each commit of a repository that exists, by commit id. */
export async function rootTrees(
	db: Queryable,
	repo: { type: string; id: string },
	commitIds: readonly string[],
): Promise<Map<string, string>> {
	const result = await db.query<{ id: string; tree_id: string }>(
		"SELECT id, tree_id FROM commits WHERE repo_type = $1 AND repo_id = $2 AND id = ANY($3::text[])",
		[repo.type, repo.id, [...new Set(commitIds)]],
		{ prepare: true },
	);
	return new Map(result.rows.map((row) => [row.id, row.tree_id]));
}

/**
 * What each path names under its root tree (undefined when nothing): looked up level by level, one
 * query per level for every tree not cached. "" and paths with empty parts name nothing.
 */
export async function resolvePaths(
	db: Queryable,
	lookups: ReadonlyArray<{ root: string; path: string }>,
): Promise<Array<TreeItem | undefined>> {
	const parts = lookups.map((lookup) => lookup.path.split("/"));
	const out: Array<TreeItem | undefined> = lookups.map(() => undefined);
	// The tree each lookup is in at the current level; undefined once it found its answer or nothing.
	const at: Array<string | undefined> = lookups.map((lookup) =>
		lookup.path === "" ? undefined : lookup.root,
	);
	for (let level = 0; at.some((oid) => oid !== undefined); level++) {
		const trees = await loadTrees(
			db,
			at.filter((oid): oid is string => oid !== undefined),
		);
		at.forEach((oid, index) => {
			if (oid === undefined) return;
			const names = parts[index] as string[];
			const item = itemNamed(trees.get(oid) as Tree, names[level] as string);
			if (level === names.length - 1) {
				out[index] = item;
				at[index] = undefined;
			} else {
				at[index] = item?.type === "directory" ? item.oid : undefined;
			}
		});
	}
	return out;
}

/** An entry of a flattened tree: its path from the tree it was listed from. */
export interface PathItem {
	path: string;
	item: TreeItem;
}

/**
 * Every entry under `root` (files and folders), paths prefixed by `prefix`, in path byte order (the
 * API's): the trees loaded level by level, then walked depth first in git's order.
 */
export async function walkTree(db: Queryable, root: string, prefix = ""): Promise<PathItem[]> {
	return (await walkTrees(db, [root], prefix)).get(root) as PathItem[];
}

/**
 * A tree whose stored row a query already read (base64, as loadTrees reads it), parsed and cached; or
 * undefined when the row lists chunks (those are loaded with the chunks by loadTrees).
 */
export function treeFromRow(oid: string, base64: string): Tree | undefined {
	const cached = cache.get(oid);
	if (cached) return cached;
	const packed = Buffer.from(base64, "base64");
	if (packed[0] === KIND_CHUNKS) return undefined;
	const tree = decodeTree(oid, packed);
	cache.set(tree);
	return tree;
}

/** walkTree for several roots, their trees loaded together; `known` trees are not read again. */
export async function walkTrees(
	db: Queryable,
	roots: readonly string[],
	prefix = "",
	known: readonly Tree[] = [],
): Promise<Map<string, PathItem[]>> {
	const trees = new Map<string, Tree>();
	for (const tree of known) trees.set(tree.oid, tree);
	let level = [...new Set(roots)];
	while (level.length > 0) {
		const loaded = new Map<string, Tree>();
		const missing: string[] = [];
		for (const oid of level) {
			const tree = trees.get(oid);
			if (tree) loaded.set(oid, tree);
			else missing.push(oid);
		}
		if (missing.length > 0) for (const [oid, tree] of await loadTrees(db, missing)) loaded.set(oid, tree);
		const next = new Set<string>();
		for (const [oid, tree] of loaded) {
			trees.set(oid, tree);
			for (const item of tree.items)
				if (item.type === "directory" && !trees.has(item.oid)) next.add(item.oid);
		}
		level = [...next];
	}
	const walk = (oid: string, path: string, out: PathItem[]): void => {
		for (const item of gitOrder((trees.get(oid) as Tree).items)) {
			const itemPath = path === "" ? item.name : `${path}/${item.name}`;
			out.push({ path: itemPath, item });
			if (item.type === "directory") walk(item.oid, itemPath, out);
		}
	};
	const out = new Map<string, PathItem[]>();
	for (const root of roots) {
		if (out.has(root)) continue;
		const items: PathItem[] = [];
		walk(root, prefix, items);
		out.set(root, items);
	}
	return out;
}

/** Keeps a tree just written parsed (it is what the next commit to its branch starts from). */
export function cacheTree(tree: Tree): void {
	cache.set(tree);
}

/** Whether two entries of the same name are the same (same kind, same bytes or same tree). */
function sameItem(a: TreeItem, b: TreeItem): boolean {
	if (a === b) return true;
	if (a.type === "directory" || b.type === "directory")
		return a.type === b.type && (a as TreeFolder).oid === (b as TreeFolder).oid;
	return a.sha256 === b.sha256 && a.lfs === b.lfs && a.size === b.size;
}

/**
 * The entries of `a` and of `b` that may differ: all of them, except that the entries of a chunk both
 * trees share are the same on both sides (a chunk is addressed by its bytes, and a name sits in one chunk
 * of a tree), so only the chunks a commit rewrote are compared.
 */
function unsharedItems(a: Tree, b: Tree): [readonly TreeItem[], readonly TreeItem[]] {
	if (!a.chunks || !b.chunks) return [a.items, b.items];
	const idsOfA = new Set(a.chunks.map((chunk) => chunk.id));
	const idsOfB = new Set(b.chunks.map((chunk) => chunk.id));
	const only = (tree: Tree, others: Set<string>): TreeItem[] =>
		(tree.chunks as readonly TreeChunk[]).flatMap((chunk) =>
			others.has(chunk.id) ? [] : tree.items.slice(chunk.start, chunk.start + chunk.length),
		);
	return [only(a, idsOfB), only(b, idsOfA)];
}

/**
 * Whether a file path that differs between two root trees (added, removed, or with other bytes)
 * satisfies `test`. Walks only what differs: subtrees with the same id are skipped whole, and large
 * trees are compared chunk by chunk, so the cost follows the change, not the repository. Stops at the
 * first match.
 */
export async function someChangedPath(
	db: Queryable,
	from: string,
	to: string,
	test: (path: string) => boolean,
): Promise<boolean> {
	// Pairs of trees at the same path still to compare; undefined for a side that has no such folder.
	let level: Array<{ path: string; a: string | undefined; b: string | undefined }> = [
		{ path: "", a: from, b: to },
	];
	while (level.length > 0) {
		const trees = await loadTrees(
			db,
			level.flatMap((pair) => [pair.a, pair.b].filter((oid): oid is string => oid !== undefined)),
		);
		const next: typeof level = [];
		for (const pair of level) {
			if (pair.a === pair.b) continue;
			const a = pair.a === undefined ? undefined : (trees.get(pair.a) as Tree);
			const b = pair.b === undefined ? undefined : (trees.get(pair.b) as Tree);
			const [itemsA, itemsB] = a && b ? unsharedItems(a, b) : [a?.items ?? [], b?.items ?? []];
			const byName = new Map<string, [TreeItem | undefined, TreeItem | undefined]>();
			for (const item of itemsA) byName.set(item.name, [item, undefined]);
			for (const item of itemsB) byName.set(item.name, [byName.get(item.name)?.[0], item]);
			for (const [name, [before, after]] of byName) {
				if (before && after && sameItem(before, after)) continue;
				const path = pair.path === "" ? name : `${pair.path}/${name}`;
				if ((before?.type === "file" || after?.type === "file") && test(path)) return true;
				const folderA = before?.type === "directory" ? before.oid : undefined;
				const folderB = after?.type === "directory" ? after.oid : undefined;
				if (folderA !== undefined || folderB !== undefined) next.push({ path, a: folderA, b: folderB });
			}
		}
		level = next;
	}
	return false;
}

/** What a stored `trees` or `tree_chunks` row links to: its sub-folders' trees, and (a chunked tree) its chunks. */
export function treeLinks(packed: Uint8Array): { trees: string[]; chunks: string[] } {
	const bytes = Buffer.from(packed.buffer, packed.byteOffset, packed.byteLength);
	const trees: string[] = [];
	const chunks: string[] = [];
	if (bytes[0] === KIND_CHUNKS) {
		for (let at = 1; at < bytes.length; at += 20) chunks.push(bytes.toString("hex", at, at + 20));
		return { trees, chunks };
	}
	let at = 0;
	while (at < bytes.length) {
		const kind = bytes[at] as number;
		at += 5 + bytes.readUInt32BE(at + 1);
		if (kind === KIND_FOLDER) trees.push(bytes.toString("hex", at, at + 20));
		at += kind === KIND_FOLDER ? 20 : kind === KIND_FILE ? 60 : 40;
	}
	return { trees, chunks };
}
