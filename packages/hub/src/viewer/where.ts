/**
 * Checks `/filter`'s `where` and `orderby` before they reach the engine, in one linear pass over
 * tokens (no backtracking regular expression). What passes is what the public viewer accepts
 * (dataset-viewer `services/search/routes/filter.py`): columns as double-quoted names (sub-columns with
 * `.`, an optional `.function(literals)`), literals (numbers, 'strings', true, false, null), comparison
 * operators, LIKE / ILIKE / GLOB / SIMILAR TO / IS / NOT, AND / OR and parentheses; `orderby` is a
 * column with an optional ASC or DESC. No other word can appear, so no subquery or table function can;
 * the engine also runs sandboxed to the split's own files (engine.ts).
 */

/** Longest `where` or `orderby` read (characters). */
export const MAX_CLAUSE_CHARS = 4096;

type Token =
	| { kind: "column"; text: string }
	| { kind: "literal"; text: string }
	| { kind: "operator"; text: string }
	| { kind: "word"; text: string }
	| { kind: "open" | "close" | "comma" | "dot" };

function tokenize(text: string): Token[] | undefined {
	const tokens: Token[] = [];
	let index = 0;
	while (index < text.length) {
		const char = text[index] as string;
		if (char === " " || char === "\t" || char === "\n") {
			index += 1;
		} else if (char === '"' || char === "'") {
			let end = index + 1;
			for (;;) {
				const close = text.indexOf(char, end);
				if (close < 0) return undefined;
				if (text[close + 1] === char) end = close + 2;
				else {
					end = close + 1;
					break;
				}
			}
			const quoted = text.slice(index, end);
			if (char === '"' && quoted.length <= 2) return undefined;
			tokens.push({ kind: char === '"' ? "column" : "literal", text: quoted });
			index = end;
		} else if (/[0-9]/.test(char)) {
			let end = index;
			while (end < text.length && /[0-9.]/.test(text[end] as string)) end += 1;
			tokens.push({ kind: "literal", text: text.slice(index, end) });
			index = end;
		} else if (/[=<>!~*]/.test(char)) {
			let end = index;
			while (end < text.length && /[=<>!~*]/.test(text[end] as string)) end += 1;
			tokens.push({ kind: "operator", text: text.slice(index, end) });
			index = end;
		} else if (/[A-Za-z_]/.test(char)) {
			let end = index;
			while (end < text.length && /[A-Za-z_]/.test(text[end] as string)) end += 1;
			tokens.push({ kind: "word", text: text.slice(index, end) });
			index = end;
		} else if (char === "(") {
			tokens.push({ kind: "open" });
			index += 1;
		} else if (char === ")") {
			tokens.push({ kind: "close" });
			index += 1;
		} else if (char === ",") {
			tokens.push({ kind: "comma" });
			index += 1;
		} else if (char === ".") {
			tokens.push({ kind: "dot" });
			index += 1;
		} else return undefined;
	}
	return tokens;
}

/**
 * Reads a column reference at `start`: `"a"`, `"a"."b"`, each optionally followed by
 * `.function(literal, …)`. Returns the index after it, or -1.
 */
function column(tokens: Token[], start: number): number {
	let index = start;
	if (tokens[index]?.kind !== "column") return -1;
	index += 1;
	while (tokens[index]?.kind === "dot") {
		const next = tokens[index + 1];
		if (next?.kind === "column") {
			index += 2;
			continue;
		}
		// `.function(…)`: a lowercase name and literal arguments only.
		if (next?.kind !== "word" || !/^[a-z_]+$/.test(next.text) || tokens[index + 2]?.kind !== "open")
			return -1;
		index += 3;
		while (tokens[index]?.kind === "literal" || tokens[index]?.kind === "comma") index += 1;
		if (tokens[index]?.kind !== "close") return -1;
		index += 1;
	}
	return index;
}

function isWord(token: Token | undefined, ...words: string[]): boolean {
	return token?.kind === "word" && words.includes(token.text.toLowerCase());
}

/** Whether `where` is a condition the viewer runs. */
export function isValidWhere(where: string): boolean {
	if (where.length > MAX_CLAUSE_CHARS || /;|--|\/\*|\*\//.test(where)) return false;
	const tokens = tokenize(where);
	if (!tokens || tokens.length === 0) return false;
	let depth = 0;
	let index = 0;
	// expression := "("* column comparison value ")"* ((AND|OR) expression)*
	for (;;) {
		while (tokens[index]?.kind === "open") {
			depth += 1;
			index += 1;
		}
		index = column(tokens, index);
		if (index < 0) return false;
		let operators = 0;
		while (
			tokens[index]?.kind === "operator" ||
			isWord(tokens[index], "not", "is", "like", "ilike", "glob", "similar", "to")
		) {
			operators += 1;
			index += 1;
		}
		if (operators === 0) return false;
		const value = tokens[index];
		if (!(value?.kind === "literal" || isWord(value, "null", "true", "false"))) return false;
		index += 1;
		while (tokens[index]?.kind === "close") {
			depth -= 1;
			if (depth < 0) return false;
			index += 1;
		}
		if (index === tokens.length) return depth === 0;
		if (!isWord(tokens[index], "and", "or")) return false;
		index += 1;
	}
}

/** Whether `orderby` is one or more columns, each with an optional ASC or DESC. */
export function isValidOrderBy(orderby: string): boolean {
	if (orderby.length > MAX_CLAUSE_CHARS || /;|--|\/\*|\*\//.test(orderby)) return false;
	const tokens = tokenize(orderby);
	if (!tokens || tokens.length === 0) return false;
	let index = 0;
	for (;;) {
		index = column(tokens, index);
		if (index < 0) return false;
		if (isWord(tokens[index], "asc", "desc")) index += 1;
		if (index === tokens.length) return true;
		if (tokens[index]?.kind !== "comma") return false;
		index += 1;
	}
}
