/**
 * The smaller problems of issue 22 (item 7), each in a real browser (Debian's Chromium through
 * playwright-core) against the real hub server with its seeded models.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, watchErrors, type Browser } from "./support/browser";
import { startHub, type RunningHub } from "./support/hub";

let hub: RunningHub;
let browser: Browser;
let page: Page;
let errors: string[];

beforeAll(async () => {
	[hub, browser] = await Promise.all([startHub(), launchBrowser()]);
	page = browser.context.pages()[0] ?? (await browser.context.newPage());
	errors = watchErrors(page);
});

afterAll(async () => {
	await browser?.close();
	await hub?.stop();
});

async function visit(path: string): Promise<void> {
	await page.goto(hub.url + path, { waitUntil: "networkidle" });
	await page.locator("main h1").first().waitFor();
}

describe("home search", () => {
	it("goes to the models list with the search on Enter", async () => {
		await visit("/");
		const box = page.getByRole("searchbox", { name: "Search tasks, libraries and models" });
		await box.fill("bert");
		await box.press("Enter");
		await page.waitForURL((url) => url.pathname === "/models", { timeout: 10_000 });
		expect(new URL(page.url()).searchParams.get("search")).toBe("bert");
		await expect(page.getByRole("searchbox", { name: "Search models" }).inputValue()).resolves.toBe("bert");
		expect(errors).toEqual([]);
	});
});
