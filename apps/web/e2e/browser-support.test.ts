import { describe, expect, it } from "vitest";
import { launchBrowser } from "./support/browser.js";

describe("the browser suites' launcher", () => {
	it("fails at once with one line saying what to install when Chromium is missing", async () => {
		const error = await launchBrowser("/nonexistent/chromium").then(
			() => undefined,
			(failure: unknown) => failure as Error,
		);
		expect(error?.message).toBe(
			"Chromium not found at /nonexistent/chromium: install it with `apt-get install chromium` (or run .ci/run, which does), or set CHROMIUM_PATH",
		);
	});
});
