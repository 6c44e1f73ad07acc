/**
 * The model page's own addresses, as on the public hub: `/{id}` (the card), `/{id}/tree/{rev}/{path}`,
 * `/{id}/blob/{rev}/{path}`, `/{id}/commits/{rev}`, `/{id}/commit/{sha}`, and how a file is shown.
 * Pure, so the routes, the links and the hub's page titles (packages/hub/src/web/page-meta.ts) agree.
 */
import { encodeModelId } from "../api/http";

export type BrowseView =
	| { kind: "card" }
	| { kind: "tree" | "blob"; revision: string; path: string }
	| { kind: "commits" | "commit"; revision: string };

/** How many segments after the action each browsing page takes (the revision, then a path). */
const VIEWS: Record<Exclude<BrowseView["kind"], "card">, (rest: readonly string[]) => boolean> = {
	tree: (rest) => rest.length >= 1,
	blob: (rest) => rest.length >= 2,
	commits: (rest) => rest.length === 1,
	commit: (rest) => rest.length === 1,
};

function decodedSegments(pathname: string): string[] | undefined {
	const parts = pathname.split("/").filter((part) => part !== "");
	try {
		return parts.map((part) => decodeURIComponent(part));
	} catch {
		return undefined;
	}
}

/**
 * The model id and view of a page address, or undefined when it is no model page. `ns/name/{action}/…`
 * is tried before `name/{action}/…`, as the hub does, so a model named `ns/tree` stays reachable.
 */
export function parseBrowsePath(pathname: string): { id: string; view: BrowseView } | undefined {
	const parts = decodedSegments(pathname);
	if (parts === undefined || parts.length === 0) return undefined;
	if (parts.length <= 2) return { id: parts.join("/"), view: { kind: "card" } };
	for (const idLength of [2, 1]) {
		const action = parts[idLength];
		if (action === undefined || !Object.hasOwn(VIEWS, action)) continue;
		const kind = action as keyof typeof VIEWS;
		const rest = parts.slice(idLength + 1);
		if (!VIEWS[kind](rest) || rest.slice(1).some((part) => part === "")) continue;
		const id = parts.slice(0, idLength).join("/");
		const revision = rest[0] as string;
		const view: BrowseView =
			kind === "tree" || kind === "blob"
				? { kind, revision, path: rest.slice(1).join("/") }
				: { kind, revision };
		return { id, view };
	}
	return undefined;
}

/** The address of a view of a model (revisions such as `refs/pr/1` are one encoded segment). */
export function browseHref(id: string, view: BrowseView): string {
	const base = `/${encodeModelId(id)}`;
	if (view.kind === "card") return base;
	const revision = encodeURIComponent(view.revision);
	if (!("path" in view)) return `${base}/${view.kind}/${revision}`;
	return `${base}/${view.kind}/${revision}${view.path ? `/${encodeModelId(view.path)}` : ""}`;
}

/** The page title (without the site's name), as the hub writes it into the page it serves. */
export function browseTitle(id: string, view: BrowseView, commit?: { id: string; title: string }): string {
	switch (view.kind) {
		case "card":
			return id;
		case "tree":
			return `${view.path ? `${view.path} · ` : ""}${id} at ${view.revision}`;
		case "blob":
			return `${view.path} · ${id} at ${view.revision}`;
		case "commits":
			return `Commits · ${id} at ${view.revision}`;
		case "commit":
			return `${commit?.title ?? "Commit"} · ${id}@${(commit?.id ?? view.revision).slice(0, 7)}`;
	}
}

/** The same view at another revision (a commit page leads to that revision's history). */
export function atRevision(view: BrowseView, revision: string): BrowseView {
	switch (view.kind) {
		case "card":
			return { kind: "tree", revision, path: "" };
		case "tree":
		case "blob":
			return { ...view, revision };
		default:
			return { kind: "commits", revision };
	}
}

/** The breadcrumbs of a path: each folder above it with its own path. */
export function pathCrumbs(path: string): Array<{ name: string; path: string }> {
	const parts = path ? path.split("/") : [];
	return parts.map((name, index) => ({ name, path: parts.slice(0, index + 1).join("/") }));
}

export type FileKind = "markdown" | "json" | "image" | "text" | "binary";

const IMAGE_EXTENSIONS = new Set(["png", "jpg", "jpeg", "gif", "webp", "svg", "avif", "bmp", "ico"]);
/** Files whose content is text, by extension or by name (the rest are sniffed: no NUL byte is text). */
const TEXT_EXTENSIONS = new Set(
	(
		"txt md markdown json jsonl yaml yml toml ini cfg conf py pyi js mjs cjs ts tsx jsx sh bash zsh " +
		"css html htm xml csv tsv rs go java c h cpp hpp cc cu rb php lua r sql tex rst log jinja j2 " +
		"gitattributes gitignore dockerfile makefile license model vocab tiktoken spm"
	).split(" "),
);
const TEXT_NAMES = new Set(["license", "dockerfile", "makefile", "notice", "readme", "merges.txt"]);

export function extensionOf(path: string): string {
	const name = path.slice(path.lastIndexOf("/") + 1).toLowerCase();
	const dot = name.lastIndexOf(".");
	return dot < 0 ? name : name.slice(dot + 1);
}

/**
 * How a file is shown, from its name: Markdown rendered, JSON pretty-printed, images as images, known
 * text highlighted; any other file is shown as text when its first bytes have no NUL (`sniffed`).
 */
export function fileKind(path: string, sniffed?: Uint8Array): FileKind {
	const extension = extensionOf(path);
	const name = path.slice(path.lastIndexOf("/") + 1).toLowerCase();
	if (extension === "md" || extension === "markdown") return "markdown";
	if (extension === "json") return "json";
	if (IMAGE_EXTENSIONS.has(extension)) return "image";
	if (TEXT_EXTENSIONS.has(extension) || TEXT_NAMES.has(name)) return "text";
	if (sniffed !== undefined && sniffed.length > 0 && !sniffed.includes(0)) return "text";
	return "binary";
}

/** The highlighter's language for a file (src/components/browse/highlight.ts registers these), or undefined. */
export function highlightLanguage(path: string): string | undefined {
	switch (extensionOf(path)) {
		case "py":
		case "pyi":
			return "python";
		case "js":
		case "mjs":
		case "cjs":
		case "jsx":
			return "javascript";
		case "ts":
		case "tsx":
			return "typescript";
		case "json":
		case "jsonl":
			return "json";
		case "yaml":
		case "yml":
			return "yaml";
		case "toml":
		case "ini":
		case "cfg":
		case "conf":
			return "ini";
		case "sh":
		case "bash":
		case "zsh":
			return "bash";
		case "md":
		case "markdown":
			return "markdown";
		case "html":
		case "htm":
		case "xml":
		case "svg":
			return "xml";
		case "css":
			return "css";
		default:
			return undefined;
	}
}

/** The most of a file the page reads and shows; a longer file is cut there, with a notice. */
export const MAX_SHOWN_BYTES = 512 * 1024;
/** Highlighting past this many characters is plain text: the page stays quick on large files. */
export const MAX_HIGHLIGHTED_CHARS = 200_000;
/** Image files shown inline up to this size; larger ones are a download link. */
export const MAX_INLINE_IMAGE_BYTES = 20 * 1024 * 1024;

/** Text cut to `max` bytes of UTF-8 at a character boundary and a line end when there is one. */
export function decodeShown(bytes: Uint8Array, fullSize: number): { text: string; truncated: boolean } {
	const truncated = fullSize > bytes.length;
	let text = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
	if (truncated) {
		// The last character may be cut mid-sequence and the last line mid-way: end at the last full line.
		const lastLine = text.lastIndexOf("\n");
		if (lastLine > 0) text = text.slice(0, lastLine + 1);
	}
	return { text, truncated };
}

/** JSON pretty-printed with two spaces, or undefined when the text is not JSON. */
export function prettyJson(text: string): string | undefined {
	try {
		return `${JSON.stringify(JSON.parse(text), null, 2)}\n`;
	} catch {
		return undefined;
	}
}

/** Lines of a text for a numbered view (a final newline does not make an empty last line). */
export function textLines(text: string): string[] {
	const lines = text.split("\n");
	if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
	return lines;
}

/** A commit's short id, as git and the public hub show it. */
export function shortCommitId(id: string): string {
	return id.slice(0, 7);
}
