#!/usr/bin/env node
// Takes full-page screenshots of the main pages at phone (390 px) and desktop (1280 px) widths, in the
// light and dark themes, for a look by eye. Usage: node scripts/screenshots.mjs BASE_URL OUT_DIR [paths…]
// A path may end with `::tab=NAME` to click that tab first (e.g. `/org/model::tab=Files and versions`).
// THEMES=light limits the themes.
import { mkdtempSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

const [base = "http://127.0.0.1:8080", out = "screenshots", ...only] = process.argv.slice(2);
const pages = only.length
	? only
	: [
			"/",
			"/tasks",
			"/tasks/token-classification",
			"/tasks/object-detection",
			"/libraries",
			"/libraries/transformers",
			"/models",
			"/meta-llama/Llama-3.1-8B-Instruct",
			"/settings",
			"/no/such/page",
		];
mkdirSync(out, { recursive: true });
const profile = mkdtempSync(join(tmpdir(), "modelhub-shots-"));
const context = await chromium.launchPersistentContext(profile, {
	executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
	headless: true,
	args: [
		"--no-sandbox",
		"--disable-gpu",
		"--disable-background-networking",
		"--disable-component-update",
		"--disable-sync",
		"--no-first-run",
	],
});
try {
	const page = context.pages()[0] ?? (await context.newPage());
	page.on("console", (message) => {
		if (message.type() === "error") console.error(`console error on ${page.url()}: ${message.text()}`);
	});
	for (const scheme of (process.env.THEMES ?? "light,dark").split(",")) {
		await page.emulateMedia({ colorScheme: scheme });
		for (const width of [390, 1280]) {
			await page.setViewportSize({ width, height: width < 500 ? 844 : 800 });
			for (const target of pages) {
				const [path, action = ""] = target.split("::");
				await page.goto(base + path, { waitUntil: "networkidle" });
				const tab = /^tab=(.+)$/.exec(action)?.[1];
				if (tab) {
					await page.getByRole("tab", { name: tab }).click();
					await page.waitForLoadState("networkidle");
				}
				await page.waitForTimeout(300);
				const name = `${target.replace(/[^a-z0-9]+/gi, "_").replace(/^_|_$/g, "") || "home"}-${width}-${scheme}.png`;
				await page.screenshot({ path: join(out, name), fullPage: process.env.FULL !== "0" });
				console.log(join(out, name));
			}
		}
	}
} finally {
	await context.close();
	rmSync(profile, { recursive: true, force: true });
}
