// The git object ids the hub shows (file oids, folder tree ids, commit shas) against real git.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildTrees, commitOid, fileOid, lfsPointer } from "../src/repos/git.js";
import { compareCodePoints, decodeTree, gitTreeOid, packTree, type TreeItem } from "../src/repos/trees.js";
import { gitBlobOid } from "../src/storage/digest.js";
import { bytes, sha256 } from "./support/hf-client-suite.js";

const dirs: string[] = [];
afterAll(() => {
	for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function git(cwd: string, args: string[], env: Record<string, string> = {}): string {
	return execFileSync("git", args, {
		cwd,
		encoding: "utf8",
		env: { PATH: process.env.PATH ?? "", HOME: cwd, ...env },
	}).trim();
}

describe("git object ids", () => {
	it("match git's for blobs, LFS pointers, nested trees and commits", () => {
		const dir = mkdtempSync(join(tmpdir(), "modelhub-git-"));
		dirs.push(dir);
		git(dir, ["init", "-q"]);
		const weights = bytes(70_000, 11);
		const files: Record<string, { content: Buffer; lfs: boolean }> = {
			"README.md": { content: Buffer.from("# hello\n"), lfs: false },
			".gitattributes": { content: Buffer.from("*.bin filter=lfs\n"), lfs: false },
			"a.txt": { content: Buffer.from("a"), lfs: false },
			// Names that sort differently as folder and as file ("a" folder vs "a.txt", "a-b").
			"a/b.txt": { content: Buffer.from("b"), lfs: false },
			"a-b": { content: Buffer.from(""), lfs: false },
			"a/c/d/e.json": { content: Buffer.from("{}\n"), lfs: false },
			"weights/model.bin": { content: weights, lfs: true },
			"ünïcode/ファイル.txt": { content: Buffer.from("ü\n"), lfs: false },
		};
		const oids = new Map<string, string>();
		for (const [path, file] of Object.entries(files)) {
			const onDisk = file.lfs
				? Buffer.from(lfsPointer(sha256(file.content), file.content.length))
				: file.content;
			mkdirSync(join(dir, dirname(path)), { recursive: true });
			writeFileSync(join(dir, path), onDisk);
			const oid = fileOid({
				sha256: sha256(file.content),
				size: file.content.length,
				lfs: file.lfs,
				gitOid: gitBlobOid(file.content),
			});
			expect(oid, path).toBe(git(dir, ["hash-object", path]));
			oids.set(path, oid);
		}
		git(dir, ["-c", "core.quotepath=off", "add", "-A"]);
		const tree = git(dir, ["write-tree"]);
		const trees = buildTrees(oids);
		expect(trees.root).toBe(tree);
		for (const folder of ["a", "a/c", "a/c/d", "weights", "ünïcode"]) {
			expect(trees.folders.get(folder), folder).toBe(git(dir, ["rev-parse", `${tree}:${folder}`]));
		}
		expect([...trees.folders.keys()].sort()).toEqual(["a", "a/c", "a/c/d", "weights", "ünïcode"].sort());
		// The stored trees' ids (src/repos/trees.ts: entries in name byte order) are git's too.
		const rootItems: TreeItem[] = [
			...Object.entries(files)
				.filter(([path]) => !path.includes("/"))
				.map(([name, file]): TreeItem => ({
					type: "file",
					name,
					sha256: sha256(file.content),
					size: file.content.length,
					lfs: file.lfs,
					gitOid: file.lfs ? null : gitBlobOid(file.content),
				})),
			...["a", "weights", "ünïcode"].map((name): TreeItem => ({
				type: "directory",
				name,
				oid: trees.folders.get(name) as string,
			})),
		].sort((x, y) => compareCodePoints(x.name, y.name));
		expect(gitTreeOid(rootItems)).toBe(tree);
		const packed = packTree(tree, rootItems);
		expect(decodeTree(tree, packed.row).items).toEqual(rootItems);

		const date = new Date("2024-09-25T17:00:57Z");
		const env = {
			GIT_AUTHOR_NAME: "ModelHub",
			GIT_AUTHOR_EMAIL: "hub@modelhub.invalid",
			GIT_AUTHOR_DATE: "2024-09-25T17:00:57+0000",
			GIT_COMMITTER_NAME: "ModelHub",
			GIT_COMMITTER_EMAIL: "hub@modelhub.invalid",
			GIT_COMMITTER_DATE: "2024-09-25T17:00:57+0000",
		};
		const first = git(dir, ["commit-tree", tree, "-m", "Add model card"], env);
		const expectedFirst = commitOid({
			tree,
			parent: null,
			authorName: "ModelHub",
			authorEmail: "hub@modelhub.invalid",
			date,
			title: "Add model card",
		});
		expect(expectedFirst).toBe(first);
		const second = git(
			dir,
			["commit-tree", tree, "-p", first, "-m", "Import files", "-m", "With a body."],
			env,
		);
		expect(
			commitOid({
				tree,
				parent: first,
				authorName: "ModelHub",
				authorEmail: "hub@modelhub.invalid",
				date,
				title: "Import files",
				message: "With a body.",
			}),
		).toBe(second);
	});
});
