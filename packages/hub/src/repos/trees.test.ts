import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
	CHUNKED_FROM,
	compareCodePoints,
	decodeTree,
	gitOrder,
	gitTreeOid,
	packTree,
	type Tree,
	type TreeItem,
} from "./trees.js";

const hex = (text: string, length: number) =>
	createHash("sha256").update(text).digest("hex").slice(0, length);
const file = (name: string, content = name): TreeItem => ({
	type: "file",
	name,
	sha256: hex(content, 64),
	size: content.length,
	lfs: false,
	gitOid: hex(`git ${content}`, 40),
});

describe("stored trees", () => {
	it("order names by UTF-8 bytes (PostgreSQL's C collation), not UTF-16 units", () => {
		const names = ["b", "a/", "\u{1F600}", "\uE000", "a", "ä", "A"];
		const bytes = [...names].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
		expect([...names].sort(compareCodePoints)).toEqual(bytes);
		// Git's order puts a folder as if named "a/": a depth-first walk in it lists paths in byte order
		// ("a-b" < "a.txt" < "a/x").
		const folder: TreeItem = { type: "directory", name: "a", oid: hex("a", 40) };
		expect(gitOrder([folder, file("a-b"), file("a.txt")]).map((item) => item.name)).toEqual([
			"a-b",
			"a.txt",
			"a",
		]);
	});

	it("store a large folder in chunks: one changed file writes one new chunk, and reads back the same", () => {
		const items = Array.from({ length: 5000 }, (_, index) =>
			file(`file-${String(index).padStart(5, "0")}.txt`),
		);
		const first = packTree(gitTreeOid(items), items);
		expect(items.length).toBeGreaterThan(CHUNKED_FROM);
		const chunks = first.tree.chunks ?? [];
		expect(chunks.length).toBeGreaterThan(5);
		expect(first.newChunks.length).toBe(chunks.length);
		// The row lists the chunks; the chunks' entries, in order, are the tree's.
		expect(first.row.length).toBe(1 + chunks.length * 20);
		const decoded = first.newChunks.flatMap((chunk) => decodeTree("chunk", chunk.packed).items);
		expect(decoded).toEqual(items);

		const edited = [...items];
		edited[2500] = file("file-02500.txt", "changed");
		const second = packTree(gitTreeOid(edited), edited, first.tree as Tree);
		expect(second.newChunks.length).toBe(1);
		expect(second.tree.oid).not.toBe(first.tree.oid);
		// An added name changes only the chunk it lands in (chunk ends depend on names only).
		const added = [...edited, file("file-99999.txt")];
		const third = packTree(gitTreeOid(added), added, second.tree as Tree);
		expect(third.newChunks.length).toBe(1);
	});
});
