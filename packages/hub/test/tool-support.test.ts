// The git and S3 suites' support fails at once with one line saying what to install when the tool it
// runs is missing (as the browser suites do for Chromium: apps/web/e2e/browser-support.test.ts).
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { gitMissing } from "./support/git.js";
import { motoMissing, startLocalS3 } from "./support/s3.js";

describe("the git suites' support", () => {
	it("finds git and git-lfs on this machine", async () => {
		expect(await gitMissing()).toBeUndefined();
	});

	it("says in one line to install git and git-lfs when git is missing", async () => {
		expect(await gitMissing("/nonexistent/git")).toBe(
			"git not found (/nonexistent/git): the git suites run the real git and git-lfs; install them with `apt-get install git git-lfs` (or run .ci/run, which does)",
		);
	});

	it("says so when git is there but git-lfs is not", async () => {
		// A PATH holding git alone: `git lfs` finds no git-lfs.
		const dir = mkdtempSync(join(tmpdir(), "modelhub-nolfs-"));
		try {
			const git = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
			symlinkSync(git, join(dir, "git"));
			expect(await gitMissing("git", dir)).toBe(
				"git-lfs not found (`git lfs` fails): the git suites run the real git and git-lfs; install them with `apt-get install git git-lfs` (or run .ci/run, which does)",
			);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});

describe("the S3 suites' support", () => {
	it("finds moto's server in this machine's python3", async () => {
		expect(await motoMissing()).toBeUndefined();
	});

	it("says in one line to install moto when python3 cannot import it", async () => {
		// -S: no site-packages, as on a python3 without moto.
		expect(await motoMissing("python3", ["-S"])).toBe(
			"python3 cannot import moto's server (the S3 tests run moto in server mode): install it with `python3 -m pip install 'moto[server]'`",
		);
		expect(await motoMissing("/nonexistent/python3")).toBe(
			"/nonexistent/python3 not found: the S3 tests run moto in server mode under python3; install python3 (`apt-get install python3`), then moto: install it with `python3 -m pip install 'moto[server]'`",
		);
	});

	it("starts the server when moto is there", async () => {
		const s3 = await startLocalS3();
		expect(s3.version).toMatch(/^\d+\./);
		await s3.stop();
	});
});
