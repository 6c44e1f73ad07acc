import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { mayUsePython } from "./sequencer.js";

const root = join(import.meta.dirname, "..");

describe("the test order while the Python environments are made", () => {
	it("counts a file as using Python when it or a module it imports names Python, and no other", () => {
		// Itself: runs snippets with the real Python clients.
		expect(mayUsePython(join(root, "packages/hub/test/snippets.test.ts"))).toBe(true);
		// Through the suites it imports (support/hf-client-suite.ts runs huggingface_hub).
		expect(mayUsePython(join(root, "packages/hub/test/postgres.test.ts"))).toBe(true);
		// Browser and CLI files that never start Python.
		expect(mayUsePython(join(root, "apps/web/e2e/app.test.ts"))).toBe(false);
		expect(mayUsePython(join(root, "packages/hub/test/process.test.ts"))).toBe(false);
	});
});
