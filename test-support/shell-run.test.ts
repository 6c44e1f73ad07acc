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
});
