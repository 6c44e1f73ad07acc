/**
 * How a file of a repository is shown: its kind (Markdown, JSON, image, text, binary), its highlighting
 * language, and how much of it the page reads. Pure; the file view (components/browse/BlobView.tsx)
 * and the commit view use it, never a page's first load.
 */

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
