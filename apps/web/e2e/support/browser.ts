import { accessSync, constants, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { expect } from "vitest";

/**
 * Debian's headless build of Chromium (package chromium-headless-shell: the same Blink and V8, without the
 * browser's window, tab-strip and WebUI processes) when it is installed, else the full browser. Measured on
 * the 2-core CI machine (sso + browse, 20 tests, two alternating runs): 54 s of CPU against 82 s, 96 s of
 * wall against 115 s; the CI is CPU-bound, so that third is time every run saves.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? defaultChromium();

function defaultChromium(): string {
	const headlessShell = "/usr/lib/chromium/chromium-headless-shell";
	try {
		accessSync(headlessShell, constants.X_OK);
		return headlessShell;
	} catch {
		return "/usr/bin/chromium";
	}
}

export const CHROMIUM_ARGS = [
	"--headless",
	"--no-sandbox",
	"--disable-gpu",
	"--disable-background-networking",
	"--disable-component-update",
	"--disable-sync",
	"--no-first-run",
];

export interface Browser {
	context: BrowserContext;
	close: () => Promise<void>;
}

/**
 * The one line a browser suite fails with when Chromium is not installed (checked before launching, so
 * every browser test fails at once with what to do, never after a launch attempt per test).
 */
export function chromiumMissing(executable: string): string | undefined {
	try {
		accessSync(executable, constants.X_OK);
		return undefined;
	} catch {
		return `Chromium not found at ${executable}: install it with \`apt-get install chromium\` (or run .ci/run, which does), or set CHROMIUM_PATH`;
	}
}

/** Debian's Chromium with a fresh profile directory, removed on close. */
export async function launchBrowser(executable: string = CHROMIUM): Promise<Browser> {
	const missing = chromiumMissing(executable);
	if (missing) throw new Error(missing);
	const profile = mkdtempSync(join(tmpdir(), "modelhub-chromium-"));
	const context = await chromium.launchPersistentContext(profile, {
		executablePath: executable,
		headless: true,
		args: CHROMIUM_ARGS,
		viewport: { width: 1280, height: 800 },
		locale: "en-US",
		timezoneId: "UTC",
	});
	return {
		context,
		close: async () => {
			await context.close();
			rmSync(profile, { recursive: true, force: true });
		},
	};
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export interface AxeViolation {
	id: string;
	impact: string | null;
	help: string;
	nodes: string[];
}

/**
 * Runs axe-core in the page (evaluated through the DevTools protocol, so the page's CSP, which forbids
 * inline scripts, stays in force) and returns the violations, each with the selectors of its nodes.
 */
export async function axeViolations(page: Page, exclude: readonly string[] = []): Promise<AxeViolation[]> {
	const loaded = await page.evaluate("typeof window.axe === 'object'");
	if (!loaded) await page.evaluate(axeSource);
	return page.evaluate(async (exclude) => {
		const axe = (
			window as unknown as { axe: { run: (context: object, options: object) => Promise<AxeResults> } }
		).axe;
		interface AxeResults {
			violations: Array<{
				id: string;
				impact: string | null;
				help: string;
				nodes: Array<{ target: string[] }>;
			}>;
		}
		const context = exclude.length === 0 ? document : { include: [document], exclude: [...exclude] };
		const results = await axe.run(context, { resultTypes: ["violations"] });
		return results.violations.map((violation) => ({
			id: violation.id,
			impact: violation.impact,
			help: violation.help,
			nodes: violation.nodes.map((node) => node.target.join(" ")),
		}));
	}, exclude);
}

/** How far the page scrolls sideways (0 when nothing is wider than the viewport, as a phone needs). */
export async function horizontalOverflow(page: Page): Promise<number> {
	return page.evaluate(() =>
		Math.max(0, document.documentElement.scrollWidth - document.documentElement.clientWidth),
	);
}

/** Collects console errors and uncaught exceptions of a page. */
export function watchErrors(page: Page): string[] {
	const errors: string[] = [];
	page.on("console", (message) => {
		if (message.type() === "error") errors.push(`${page.url()}: ${message.text()}`);
	});
	page.on("pageerror", (error) => errors.push(`${page.url()}: uncaught ${error.message}`));
	return errors;
}

/**
 * Asserts that axe finds nothing on the page in both colour schemes: at each of `widths` (a narrow one at a
 * phone's 844 px height), or at the current size when `widths` is empty. Leaves the page light, and at
 * 1280 px when it was resized. `exclude`: selectors of elements axe leaves out (with what they hold).
 */
export async function expectNoAxeViolations(
	page: Page,
	where: string,
	widths: readonly number[] = [1280, 390],
	{ exclude = [] }: { exclude?: readonly string[] } = {},
): Promise<void> {
	for (const width of widths.length === 0 ? [undefined] : widths) {
		if (width !== undefined) await page.setViewportSize({ width, height: width < 500 ? 844 : 800 });
		const at = width === undefined ? "" : ` at ${width} px`;
		for (const colorScheme of ["light", "dark"] as const) {
			await page.emulateMedia({ colorScheme });
			expect(await axeViolations(page, exclude), `${where}${at} (${colorScheme})`).toEqual([]);
		}
	}
	await page.emulateMedia({ colorScheme: "light" });
	if (widths.length > 0) await page.setViewportSize({ width: 1280, height: 800 });
}
