import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ADVERSARIAL_TEXTS, bashSyntaxErrors } from "./parsers.js";

/** `bash -n` itself on one snippet: whether it passes. */
function bashN(dir: string, code: string, index: number): boolean {
	const file = join(dir, `${index}.sh`);
	writeFileSync(file, code);
	try {
		execFileSync("bash", ["-n", file], { stdio: "pipe" });
		return true;
	} catch {
		return false;
	}
}

const VALID = [
	"",
	"# only a comment",
	"echo hi",
	"echo }",
	"echo hi # a comment on the last line",
	'llama-server -hf "org/model:Q4_K_M" --port 8080 | cat',
	"cd build && cmake .. -DGGML_CUDA=ON\nmake -j",
	'if [ -n "$HF_TOKEN" ]; then\n  echo set\nfi',
	'for f in a b; do echo "$f"; done',
	"cat <<'EOF'\n{ \"a\": 1 }\n}\nEOF",
	"cat <<-EOF\n\tindented $HOME\n\tEOF",
	"exit 1",
	"return 0",
	"f() { echo in; }\nf",
	"echo '}' \"{\" \\}",
	'x=$(printf \'%s\' "a b")\necho "$x"',
	"echo `date`",
	"docker run --gpus all \\\n  -p 8000:8000 \\\n  vllm/vllm-openai --model 'a/b'",
	"case $1 in a) echo a;; *) echo other;; esac",
	"(cd x; ls)",
	"{ echo grouped; }",
	"[[ $x == *.gguf ]] && echo yes",
	"echo $'\\x41'",
	...ADVERSARIAL_TEXTS.filter((text) => !text.includes("\0")).map(
		(text) => `echo '${text.replace(/'/g, "'\\''")}'`,
	),
];

const INVALID = [
	"echo 'unterminated",
	'echo "unterminated',
	"if true; then echo x",
	"for x in a; echo $x; done",
	"echo {; }",
	"}",
	"fi",
	"done",
	"echo (",
	"echo )",
	"a && ",
	"| cat",
	"case x in",
	"echo $(",
	"f() {",
	"cmd <<",
	"echo `unterminated",
	// bash reads a file with a NUL byte as a binary, not as a script.
	"echo 'a\0b'",
];

describe("bashSyntaxErrors", () => {
	const dir = mkdtempSync(join(tmpdir(), "modelhub-bash-n-"));
	afterAll(() => rmSync(dir, { recursive: true, force: true }));

	it("gives bash -n's verdict on every snippet, valid and invalid, in one batch", () => {
		const snippets = [...VALID, ...INVALID];
		const verdicts = bashSyntaxErrors(snippets);
		expect(verdicts).toHaveLength(snippets.length);
		snippets.forEach((code, index) => {
			expect(verdicts[index] === null, JSON.stringify(code)).toBe(bashN(dir, code, index));
		});
		// The corpus holds both kinds, so agreeing with bash -n means something.
		expect(verdicts.slice(0, VALID.length).every((verdict) => verdict === null)).toBe(true);
		expect(verdicts.slice(VALID.length).every((verdict) => verdict !== null)).toBe(true);
	});

	it("says what bash found wrong", () => {
		const [verdict] = bashSyntaxErrors(["if true; then echo x"]);
		expect(verdict).toMatch(/syntax error|unexpected end of file/);
	});

	it("does not run anything it checks", () => {
		const marker = join(dir, "ran");
		expect(bashSyntaxErrors([`touch '${marker}'`, `echo x > '${marker}'`])).toEqual([null, null]);
		expect(() => execFileSync("test", ["-e", marker])).toThrow();
	});
});
