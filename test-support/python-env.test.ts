/** The Python environment holds the pinned real client libraries, importable at those versions. */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { pythonEnv } from "./python-env.js";

describe("python test environment", () => {
	it("imports huggingface_hub, openai and requests at the pinned versions", () => {
		const env = pythonEnv();
		const out = execFileSync(
			env.python,
			[
				"-c",
				"import json, huggingface_hub, openai, requests; print(json.dumps([huggingface_hub.__version__, openai.__version__, requests.__version__]))",
			],
			{ encoding: "utf8" },
		);
		expect(JSON.parse(out)).toEqual([
			env.versions["huggingface-hub"],
			env.versions.openai,
			env.versions.requests,
		]);
		expect(env.versions["huggingface-hub"]).toMatch(/^2\./);
	});
});
