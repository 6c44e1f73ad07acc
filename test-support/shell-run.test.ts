import { describe, expect, it } from "vitest";
import { recordShellCommands } from "./shell-run.js";

describe("recordShellCommands", () => {
	it("records the argument vectors bash builds, and starts no program", () => {
		const [plain, injected, pathCommand, broken] = recordShellCommands(
			[
				"# a comment\ncurl http://localhost:8080/v1 \\\n\t--data 'it'\\''s {\"a\": 1}'\nX=1\necho \"$X\"",
				// What an unquoted id would do: bash runs the substitution, which the log shows.
				"ollama run hf.co/$(whoami)/`id -u`",
				"./llama-server -hf a/b:Q4_K_M\ncd nowhere\nhf download ~/x",
				"curl 'unterminated",
			],
			["./llama-server"],
		);
		expect(plain).toEqual([["curl", "http://localhost:8080/v1", "--data", `it's {"a": 1}`]]);
		expect(injected?.map((command) => command[0])).toEqual(["whoami", "id", "ollama"]);
		expect(pathCommand).toEqual([
			["./llama-server", "-hf", "a/b:Q4_K_M"],
			["hf", "download", expect.stringMatching(/modelhub-shell-run-.*\/x$/)],
		]);
		expect(broken).toEqual([]);
	});

	it("keeps each command whole when both sides of a pipeline record at once", () => {
		// Before each record was one write, about one run in three of this interleaved two records.
		const code = Array.from(
			{ length: 300 },
			(_, i) => `curl https://example.com/${i}.sh | sh -s -- ${i}`,
		).join("\n");
		const [commands] = recordShellCommands([code]);
		const curls = commands!.filter((command) => command[0] === "curl");
		const shells = commands!.filter((command) => command[0] === "sh");
		expect(commands).toHaveLength(600);
		expect(curls.map((command) => command.length)).toEqual(Array(300).fill(2));
		expect(shells.map((command) => command.length)).toEqual(Array(300).fill(4));
	});
});
