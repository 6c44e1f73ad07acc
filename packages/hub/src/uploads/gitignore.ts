/**
 * `.gitignore` matching (the rules of gitignore(5) that apply to paths in a repository): `#`
 * comments, `!` negation, `\` escapes, `*`, `?`, `[…]` classes, `**` across folders, a leading or
 * inner `/` anchoring a pattern to the root, a trailing `/` matching folders only. As in git, a file
 * inside an ignored folder stays ignored whatever later patterns say. The hub answers preupload's
 * `shouldIgnore` with it (huggingface_hub leaves ignored files out of the commit).
 *
 * Patterns are compiled to a small automaton simulated over the path (a set of pattern positions per
 * character), never to a backtracking regular expression: matching one pattern against one path costs
 * at most (pattern length + 1) × (path length + 1) steps, and a MatchBudget bounds the steps of a whole
 * request. (A regular expression per glob backtracked: a few `*` and a 999-character path held the hub
 * until it was killed.)
 */

/** One element of a compiled pattern; the automaton's state i means "tokens before i matched". */
type Token =
	| { kind: "char"; char: string }
	/** `?`: one character other than `/`. */
	| { kind: "any" }
	| { kind: "class"; negated: boolean; test: (char: string) => boolean }
	/** A run of characters: `*` (never `/`), or `**` where git gives it its folder meaning (any characters). */
	| { kind: "star"; crossesSlash: boolean }
	/** Matches nothing, and lets the match jump over the next `over` tokens: `**∕` may be zero folders. */
	| { kind: "skip"; over: number };
import { hasControlCharacter } from "@modelhub/tasks/literals";

interface Rule {
	tokens: Token[];
	/** The pattern has no `/` but a trailing one: it is matched against each path component (git's basename match). */
	basename: boolean;
	negate: boolean;
	folderOnly: boolean;
	/** The pattern without wildcards, compared as text (git does the same); undefined when it has some. */
	literal: string | undefined;
	/** For a basename pattern `*text` without other wildcards: `text`, compared with the name's end (git too). */
	suffix: string | undefined;
}

const MAX_RULES = 10_000;
const MAX_PATTERN_LENGTH = 1000;

/** Matching more than the budget allows (see MatchBudget). */
export class MatchBudgetError extends Error {
	override name = "MatchBudgetError";
}

/**
 * The steps (pattern positions visited per path character) one request may spend matching; shared by
 * every rule and path of the request, so that rules × paths cannot multiply into hours of work.
 */
export class MatchBudget {
	private spent = 0;
	constructor(readonly maxSteps: number) {}

	spend(steps: number): void {
		this.spent += steps;
		if (this.spent > this.maxSteps) {
			throw new MatchBudgetError(`matching .gitignore took more than ${this.maxSteps} steps`);
		}
	}
}

const UNLIMITED = new MatchBudget(Number.POSITIVE_INFINITY);

/** POSIX classes git's wildmatch knows inside `[…]`, e.g. `[[:digit:]]`. */
const POSIX_CLASSES: Readonly<Record<string, { test(char: string): boolean }>> = {
	alnum: /^[A-Za-z0-9]$/,
	alpha: /^[A-Za-z]$/,
	blank: /^[ \t]$/,
	cntrl: { test: (char: string) => char.length === 1 && hasControlCharacter(char) },
	digit: /^[0-9]$/,
	graph: /^[\x21-\x7e]$/,
	lower: /^[a-z]$/,
	print: /^[\x20-\x7e]$/,
	punct: /^[!-/:-@[-`{-~]$/,
	space: /^[ \t\n\v\f\r]$/,
	upper: /^[A-Z]$/,
	xdigit: /^[0-9A-Fa-f]$/,
};

/**
 * A `[…]` class starting at `start` (the `[`): its test and the index after its `]`, or undefined when it
 * is never closed or names an unknown POSIX class (git's wildmatch then matches nothing).
 */
function parseClass(
	glob: string,
	start: number,
): { test: (char: string) => boolean; negated: boolean; end: number } | undefined {
	let i = start + 1;
	const negated = glob[i] === "!" || glob[i] === "^";
	if (negated) i++;
	const singles = new Set<string>();
	const ranges: Array<[string, string]> = [];
	const named: Array<{ test(char: string): boolean }> = [];
	let first = true;
	while (i < glob.length) {
		let char = glob[i] as string;
		// `]` first in the class is itself.
		if (char === "]" && !first) {
			const test = (c: string) =>
				singles.has(c) ||
				ranges.some(([low, high]) => c >= low && c <= high) ||
				named.some((re) => re.test(c));
			return { test, negated, end: i + 1 };
		}
		first = false;
		if (char === "[" && glob[i + 1] === ":") {
			const close = glob.indexOf(":]", i + 2);
			if (close < 0) return undefined;
			const re = POSIX_CLASSES[glob.slice(i + 2, close)];
			if (!re) return undefined;
			named.push(re);
			i = close + 2;
			continue;
		}
		if (char === "\\") {
			i++;
			if (i >= glob.length) return undefined;
			char = glob[i] as string;
		}
		if (glob[i + 1] === "-" && glob[i + 2] !== undefined && glob[i + 2] !== "]") {
			let high = glob[i + 2] as string;
			let next = i + 3;
			if (high === "\\") {
				if (glob[i + 3] === undefined) return undefined;
				high = glob[i + 3] as string;
				next = i + 4;
			}
			ranges.push([char, high]);
			i = next;
			continue;
		}
		singles.add(char);
		i++;
	}
	return undefined;
}

/**
 * Compiles a glob (no leading `/`, no trailing `/`) with git's wildmatch rules under WM_PATHNAME:
 * `*`, `?` and classes never match `/`; `**` means "any folders" only as a whole component (`**∕x`,
 * `x/**∕y`, `x/**`), elsewhere it is a plain `*`. Undefined when the pattern can match nothing (an
 * unclosed class or a trailing lone `\`, which git treats as errors).
 */
function compile(glob: string, anchored: boolean): Token[] | undefined {
	const tokens: Token[] = [];
	// git compares an anchored pattern's text before its first wildcard (`*?[\`) separately, then
	// matches the rest from its start (dir.c, match_pathname): a `**` right there counts as starting a
	// component, so `a**∕b` matches `ab` and `ax/b` in git. Kept, to answer as git does.
	const firstWildcard = anchored ? glob.search(/[*?[\\]/) : -1;
	let i = 0;
	while (i < glob.length) {
		const char = glob[i] as string;
		if (char === "*") {
			let end = i;
			while (glob[end] === "*") end++;
			const double = end - i >= 2;
			const boundedBefore = i === 0 || glob[i - 1] === "/" || i === firstWildcard;
			// An escaped `\/` ends the component too, but git tries zero folders only before a plain `/`.
			const boundedAfter = end === glob.length || glob[end] === "/" || glob.startsWith("\\/", end);
			if (double && boundedBefore && glob[end] === "/") {
				// `**/`: zero or more whole folders (skip the star and the slash), or anything then `/`.
				tokens.push({ kind: "skip", over: 2 }, { kind: "star", crossesSlash: true });
			} else {
				// `/**` at the end: anything below; a `*` elsewhere (or a `**` inside a name): within a name.
				tokens.push({ kind: "star", crossesSlash: double && boundedBefore && boundedAfter });
			}
			i = end;
		} else if (char === "?") {
			tokens.push({ kind: "any" });
			i++;
		} else if (char === "[") {
			const parsed = parseClass(glob, i);
			if (!parsed) return undefined;
			tokens.push({ kind: "class", negated: parsed.negated, test: parsed.test });
			i = parsed.end;
		} else if (char === "\\") {
			if (i + 1 >= glob.length) return undefined;
			tokens.push({ kind: "char", char: glob[i + 1] as string });
			i += 2;
		} else {
			tokens.push({ kind: "char", char });
			i++;
		}
	}
	return tokens;
}

/**
 * Runs a compiled pattern over `text` and reports whether it matches the whole of it; with `folders`,
 * also whether it matches each prefix ending just before a `/` (the folders above a file), written to
 * `folders[k]` for the k-th `/`. The automaton's live positions are kept as a list (each at most once
 * per character) and only move forward, so a character costs at most (tokens + 1) steps.
 */
function run(tokens: readonly Token[], text: string, budget: MatchBudget, folders?: boolean[]): boolean {
	const count = tokens.length;
	// seenAt[i] === step: position i is already in the list being built for this step.
	const seenAt = new Int32Array(count + 1).fill(-1);
	let step = 0;
	let active: number[] = [];
	let next: number[] = [];
	const pending: number[] = [];
	/** Adds a position and every position it reaches without reading a character. */
	const reach = (list: number[], start: number) => {
		pending.push(start);
		for (let state = pending.pop(); state !== undefined; state = pending.pop()) {
			if (seenAt[state] === step) continue;
			seenAt[state] = step;
			list.push(state);
			const token = tokens[state];
			if (token?.kind === "star") pending.push(state + 1);
			else if (token?.kind === "skip") pending.push(state + 1, Math.min(count, state + 1 + token.over));
		}
	};
	reach(active, 0);
	let slashes = 0;
	for (let at = 0; at < text.length; at++) {
		const char = text[at] as string;
		if (folders && char === "/") folders[slashes++] = seenAt[count] === step;
		budget.spend(active.length);
		step++;
		next.length = 0;
		for (const state of active) {
			const token = tokens[state];
			if (token === undefined || token.kind === "skip") continue;
			if (token.kind === "star") {
				if (token.crossesSlash || char !== "/") reach(next, state);
				continue;
			}
			const advance =
				token.kind === "char"
					? token.char === char
					: char !== "/" && (token.kind === "any" || token.test(char) !== token.negated);
			if (advance) reach(next, state + 1);
		}
		if (next.length === 0) {
			if (folders) folders.fill(false, slashes);
			return false;
		}
		[active, next] = [next, active];
	}
	return seenAt[count] === step;
}

/** Whether a glob has no wildcard (git then compares it as text). */
function literalOf(glob: string): string | undefined {
	if (/[*?[]/.test(glob)) return undefined;
	if (!glob.includes("\\")) return glob;
	// `\x` is `x`; a trailing lone `\` matches nothing (compile refuses it).
	if (/\\$/.test(glob.replace(/\\\\/g, ""))) return undefined;
	return glob.replace(/\\(.)/g, "$1");
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
	// A `/` at the start or in the middle anchors the pattern to the root (gitignore(5)).
	const anchored = text.includes("/");
	if (text.startsWith("/")) text = text.slice(1);
	const tokens = compile(text, anchored);
	if (!tokens) return undefined;
	const suffix = !anchored && text.startsWith("*") ? literalOf(text.slice(1)) : undefined;
	return { tokens, basename: !anchored, negate, folderOnly, literal: literalOf(text), suffix };
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

	/**
	 * Whether a file at `path` (relative to the repository root) is ignored: the last rule matching it
	 * decides, unless a folder above it is ignored. Every rule runs once over the path, learning at the
	 * same time which of the folders above it it matches. Throws MatchBudgetError past the budget.
	 */
	ignores(path: string, budget: MatchBudget = UNLIMITED): boolean {
		const components = path.split("/");
		const folders = components.length - 1;
		// Where each folder above the file ends (the index of the `/` after it).
		const folderEnds: number[] = [];
		for (let at = path.indexOf("/"); at >= 0; at = path.indexOf("/", at + 1)) folderEnds.push(at);
		// ignoredAt[k]: the verdict so far for the k-th folder above the file; ignoredAt[folders]: the file's.
		const ignoredAt = new Array<boolean>(folders + 1).fill(false);
		const folderMatches = new Array<boolean>(folders).fill(false);
		for (const rule of this.rules) {
			let fileMatches = false;
			if (rule.basename) {
				for (let k = 0; k <= folders; k++) {
					const component = components[k] as string;
					budget.spend(1);
					const matched =
						rule.literal !== undefined
							? component === rule.literal
							: rule.suffix !== undefined
								? component.endsWith(rule.suffix)
								: run(rule.tokens, component, budget);
					if (k < folders) folderMatches[k] = matched;
					else fileMatches = matched;
				}
			} else if (rule.literal !== undefined) {
				const literal = rule.literal;
				budget.spend(1);
				fileMatches = path === literal;
				const startsWith = path.startsWith(literal);
				for (let k = 0; k < folders; k++) folderMatches[k] = startsWith && folderEnds[k] === literal.length;
			} else {
				fileMatches = run(rule.tokens, path, budget, folderMatches);
			}
			for (let k = 0; k < folders; k++) if (folderMatches[k]) ignoredAt[k] = !rule.negate;
			if (fileMatches && !rule.folderOnly) ignoredAt[folders] = !rule.negate;
		}
		return ignoredAt.some((ignored) => ignored);
	}
}
