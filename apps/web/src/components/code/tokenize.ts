/**
 * A deliberately small syntax tokenizer for the four languages our snippets are written in. It knows
 * comments, strings, keywords and numbers, which is what makes a snippet easy to scan; everything else
 * is plain text. Joining the tokens' text always gives back the input exactly.
 */

export type TokenType = "comment" | "string" | "keyword" | "number" | "text";
export type CodeLanguage = "python" | "js" | "sh" | "json";

export interface Token {
	type: TokenType;
	text: string;
}

const PYTHON_KEYWORDS = new Set(
	(
		"False None True and as assert async await break class continue def del elif else except finally for " +
		"from global if import in is lambda nonlocal not or pass raise return try while with yield"
	).split(" "),
);

const JS_KEYWORDS = new Set(
	(
		"async await break case catch class const continue debugger default delete do else export extends false " +
		"finally for from function if import in instanceof let new null of return static super switch this throw " +
		"true try typeof undefined var void while with yield"
	).split(" "),
);

const SH_KEYWORDS = new Set(
	"if then else elif fi for while until do done case esac in function return export local set unset".split(
		" ",
	),
);

const JSON_KEYWORDS = new Set(["true", "false", "null"]);

/** Maps the language names used across the catalogue and the snippet generators to ours. */
export function normalizeLanguage(language: string): CodeLanguage | undefined {
	switch (language.toLowerCase()) {
		case "python":
		case "py":
			return "python";
		case "js":
		case "javascript":
		case "ts":
		case "typescript":
		case "node":
			return "js";
		case "sh":
		case "shell":
		case "bash":
		case "curl":
			return "sh";
		case "json":
			return "json";
		default:
			return undefined;
	}
}

const NUMBER_RE =
	/^(?:0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d+)?[jJnN]?)/;
const WORD_RE = /^[A-Za-z_$][\w$]*/;

class Scanner {
	readonly tokens: Token[] = [];
	pos = 0;
	constructor(readonly source: string) {}

	push(type: TokenType, end: number): void {
		if (end <= this.pos) return;
		const text = this.source.slice(this.pos, end);
		const last = this.tokens[this.tokens.length - 1];
		if (last && last.type === type) last.text += text;
		else this.tokens.push({ type, text });
		this.pos = end;
	}

	rest(): string {
		return this.source.slice(this.pos);
	}

	/** End of a quoted string starting at `pos`, honouring backslash escapes; stops at a newline when `singleLine`. */
	quotedEnd(quote: string, escapes: boolean, singleLine: boolean): number {
		const s = this.source;
		let i = this.pos + quote.length;
		while (i < s.length) {
			if (escapes && s[i] === "\\") {
				i += 2;
				continue;
			}
			if (s.startsWith(quote, i)) return i + quote.length;
			if (singleLine && s[i] === "\n") return i;
			i++;
		}
		return s.length;
	}

	lineEnd(): number {
		const i = this.source.indexOf("\n", this.pos);
		return i === -1 ? this.source.length : i;
	}
}

function isWordChar(char: string | undefined): boolean {
	return char !== undefined && /[\w$]/.test(char);
}

function scanWordOrNumber(sc: Scanner, keywords: Set<string>): boolean {
	const rest = sc.rest();
	const previous = sc.source[sc.pos - 1];
	if (!isWordChar(previous)) {
		const number = NUMBER_RE.exec(rest);
		if (number && number[0] !== "." && !isWordChar(rest[number[0].length])) {
			sc.push("number", sc.pos + number[0].length);
			return true;
		}
	}
	const word = WORD_RE.exec(rest);
	if (word) {
		const end = sc.pos + word[0].length;
		// A word glued to a preceding word character is part of a longer name (e.g. `x1if`): never a keyword.
		sc.push(keywords.has(word[0]) && !isWordChar(previous) ? "keyword" : "text", end);
		return true;
	}
	return false;
}

function tokenizePython(sc: Scanner): void {
	const s = sc.source;
	while (sc.pos < s.length) {
		const c = s[sc.pos] as string;
		if (c === "#") {
			sc.push("comment", sc.lineEnd());
			continue;
		}
		const prefix = /^(?:[rRbBuUfF]{1,2})?(?:'''|"""|'|")/.exec(sc.rest());
		if (prefix && !isWordChar(s[sc.pos - 1])) {
			const quoteStart = prefix[0].search(/['"]/);
			const quote = prefix[0].slice(quoteStart);
			const start = sc.pos;
			sc.pos += quoteStart;
			// Even in raw strings a backslash keeps the next quote from ending the literal.
			const end = sc.quotedEnd(quote, true, quote.length === 1);
			sc.pos = start;
			sc.push("string", end);
			continue;
		}
		if (scanWordOrNumber(sc, PYTHON_KEYWORDS)) continue;
		sc.push("text", sc.pos + 1);
	}
}

function tokenizeJs(sc: Scanner): void {
	const s = sc.source;
	while (sc.pos < s.length) {
		const c = s[sc.pos] as string;
		if (s.startsWith("//", sc.pos)) {
			sc.push("comment", sc.lineEnd());
			continue;
		}
		if (s.startsWith("/*", sc.pos)) {
			const end = s.indexOf("*/", sc.pos + 2);
			sc.push("comment", end === -1 ? s.length : end + 2);
			continue;
		}
		if (c === '"' || c === "'") {
			sc.push("string", sc.quotedEnd(c, true, true));
			continue;
		}
		if (c === "`") {
			sc.push("string", sc.quotedEnd("`", true, false));
			continue;
		}
		if (scanWordOrNumber(sc, JS_KEYWORDS)) continue;
		sc.push("text", sc.pos + 1);
	}
}

function tokenizeSh(sc: Scanner): void {
	const s = sc.source;
	while (sc.pos < s.length) {
		const c = s[sc.pos] as string;
		const previous = s[sc.pos - 1];
		if (c === "#" && (previous === undefined || /\s|;/.test(previous))) {
			sc.push("comment", sc.lineEnd());
			continue;
		}
		if (c === "'") {
			sc.push("string", sc.quotedEnd("'", false, false));
			continue;
		}
		if (c === '"') {
			sc.push("string", sc.quotedEnd('"', true, false));
			continue;
		}
		if (c === "\\") {
			sc.push("text", Math.min(s.length, sc.pos + 2));
			continue;
		}
		// Flags such as `-X` or `--data` and paths are words; only whole words can be keywords.
		const word = /^[\w$.\-/:=@%+,]+/.exec(sc.rest());
		if (word) {
			const text = word[0];
			const startOfCommand = previous === undefined || /[\s;|&(]/.test(previous);
			let type: TokenType = "text";
			if (startOfCommand && SH_KEYWORDS.has(text)) type = "keyword";
			else if (startOfCommand && /^\d+(?:\.\d+)?$/.test(text)) type = "number";
			sc.push(type, sc.pos + text.length);
			continue;
		}
		sc.push("text", sc.pos + 1);
	}
}

function tokenizeJson(sc: Scanner): void {
	const s = sc.source;
	while (sc.pos < s.length) {
		const c = s[sc.pos] as string;
		if (c === '"') {
			sc.push("string", sc.quotedEnd('"', true, true));
			continue;
		}
		if (c === "-" && /\d/.test(s[sc.pos + 1] ?? "")) {
			const number = NUMBER_RE.exec(s.slice(sc.pos + 1));
			sc.push("number", sc.pos + 1 + (number?.[0].length ?? 0));
			continue;
		}
		if (scanWordOrNumber(sc, JSON_KEYWORDS)) continue;
		sc.push("text", sc.pos + 1);
	}
}

/** Splits `code` into typed tokens; unknown languages give one plain-text token. */
export function tokenize(code: string, language: CodeLanguage | string): Token[] {
	const sc = new Scanner(code);
	const lang = normalizeLanguage(language);
	switch (lang) {
		case "python":
			tokenizePython(sc);
			break;
		case "js":
			tokenizeJs(sc);
			break;
		case "sh":
			tokenizeSh(sc);
			break;
		case "json":
			tokenizeJson(sc);
			break;
		default:
			sc.push("text", code.length);
	}
	return sc.tokens;
}
