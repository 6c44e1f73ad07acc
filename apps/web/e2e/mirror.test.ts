/**
 * Mirror mode's "Mirrored from" badge (issue 25) in Chromium: a hub mirroring another one
 * (MODELHUB_UPSTREAM_URL) shows the page of a model that exists only upstream with the upstream's model
 * card and a badge linking to the model's page there; a local model's page has none. Axe finds nothing on
 * the mirrored page. Two real hubs, Debian's Chromium.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectNoAxeViolations, launchBrowser, watchErrors, type Browser } from "./support/browser";
import { startHub, type RunningHub } from "./support/hub";
import { hubJson, visitPage } from "./support/session";

const ADMIN_TOKEN = "mirror-e2e-admin-token-0123456789";
const MODEL = "uma/upstream-only";
const CARD = "This card was written on the upstream hub.";

let upstream: RunningHub;
let downstream: RunningHub;
let browser: Browser;
let page: Page;
let errors: string[];

beforeAll(async () => {
	[upstream, browser] = await Promise.all([
		startHub({ MODELHUB_ADMIN_TOKEN: ADMIN_TOKEN }, { web: false }),
		launchBrowser(),
	]);
	const { token } = (await hubJson(upstream.url, "POST", "/api/admin/users", ADMIN_TOKEN, {
		name: "uma",
	})) as {
		token: string;
	};
	await hubJson(upstream.url, "POST", "/api/repos/create", token, { name: "upstream-only" });
	const readme = `---\nlicense: mit\npipeline_tag: text-classification\n---\n# Upstream only\n\n${CARD}\n`;
	const committed = await fetch(`${upstream.url}/api/models/${MODEL}/commit/main`, {
		method: "POST",
		headers: { authorization: `Bearer ${token}`, "content-type": "application/x-ndjson" },
		body: [
			{ key: "header", value: { summary: "card" } },
			{
				key: "file",
				value: { path: "README.md", encoding: "base64", content: Buffer.from(readme).toString("base64") },
			},
		]
			.map((line) => JSON.stringify(line))
			.join("\n"),
	});
	if (committed.status !== 200) throw new Error(`committing the card upstream: ${committed.status}`);
	downstream = await startHub({ MODELHUB_ADMIN_TOKEN: ADMIN_TOKEN, MODELHUB_UPSTREAM_URL: upstream.url });
	page = browser.context.pages()[0] ?? (await browser.context.newPage());
	page.setDefaultTimeout(15_000);
	errors = watchErrors(page);
}, 300_000);

afterAll(async () => {
	await browser?.close();
	await downstream?.stop();
	await upstream?.stop();
});

describe("a mirrored model's page", () => {
	it("shows the upstream's card and a 'Mirrored from' badge linking to the model there, with no axe violations", async () => {
		// The model is the upstream's alone: the downstream has no repository of that name.
		expect((await fetch(`${downstream.url}/api/models/${MODEL}`)).status).toBe(200);
		// Its page is the upstream model's: 200, titled after it (not a 404 the app then fills in).
		const document = await fetch(`${downstream.url}/${MODEL}`, { headers: { accept: "text/html" } });
		expect(document.status).toBe(200);
		expect(await document.text()).toMatch(/<title>[^<]*uma\/upstream-only/);
		await visitPage(page, `${downstream.url}/${MODEL}`);
		await page.getByText(CARD).waitFor();
		const host = new URL(upstream.url).host;
		const badge = page.getByRole("link", { name: `Mirrored from ${host}` });
		await badge.waitFor();
		expect(await badge.getAttribute("href")).toBe(`${upstream.url}/${MODEL}`);
		expect(await badge.getAttribute("rel")).toContain("noopener");
		await expectNoAxeViolations(page, "mirrored model page");

		// A local model (seeded on the downstream) has no badge.
		const [local] = (await (await fetch(`${downstream.url}/api/models?limit=1`)).json()) as Array<{
			id: string;
		}>;
		expect(local?.id).toBeDefined();
		await visitPage(page, `${downstream.url}/${local?.id ?? ""}`);
		expect(await page.getByRole("link", { name: /^Mirrored from/ }).count()).toBe(0);
		expect(errors).toEqual([]);
	}, 120_000);
});
