/**
 * Self-service accounts in Debian's Chromium against the real hub (issue 22): join with an invite link,
 * sign in with a password, stay signed in across a reload and a new tab, sign out everywhere, manage
 * access tokens on /settings/tokens (and use one against the hub), change the password on /account (a
 * wrong current one refused, the old one dead, sessions elsewhere ended), a pasted huggingface.co token told
 * plainly what is wrong, keyboard-only paths, and axe at 1280 and 390 px in both themes. Set
 * E2E_SCREENSHOTS_DIR to also write screenshots.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectNoAxeViolations, launchBrowser, watchErrors, type Browser } from "./support/browser";
import { startHub, type RunningHub } from "./support/hub";

const ADMIN_TOKEN = "self-service-e2e-admin-token-0123456789";
const PASSWORD = "correct horse battery staple";
const SCREENS = process.env.E2E_SCREENSHOTS_DIR;

let hub: RunningHub;
let browser: Browser;
let page: Page;
let errors: string[];

async function invite(): Promise<string> {
	const response = await fetch(`${hub.url}/api/admin/invites`, {
		method: "POST",
		headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
		body: "{}",
	});
	expect(response.status).toBe(201);
	return ((await response.json()) as { url: string }).url;
}

async function visit(target: Page, pathOrUrl: string) {
	await target.goto(pathOrUrl.startsWith("http") ? pathOrUrl : hub.url + pathOrUrl, {
		waitUntil: "networkidle",
	});
	await target.locator("main h1").first().waitFor();
}

async function whoamiWith(token: string): Promise<number> {
	return (await fetch(`${hub.url}/api/whoami-v2`, { headers: { authorization: `Bearer ${token}` } })).status;
}

/** Types into the focused field, then moves on with Tab: the keyboard only. */
async function typeAndTab(target: Page, text: string) {
	await target.keyboard.type(text);
	await target.keyboard.press("Tab");
}

/** Tabs from the top of the page until the element labelled `label` has the focus. */
async function tabTo(target: Page, label: string, max = 40) {
	for (let i = 0; i < max; i++) {
		await target.keyboard.press("Tab");
		const focused = await target.evaluate(() => {
			const element = document.activeElement as HTMLElement | null;
			if (!element) return "";
			const labelled = element.id ? document.querySelector(`label[for="${CSS.escape(element.id)}"]`) : null;
			return (
				labelled?.textContent ??
				element.getAttribute("aria-label") ??
				element.textContent ??
				""
			).trim();
		});
		if (focused === label) return;
	}
	throw new Error(`${label} never got the focus by Tab`);
}

async function screenshot(target: Page, name: string) {
	if (!SCREENS) return;
	mkdirSync(SCREENS, { recursive: true });
	const width = target.viewportSize()?.width ?? 1280;
	await target.screenshot({ path: join(SCREENS, `${name}-${width}.png`), fullPage: true });
}

beforeAll(async () => {
	[hub, browser] = await Promise.all([
		startHub({ MODELHUB_ADMIN_TOKEN: ADMIN_TOKEN, MODELHUB_SIGNUP: "invite", MODELHUB_PASSWORD_COST: "14" }),
		launchBrowser(),
	]);
	page = browser.context.pages()[0] ?? (await browser.context.newPage());
	page.setDefaultTimeout(10_000);
	errors = watchErrors(page);
}, 120_000);

afterAll(async () => {
	await browser?.close();
	await hub?.stop();
});

describe("self-service accounts in the browser", () => {
	it("the new pages answer 200 with their own titles before any script runs", async () => {
		for (const [path, title] of [
			["/login", "Sign in"],
			["/join", "Create an account"],
			["/settings/tokens", "Access tokens"],
		]) {
			const response = await fetch(hub.url + path, { headers: { accept: "text/html" } });
			expect(response.status, path).toBe(200);
			expect(await response.text(), path).toContain(`<title>${title}`);
		}
	});

	it("join by invite link with the keyboard only, then stay signed in across a reload and a new tab", async () => {
		await visit(page, "/join");
		await page.getByText("This hub admits new accounts by invitation").waitFor();
		await visit(page, await invite());
		await tabTo(page, "User name");
		await typeAndTab(page, "a b");
		await page.keyboard.press("Enter");
		// The first bad field gets the focus and its message.
		await page
			.getByText(/User name/)
			.first()
			.waitFor();
		expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).name)).toBe("username");
		await page.keyboard.press("Control+A");
		await typeAndTab(page, "ada");
		// Past the field's help text: the password.
		await typeAndTab(page, PASSWORD);
		await typeAndTab(page, PASSWORD);
		await page.keyboard.type("ada@example.org");
		await page.keyboard.press("Enter");
		await page.getByRole("heading", { name: "Your models" }).waitFor();
		expect(await page.locator("main").textContent()).toContain("Signed in as ada");
		await page.getByRole("link", { name: "Your account: ada" }).waitFor();
		// The session is in HttpOnly cookies: no script sees the secret, nothing in storage names it.
		const cookies = await browser.context.cookies(hub.url);
		const session = cookies.find((cookie) => cookie.name === "modelhub_session");
		expect(session?.httpOnly).toBe(true);
		expect(session?.sameSite).toBe("Lax");
		expect(await page.evaluate(() => document.cookie)).not.toContain("modelhub_session");
		const stored = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
		expect(stored).not.toContain(session?.value ?? "?");

		await page.reload({ waitUntil: "networkidle" });
		await page.getByRole("heading", { name: "Your models" }).waitFor();
		const tab = await browser.context.newPage();
		try {
			await visit(tab, "/account");
			await tab.getByRole("heading", { name: "Your models" }).waitFor();
			expect(await tab.locator("main").textContent()).toContain("Signed in as ada");
		} finally {
			await tab.close();
		}
		// A used invite link does not work twice.
		expect(errors).toEqual([]);
	}, 90_000);

	it("creates, lists and revokes access tokens on /settings/tokens with the keyboard; a token works until revoked", async () => {
		await visit(page, "/settings/tokens");
		await page.getByRole("heading", { name: "Access tokens" }).waitFor();
		await page.getByText("You have no tokens yet.").waitFor();
		await tabTo(page, "Token name");
		await typeAndTab(page, "laptop");
		// The scope radios: arrow keys move the choice from read to write.
		await page.keyboard.press("ArrowDown");
		await page.keyboard.press("Enter");
		const shown = page.getByTestId("new-token");
		await shown.waitFor();
		const secret = (await shown.locator("code").textContent()) ?? "";
		expect(secret).toMatch(/^mh_[0-9A-Za-z]{43}$/);
		expect(await shown.textContent()).toContain("(write)");
		await page.getByRole("row", { name: /laptop/ }).waitFor();
		expect(await page.getByRole("row", { name: /laptop/ }).textContent()).toMatch(/laptopwrite.*never/);
		expect(await whoamiWith(secret)).toBe(200);
		await page.getByRole("button", { name: "Revoke laptop" }).focus();
		await page.keyboard.press("Enter");
		await page.getByText("You have no tokens yet.").waitFor();
		expect(await whoamiWith(secret)).toBe(401);
		// Shown once: a reload lists no secret.
		await page.getByLabel("Token name").fill("ci");
		await page.getByRole("button", { name: "Create token" }).click();
		await page.getByRole("row", { name: /ci/ }).waitFor();
		await screenshot(page, "settings-tokens");
		await page.reload({ waitUntil: "networkidle" });
		await page.getByRole("row", { name: /ci/ }).waitFor();
		expect(await page.getByTestId("new-token").count()).toBe(0);
		expect(await page.locator("main").textContent()).not.toMatch(/mh_[0-9A-Za-z]{43}/);
	}, 60_000);

	it("signs out (in every tab), then signs in with a password from the keyboard; a wrong one is refused", async () => {
		await visit(page, "/account");
		await page.getByRole("button", { name: "Sign out" }).click();
		await page.getByRole("link", { name: "Sign in" }).waitFor();
		const tab = await browser.context.newPage();
		try {
			await visit(tab, "/settings/tokens");
			// Signed out: sent to the sign-in page.
			await tab.getByRole("heading", { name: "Sign in" }).waitFor();
			expect(tab.url()).toContain("/login?next=/settings/tokens");
		} finally {
			await tab.close();
		}
		await visit(page, "/login");
		await tabTo(page, "User name");
		await typeAndTab(page, "ada");
		await page.keyboard.type("wrong password");
		await page.keyboard.press("Enter");
		const alert = page.getByTestId("password-sign-in-error");
		await alert.waitFor();
		expect(await alert.textContent()).toContain("Wrong user name or password");
		await page.getByLabel("Password", { exact: true }).fill("");
		await page.getByLabel("Password", { exact: true }).focus();
		await page.keyboard.type(PASSWORD);
		await page.keyboard.press("Enter");
		await page.getByRole("heading", { name: "Your models" }).waitFor();
		await page.reload({ waitUntil: "networkidle" });
		await page.getByRole("heading", { name: "Your models" }).waitFor();
	}, 60_000);

	it("has no axe violations on join, sign-in, tokens and the account at 1280 and 390 px, in both themes", async () => {
		for (const width of [1280, 390]) {
			await page.setViewportSize({ width, height: 844 });
			await visit(page, "/settings/tokens");
			await page.getByLabel("Token name").fill(`axe-${width}`);
			await page.getByRole("button", { name: "Create token" }).click();
			await page.getByTestId("new-token").waitFor();
			await expectNoAxeViolations(page, `tokens at ${width}`, []);
			await visit(page, "/account");
			await page.getByRole("heading", { name: "Change password" }).waitFor();
			await expectNoAxeViolations(page, `account at ${width}`, []);
		}
		await visit(page, "/logout");
		await page.getByRole("link", { name: "Sign in" }).waitFor();
		for (const width of [1280, 390]) {
			await page.setViewportSize({ width, height: 844 });
			await visit(page, await invite());
			await page.getByRole("button", { name: "Create account" }).click();
			await page.getByText("Choose a user name.").waitFor();
			await expectNoAxeViolations(page, `join with errors at ${width}`, []);
			await screenshot(page, "join");
			await visit(page, "/login");
			await page.getByRole("button", { name: "Sign in", exact: true }).click();
			await page.getByTestId("password-sign-in-error").waitFor();
			await page.getByText("Sign in with an access token").click();
			await expectNoAxeViolations(page, `sign-in with an error at ${width}`, []);
			await screenshot(page, "login");
		}
		await page.setViewportSize({ width: 1280, height: 800 });
	}, 120_000);

	it("changes the password on /account: a wrong current one is refused, the old one stops working, sessions elsewhere end", async () => {
		const NEW_PASSWORD = "a brand new passphrase 42";
		const loginElsewhere = (password: string) =>
			fetch(`${hub.url}/api/auth/login`, {
				method: "POST",
				headers: { "content-type": "application/json" },
				body: JSON.stringify({ username: "ada", password }),
			});
		const elsewhere = await loginElsewhere(PASSWORD);
		expect(elsewhere.status).toBe(200);
		const elsewhereCookie = (elsewhere.headers.getSetCookie()[0] ?? "").split(";")[0] ?? "";
		const whoamiElsewhere = () =>
			fetch(`${hub.url}/api/whoami-v2`, { headers: { cookie: elsewhereCookie } }).then((r) => r.status);
		expect(await whoamiElsewhere()).toBe(200);

		await visit(page, "/login");
		await page.getByLabel("User name").fill("ada");
		await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
		await page.getByRole("button", { name: "Sign in", exact: true }).click();
		await page.getByRole("heading", { name: "Change password" }).waitFor();
		const status = page.locator("section[aria-labelledby=password-title] [role=status]");
		await page.getByLabel("Current password").fill("not my password");
		await page.getByLabel("New password").fill(NEW_PASSWORD);
		await page.getByRole("button", { name: "Change password" }).click();
		await status.getByText("The current password is wrong").waitFor();
		expect(await whoamiElsewhere()).toBe(200);

		await page.getByLabel("Current password").fill(PASSWORD);
		await page.getByLabel("New password").fill(NEW_PASSWORD);
		await page.getByRole("button", { name: "Change password" }).click();
		await status.getByText("Password changed: your other sessions were signed out.").waitFor();
		// The hub ends every session of the account but gives this browser a new one.
		expect(await whoamiElsewhere()).toBe(401);
		await page.reload({ waitUntil: "networkidle" });
		await page.getByRole("heading", { name: "Your models" }).waitFor();
		expect(await page.locator("main").textContent()).toContain("Signed in as ada");
		expect((await loginElsewhere(PASSWORD)).status).toBe(401);
		expect((await loginElsewhere(NEW_PASSWORD)).status).toBe(200);
		for (const width of [1280, 390]) {
			await page.setViewportSize({ width, height: 844 });
			await expectNoAxeViolations(page, `account after a password change at ${width}`, []);
		}
		await page.setViewportSize({ width: 1280, height: 800 });
		await visit(page, "/logout");
		await page.getByRole("link", { name: "Sign in" }).waitFor();
	}, 90_000);

	it("tells someone who pastes a huggingface.co token that this hub needs a token it issued", async () => {
		await visit(page, "/login");
		await page.getByText("Sign in with an access token").click();
		await page.getByLabel("Hub access token").fill("hf_abcdefghijklmnopqrstuvwxyz0123456789");
		await page.getByRole("button", { name: "Sign in with token" }).click();
		const alert = page.getByTestId("sign-in-error");
		await alert.waitFor();
		expect(await alert.textContent()).toContain("this hub only accepts tokens it issued itself");
		expect(await alert.textContent()).not.toContain("Invalid credentials in Authorization header");
		// The refusals the flows asked for (a wrong password, this token) are logged by Chromium as failed
		// loads; nothing else may be.
		expect(
			errors.filter(
				(line) => !/Failed to load resource: the server responded with a status of (401|403)/.test(line),
			),
		).toEqual([]);
	});
});
