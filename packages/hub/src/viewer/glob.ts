/**
 * Glob patterns as the `datasets` library resolves `data_files` (fsspec's glob): `*` and `?` stay within
 * one path segment, `**` crosses segments (`a/**` also matches `a` itself's files below it), `[…]` is a
 * class (`[!…]` negated). Matched by dynamic programming over (path, pattern) positions, so a hostile
 * card's pattern costs at most path length × pattern length steps, never a backtracking explosion.
 */

type Token =
	| { kind: "literal"; char: string }
	| { kind: "any" } // ?
	| { kind: "star" } // *
	| { kind: "globstar"; segments: boolean } // ** (`segments`: `**/`, whole segments only)
	| { kind: "class"; negated: boolean; test: (char: string) => boolean };

/** Longest pattern read (a card's data_files pattern); longer ones match nothing. */
export const MAX_PATTERN_CHARS = 1024;

function parseClass(pattern: string, start: number): { token: Token; next: number } | undefined {
	let index = start + 1;
	let negated = false;
	if (pattern[index] === "!" || pattern[index] === "^") {
		negated = true;
		index += 1;
	}
	const ranges: Array<[string, string]> = [];
	let first = true;
	while (index < pattern.length && (pattern[index] !== "]" || first)) {
		const low = pattern[index] as string;
		if (pattern[index + 1] === "-" && index + 2 < pattern.length && pattern[index + 2] !== "]") {
			ranges.push([low, pattern[index + 2] as string]);
			index += 3;
		} else {
			ranges.push([low, low]);
			index += 1;
		}
		first = false;
	}
	if (index >= pattern.length) return undefined;
	const test = (char: string): boolean => char !== "/" && ranges.some(([a, b]) => char >= a && char <= b);
	return { token: { kind: "class", negated, test }, next: index + 1 };
}

function tokenize(pattern: string): Token[] {
	const tokens: Token[] = [];
	let index = 0;
	while (index < pattern.length) {
		const char = pattern[index] as string;
		if (char === "*") {
			if (pattern[index + 1] === "*") {
				index += 2;
				// `**/` is one token: zero or more whole segments.
				const segments = pattern[index] === "/";
				if (segments) index += 1;
				tokens.push({ kind: "globstar", segments });
			} else {
				index += 1;
				tokens.push({ kind: "star" });
			}
		} else if (char === "?") {
			tokens.push({ kind: "any" });
			index += 1;
		} else if (char === "[") {
			const parsed = parseClass(pattern, index);
			if (parsed) {
				tokens.push(parsed.token);
				index = parsed.next;
			} else {
				tokens.push({ kind: "literal", char });
				index += 1;
			}
		} else {
			tokens.push({ kind: "literal", char });
			index += 1;
		}
	}
	return tokens;
}

/** A matcher for one pattern (compile once, test many paths). */
export function globMatcher(pattern: string): (path: string) => boolean {
	if (pattern.length > MAX_PATTERN_CHARS) return () => false;
	const tokens = tokenize(pattern.replace(/^\.?\//, ""));
	return (path) => {
		// reachable[t]: the pattern's first t tokens can match the path's first i characters.
		let reachable = new Uint8Array(tokens.length + 1);
		reachable[0] = 1;
		// A star may stop anywhere; `**/` only at the start of a segment (after a `/`, or at the start).
		const closeEmpty = (row: Uint8Array, position: number): void => {
			const atSegmentStart = position === 0 || path[position - 1] === "/";
			for (let t = 0; t < tokens.length; t += 1) {
				const token = tokens[t] as Token;
				if (!row[t]) continue;
				if (token.kind === "star" || (token.kind === "globstar" && (!token.segments || atSegmentStart)))
					row[t + 1] = 1;
			}
		};
		closeEmpty(reachable, 0);
		for (let i = 0; i < path.length; i += 1) {
			const char = path[i] as string;
			const next = new Uint8Array(tokens.length + 1);
			for (let t = 0; t < tokens.length; t += 1) {
				if (!reachable[t]) continue;
				const token = tokens[t] as Token;
				switch (token.kind) {
					case "literal":
						if (token.char === char) next[t + 1] = 1;
						break;
					case "any":
						if (char !== "/") next[t + 1] = 1;
						break;
					case "class":
						if (char !== "/" && token.test(char) !== token.negated) next[t + 1] = 1;
						break;
					case "star":
						if (char !== "/") next[t] = 1;
						break;
					case "globstar":
						next[t] = 1;
						break;
				}
			}
			closeEmpty(next, i + 1);
			reachable = next;
		}
		return reachable[tokens.length] === 1;
	};
}
