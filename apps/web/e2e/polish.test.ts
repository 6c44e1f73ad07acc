/**
 * The smaller problems of issue 22 (item 7), each in a real browser (Debian's Chromium through
 * playwright-core) against the real hub server with its seeded models.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, watchErrors, type Browser } from "./support/browser";
import { startHub, type RunningHub } from "./support/hub";
import { layoutShift, watchLayoutShift } from "./support/layout-shift";

let hub: RunningHub;
let browser: Browser;
let page: Page;
let errors: string[];

beforeAll(async () => {
	[hub, browser] = await Promise.all([startHub(), launchBrowser()]);
	page = browser.context.pages()[0] ?? (await browser.context.newPage());
	errors = watchErrors(page);
	// As every browser suite: the hub's start can take minutes at CI load.
}, 120_000);

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

describe("models list", () => {
	it("shows the total for a list filtered by a provider", async () => {
		const expected = (await (
			await fetch(`${hub.url}/api/models-count?inference_provider=hf-inference`)
		).json()) as {
			count: number;
		};
		expect(expected.count).toBeGreaterThan(1);
		await visit("/models?inference_provider=hf-inference");
		await expect
			.poll(() => page.getByTestId("model-total").textContent(), { timeout: 10_000 })
			.toBe(`${expected.count} models`);
	});

	it("moves focus and scroll to the top on Next, and labels the page right after Back", async () => {
		await page.setViewportSize({ width: 1280, height: 700 });
		await visit("/models");
		await page.getByRole("status").filter({ hasText: "Showing" }).waitFor();
		const next = page.getByRole("button", { name: "Next →" });
		await next.scrollIntoViewIfNeeded();
		expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
		await next.click();
		await page.getByText("(page 2)").waitFor({ timeout: 10_000 });
		expect(await page.evaluate(() => window.scrollY)).toBe(0);
		expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("H1");
		await page.getByRole("button", { name: "Next →" }).click();
		await page.getByText("(page 3)").waitFor({ timeout: 10_000 });
		await page.goBack();
		await expect
			.poll(() => page.getByRole("status").filter({ hasText: "Showing" }).textContent(), { timeout: 10_000 })
			.toBe("Showing 20 models (page 2).");
	});

	it("keeps layout shift at or under 0.1 on a filtered list, on a phone and a desktop", async () => {
		// 0.68 at 390 px before: the total's line was empty (no height) until the count arrived, then
		// pushed the filters and the list down.
		for (const width of [390, 1280]) {
			const target = await browser.context.newPage();
			try {
				await target.setViewportSize({ width, height: width < 500 ? 844 : 800 });
				await watchLayoutShift(target);
				await target.goto(`${hub.url}/models?library=transformers&pipeline_tag=text-generation`, {
					waitUntil: "networkidle",
				});
				await target
					.getByTestId("model-total")
					.filter({ hasText: /models?$/ })
					.waitFor();
				await target.getByRole("status").filter({ hasText: "Showing" }).waitFor();
				// Later shifts (fonts, late answers) count too.
				await target.waitForTimeout(500);
				expect(await layoutShift(target), `layout shift at ${width} px`).toBeLessThanOrEqual(0.1);
			} finally {
				await target.close();
			}
		}
	});
});
