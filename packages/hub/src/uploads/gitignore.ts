/**
 * `.gitignore` matching (the rules of gitignore(5) that apply to paths in a repository): `#`
 * comments, `!` negation, `\` escapes, `*`, `?`, `[…]` classes, `**` across folders, a leading or
 * inner `/` anchoring a pattern to the root, a trailing `/` matching folders only. As in git, a file
 * inside an ignored folder stays ignored whatever later patterns say. The hub answers preupload's
 * `shouldIgnore` with it (huggingface_hub leaves ignored files out of the commit).
 */

interface Rule {
	regex: RegExp;
	negate: boolean;
	folderOnly: boolean;
}

const MAX_RULES = 10_000;
const MAX_PATTERN_LENGTH = 1000;

function escapeRegex(char: string): string {
	return /[\\^$.*+?()[\]{}|/]/.test(char) ? `\\${char}` : char;
}

/** The body of a regular expression for a glob (without anchors). */
function globBody(glob: string): string {
	let out = "";
	let i = 0;
	while (i < glob.length) {
		const char = glob[i] as string;
		if (glob.startsWith("**/", i) && (i === 0 || glob[i - 1] === "/")) {
			out += "(?:[^/]*/)*";
			i += 3;
		} else if (glob.startsWith("/**", i) && i + 3 === glob.length) {
			out += "/.*";
			i += 3;
		} else if (glob.startsWith("**", i)) {
			out += ".*";
			i += 2;
		} else if (char === "*") {
			out += "[^/]*";
			i++;
		} else if (char === "?") {
			out += "[^/]";
			i++;
		} else if (char === "[") {
			const end = glob.indexOf("]", i + 2);
			if (end < 0) {
				out += "\\[";
				i++;
				continue;
			}
			let inner = glob.slice(i + 1, end);
			const negated = inner.startsWith("!") || inner.startsWith("^");
			if (negated) inner = inner.slice(1);
			inner = inner.replace(/\\/g, "\\\\").replace(/\]/g, "\\]");
			out += `[${negated ? "^" : ""}${inner}]`;
			i = end + 1;
		} else if (char === "\\" && i + 1 < glob.length) {
			out += escapeRegex(glob[i + 1] as string);
			i += 2;
		} else {
			out += escapeRegex(char);
			i++;
		}
	}
	return out;
}

function parseRule(line: string): Rule | undefined {
	// Trailing spaces are ignored unless escaped.
	let text = line.replace(/(?<!\\)\s+$/, "");
	if (text === "" || text.startsWith("#") || text.length > MAX_PATTERN_LENGTH) return undefined;
	let negate = false;
	if (text.startsWith("!")) {
		negate = true;
		text = text.slice(1);
	} else if (text.startsWith("\\!") || text.startsWith("\\#")) {
		text = text.slice(1);
	}
	let folderOnly = false;
	if (text.endsWith("/")) {
		folderOnly = true;
		text = text.slice(0, -1);
	}
	if (text === "") return undefined;
	const anchored = text.includes("/");
	if (text.startsWith("/")) text = text.slice(1);
	const body = globBody(text);
	const regex = new RegExp(anchored ? `^${body}$` : `^(?:.*/)?${body}$`);
	return { regex, negate, folderOnly };
}

export class GitIgnore {
	private readonly rules: Rule[];

	constructor(content: string) {
		this.rules = content
			.split(/\r?\n/)
			.slice(0, MAX_RULES)
			.map(parseRule)
			.filter((rule): rule is Rule => rule !== undefined);
	}

	get empty(): boolean {
		return this.rules.length === 0;
	}

	private matches(path: string, isFolder: boolean): boolean {
		let ignored = false;
		for (const rule of this.rules) {
			if (rule.folderOnly && !isFolder) continue;
			if (rule.regex.test(path)) ignored = !rule.negate;
		}
		return ignored;
	}

	/** Whether a file at `path` (relative to the repository root) is ignored. */
	ignores(path: string): boolean {
		const parts = path.split("/");
		for (let depth = 1; depth < parts.length; depth++) {
			if (this.matches(parts.slice(0, depth).join("/"), true)) return true;
		}
		return this.matches(path, false);
	}
}
