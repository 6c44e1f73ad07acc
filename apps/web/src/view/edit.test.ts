import { describe, expect, it } from "vitest";
import {
	buildEditForm,
	cardCheckOf,
	defaultEditSummary,
	editSummaryProblem,
	isEditable,
	MAX_EDITED_BYTES,
	refNameInputProblem,
	starterCard,
} from "./edit";

describe("editing in the browser", () => {
	it("edits text shown whole, never LFS files, binaries or cut files", () => {
		const text = { kind: "text", truncated: false, size: 10, lfs: false };
		expect(isEditable(text)).toBe(true);
		expect(isEditable({ ...text, kind: "markdown" })).toBe(true);
		expect(isEditable({ ...text, kind: "binary" })).toBe(false);
		expect(isEditable({ ...text, kind: "image" })).toBe(false);
		expect(isEditable({ ...text, lfs: true })).toBe(false);
		expect(isEditable({ ...text, truncated: true })).toBe(false);
		expect(isEditable({ ...text, size: MAX_EDITED_BYTES + 1 })).toBe(false);
	});

	it("proposes and checks commit messages", () => {
		expect(defaultEditSummary("src/model.py", "update")).toBe("Update model.py");
		expect(defaultEditSummary("README.md", "delete")).toBe("Delete README.md");
		expect(editSummaryProblem("  ")).toBe("Write a commit message.");
		expect(editSummaryProblem("x".repeat(1001))).toMatch(/at most 1000/);
		expect(editSummaryProblem("Fix")).toBeUndefined();
		expect(refNameInputProblem("")).toBe("Write a name.");
		expect(refNameInputProblem(" dev")).toMatch(/space/);
		expect(refNameInputProblem("dev")).toBeUndefined();
	});

	it("builds the hub's multipart commit: the header first, deletions as operation lines, the file by its path", async () => {
		const form = buildEditForm({
			summary: " Update a ",
			description: "why",
			parentCommit: "abc1234",
			put: { path: "dir/a.txt", text: "héllo\n" },
			deleted: ["old.txt"],
		});
		const entries = [...form.entries()];
		expect(entries.map(([name]) => name)).toEqual(["header", "operation", "file"]);
		expect(JSON.parse(entries[0]?.[1] as string)).toEqual({
			summary: "Update a",
			description: "why",
			parentCommit: "abc1234",
		});
		expect(JSON.parse(entries[1]?.[1] as string)).toEqual({ key: "deletedFile", value: { path: "old.txt" } });
		const file = entries[2]?.[1] as File;
		expect(file.name).toBe("dir/a.txt");
		expect(new Uint8Array(await file.arrayBuffer())).toEqual(new TextEncoder().encode("héllo\n"));
	});

	it("reads the hub's validate-yaml answers", () => {
		expect(
			cardCheckOf({ errors: [{ message: "bad" }], warnings: [{ message: "meh" }, { nope: 1 }] }),
		).toEqual({
			errors: ["bad"],
			warnings: ["meh"],
		});
		expect(cardCheckOf(undefined)).toEqual({ errors: [], warnings: [] });
	});

	it("starts a new card with front matter the hub reads and the sections of the kind's template", () => {
		const model = starterCard("ada/tiny-bert", "model");
		const lines = model.split("\n");
		// The front matter is the block between the first two `---` lines, and holds only a comment and `tags: []`.
		expect(lines[0]).toBe("---");
		const close = lines.indexOf("---", 1);
		expect(lines.slice(1, close)).toEqual([
			"# Metadata the hub reads, for example: license, language, library_name, pipeline_tag, base_model, datasets",
			"tags: []",
		]);
		// The title is the repository's name, without its namespace; then the model card's sections.
		const body = lines.slice(close + 1);
		expect(body.filter((line) => line.startsWith("# "))).toEqual(["# tiny-bert"]);
		expect(body.filter((line) => line.startsWith("## "))).toEqual([
			"## Model description",
			"## Intended uses and limitations",
			"## How to use",
			"## Training data",
			"## Evaluation",
		]);
		expect(model.match(/More information needed\./g)).toHaveLength(5);

		const dataset = starterCard("squad", "dataset");
		expect(dataset).toContain("# Metadata the hub reads, for example: license, language, task_categories");
		expect(dataset).not.toContain("pipeline_tag");
		const datasetLines = dataset.split("\n");
		const datasetBody = datasetLines.slice(datasetLines.indexOf("---", 1) + 1);
		expect(datasetBody.filter((line) => /^#{1,2} /.test(line))).toEqual([
			"# squad",
			"## Dataset description",
			"## Dataset structure",
			"## Uses",
			"## Source data",
			"## Limitations",
		]);
	});
});
