/** The shell shape used by the library confinement check follows bash's quoting rules. */
import { describe, expect, it } from "vitest";
import { shellShape } from "./library-checks.js";

describe("shellShape", () => {
	it("counts words and keeps unquoted operators and newlines", () => {
		expect(shellShape("hf download acme/x && echo done | wc -l\nls")).toBe("w w w && w w | w w nl w");
	});

	it("sees through quotes: operators, newlines and substitutions inside single quotes are text", () => {
		expect(shellShape("echo 'a; b\n$(rm -rf /)' x")).toBe(shellShape("echo 'plain' x"));
		expect(shellShape("echo 'it'\\''s' x")).toBe("w w w");
		expect(shellShape("echo $'a\\'b;c' x")).toBe("w w w");
	});

	it("reports substitutions bash would run: unquoted or inside double quotes", () => {
		expect(shellShape("echo $(whoami)")).toBe("w w $ ( w )");
		expect(shellShape('echo "x $(whoami) `id` ${HOME}"')).toBe("w w $ $ $");
		expect(shellShape('echo "x \\$(whoami) \\`id\\`"')).toBe("w w");
	});

	it("drops comments and joins continued lines", () => {
		expect(shellShape("ls # a; b $(c)\npwd")).toBe("w nl w");
		expect(shellShape("hf download \\\n  acme/x")).toBe("w w w");
	});

	it("an unquoted value that breaks out changes the shape", () => {
		const safe = (value: string) => `hf download '${value.replaceAll("'", "'\\''")}'`;
		const unsafe = (value: string) => `hf download ${value}`;
		const evil = "x; rm -rf ~";
		expect(shellShape(safe(evil))).toBe(shellShape(safe("plain")));
		expect(shellShape(unsafe(evil))).not.toBe(shellShape(unsafe("plain")));
	});
});
