/**
 * The Xet mark in a repository's file list (issue 22 leftover): a file uploaded by the real hf_xet client
 * (huggingface_hub 2.x in the test environment, Xet by default) is kept as a recipe, so the tree answer
 * says `xetStored: true` and the files tab shows "Xet" beside "LFS"; a file uploaded through the LFS
 * transfer (HF_HUB_DISABLE_XET=1) shows "LFS" only. Debian's Chromium against the real hub.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pythonEnv } from "../../../test-support/python-env";
import { launchBrowser, watchErrors, type Browser } from "./support/browser";
import { noiseBytes } from "./support/bytes";
import { startHub, type RunningHub } from "./support/hub";
import { hubJson, visitPage } from "./support/session";

const ADMIN_TOKEN = "xet-marks-e2e-admin-token-0123456789";
const MODEL = "xena/xet-marks";
const MIB = 1024 * 1024;

// One upload_file with the real client; the transfer (Xet or LFS) follows the environment.
const UPLOAD = `
import sys
from huggingface_hub import HfApi
HfApi(token=sys.argv[1]).upload_file(path_or_fileobj=sys.argv[2], path_in_repo=sys.argv[3], repo_id=sys.argv[4])
`;

let hub: RunningHub;
let browser: Browser;
let page: Page;
let errors: string[];
let dir: string;

async function upload(token: string, name: string, content: Buffer, env: Record<string, string>) {
	const path = join(dir, name);
	writeFileSync(path, content);
	const home = join(dir, `home-${name}`);
	await promisify(execFile)(pythonEnv().python, ["-c", UPLOAD, token, path, name, MODEL], {
		timeout: 170_000,
		env: {
			PATH: process.env.PATH ?? "",
			HOME: home,
			HF_HOME: join(home, "hf-home"),
			HF_ENDPOINT: hub.url,
			HF_HUB_DISABLE_TELEMETRY: "1",
			HF_HUB_DISABLE_PROGRESS_BARS: "1",
			HF_HUB_DISABLE_IMPLICIT_TOKEN: "1",
			...env,
		},
	});
}

beforeAll(async () => {
	dir = mkdtempSync(join(tmpdir(), "modelhub-xet-marks-"));
	[hub, browser] = await Promise.all([startHub({ MODELHUB_ADMIN_TOKEN: ADMIN_TOKEN }), launchBrowser()]);
	const { token } = (await hubJson(hub.url, "POST", "/api/admin/users", ADMIN_TOKEN, { name: "xena" })) as {
		token: string;
	};
	await hubJson(hub.url, "POST", "/api/repos/create", token, { name: "xet-marks" });
	await upload(token, "through-xet.bin", noiseBytes(MIB + 7, 11), {});
	await upload(token, "through-lfs.bin", noiseBytes(MIB + 5, 29), { HF_HUB_DISABLE_XET: "1" });
	page = browser.context.pages()[0] ?? (await browser.context.newPage());
	page.setDefaultTimeout(15_000);
	errors = watchErrors(page);
}, 400_000);

afterAll(async () => {
	await browser?.close();
	await hub?.stop();
	if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("Xet mark in the file list", () => {
	it("shows Xet beside LFS for the file uploaded through Xet, and LFS only for the other", async () => {
		await visitPage(page, `${hub.url}/${MODEL}/tree/main`);
		const row = (name: string) => page.getByRole("row").filter({ has: page.getByRole("link", { name }) });
		const xetRow = row("through-xet.bin");
		const lfsRow = row("through-lfs.bin");
		await xetRow.waitFor();
		await expect(xetRow.getByText("Xet", { exact: true }).isVisible()).resolves.toBe(true);
		expect(await xetRow.getByText("LFS", { exact: true }).count()).toBe(1);
		expect(await xetRow.getByText("Xet", { exact: true }).getAttribute("title")).toBe(
			"Uploaded through Xet: stored as deduplicated chunks",
		);
		expect(await lfsRow.getByText("LFS", { exact: true }).count()).toBe(1);
		expect(await lfsRow.getByText("Xet", { exact: true }).count()).toBe(0);
		expect(errors).toEqual([]);
	});
});
