import { describe, expect, it } from "vitest";
import {
	archiveFiles,
	archiveFormat,
	csvHeaderColumns,
	folderLabels,
	folderRows,
	imageSize,
	mediaFeature,
	memberPath,
	metadataFilePath,
	metadataFolder,
	metadataMediaColumn,
	parseMemberPath,
	pathThroughArchive,
} from "./folder.js";
import { datasetLayout, isViewable, type LayoutFile } from "./layout.js";

function files(...paths: string[]): LayoutFile[] {
	return paths.map((path, index) => ({ path, size: 10 + index, sha256: String(index).padStart(64, "0") }));
}

const noRead = async (): Promise<Buffer> => Buffer.alloc(0);

describe("folders of audio and image files with metadata files", () => {
	it("keeps each split's metadata files beside its media files, for audio and image folders alike", () => {
		const [images] = datasetLayout(
			undefined,
			files("train/a.png", "train/metadata.jsonl", "test/b.png", "test/metadata.jsonl", "train/notes.txt"),
		);
		expect(images?.otherFormat).toBe("imagefolder");
		expect(images?.hasMetadata).toBe(true);
		expect(
			images?.splits.map((split) => [
				split.name,
				split.files.map((file) => file.path),
				split.metadata?.map((file) => file.path),
			]),
		).toEqual([
			["train", ["train/a.png"], ["train/metadata.jsonl"]],
			["test", ["test/b.png"], ["test/metadata.jsonl"]],
		]);
		// Shown now (was refused with metadata files).
		expect(images && isViewable(images)).toBe(true);
		const [sounds] = datasetLayout(undefined, files("a.wav", "metadata.csv"));
		expect(sounds && isViewable(sounds)).toBe(true);
	});

	it("counts a CSV header's columns before the engine reads it (quotes hold commas and line ends)", () => {
		expect(csvHeaderColumns(Buffer.from('file_name,"a,b","c\nd",e\nx.png,1,2,3\n'))).toBe(4);
		expect(csvHeaderColumns(Buffer.from("file_name"))).toBe(1);
	});

	it("names the media column and resolves file names as datasets does", () => {
		expect(metadataMediaColumn("audiofolder", "file_name")).toBe("audio");
		expect(metadataMediaColumn("imagefolder", "file_name")).toBe("image");
		expect(metadataMediaColumn("imagefolder", "thumb_file_name")).toBe("thumb");
		expect(metadataMediaColumn("imagefolder", "caption")).toBeUndefined();
		// Lists of names (datasets' `file_names`, `x_file_names`): the builder's column with an `s`, or `x`.
		expect(metadataMediaColumn("imagefolder", "file_names", true)).toBe("images");
		expect(metadataMediaColumn("audiofolder", "file_names", true)).toBe("audios");
		expect(metadataMediaColumn("imagefolder", "pages_file_names", true)).toBe("pages");
		expect(metadataMediaColumn("imagefolder", "_file_names", true)).toBe("images");
		expect(metadataMediaColumn("imagefolder", "_file_name")).toBe("image");
		// A list column named as one file, or one file named as a list, is no media column.
		expect(metadataMediaColumn("imagefolder", "file_name", true)).toBeUndefined();
		expect(metadataMediaColumn("imagefolder", "file_names")).toBeUndefined();
		expect(mediaFeature("imagefolder", true)).toEqual({ feature: { _type: "Image" }, _type: "List" });
		expect(mediaFeature("audiofolder", false)).toEqual({ _type: "Audio" });
		expect(metadataFilePath("train", "a/./b/../c.png")).toEqual({ path: "train/a/c.png" });
		expect(metadataFilePath("", "x.png")).toEqual({ path: "x.png" });
		expect(metadataFilePath("train", "../x.png")).toHaveProperty("problem");
		expect(metadataFilePath("train", "/etc/passwd")).toHaveProperty("problem");
		expect(metadataFilePath("train", "file:///etc/passwd")).toHaveProperty("problem");
	});

	it("reads an image's size from its header, and says why when it cannot", async () => {
		const png = Buffer.alloc(24);
		png.write("\x89PNG\r\n\x1a\n", 0, "latin1");
		png.write("IHDR", 12, "latin1");
		png.writeUInt32BE(640, 16);
		png.writeUInt32BE(480, 20);
		expect(await imageSize("a.png", png, noRead, 24)).toEqual({ width: 640, height: 480 });
		const gif = Buffer.from("GIF89a\x03\x00\x02\x00", "latin1");
		expect(await imageSize("a.gif", gif, noRead, 10)).toEqual({ width: 3, height: 2 });
		// A JPEG whose frame header follows a segment beyond the first read.
		const app = Buffer.alloc(70_000);
		app.writeUInt16BE(0xffe1, 0);
		app.writeUInt16BE(65_535, 2);
		const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x05, 0x00, 0x07, 0x03]);
		const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8]), app.subarray(0, 2 + 65_535), sof]);
		const read = async (start: number, length: number): Promise<Buffer> =>
			jpeg.subarray(start, start + length);
		expect(await imageSize("a.jpg", jpeg.subarray(0, 64 * 1024), read, jpeg.length)).toEqual({
			width: 7,
			height: 5,
		});
		expect(await imageSize("a.png", Buffer.alloc(0), noRead, 0)).toEqual({ problem: "it is empty" });
		expect(await imageSize("a.png", Buffer.from("not an image"), noRead, 12)).toEqual({
			problem: "it is not a PNG, JPEG, GIF, BMP or WebP image",
		});
		expect(await imageSize("a.tif", Buffer.from("II*\x00"), noRead, 4)).toHaveProperty("problem");
	});

	it("follows the card's drop_labels and drop_metadata as the folder builders do", () => {
		const card = (options: string): Record<string, unknown> => ({
			configs: [{ config_name: "x", data_dir: "d", ...JSON.parse(options) }],
		});
		const labelled = files("d/train/cat/a.png", "d/train/dog/b.png");
		const [auto] = datasetLayout(card("{}"), labelled);
		expect(auto && folderLabels(auto.splits[0]?.files ?? [], auto)).toEqual(["cat", "dog"]);
		const [dropped] = datasetLayout(card('{"drop_labels": true}'), labelled);
		expect(dropped?.labels).toBe("never");
		expect(dropped && folderLabels(dropped.splits[0]?.files ?? [], dropped)).toBeUndefined();
		// `drop_labels: false` labels files at several depths and a single folder too (a root file by rootLabel).
		const [kept] = datasetLayout(card('{"drop_labels": false}'), files("d/a.png", "d/sub/b.png"));
		expect(kept && folderLabels(kept.splits[0]?.files ?? [], kept)).toEqual(["d", "sub"]);
		const [root] = datasetLayout(
			{ configs: [{ config_name: "x", drop_labels: false }] },
			files("a.png", "sub/b.png"),
		);
		expect(root && folderLabels(root.splits[0]?.files ?? [], root, "ds@0123")).toEqual(["ds@0123", "sub"]);
		// Python's truth: the string "false" is true (datasets does `not config.drop_labels`).
		const [quoted] = datasetLayout(card('{"drop_labels": "false"}'), labelled);
		expect(quoted?.labels).toBe("never");
		// Metadata files: their rows unless drop_metadata; never labels, even when they are dropped.
		const described = files("d/cat/a.png", "d/dog/b.png", "d/metadata.csv");
		const [meta] = datasetLayout(card("{}"), described);
		expect(meta?.hasMetadata).toBe(true);
		const [noMeta] = datasetLayout(card('{"drop_metadata": true}'), described);
		expect(noMeta?.hasMetadata).toBeUndefined();
		expect(noMeta?.splits[0]?.metadata).toBeUndefined();
		expect(noMeta?.labels).toBe("never");
		const [neither] = datasetLayout(card('{"drop_metadata": true, "drop_labels": true}'), described);
		expect([neither?.hasMetadata, neither?.labels]).toEqual([undefined, "never"]);
		// Other builders ignore both options.
		const [csv] = datasetLayout(card('{"drop_labels": false}'), files("d/train.csv"));
		expect(csv?.labels).toBeUndefined();
	});
});

describe("the files of a folder dataset's archives", () => {
	it("are read in os.walk's order (a folder's files, then its subfolders), hidden parts and other files left out", () => {
		// The order datasets 5's `iter_files` gave for an extracted archive of these entries (run in the test
		// venv); `c.PNG` is walked but the builder's extension check inside archives is case-sensitive.
		const names = [
			"b.png",
			"a/x.png",
			"a/b/y.png",
			"a/c.png",
			"B.png",
			".hidden/z.png",
			"a/__p.png",
			"c.PNG",
			"a.png",
		];
		expect(
			archiveFiles("imagefolder", [...names, "a/", "a/b/", "notes.txt", "a/metadata.csv", "METADATA.csv"]),
		).toEqual({
			media: ["B.png", "a.png", "b.png", "a/c.png", "a/x.png", "a/b/y.png"],
			metadata: ["a/metadata.csv"],
			// Rows are made of every file walked (datasets' `_generate_examples` without metadata), not folders.
			rows: [
				"B.png",
				"METADATA.csv",
				"a.png",
				"b.png",
				"c.PNG",
				"notes.txt",
				"a/c.png",
				"a/metadata.csv",
				"a/x.png",
				"a/b/y.png",
			],
		});
		expect(archiveFiles("audiofolder", ["x/1.wav", "x/2.png", "0.flac"]).media).toEqual([
			"0.flac",
			"x/1.wav",
		]);
	});

	it("give a config its builder by their most common suffix, as datasets infers it from the first 10 archives", () => {
		expect(archiveFormat([["cat/1.png", "cat/2.png", "metadata.csv"], ["dog/3.png"]])).toBe("imagefolder");
		expect(archiveFormat([["a.wav", "b.wav", "c.png"]])).toBe("audiofolder");
		expect(archiveFormat([["a.tar.gz", "b.tar.gz"]])).toBe("webdataset");
		expect(archiveFormat([["readme.txt", "notes.txt"]])).toBe("text");
		expect(archiveFormat([["a.xyz", "b.xyz"]])).toBeUndefined();
		expect(archiveFormat([])).toBeUndefined();
		// An eleventh archive is not looked into.
		const pngs = Array.from({ length: 10 }, () => ["a.png"]);
		expect(
			archiveFormat([
				...pngs,
				["1.wav", "2.wav", "3.wav", "4.wav", "5.wav", "6.wav", "7.wav", "8.wav", "9.wav", "10.wav", "11.wav"],
			]),
		).toBe("imagefolder");
	});
});

describe("rows of a folder dataset's archives", () => {
	const imagefolder = { otherFormat: "imagefolder" };

	it("name an archive's files by virtual paths, after the split's own files, in os.walk's order", () => {
		expect(memberPath("train/images.zip", "img/1.png")).toBe("train/images.zip::img/1.png");
		expect(parseMemberPath("train/images.zip::img/1.png")).toEqual({
			archive: "train/images.zip",
			member: "img/1.png",
		});
		expect(parseMemberPath("train/images.ZIP::")).toEqual({ archive: "train/images.ZIP", member: "" });
		expect(parseMemberPath("train/a::b.png")).toBeUndefined();
		expect(parseMemberPath("train/a.png")).toBeUndefined();
		const archives = [
			{ path: "train/images.zip", names: ["img/2.png", "img/10.png", "notes.txt", "img/sub/4.png"] },
		];
		// One folder, one depth: no labels (as datasets' case A: every walked file a row, notes.txt too).
		const labels = folderLabels(files("train/x.png"), imagefolder, "ds@sha", archives);
		expect(labels).toBeUndefined();
		expect(folderRows("imagefolder", files("train/x.png"), labels, "ds@sha", archives).rows).toEqual([
			{ image: "train/x.png" },
			{ image: "train/images.zip::notes.txt" },
			{ image: "train/images.zip::img/10.png" },
			{ image: "train/images.zip::img/2.png" },
			{ image: "train/images.zip::img/sub/4.png" },
		]);
	});

	it("label an archive's files by the archive's folder, which datasets refuses unless a file's folder has its name", () => {
		// data/train.zip holding cat/1.png and dog/2.png: names from the files' folders, labels from the archive's.
		const archives = [{ path: "data/train.zip", names: ["cat/1.png", "dog/2.png"] }];
		const labels = folderLabels([], imagefolder, "ds@sha", archives);
		expect(labels).toEqual(["cat", "dog"]);
		const rows = folderRows("imagefolder", [], labels, "ds@sha", archives);
		expect(rows.invalidLabel).toBe("data");
		// cat/cat.zip holding cat/1.png, dog/dog.zip holding dog/2.png: valid labels.
		const named = [
			{ path: "cat/cat.zip", names: ["cat/1.png"] },
			{ path: "dog/dog.zip", names: ["dog/2.png"] },
		];
		const fine = folderRows("imagefolder", [], folderLabels([], imagefolder, "", named), "", named);
		expect(fine.invalidLabel).toBeUndefined();
		expect(fine.rows).toEqual([
			{ image: "cat/cat.zip::cat/1.png", label: 0 },
			{ image: "dog/dog.zip::dog/2.png", label: 1 },
		]);
		// Files at the root of two archives share the empty label: one label, none added.
		const roots = [
			{ path: "train/a.zip", names: ["1.png"] },
			{ path: "train/b.zip", names: ["2.png"] },
		];
		expect(folderLabels([], imagefolder, "", roots)).toBeUndefined();
		// An archive's files never share a depth with the repository's own files.
		expect(
			folderLabels(files("cat/a.png"), imagefolder, "", [{ path: "x.zip", names: ["dog/b.png"] }]),
		).toBeUndefined();
	});

	it("resolve a metadata file's names inside its archive, and tell names that go through an archive", async () => {
		expect(metadataFolder("train/images.zip::img/metadata.csv")).toBe("train/images.zip::img");
		expect(metadataFolder("train/images.zip::metadata.csv")).toBe("train/images.zip::");
		expect(metadataFolder("train/metadata.csv")).toBe("train");
		expect(metadataFilePath("train/images.zip::", "img/3.png")).toEqual({
			path: "train/images.zip::img/3.png",
		});
		expect(metadataFilePath("train/images.zip::img", "a/../x/1.png")).toEqual({
			path: "train/images.zip::img/x/1.png",
		});
		expect(metadataFilePath("train/images.zip::img", "../1.png")).toHaveProperty("problem");
		const isFile = (path: string): boolean => ["train/images.zip", "train/a.png"].includes(path);
		expect(await pathThroughArchive("train/images.zip/img/3.png", isFile)).toBe("train/images.zip");
		expect(await pathThroughArchive("train/a.png", isFile)).toBeUndefined();
		expect(await pathThroughArchive("train/other.zip/a.png", isFile)).toBeUndefined();
	});
});
