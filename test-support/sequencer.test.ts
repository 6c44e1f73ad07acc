import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { declaredSeconds, mayUsePython, startOrder } from "./sequencer.js";

const root = join(import.meta.dirname, "..");
const at = (path: string): string => join(root, path);

describe("the test order while the Python environments are made", () => {
	it("counts a file as using Python when it or a module it imports names Python, and no other", () => {
		// Itself: runs snippets with the real Python clients.
		expect(mayUsePython(at("packages/hub/test/snippets.test.ts"))).toBe(true);
		// Through the suites it imports (support/hf-client-suite.ts runs huggingface_hub).
		expect(mayUsePython(at("packages/hub/test/postgres.test.ts"))).toBe(true);
		// Browser and CLI files that never start Python.
		expect(mayUsePython(at("apps/web/e2e/app.test.ts"))).toBe(false);
		expect(mayUsePython(at("packages/hub/test/process.test.ts"))).toBe(false);
	});

	it("starts the longest files first, a file without a figure before them, Python files last while made", () => {
		const files = [
			"packages/hub/test/snippets.test.ts",
			"apps/web/e2e/app.test.ts",
			"test-support/shell-run.test.ts",
			"packages/hub/test/postgres.test.ts",
			"packages/hub/test/process.test.ts",
		].map(at);
		const seconds = {
			"packages/hub/test/snippets.test.ts": 5,
			"apps/web/e2e/app.test.ts": 10,
			"packages/hub/test/postgres.test.ts": 50,
			"packages/hub/test/process.test.ts": 100,
		};
		const order = (pythonLast: boolean) =>
			startOrder(files, { seconds, pythonLast }).map((file) => file.slice(root.length + 1));
		expect(order(true)).toEqual([
			"test-support/shell-run.test.ts",
			"packages/hub/test/process.test.ts",
			"apps/web/e2e/app.test.ts",
			"packages/hub/test/postgres.test.ts",
			"packages/hub/test/snippets.test.ts",
		]);
		expect(order(false)).toEqual([
			"test-support/shell-run.test.ts",
			"packages/hub/test/process.test.ts",
			"packages/hub/test/postgres.test.ts",
			"apps/web/e2e/app.test.ts",
			"packages/hub/test/snippets.test.ts",
		]);
	});

	it("with the declared figures, the longest Python file starts first of the Python files", () => {
		const seconds = declaredSeconds();
		const files = Object.keys(seconds).filter((file) => existsSync(at(file)));
		expect(files.length).toBeGreaterThan(100);
		const order = startOrder(files.map(at), { seconds, pythonLast: true });
		const python = order.filter((file) => mayUsePython(file)).map((file) => file.slice(root.length + 1));
		const longest = Math.max(...python.map((file) => seconds[file]!));
		expect(seconds[python[0]!]).toBe(longest);
		// And no Python file before the last of the others.
		expect(order.slice(-python.length).map((file) => file.slice(root.length + 1))).toEqual(python);
	});
});
