/**
 * Real parsers for generated snippets: python3's `ast`, `bash -n`, and acorn for ES modules. Batches
 * go to one python3 process and one bash process so that suites with thousands of snippets stay fast.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "acorn";
import { simple as walkSimple } from "acorn-walk";

/**
 * `strings`: the literal string values found. `shape`: the code's structure with every string value
 * blanked (Python and JS syntax trees; shell word / operator sequence), so two outputs that differ only
 * inside literals have the same shape.
 */
export type ParseResult = { ok: true; strings: string[]; shape?: string } | { ok: false; error: string };

const here = dirname(fileURLToPath(import.meta.url));

function runPython(items: Array<{ lang: string; code: string }>): ParseResult[] {
	if (items.length === 0) return [];
	const output = execFileSync("python3", [join(here, "parse_snippets.py")], {
		input: JSON.stringify(items),
		maxBuffer: 256 * 1024 * 1024,
	});
	return JSON.parse(output.toString("utf8")) as ParseResult[];
}

/**
 * One python3 process for a mixed batch: `python` items are parsed with `ast` (their str constants come
 * back), `shell-words` items are split with POSIX `shlex` rules.
 */
export function parseBatch(items: Array<{ lang: "python" | "shell-words"; code: string }>): ParseResult[] {
	return runPython(items);
}

/** Parses each snippet with python3 `ast.parse`; returns the str constants found in each. */
export function parsePython(snippets: string[]): ParseResult[] {
	return runPython(snippets.map((code) => ({ lang: "python", code })));
}

/** Splits each shell snippet into words with POSIX rules (python3 shlex), for round-trip checks. */
export function shellWords(snippets: string[]): ParseResult[] {
	return runPython(snippets.map((code) => ({ lang: "shell-words", code })));
}

/** Runs `bash -n` on each snippet (one bash process for the batch); returns null or the error text. */
export function bashSyntaxErrors(snippets: string[]): Array<string | null> {
	if (snippets.length === 0) return [];
	const dir = mkdtempSync(join(tmpdir(), "modelhub-sh-"));
	try {
		snippets.forEach((code, index) => writeFileSync(join(dir, `${index}.sh`), code));
		const script = `for i in $(seq 0 ${snippets.length - 1}); do if err=$(bash -n "${dir}/$i.sh" 2>&1); then echo "$i OK"; else printf '%s ERR %s\\n' "$i" "$(printf '%s' "$err" | tr '\\n' ' ')"; fi; done`;
		const lines = execFileSync("bash", ["-c", script], { maxBuffer: 64 * 1024 * 1024 })
			.toString("utf8")
			.trim()
			.split("\n");
		const results: Array<string | null> = snippets.map(() => "no result");
		for (const line of lines) {
			const match = /^(\d+) (OK|ERR)(?: (.*))?$/.exec(line);
			if (match) results[Number(match[1])] = match[2] === "OK" ? null : (match[3] ?? "error");
		}
		return results;
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

/** The syntax tree without positions, raw text or string values (a template without holes counts as a string). */
function jsShape(node: unknown): unknown {
	if (Array.isArray(node)) return node.map(jsShape);
	if (node === null || typeof node !== "object") return node;
	const record = node as Record<string, unknown>;
	if (record.type === "Literal" && typeof record.value === "string") return "string";
	if (
		record.type === "TemplateLiteral" &&
		Array.isArray(record.expressions) &&
		record.expressions.length === 0
	)
		return "string";
	if (record.type === "TemplateElement") return "quasi";
	const out: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(record)) {
		if (key === "start" || key === "end" || key === "raw" || key === "loc" || key === "range") continue;
		out[key] = jsShape(value);
	}
	return out;
}

/** Parses a snippet as an ES module (acorn, latest syntax); returns its string literal values and shape. */
export function parseJsModule(code: string): ParseResult {
	try {
		const ast = parse(code, { ecmaVersion: "latest", sourceType: "module", allowAwaitOutsideFunction: true });
		const strings: string[] = [];
		walkSimple(ast, {
			Literal(node) {
				if (typeof node.value === "string") strings.push(node.value);
			},
			TemplateElement(node) {
				if (typeof node.value.cooked === "string") strings.push(node.value.cooked);
			},
		});
		return { ok: true, strings, shape: JSON.stringify(jsShape(ast)) };
	} catch (error) {
		return { ok: false, error: (error as Error).message };
	}
}

/** Adversarial strings that must survive any literal builder: quotes, escapes, substitutions, unicode. */
export const ADVERSARIAL_TEXTS: readonly string[] = [
	`it's "quoted"`,
	"back\\slash\\",
	"new\nline\r\nand\ttab",
	"${process.exit(1)}",
	"$(rm -rf /tmp/x)",
	"`whoami`",
	"'; import os; os.system('x'); '",
	"\"\"\"triple\"\"\" and '''triple'''",
	"unicode: café 東京 🤗 \u2028 \u2029 \u0085",
	"nul\u0000char and \u001b[31mansi",
	"{{GGUF_FILE}} %s %d {0}",
	"</script><script>alert(1)</script>",
	"-rf",
	"",
];
