/**
 * Real parsers for generated snippets: python3's `ast`, `bash -n`, and acorn for ES modules. Batches
 * go to one python3 process and one bash process so that suites with thousands of snippets stay fast.
 */
import { execFileSync, spawn, spawnSync, type ChildProcessWithoutNullStreams } from "node:child_process";
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

/**
 * One python3 process that parses batch after batch for a whole test file (a line of JSON each way), for
 * suites whose snippets are made inside each test: a python3 start per check took seconds at CI load.
 * `close()` it after the file's tests (afterAll).
 */
export class PythonParser {
	readonly #child: ChildProcessWithoutNullStreams;
	readonly #waiting: Array<{ resolve: (results: ParseResult[]) => void; reject: (error: Error) => void }> =
		[];
	readonly #exited: Promise<void>;
	#stdout = "";
	#stderr = "";
	#failure: Error | undefined;

	constructor() {
		this.#child = spawn("python3", [join(here, "parse_snippets.py"), "--lines"], { stdio: "pipe" });
		this.#child.stdout.setEncoding("utf8");
		this.#child.stderr.setEncoding("utf8");
		this.#child.stdout.on("data", (chunk: string) => {
			this.#stdout += chunk;
			for (let end = this.#stdout.indexOf("\n"); end >= 0; end = this.#stdout.indexOf("\n")) {
				const line = this.#stdout.slice(0, end);
				this.#stdout = this.#stdout.slice(end + 1);
				this.#waiting.shift()?.resolve(JSON.parse(line) as ParseResult[]);
			}
		});
		this.#child.stderr.on("data", (chunk: string) => {
			this.#stderr += chunk;
		});
		this.#exited = new Promise((resolve) => {
			const fail = (reason: string) => {
				this.#failure ??= new Error(`python3 parse_snippets.py ${reason}: ${this.#stderr.trim()}`);
				for (const waiting of this.#waiting.splice(0)) waiting.reject(this.#failure);
				resolve();
			};
			this.#child.once("error", (error) => fail(`could not start (${error.message})`));
			this.#child.once("close", (code, signal) => fail(`exited (${signal ?? code})`));
		});
		// A write after the process died would throw asynchronously; the waiting checks get the exit instead.
		this.#child.stdin.on("error", () => {});
	}

	/** Each item parsed by its language, as `parseBatch` does, in this file's one python3 process. */
	parse(items: Array<{ lang: "python" | "shell-words"; code: string }>): Promise<ParseResult[]> {
		if (items.length === 0) return Promise.resolve([]);
		if (this.#failure) return Promise.reject(this.#failure);
		return new Promise((resolve, reject) => {
			this.#waiting.push({ resolve, reject });
			this.#child.stdin.write(`${JSON.stringify(items)}\n`);
		});
	}

	/** Each snippet parsed with python3 `ast.parse`, as `parsePython` does. */
	python(snippets: string[]): Promise<ParseResult[]> {
		return this.parse(snippets.map((code) => ({ lang: "python", code })));
	}

	/** Ends the process once it has answered what was asked. */
	async close(): Promise<void> {
		this.#child.stdin.end();
		await this.#exited;
	}
}

/** What bashSyntaxErrors' batch marks a snippet `eval` refused (bash -n then says why). */
const REFUSED = "refused by eval";

/** `bash -n` on one file: null, or what bash said. */
function bashN(file: string): string | null {
	const run = spawnSync("bash", ["-n", file], { encoding: "utf8" });
	return run.status === 0 ? null : run.stderr.trim().replace(/\s*\n\s*/g, " ") || `exit ${run.status}`;
}

/**
 * `bash -n`'s verdict on each snippet: null, or the error bash gives. One bash process checks them all, as
 * bash -n in a process per snippet costs a fork and exec each (~15 ms on the CI machine, and a test
 * file checks up to 1,700 snippets): each snippet becomes the body of a function that bash parses with
 * `eval` and never calls (a `:` first, as a body must hold a command and an empty snippet is valid). A
 * snippet refused that way, or one bash gives up the whole process on (an unclosed `$(`), is checked with
 * `bash -n` itself, so every error is bash -n's own. test-support/parsers.test.ts compares the verdicts.
 */
export function bashSyntaxErrors(snippets: string[]): Array<string | null> {
	if (snippets.length === 0) return [];
	const dir = mkdtempSync(join(tmpdir(), "modelhub-sh-"));
	const file = (index: number) => join(dir, `${index}.sh`);
	try {
		snippets.forEach((code, index) => writeFileSync(file(index), code));
		// null: parsed; a string: bash -n's error; "refused": to ask bash -n; undefined: not reached yet.
		const results: Array<string | null | undefined> = snippets.map(() => undefined);
		for (let next = 0; next < snippets.length;) {
			// Only builtins in the loop: `mapfile -d ''` reads a whole file.
			const script = [
				`for ((i = ${next}; i < ${snippets.length}; i++)); do`,
				`  mapfile -d '' code < "${dir}/$i.sh"`,
				`  if eval $'__modelhub_check() {\n:\n'"\${code[0]}"$'\n}' 2>/dev/null; then echo "$i OK"; else echo "$i ERR"; fi`,
				"  unset -f __modelhub_check",
				"done",
			].join("\n");
			const run = spawnSync("bash", ["--norc", "--noprofile", "-c", script], {
				encoding: "utf8",
				maxBuffer: 64 * 1024 * 1024,
			});
			for (const line of run.stdout.split("\n")) {
				const match = /^(\d+) (OK|ERR)$/.exec(line);
				if (match) results[Number(match[1])] = match[2] === "OK" ? null : REFUSED;
			}
			const stopped = results.findIndex((result, index) => index >= next && result === undefined);
			if (stopped < 0) break;
			results[stopped] = bashN(file(stopped));
			next = stopped + 1;
		}
		// bash reads a file holding a NUL byte as a binary, not a script (bash -n: "cannot execute binary
		// file"); `eval` never sees one, so those are bash -n's alone too.
		return results.map((result, index) =>
			result === REFUSED || (result === null && snippets[index]!.includes("\0"))
				? bashN(file(index))
				: (result ?? null),
		);
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
