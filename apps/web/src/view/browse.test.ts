import { describe, expect, it } from "vitest";
import {
	atRevision,
	browseHref,
	browseTitle,
	communityViewOf,
	filesViewOf,
	parseBrowsePath,
	parseDatasetPath,
	pathCrumbs,
	openTab,
	tabOfView,
} from "./browse";
import { decodeShown, fileKind, highlightLanguage, prettyJson, textLines } from "./files";

describe("browsing addresses", () => {
	it("reads the model id and view of each page address", () => {
		expect(parseBrowsePath("/gpt2")).toEqual({ id: "gpt2", view: { kind: "card" } });
		expect(parseBrowsePath("/acme/m")).toEqual({ id: "acme/m", view: { kind: "card" } });
		expect(parseBrowsePath("/acme/m/tree/main")).toEqual({
			id: "acme/m",
			view: { kind: "tree", revision: "main", path: "" },
		});
		expect(parseBrowsePath("/acme/m/tree/main/a/b")).toEqual({
			id: "acme/m",
			view: { kind: "tree", revision: "main", path: "a/b" },
		});
		expect(parseBrowsePath("/acme/m/blob/refs%2Fpr%2F1/a%20b.txt")).toEqual({
			id: "acme/m",
			view: { kind: "blob", revision: "refs/pr/1", path: "a b.txt" },
		});
		expect(parseBrowsePath("/gpt2/commits/main")).toEqual({
			id: "gpt2",
			view: { kind: "commits", revision: "main" },
		});
		expect(parseBrowsePath(`/acme/m/commit/${"a".repeat(40)}`)).toEqual({
			id: "acme/m",
			view: { kind: "commit", revision: "a".repeat(40) },
		});
		// A model named like an action stays reachable: the namespaced form is tried first.
		expect(parseBrowsePath("/acme/tree/tree/main")).toEqual({
			id: "acme/tree",
			view: { kind: "tree", revision: "main", path: "" },
		});
	});

	it("reads the Community tab's addresses, as the public hub writes them", () => {
		expect(parseBrowsePath("/acme/m/discussions")).toEqual({ id: "acme/m", view: { kind: "discussions" } });
		expect(parseBrowsePath("/acme/m/discussions/7")).toEqual({
			id: "acme/m",
			view: { kind: "discussion", num: 7 },
		});
		expect(parseBrowsePath("/acme/m/discussions/7/files")).toEqual({
			id: "acme/m",
			view: { kind: "discussion-files", num: 7 },
		});
		// `discussions` is no repository name, so two segments ending in it are a Community tab too.
		expect(parseBrowsePath("/gpt2/discussions")).toEqual({ id: "gpt2", view: { kind: "discussions" } });
		expect(parseDatasetPath("/datasets/squad/discussions")).toEqual({
			id: "squad",
			view: { kind: "discussions" },
		});
		expect(parseBrowsePath("/gpt2/tree")).toEqual({ id: "gpt2/tree", view: { kind: "card" } });
		expect(parseBrowsePath("/gpt2/discussions/1")).toEqual({
			id: "gpt2",
			view: { kind: "discussion", num: 1 },
		});
		expect(parseDatasetPath("/datasets/acme/d/discussions/2/files")).toEqual({
			id: "acme/d",
			view: { kind: "discussion-files", num: 2 },
		});
		for (const path of [
			"/acme/m/discussions/0",
			"/acme/m/discussions/01",
			"/acme/m/discussions/x",
			"/acme/m/discussions/1234567890",
			"/acme/m/discussions/1/other",
			"/acme/m/discussions/1/files/more",
		])
			expect(parseBrowsePath(path), path).toBeUndefined();
		expect(browseTitle("acme/m", { kind: "discussions" })).toBe("Discussions · acme/m");
		expect(browseTitle("acme/m", { kind: "discussion", num: 2 }, undefined, { title: "Typo" })).toBe(
			"Typo #2 · acme/m",
		);
		expect(browseHref("acme/d", { kind: "discussion", num: 2 }, "dataset")).toBe(
			"/datasets/acme/d/discussions/2",
		);
		expect(tabOfView({ kind: "discussion-files", num: 2 })).toBe("community");
		expect(tabOfView({ kind: "commits", revision: "main" })).toBe("files");
		expect(filesViewOf({ kind: "discussions" })).toEqual({ kind: "tree", revision: "main", path: "" });
		expect(communityViewOf({ kind: "card" })).toEqual({ kind: "discussions" });
		const tabs = new Set(["viewer", "settings"]);
		expect(openTab({ kind: "card" }, false, "viewer", tabs)).toBe("viewer");
		expect(openTab({ kind: "card" }, false, "inference", tabs)).toBe("card");
		expect(openTab({ kind: "card" }, true, "viewer", tabs)).toBe("files");
		expect(openTab({ kind: "discussions" }, true, "viewer", tabs)).toBe("community");
	});

	it("refuses addresses that are no view", () => {
		expect(parseBrowsePath("/acme/m/blob/main")).toBeUndefined();
		expect(parseBrowsePath("/acme/m/commits/main/extra")).toBeUndefined();
		expect(parseBrowsePath("/acme/m/other/main")).toBeUndefined();
		expect(parseBrowsePath("/acme/m/tree/main/%E0%A4%A")).toBeUndefined();
	});

	it("writes addresses that read back the same", () => {
		const views = [
			{ kind: "card" },
			{ kind: "tree", revision: "main", path: "" },
			{ kind: "tree", revision: "refs/pr/1", path: "a b/c#d" },
			{ kind: "blob", revision: "v1", path: "x/y.json" },
			{ kind: "commits", revision: "dev" },
			{ kind: "commit", revision: "b".repeat(40) },
			{ kind: "discussions" },
			{ kind: "discussion", num: 12 },
			{ kind: "discussion-files", num: 3 },
		] as const;
		for (const view of views)
			expect(parseBrowsePath(browseHref("acme/m", view))).toEqual({ id: "acme/m", view });
		expect(browseHref("acme/m", { kind: "tree", revision: "refs/pr/1", path: "a b" })).toBe(
			"/acme/m/tree/refs%2Fpr%2F1/a%20b",
		);
	});

	it("titles pages as the hub does", () => {
		expect(browseTitle("acme/m", { kind: "tree", revision: "main", path: "" })).toBe("acme/m at main");
		expect(browseTitle("acme/m", { kind: "tree", revision: "main", path: "docs" })).toBe(
			"docs · acme/m at main",
		);
		expect(browseTitle("acme/m", { kind: "blob", revision: "v1", path: "a.py" })).toBe("a.py · acme/m at v1");
		expect(browseTitle("acme/m", { kind: "commits", revision: "main" })).toBe("Commits · acme/m at main");
		expect(
			browseTitle("acme/m", { kind: "commit", revision: "main" }, { id: "c".repeat(40), title: "Fix" }),
		).toBe("Fix · acme/m@ccccccc");
	});

	it("keeps the view when the revision changes; a commit leads to that revision's history", () => {
		expect(atRevision({ kind: "blob", revision: "main", path: "a" }, "v1")).toEqual({
			kind: "blob",
			revision: "v1",
			path: "a",
		});
		expect(atRevision({ kind: "commit", revision: "c".repeat(40) }, "dev")).toEqual({
			kind: "commits",
			revision: "dev",
		});
		expect(pathCrumbs("a/b/c")).toEqual([
			{ name: "a", path: "a" },
			{ name: "b", path: "a/b" },
			{ name: "c", path: "a/b/c" },
		]);
	});
});

describe("file views", () => {
	it("tells each kind of file by its name, and unknown ones by their bytes", () => {
		expect(fileKind("README.md")).toBe("markdown");
		expect(fileKind("config.json")).toBe("json");
		expect(fileKind("img/logo.PNG")).toBe("image");
		expect(fileKind("src/model.py")).toBe("text");
		expect(fileKind("LICENSE")).toBe("text");
		expect(fileKind("model.safetensors")).toBe("binary");
		expect(fileKind("notes.weird", new TextEncoder().encode("plain words"))).toBe("text");
		expect(fileKind("data.weird", new Uint8Array([1, 0, 2]))).toBe("binary");
		expect(highlightLanguage("a.py")).toBe("python");
		expect(highlightLanguage("a.yml")).toBe("yaml");
		expect(highlightLanguage("a.bin")).toBeUndefined();
	});

	it("cuts a large text at its last full line and says so", () => {
		const bytes = new TextEncoder().encode("one\ntwo\nthr");
		expect(decodeShown(bytes, 100)).toEqual({ text: "one\ntwo\n", truncated: true });
		expect(decodeShown(bytes, bytes.length)).toEqual({ text: "one\ntwo\nthr", truncated: false });
		// A multi-byte character cut in half does not end the shown text with a replacement character.
		const cut = new TextEncoder().encode("é\né").slice(0, 4);
		expect(decodeShown(cut, 10).text).toBe("é\n");
	});

	it("pretty-prints JSON and numbers lines", () => {
		expect(prettyJson('{"a":[1]}')).toBe('{\n  "a": [\n    1\n  ]\n}\n');
		expect(prettyJson("{not json")).toBeUndefined();
		expect(textLines("a\nb\n")).toEqual(["a", "b"]);
		expect(textLines("")).toEqual([""]);
	});
});

describe("dataset page addresses", () => {
	it("reads /datasets/{id} and its views, and writes them back", () => {
		expect(parseDatasetPath("/datasets/alice/reviews")).toEqual({
			id: "alice/reviews",
			view: { kind: "card" },
		});
		expect(parseDatasetPath("/datasets/alice/reviews/blob/main/data/train.csv")).toEqual({
			id: "alice/reviews",
			view: { kind: "blob", revision: "main", path: "data/train.csv" },
		});
		expect(parseDatasetPath("/datasets/squad/tree/main")).toEqual({
			id: "squad",
			view: { kind: "tree", revision: "main", path: "" },
		});
		expect(parseDatasetPath("/datasets")).toBeUndefined();
		expect(parseDatasetPath("/alice/reviews")).toBeUndefined();
		expect(browseHref("alice/reviews", { kind: "commits", revision: "refs/pr/1" }, "dataset")).toBe(
			"/datasets/alice/reviews/commits/refs%2Fpr%2F1",
		);
		expect(browseHref("alice/reviews", { kind: "card" })).toBe("/alice/reviews");
	});
});
