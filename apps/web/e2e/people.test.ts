/**
 * Profiles, organisation members and the header search in Debian's Chromium against the real hub
 * (issue 22): `/{user}` shows a private model to its owner only, `/{org}` its models and members, an
 * organisation admin adds a member and changes their role on `/organizations/{org}/settings`, and the
 * header search suggests models, datasets, users and organisations (arrow keys, Enter to a suggestion
 * or to the models page; a private dataset only for its owner). axe at 1280 and 390 px in both themes
 * on every new view. Set E2E_SCREENSHOTS_DIR to also write screenshots.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectNoAxeViolations, launchBrowser, watchErrors, type Browser } from "./support/browser";
import { startHub, type RunningHub } from "./support/hub";
import { hubJson, navigateInApp, signInWithToken, visitPage } from "./support/session";
import { formatBytes } from "../src/view/format";

const ADMIN_TOKEN = "people-e2e-admin-token-0123456789";
const SCREENS = process.env.E2E_SCREENSHOTS_DIR;

let hub: RunningHub;
let browser: Browser;
const tokens: Record<string, string> = {};
const errors: string[] = [];
const pages: Page[] = [];

const api = (method: string, path: string, token: string, body?: unknown) =>
	hubJson(hub.url, method, path, token, body);

/** A new tab: signed out, or signed in with `token` (a token session lives in its tab only). */
async function tab(token?: string): Promise<Page> {
	const page = await browser.context.newPage();
	page.setDefaultTimeout(10_000);
	const seen = watchErrors(page);
	pages.push(page);
	page.on("close", () => errors.push(...seen));
	if (token) {
		await signInWithToken(page, hub.url, token);
	}
	return page;
}

const visit = (page: Page, path: string) => visitPage(page, hub.url + path);

const go = (page: Page, path: string) => navigateInApp(page, path);

async function screenshot(page: Page, name: string) {
	if (!SCREENS) return;
	mkdirSync(SCREENS, { recursive: true });
	for (const width of [390, 1280]) {
		await page.setViewportSize({ width, height: 800 });
		await page.screenshot({ path: join(SCREENS, `${name}-${width}.png`), fullPage: true });
	}
	await page.setViewportSize({ width: 1280, height: 800 });
}

/** The model ids a profile lists. */
async function listedModels(page: Page): Promise<string[]> {
	await page.locator(".profile-models, .profile-page .muted").first().waitFor();
	return page.locator(".profile-models .model-id a").allTextContents();
}

beforeAll(async () => {
	[hub, browser] = await Promise.all([
		startHub({
			MODELHUB_ADMIN_TOKEN: ADMIN_TOKEN,
			MODELHUB_QUOTA_USER_BYTES: "5000000",
			MODELHUB_QUOTA_ORG_BYTES: "20000000",
		}),
		launchBrowser(),
	]);
	for (const name of ["alice", "bob"]) {
		tokens[name] = (
			(await api("POST", "/api/admin/users", ADMIN_TOKEN, { name })) as { token: string }
		).token;
	}
	await api("POST", "/api/admin/orgs", ADMIN_TOKEN, {
		name: "acme",
		fullname: "Acme Research",
		members: [{ user: "alice", role: "admin" }],
	});
	const alice = tokens.alice as string;
	await api("POST", "/api/repos/create", alice, { type: "model", name: "open-model", private: false });
	await api("POST", "/api/repos/create", alice, { type: "model", name: "secret-model", private: true });
	await api("POST", "/api/repos/create", alice, {
		type: "model",
		name: "acme-vision",
		organization: "acme",
		private: false,
	});
	// A dataset in a seeded namespace that no account holds (the admin token may write anywhere).
	await api("POST", "/api/repos/create", ADMIN_TOKEN, {
		type: "dataset",
		name: "tiny-prompts",
		organization: "meta-llama",
		private: false,
	});
	await api("POST", "/api/repos/create", alice, { type: "dataset", name: "secret-prompts", private: true });
}, 120_000);

afterAll(async () => {
	for (const page of pages) if (!page.isClosed()) await page.close();
	await browser?.close();
	await hub?.stop();
});

describe("profiles", () => {
	it("profile addresses answer 200 with the account's title, and 404 for nobody, before any script runs", async () => {
		for (const [path, status, title] of [
			["/alice", 200, "alice · ModelHub"],
			["/acme", 200, "Acme Research (@acme) · ModelHub"],
			["/organizations/acme/settings", 200, "Members · acme · ModelHub"],
			["/nobody-at-all", 404, "Not found · ModelHub"],
			["/meta-llama", 200, "meta-llama · ModelHub"],
			["/organizations/nobody/settings", 404, "Organisation not found · ModelHub"],
		] as const) {
			const response = await fetch(hub.url + path, { headers: { accept: "text/html" } });
			expect(response.status, path).toBe(status);
			expect(await response.text(), path).toContain(`<title>${title}</title>`);
		}
	});

	it("a user's profile shows their private model to them only", async () => {
		const anonymous = await tab();
		await visit(anonymous, "/alice");
		await anonymous.getByRole("heading", { level: 1, name: "alice" }).waitFor();
		expect(await listedModels(anonymous)).toEqual(["alice/open-model"]);
		await anonymous.getByRole("link", { name: "Acme Research" }).waitFor();
		expect(await anonymous.title()).toBe("alice · ModelHub");
		await expectNoAxeViolations(anonymous, "a user's profile");

		const bob = await tab(tokens.bob);
		await go(bob, "/alice");
		expect(await listedModels(bob)).toEqual(["alice/open-model"]);

		const alice = await tab(tokens.alice);
		await go(alice, "/alice");
		await alice.getByRole("link", { name: "alice/secret-model" }).waitFor();
		expect((await listedModels(alice)).sort()).toEqual(["alice/open-model", "alice/secret-model"]);
		expect(await alice.locator(".profile-models .badge-private").count()).toBe(1);
		await screenshot(alice, "profile-user");

		for (const page of [anonymous, bob, alice]) await page.close();
	});

	it("a namespace without an account lists its models and datasets; a name with nothing is a clear 404", async () => {
		const anonymous = await tab();
		await visit(anonymous, "/meta-llama");
		await anonymous.getByRole("heading", { level: 1, name: "meta-llama" }).waitFor();
		expect(await listedModels(anonymous)).toContain("meta-llama/Llama-3.1-8B-Instruct");
		const datasets = anonymous.locator(".profile-datasets .model-id a");
		await datasets.first().waitFor();
		expect(await datasets.allTextContents()).toEqual(["meta-llama/tiny-prompts"]);
		expect(await datasets.first().getAttribute("href")).toBe("/datasets/meta-llama/tiny-prompts");
		expect(await anonymous.title()).toBe("meta-llama · ModelHub");
		await expectNoAxeViolations(anonymous, "a namespace without an account");
		await screenshot(anonymous, "namespace");

		// Nobody by that name, no namespace and no model either: one clear 404.
		await visit(anonymous, "/nobody-at-all");
		await anonymous.getByRole("heading", { name: "Not found" }).waitFor();
		expect(await anonymous.locator("main").textContent()).toContain(
			"no user, organisation, namespace or model called “nobody-at-all”",
		);
		expect(await anonymous.title()).toBe("Not found · ModelHub");
		await expectNoAxeViolations(anonymous, "a name with nothing");
		await anonymous.close();
	}, 60_000);

	it("an organisation's profile shows its models and members, and its settings link to its admins only", async () => {
		const anonymous = await tab();
		await visit(anonymous, "/acme");
		await anonymous.getByRole("heading", { level: 1, name: "Acme Research" }).waitFor();
		expect(await listedModels(anonymous)).toEqual(["acme/acme-vision"]);
		await anonymous.locator(".member-list").getByRole("link", { name: "alice" }).waitFor();
		expect(await anonymous.getByRole("link", { name: "Manage members" }).count()).toBe(0);
		await expectNoAxeViolations(anonymous, "an organisation's profile");
		await anonymous.close();
	});
});

describe("organisation members", () => {
	it("an org admin adds a member and changes their role; a member who is not an admin only looks", async () => {
		const alice = await tab(tokens.alice);
		await go(alice, "/acme");
		await alice.getByRole("link", { name: "Manage members" }).click();
		await alice.getByRole("heading", { level: 1, name: /Members of/ }).waitFor();
		expect(new URL(alice.url()).pathname).toBe("/organizations/acme/settings");
		// The organisation's storage and quota (MODELHUB_QUOTA_ORG_BYTES), as the hub counts them.
		const acmeUsed = (
			(await api("GET", "/api/accounts/acme/storage", tokens.alice as string)) as { usedBytes: number }
		).usedBytes;
		expect(acmeUsed).toBeGreaterThan(0);
		await alice.getByText(`Storage: ${formatBytes(acmeUsed)} used of 20 MB`, { exact: true }).waitFor();
		await go(alice, "/account");
		const aliceUsed = (
			(await api("GET", "/api/accounts/alice/storage", tokens.alice as string)) as { usedBytes: number }
		).usedBytes;
		await alice.getByText(`Storage: ${formatBytes(aliceUsed)} used of 5 MB`, { exact: true }).waitFor();
		await go(alice, "/organizations/acme/settings");
		await alice.getByRole("heading", { level: 1, name: /Members of/ }).waitFor();

		// A name that cannot be a user is refused before any request; an unknown one by the hub.
		await alice.getByLabel("User name").fill("no such user!");
		await alice.getByRole("button", { name: "Add member" }).click();
		await alice.locator(".field-error").waitFor();
		await alice.getByLabel("User name").fill("nobody");
		await alice.getByRole("button", { name: "Add member" }).click();
		await alice.getByRole("alert").filter({ hasText: "no user named nobody" }).waitFor();

		await alice.getByLabel("User name").fill("bob");
		await alice.getByLabel("Role", { exact: true }).selectOption("read");
		await alice.getByRole("button", { name: "Add member" }).click();
		await alice.getByRole("status").filter({ hasText: "bob is now a member (read)." }).waitFor();
		const role = alice.getByLabel("Role of bob");
		expect(await role.inputValue()).toBe("read");
		await role.selectOption("write");
		await alice.getByRole("status").filter({ hasText: "bob now has the write role." }).waitFor();
		const members = (await api("GET", "/api/organizations/acme/members", ADMIN_TOKEN)) as Array<{
			user: string;
			role: string;
		}>;
		expect(members.map((member) => [member.user, member.role])).toEqual([
			["alice", "admin"],
			["bob", "write"],
		]);
		// The last admin cannot step down: the hub's reason is shown.
		await alice.getByLabel("Role of alice").selectOption("read");
		await alice.getByRole("alert").filter({ hasText: "without an admin" }).waitFor();
		await expectNoAxeViolations(alice, "an organisation's members");
		await screenshot(alice, "org-members");

		// Bob is a member now, not an admin: he sees the members, not the controls.
		const bob = await tab(tokens.bob);
		await go(bob, "/organizations/acme/settings");
		await bob.getByText("Only the organization's admins manage its members").waitFor();
		expect(await bob.getByRole("button", { name: "Add member" }).count()).toBe(0);
		await expectNoAxeViolations(bob, "an organisation's members, seen by a member");

		// Removing asks first.
		alice.once("dialog", (dialog) => void dialog.accept());
		await alice.getByRole("button", { name: "Remove bob" }).click();
		await alice.getByRole("status").filter({ hasText: "bob was removed." }).waitFor();
		expect(await alice.getByLabel("Role of bob").count()).toBe(0);
		await alice.close();
		await bob.close();
	});
});

describe("the header search", () => {
	it("suggests models, users and organisations; arrow keys and Enter open one, Enter alone searches models", async () => {
		const page = await tab();
		await visit(page, "/tasks");
		const box = page.getByRole("combobox", { name: "Search the hub" });
		await box.click();
		await page.keyboard.type("a", { delay: 20 });
		const list = page.getByRole("listbox", { name: "Suggestions" });
		await list.getByRole("option", { name: /alice/ }).first().waitFor();
		expect(await box.getAttribute("aria-expanded")).toBe("true");
		// The private model is nobody's suggestion but its owner's.
		expect(await list.getByRole("option", { name: /secret-model/ }).count()).toBe(0);
		const options = await list.getByRole("option").allTextContents();
		expect(options.some((text) => text.includes("Organization") && text.includes("acme"))).toBe(true);
		await expectNoAxeViolations(page, "the header search with its suggestions");
		await box.focus();

		// Arrow keys move through the options (aria-activedescendant), Enter opens the active one.
		await box.fill("open-mod");
		await list.getByRole("option", { name: /alice\/open-model/ }).waitFor();
		await page.keyboard.press("ArrowDown");
		const active = await box.getAttribute("aria-activedescendant");
		expect(active).toBeTruthy();
		expect(await page.locator(`[id="${active}"]`).getAttribute("aria-selected")).toBe("true");
		expect(await page.locator(`[id="${active}"]`).textContent()).toContain("alice/open-model");
		await page.keyboard.press("Enter");
		await page.waitForURL(`${hub.url}/alice/open-model`);
		await page.getByRole("heading", { level: 1, name: /open-model/ }).waitFor();

		// A user suggestion opens the profile.
		await box.fill("bob");
		const bobOption = list.getByRole("option", { name: /User\s*bob/ });
		await bobOption.waitFor();
		await page.keyboard.press("ArrowDown");
		expect(
			await page.locator(`[id="${await box.getAttribute("aria-activedescendant")}"]`).textContent(),
		).toMatch(/User\s*bob/);
		await page.keyboard.press("Enter");
		await page.waitForURL(`${hub.url}/bob`);
		await page.getByRole("heading", { level: 1, name: "bob" }).waitFor();

		// Escape closes the list; Enter with no option chosen searches the models page.
		await box.fill("vision");
		await list.getByRole("option").first().waitFor();
		await page.keyboard.press("Escape");
		expect(await box.getAttribute("aria-expanded")).toBe("false");
		await page.keyboard.press("Enter");
		await page.waitForURL(`${hub.url}/models?search=vision`);
		await page.getByRole("link", { name: "acme/acme-vision" }).waitFor();
		await page.close();
	});

	it("suggests datasets (private ones to their owner only); a dataset suggestion opens /datasets/{id}", async () => {
		const page = await tab();
		await visit(page, "/tasks");
		const box = page.getByRole("combobox", { name: "Search the hub" });
		const list = page.getByRole("listbox", { name: "Suggestions" });
		await box.click();
		await page.keyboard.type("prompts", { delay: 20 });
		const open = list.getByRole("option", { name: /Dataset\s*meta-llama\/tiny-prompts/ });
		await open.waitFor();
		// Alice's private dataset is no suggestion for someone signed out.
		expect(await list.getByRole("option", { name: /secret-prompts/ }).count()).toBe(0);
		await expectNoAxeViolations(page, "the header search with a dataset suggestion");
		await box.focus();
		await page.keyboard.press("ArrowDown");
		const active = await box.getAttribute("aria-activedescendant");
		expect(await page.locator(`[id="${active}"]`).textContent()).toMatch(
			/Dataset\s*meta-llama\/tiny-prompts/,
		);
		await page.keyboard.press("Enter");
		await page.waitForURL(`${hub.url}/datasets/meta-llama/tiny-prompts`);
		await page.getByRole("heading", { level: 1, name: /tiny-prompts/ }).waitFor();
		await page.close();

		const owner = await tab(tokens.alice);
		const ownBox = owner.getByRole("combobox", { name: "Search the hub" });
		await ownBox.click();
		await owner.keyboard.type("secret-pro", { delay: 20 });
		const secret = owner
			.getByRole("listbox", { name: "Suggestions" })
			.getByRole("option", { name: /Dataset\s*alice\/secret-prompts/ });
		await secret.click();
		await owner.waitForURL(`${hub.url}/datasets/alice/secret-prompts`);
		await owner.getByRole("heading", { level: 1, name: /secret-prompts/ }).waitFor();
		await owner.close();
	});

	it("the search box is on every page, at a phone's width too", async () => {
		const page = await tab();
		await page.setViewportSize({ width: 390, height: 800 });
		for (const path of ["/", "/models", "/alice", "/alice/open-model", "/login"]) {
			await visit(page, path);
			expect(await page.getByRole("combobox", { name: "Search the hub" }).isVisible(), path).toBe(true);
		}
		await page.close();
		// Only the failures the flows caused on purpose: the missing page's own document, an empty model's
		// absent README, and the member changes the hub refused (an unknown user, the last admin).
		const expected = [
			/\/nobody-at-all: Failed to load resource: .* 404/,
			/\/alice\/open-model: Failed to load resource: .* 404/,
			/\/organizations\/acme\/settings: Failed to load resource: .* (404|409)/,
		];
		const unexpected = errors.filter((error) => !expected.some((pattern) => pattern.test(error)));
		expect(unexpected).toEqual([]);
	});
});
