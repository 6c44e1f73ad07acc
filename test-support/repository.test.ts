/**
 * The repository stands alone: no tracked file refers to a folder beside the checkout. A fresh clone
 * with nothing next to it must build and pass its tests (`.ci/run` does exactly that).
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" })
	.split("\0")
	.filter((path) => /\.(c?[jt]sx?|mjs|py|sh|json)$/.test(path) || path.startsWith(".ci/"));

describe("the repository stands alone", () => {
	it("no tracked script, test or config points outside the checkout", () => {
		// Built from parts so that this file does not match its own patterns.
		const parent = "shared";
		const facts = "reference";
		const folder = [parent, facts];
		const outside = [
			new RegExp(`\\.\\./${folder[0]}\\b`),
			new RegExp(`${folder[0]}/${folder[1]}`),
			new RegExp(`"${folder[0]}", *"${folder[1]}"`),
			new RegExp(`"\\.\\.", "\\.\\.", "${folder[0]}"`),
		];
		const offenders = tracked.filter((path) => {
			const text = readFileSync(join(root, path), "utf8");
			return outside.some((pattern) => pattern.test(text));
		});
		expect(tracked.length).toBeGreaterThan(100);
		expect(offenders).toEqual([]);
	});
});
