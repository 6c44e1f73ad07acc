/**
 * Editing in the browser, the pure parts: which files the page may edit, the commit messages it
 * proposes, and the multipart commit it sends (packages/hub/README.md, "From a browser": the `header`
 * field first, `operation` fields for deletions, a `file` part per written file).
 */
import type { CommitHeaderRequest } from "@modelhub/hub/api";
import { MAX_SUMMARY_LENGTH } from "./upload";

/** The model card: its front matter is validated (POST /api/validate-yaml) before a commit. */
export const CARD_PATH = "README.md";

/**
 * The largest file edited in the page (a textarea holds it all). Larger text files are shown cut at
 * MAX_SHOWN_BYTES anyway, so this is the same bound: whatever is shown whole can be edited.
 */
export const MAX_EDITED_BYTES = 512 * 1024;

export function isCard(path: string): boolean {
	return path === CARD_PATH;
}

/** Whether a shown file can be edited: text shown whole, not stored as LFS, at or under the bound. */
export function isEditable(file: { kind: string; truncated: boolean; size: number; lfs: boolean }): boolean {
	return (
		(file.kind === "text" || file.kind === "markdown" || file.kind === "json") &&
		!file.truncated &&
		!file.lfs &&
		file.size <= MAX_EDITED_BYTES
	);
}

/** The summary proposed for a new file, an edit or a deletion, as the public hub's editor words it. */
export function defaultEditSummary(path: string, action: "create" | "update" | "delete"): string {
	const name = path.slice(path.lastIndexOf("/") + 1);
	return `${action === "create" ? "Create" : action === "update" ? "Update" : "Delete"} ${name}`;
}

/**
 * The card "Create model card" (or dataset card) starts from: front matter the hub's validation
 * accepts (an empty `tags` list; the comments name the fields the hub reads) and the sections of
 * the public hub's card templates, to be filled in.
 */
export function starterCard(repoId: string, kind: "model" | "dataset"): string {
	const name = repoId.slice(repoId.lastIndexOf("/") + 1);
	const fields =
		kind === "model"
			? "license, language, library_name, pipeline_tag, base_model, datasets"
			: "license, language, task_categories, size_categories, configs";
	const sections =
		kind === "model"
			? ["Model description", "Intended uses and limitations", "How to use", "Training data", "Evaluation"]
			: ["Dataset description", "Dataset structure", "Uses", "Source data", "Limitations"];
	return [
		"---",
		`# Metadata the hub reads, for example: ${fields}`,
		"tags: []",
		"---",
		"",
		`# ${name}`,
		"",
		...sections.flatMap((section) => [`## ${section}`, "", "More information needed.", ""]),
	].join("\n");
}

/** Why the commit cannot be sent yet, or undefined. */
export function editSummaryProblem(summary: string): string | undefined {
	if (summary.trim() === "") return "Write a commit message.";
	if (summary.trim().length > MAX_SUMMARY_LENGTH)
		return `The commit message must be at most ${MAX_SUMMARY_LENGTH} characters.`;
	return undefined;
}

export interface EditCommit {
	summary: string;
	description?: string;
	/** The commit the edited text was read at: the hub refuses the commit if the branch moved since. */
	parentCommit?: string;
	/** A file written with this text (UTF-8). */
	put?: { path: string; text: string };
	/** Files deleted. */
	deleted?: string[];
}

/** The commit as the hub's multipart form. */
export function buildEditForm(commit: EditCommit): FormData {
	const form = new FormData();
	const header: CommitHeaderRequest = {
		summary: commit.summary.trim(),
		description: (commit.description ?? "").trim(),
		...(commit.parentCommit ? { parentCommit: commit.parentCommit } : {}),
	};
	form.append("header", JSON.stringify(header));
	for (const path of commit.deleted ?? [])
		form.append("operation", JSON.stringify({ key: "deletedFile", value: { path } }));
	if (commit.put)
		form.append("file", new Blob([commit.put.text], { type: "text/plain;charset=utf-8" }), commit.put.path);
	return form;
}

/** The hub's answer to a card's validation: its errors stop the commit, its warnings are shown. */
export interface CardCheck {
	errors: string[];
	warnings: string[];
}

/** The messages of a validate-yaml answer body (`{ errors: [{ message }], warnings: [{ message }] }`). */
export function cardCheckOf(body: unknown): CardCheck {
	const messages = (value: unknown): string[] =>
		Array.isArray(value)
			? value.flatMap((item) =>
					typeof item === "object" &&
					item !== null &&
					typeof (item as { message?: unknown }).message === "string"
						? [(item as { message: string }).message]
						: [],
				)
			: [];
	const record = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
	return { errors: messages(record.errors), warnings: messages(record.warnings) };
}

/** What a new branch or tag may be called: the hub checks git's rules; the page only checks it is there. */
export function refNameInputProblem(name: string): string | undefined {
	if (name.trim() === "") return "Write a name.";
	if (name !== name.trim()) return "A name cannot start or end with a space.";
	return undefined;
}
