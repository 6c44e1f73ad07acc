/**
 * Site administration in Debian's Chromium against the real hub (issue 22): a user the hub admin made a
 * site admin signs in with a password and, on /settings/admin, creates an invite link, revokes an open
 * one, disables and enables an account (its token stops and works again), is refused deleting an account
 * that owns a repository and deletes one that owns none; a user who is not a site admin sees only a notice.
 * axe at 1280 and 390 px in both themes, with and without an open invite. Set E2E_SCREENSHOTS_DIR to also write screenshots.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectNoAxeViolations, launchBrowser, watchErrors, type Browser } from "./support/browser";
import { startHub, type RunningHub } from "./support/hub";

const ADMIN_TOKEN = "site-admin-e2e-admin-token-0123456789";
const PASSWORD = "correct horse battery staple";
const UPSTREAM = "http://127.0.0.1:9";
const SCREENS = process.env.E2E_SCREENSHOTS_DIR;

let hub: RunningHub;
let browser: Browser;
let page: Page;
let errors: string[];
const tokens: Record<string, string> = {};

async function api(method: string, path: string, body?: unknown, token = ADMIN_TOKEN): Promise<Response> {
	return fetch(hub.url + path, {
		method,
		headers: {
			authorization: `Bearer ${token}`,
			...(body === undefined ? {} : { "content-type": "application/json" }),
		},
		...(body === undefined ? {} : { body: JSON.stringify(body) }),
	});
}

/** A user who joined with an invite and a password (as a person would). */
async function joinWithInvite(username: string): Promise<void> {
	const { code } = (await (await api("POST", "/api/admin/invites", {})).json()) as { code: string };
	const response = await fetch(`${hub.url}/api/auth/join`, {
		method: "POST",
		headers: { "content-type": "application/json" },
		body: JSON.stringify({ username, password: PASSWORD, invite: code }),
	});
	expect(response.status).toBe(201);
}

async function whoamiWith(token: string): Promise<number> {
	return (await fetch(`${hub.url}/api/whoami-v2`, { headers: { authorization: `Bearer ${token}` } })).status;
}

async function visit(path: string) {
	await page.goto(hub.url + path, { waitUntil: "networkidle" });
	await page.locator("main h1").first().waitFor();
}

async function signIn(username: string) {
	await visit("/login");
	await page.getByLabel("User name").fill(username);
	await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
	await page.getByRole("button", { name: "Sign in", exact: true }).click();
	await page.getByRole("heading", { name: "Your models" }).waitFor();
}

async function screenshot(name: string) {
	if (!SCREENS) return;
	mkdirSync(SCREENS, { recursive: true });
	for (const width of [390, 1280]) {
		await page.setViewportSize({ width, height: 800 });
		await page.screenshot({ path: join(SCREENS, `${name}-${width}.png`), fullPage: true });
	}
	await page.setViewportSize({ width: 1280, height: 800 });
}

/** The row of the accounts table that names `name`. */
function accountRow(name: string) {
	return page
		.locator(".accounts-table tbody tr")
		.filter({ has: page.getByRole("link", { name, exact: true }) });
}

beforeAll(async () => {
	[hub, browser] = await Promise.all([
		startHub({
			MODELHUB_ADMIN_TOKEN: ADMIN_TOKEN,
			MODELHUB_SIGNUP: "invite",
			MODELHUB_PASSWORD_COST: "14",
			// Mirror mode (nothing listens there: nothing is cached), for the page's statistics line.
			MODELHUB_UPSTREAM_URL: UPSTREAM,
			MODELHUB_MIRROR_CACHE_BYTES: "2000000",
		}),
		launchBrowser(),
	]);
	page = browser.context.pages()[0] ?? (await browser.context.newPage());
	page.setDefaultTimeout(10_000);
	errors = watchErrors(page);
	await joinWithInvite("root");
	await joinWithInvite("plain");
	for (const name of ["victim", "owner"]) {
		tokens[name] = (
			(await (await api("POST", "/api/admin/users", { name })).json()) as { token: string }
		).token;
	}
	expect((await api("POST", "/api/repos/create", { type: "model", name: "kept" }, tokens.owner)).status).toBe(
		200,
	);
	expect((await api("PUT", "/api/admin/users/root/site-admin", { siteAdmin: true })).status).toBe(200);
}, 120_000);

afterAll(async () => {
	await browser?.close();
	await hub?.stop();
});

describe("site administration", () => {
	it("answers 200 with its title before any script runs", async () => {
		const response = await fetch(`${hub.url}/settings/admin`, { headers: { accept: "text/html" } });
		expect(response.status).toBe(200);
		expect(await response.text()).toContain("<title>Site administration · ModelHub</title>");
	});

	it("shows only a notice to a user who is not a site admin", async () => {
		await signIn("plain");
		expect(await page.getByRole("link", { name: "Site administration" }).count()).toBe(0);
		await visit("/settings/admin");
		await page.getByText("Only the hub's site admins manage accounts and invites").waitFor();
		expect(await page.locator(".accounts-table").count()).toBe(0);
		await expectNoAxeViolations(page, "the admin page for a user");
		await visit("/logout");
	});

	it("a site admin invites, revokes an invite, disables, enables and deletes accounts", async () => {
		await signIn("root");
		await page.getByRole("link", { name: "Site administration" }).click();
		await page.getByRole("heading", { level: 1, name: "Site administration" }).waitFor();
		await accountRow("victim").waitFor();
		expect(await accountRow("root").textContent()).toContain("site admin");
		expect(await accountRow("root").getByRole("button").count()).toBe(0);

		// A new invite link, shown once; it is the only open invite, and revoking it makes it useless.
		await page.getByLabel("Valid for").selectOption("24");
		await page.getByRole("button", { name: "Create invite link" }).click();
		const url = (await page.getByTestId("new-invite").locator("code").textContent()) ?? "";
		expect(url).toMatch(new RegExp(`^${hub.url}/join\\?invite=mhi_`));
		const code = new URL(url).searchParams.get("invite") ?? "";
		const open = page.locator(".invites-table tbody tr").filter({ hasText: "open" });
		// The list reloads after the link shows: wait for the new row before counting (count() does not wait).
		await open.first().waitFor();
		expect(await open.count()).toBe(1);
		expect(await open.textContent()).toContain("root");
		expect(await page.locator(".invites-table").textContent()).toContain("used by plain");
		await expectNoAxeViolations(page, "the admin page");
		await screenshot("site-admin");
		await open.getByRole("button", { name: /^Revoke/ }).click();
		await page.getByText("Revoked the invite: its link admits nobody now.").waitFor();
		await page.locator(".invites-table tbody tr").filter({ hasText: "open" }).waitFor({ state: "detached" });
		// Now no invite row has a button: at 390 px the table's scroller must itself take focus (axe's
		// scrollable-region-focusable, serious), as every table scroller in the app does.
		await expectNoAxeViolations(page, "the admin page with no open invite");
		const late = await fetch(`${hub.url}/api/auth/join`, {
			method: "POST",
			headers: { "content-type": "application/json" },
			body: JSON.stringify({ username: "late", password: PASSWORD, invite: code }),
		});
		expect(late.status).toBe(403);

		// Disable: the account's token stops at once; enable: it works again.
		expect(await whoamiWith(tokens.victim as string)).toBe(200);
		await accountRow("victim").getByRole("button", { name: "Disable victim" }).click();
		await accountRow("victim").getByRole("button", { name: "Enable victim" }).waitFor();
		expect(await accountRow("victim").textContent()).toContain("disabled");
		expect(await whoamiWith(tokens.victim as string)).toBe(401);
		await accountRow("victim").getByRole("button", { name: "Enable victim" }).click();
		await accountRow("victim").getByRole("button", { name: "Disable victim" }).waitFor();
		expect(await whoamiWith(tokens.victim as string)).toBe(200);

		// Delete asks first; an account that owns a repository is refused with the hub's reason.
		await accountRow("owner").getByRole("button", { name: "Delete owner…" }).click();
		await accountRow("owner").getByRole("button", { name: "Delete owner", exact: true }).click();
		await page.getByText(/Could not delete owner: owner still owns 1 repositories/).waitFor();
		await accountRow("victim").getByRole("button", { name: "Delete victim…" }).click();
		await accountRow("victim").getByRole("button", { name: "Keep" }).click();
		await accountRow("victim").getByRole("button", { name: "Delete victim…" }).click();
		await accountRow("victim").getByRole("button", { name: "Delete victim", exact: true }).click();
		await page.getByText("Deleted victim.").waitFor();
		await accountRow("victim").waitFor({ state: "detached" });
		expect(await whoamiWith(tokens.victim as string)).toBe(401);

		// The audit log names the site admin for each change.
		const audit = (await (await api("GET", "/api/admin/audit?actor=root&limit=50")).json()) as {
			entries: Array<{ action: string }>;
		};
		expect(new Set(audit.entries.map((entry) => entry.action))).toEqual(
			new Set([
				"user.join",
				"session.login",
				"invite.create",
				"invite.revoke",
				"user.disable",
				"user.enable",
				"user.delete",
			]),
		);
		expect(errors.filter((error) => !/409|Conflict/.test(error))).toEqual([]);
	}, 90_000);

	it("shows a site admin the mirror's cache statistics, which the hub gives site admins only", async () => {
		await visit("/logout");
		await signIn("root");
		await visit("/settings/admin");
		const line = page.getByTestId("mirror-stats");
		await line.waitFor();
		expect((await line.textContent())?.replace(/\s+/g, " ")).toBe(
			`Mirror of ${UPSTREAM}: 0 cached repositories, 0 files, 0 B (of 2 MB) · 0 hits, 0 misses since the hub started`,
		);
		await visit("/logout");
		// The route behind it: the admin token and site admins; another user is refused.
		expect((await api("GET", "/api/admin/mirror")).status).toBe(200);
		const plain = await api("GET", "/api/admin/mirror", undefined, tokens.owner);
		expect(plain.status).toBe(403);
		expect((await fetch(`${hub.url}/api/admin/mirror`)).status).toBe(401);
	});
});
