/**
 * Single sign-on with OpenID Connect in Debian's Chromium (issue 22): the real hub and a real OpenID
 * provider (the certified `oidc-provider`, run in this test process on 127.0.0.1). The whole login goes
 * through the provider's pages; then what must fail does, with a clear message and no session: no
 * invite, a wrong state, a replayed callback or code, another issuer, an ID token that has expired or
 * is signed with a key the provider does not publish, a disabled account. No code, state, ID token or
 * secret reaches the hub's log. Set E2E_SCREENSHOTS_DIR to also write screenshots.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectNoAxeViolations, launchBrowser, watchErrors, type Browser } from "./support/browser";
import { startHub, type RunningHub } from "./support/hub";
import { freePort, startOpenIdProvider, type OpenIdProvider } from "./support/openid";

const ADMIN_TOKEN = "sso-e2e-admin-token-0123456789abcdef";
const PROVIDER_NAME = "Test IdP";
const SCREENS = process.env.E2E_SCREENSHOTS_DIR;

let hub: RunningHub;
let provider: OpenIdProvider;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];
/** The query strings of every callback the browser reached the hub with. */
const callbacks: URL[] = [];

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

async function sessionCookie(): Promise<string | undefined> {
	return (await context.cookies(hub.url)).find((cookie) => cookie.name === "modelhub_session")?.value;
}

/** Signs out of the hub and of the provider (its cookies too: the next sign-in asks again). */
async function signOutEverywhere() {
	// Leave the page first: requests it still has in flight (the account page reloads its parts after a
	// change) would otherwise be answered 401 once the cookies are gone, and logged as console errors.
	await page.goto("about:blank");
	await context.clearCookies();
	await page.goto(`${hub.url}/login`, { waitUntil: "networkidle" });
	await page.evaluate(() => localStorage.clear());
}

/**
 * From a hub page with the "… with Test IdP" link: follows it, signs in at the provider as `login`
 * (its development pages: a login form, then consent) and waits to be back on a hub page.
 */
async function signInAtProvider(
	target: Page,
	login: string,
	linkName = `Sign in with ${PROVIDER_NAME}`,
	role: "link" | "button" = "link",
) {
	const from = target.url();
	await target.getByRole(role, { name: linkName }).click();
	await target.waitForURL((url) => url.href !== from);
	await throughProvider(target, login);
	await target.waitForURL((url) => url.href.startsWith(hub.url) && !url.pathname.startsWith("/api/"));
	await target.locator("main h1").first().waitFor();
}

/** On the provider's pages: signs in as `login` and consents, until the browser is sent back to the hub. */
async function throughProvider(target: Page, login: string) {
	for (let step = 0; step < 6; step++) {
		await target.waitForLoadState("domcontentloaded");
		if (target.url().startsWith(hub.url)) break;
		const before = target.url();
		if ((await target.locator("input[name=login]").count()) > 0) {
			await target.locator("input[name=login]").fill(login);
			await target.locator("input[name=password]").fill("any password");
			await target.getByRole("button", { name: "Sign-in" }).click();
		} else {
			await target.getByRole("button", { name: "Continue" }).click();
		}
		await target.waitForURL((url) => url.href !== before);
	}
}

/**
 * Another browser, as plain HTTP: its own cookies (a session, a flow) sent by hand. The provider's part of
 * its sign-ins runs in Chromium (callbackFor), whose way back to the hub is caught and replayed from here.
 */
class OtherBrowser {
	cookies = new Map<string, string>();
	async call(method: string, path: string, body?: unknown): Promise<Response> {
		const csrf = this.cookies.get("modelhub_csrf");
		const response = await fetch(hub.url + path, {
			method,
			redirect: "manual",
			headers: {
				cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; "),
				...(body !== undefined ? { "content-type": "application/json" } : {}),
				...(csrf ? { "x-csrf-token": csrf } : {}),
			},
			...(body !== undefined ? { body: JSON.stringify(body) } : {}),
		});
		for (const line of response.headers.getSetCookie()) {
			const [pair = ""] = line.split(";");
			const at = pair.indexOf("=");
			const [name, value] = [pair.slice(0, at), pair.slice(at + 1)];
			if (/Max-Age=0\b/.test(line) || value === "") this.cookies.delete(name);
			else this.cookies.set(name, value);
		}
		return response;
	}
}

/**
 * Goes through the provider in Chromium from `url` (a sign-in another browser started) as `login`, and
 * answers the callback URL the provider sent the browser back with. Chromium holds no flow cookie, so the
 * hub turns it away before it spends the code (`flow`), and the other browser can bring it back itself.
 */
async function callbackFor(url: string, login: string): Promise<string> {
	await signOutEverywhere();
	const seen = callbacks.length;
	await page.goto(url);
	await throughProvider(page, login);
	await expectSsoError(page, "flow", /No sign-in was in progress/);
	expect(callbacks.length).toBe(seen + 1);
	const callback = callbacks.at(-1) as URL;
	return callback.pathname + callback.search;
}

const HOPPER = { username: "hopper", password: "correct horse battery staple" };
const HOPPER_EMAIL = "hopper@example.org";

/** Sends JSON from the page (its cookies, and the CSRF token the hub's pages send): the answer's status. */
async function fromPage(path: string, method: string, body?: unknown): Promise<number> {
	return page.evaluate(
		async ({ path, method, body }) => {
			const csrf = /(?:^|; )modelhub_csrf=([^;]*)/.exec(document.cookie)?.[1];
			const response = await fetch(path, {
				method,
				headers: {
					...(body !== undefined ? { "content-type": "application/json" } : {}),
					...(csrf ? { "x-csrf-token": decodeURIComponent(csrf) } : {}),
				},
				...(body !== undefined ? { body: JSON.stringify(body) } : {}),
			});
			return response.status;
		},
		{ path, method, body },
	);
}

/** `GET /api/settings/sign-in` as the page's session. */
async function signInMethodsOfPage(): Promise<unknown> {
	return page.evaluate(async () => (await (await fetch("/api/settings/sign-in")).json()) as unknown);
}

async function expectSsoError(target: Page, kind: string, text: RegExp) {
	await target.waitForURL((url) => url.pathname === "/login");
	expect(new URL(target.url()).searchParams.get("sso_error")).toBe(kind);
	const alert = target.getByTestId("sso-error");
	await alert.waitFor();
	expect(await alert.textContent()).toMatch(text);
	expect(await sessionCookie()).toBeUndefined();
}

async function screenshot(target: Page, name: string) {
	if (!SCREENS) return;
	mkdirSync(SCREENS, { recursive: true });
	const width = target.viewportSize()?.width ?? 1280;
	await target.screenshot({ path: join(SCREENS, `${name}-${width}.png`), fullPage: true });
}

/** Starts a sign-in with plain HTTP: its flow cookie and the state it sent to the provider. */
async function startFlow(): Promise<{ cookie: string; state: string }> {
	const response = await fetch(`${hub.url}/api/auth/oidc/start?next=/account`, { redirect: "manual" });
	expect(response.status).toBe(303);
	const location = new URL(response.headers.get("location") ?? "");
	expect(location.origin).toBe(provider.issuer);
	expect(location.searchParams.get("code_challenge_method")).toBe("S256");
	const cookie = (response.headers.getSetCookie()[0] ?? "").split(";")[0] ?? "";
	expect(cookie).toMatch(/^modelhub_oidc=./);
	return { cookie, state: location.searchParams.get("state") ?? "" };
}

beforeAll(async () => {
	const port = await freePort();
	const hubUrl = `http://127.0.0.1:${port}`;
	provider = await startOpenIdProvider(`${hubUrl}/api/auth/oidc/callback`);
	[hub, browser] = await Promise.all([
		startHub({
			PORT: String(port),
			MODELHUB_PUBLIC_URL: hubUrl,
			MODELHUB_ADMIN_TOKEN: ADMIN_TOKEN,
			MODELHUB_SIGNUP: "invite",
			MODELHUB_PASSWORD_COST: "14",
			MODELHUB_OIDC_ISSUER: provider.issuer,
			MODELHUB_OIDC_CLIENT_ID: provider.clientId,
			MODELHUB_OIDC_CLIENT_SECRET: provider.clientSecret,
			MODELHUB_OIDC_NAME: PROVIDER_NAME,
			// Every request's URL is logged at this level: the callback's code and state must not be.
			MODELHUB_LOG_LEVEL: "info",
		}),
		launchBrowser(),
	]);
	context = browser.context;
	page = context.pages()[0] ?? (await context.newPage());
	page.setDefaultTimeout(15_000);
	errors = watchErrors(page);
	page.on("request", (request) => {
		if (request.url().startsWith(`${hub.url}/api/auth/oidc/callback`)) callbacks.push(new URL(request.url()));
	});
}, 120_000);

afterAll(async () => {
	await browser?.close();
	await hub?.stop();
	await provider?.close();
});

describe("single sign-on with OpenID Connect", () => {
	it("offers the provider on /login; without an invite, someone the hub does not know gets no account", async () => {
		await visit(page, "/login");
		await page.getByRole("link", { name: `Sign in with ${PROVIDER_NAME}` }).waitFor();
		await signInAtProvider(page, "grace");
		await expectSsoError(page, "invite", /admits new accounts by invitation/);
		const users = await fetch(`${hub.url}/api/whoami-v2`, { headers: { cookie: "" } });
		expect(users.status).toBe(401);
	}, 60_000);

	it("signs up from an invite link through the provider, stays signed in, and signs in again to the same account", async () => {
		await signOutEverywhere();
		await visit(page, await invite());
		await signInAtProvider(page, "grace", `Sign up with ${PROVIDER_NAME}`);
		await page.getByRole("heading", { name: "Your models" }).waitFor();
		expect(await page.locator("main").textContent()).toContain("Signed in as grace");
		const first = await sessionCookie();
		expect(first).toMatch(/^mhs_/);
		await page.reload({ waitUntil: "networkidle" });
		await page.getByRole("heading", { name: "Your models" }).waitFor();
		// The same person again (no invite now): the linked account, not a new one.
		await signOutEverywhere();
		await visit(page, "/login?next=/settings/tokens");
		await signInAtProvider(page, "grace");
		await page.getByRole("heading", { name: "Access tokens" }).waitFor();
		expect(new URL(page.url()).pathname).toBe("/settings/tokens");
		const whoami = await page.evaluate(async () => (await fetch("/api/whoami-v2")).json());
		expect(whoami).toMatchObject({ name: "grace", fullname: "Grace Tester" });
		expect(await sessionCookie()).not.toBe(first);
		// A local account named like a provider's person is never taken over: a new one gets another name.
		const created = await fetch(`${hub.url}/api/admin/users`, {
			method: "POST",
			headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
			body: JSON.stringify({ name: "alan" }),
		});
		expect(created.status).toBeLessThan(300);
		await signOutEverywhere();
		await visit(page, await invite());
		await signInAtProvider(page, "alan", `Sign up with ${PROVIDER_NAME}`);
		await page.getByRole("heading", { name: "Your models" }).waitFor();
		expect(await page.locator("main").textContent()).toContain("Signed in as alan-2");
		// The provider's development pages load a web font this machine cannot reach: only the hub's count.
		expect(errors.filter((line) => line.startsWith(hub.url))).toEqual([]);
	}, 90_000);

	it("refuses a replayed callback and a replayed code: no session", async () => {
		const used = callbacks.at(-1);
		expect(used?.searchParams.get("code")).toBeTruthy();
		// The same callback URL again in a browser with no sign-in in progress.
		await signOutEverywhere();
		await page.goto(used?.href ?? "", { waitUntil: "networkidle" });
		await expectSsoError(page, "flow", /No sign-in was in progress/);
		// The used code with a new sign-in's own state and cookie: the provider refuses it.
		const flow = await startFlow();
		const replay = new URL(`${hub.url}/api/auth/oidc/callback`);
		replay.searchParams.set("code", used?.searchParams.get("code") ?? "");
		replay.searchParams.set("state", flow.state);
		replay.searchParams.set("iss", provider.issuer);
		const response = await fetch(replay, { headers: { cookie: flow.cookie }, redirect: "manual" });
		expect(response.status).toBe(303);
		expect(response.headers.get("location")).toBe("/login?sso_error=code");
		expect(response.headers.getSetCookie().join("\n")).not.toContain("modelhub_session=mhs_");
	}, 60_000);

	it("refuses a wrong state and another issuer in the answer, with a clear message and no session", async () => {
		for (const [change, kind, text] of [
			["state", "state", /its state differs/],
			["iss", "issuer", /another issuer/],
		] as const) {
			await signOutEverywhere();
			provider.forgeCallback = {
				name: change,
				value: change === "state" ? "not-the-state" : "http://127.0.0.1:1/evil",
			};
			try {
				await visit(page, "/login");
				await signInAtProvider(page, "grace");
				await expectSsoError(page, kind, text);
			} finally {
				provider.forgeCallback = undefined;
			}
		}
	}, 60_000);

	it("refuses an ID token signed with another key, expired, or naming another issuer: no session", async () => {
		for (const [tamper, kind, text] of [
			["foreign-key", "signature", /no valid signature/],
			["expired", "expired", /has expired/],
			["other-issuer", "issuer", /another issuer/],
		] as const) {
			await signOutEverywhere();
			provider.tamper = tamper;
			try {
				await visit(page, "/login");
				await signInAtProvider(page, "grace");
				await expectSsoError(page, kind, text);
			} finally {
				provider.tamper = "none";
			}
		}
	}, 90_000);

	it("refuses a disabled account's sign-in", async () => {
		const disabled = await fetch(`${hub.url}/api/admin/users/grace/disable`, {
			method: "POST",
			headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
		});
		expect(disabled.status).toBe(200);
		await signOutEverywhere();
		await visit(page, "/login");
		await signInAtProvider(page, "grace");
		await expectSsoError(page, "disabled", /disabled/);
		await fetch(`${hub.url}/api/admin/users/grace/enable`, {
			method: "POST",
			headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
		});
	}, 60_000);

	it("links an account made with a password from /account, signs in with the provider into it, and unlinks", async () => {
		await signOutEverywhere();
		const code = new URL(await invite()).searchParams.get("invite");
		expect(await fromPage("/api/auth/join", "POST", { ...HOPPER, email: HOPPER_EMAIL, invite: code })).toBe(
			201,
		);
		await visit(page, "/account");
		const section = page.getByTestId("sso-link");
		await section.getByText(`Link your account to ${PROVIDER_NAME}`).waitFor();
		await signInAtProvider(page, "linus", `Link ${PROVIDER_NAME}`, "button");
		expect(new URL(page.url()).pathname).toBe("/account");
		await section.getByText(`Your account is linked to ${PROVIDER_NAME}`).waitFor();
		expect(await section.textContent()).toContain(`Linked to ${PROVIDER_NAME} since`);
		expect(await signInMethodsOfPage()).toMatchObject({
			password: true,
			sso: { name: PROVIDER_NAME, linked: { subject: "linus" } },
		});
		await expectNoAxeViolations(page, "account page with single sign-on linked");
		await screenshot(page, "account-sso-linked");
		// Signed out, the provider's person now signs in to hopper (no invite needed: the account exists).
		await signOutEverywhere();
		await visit(page, "/login");
		await signInAtProvider(page, "linus");
		expect(
			await page.evaluate(async () => (await (await fetch("/api/whoami-v2")).json()) as unknown),
		).toMatchObject({
			name: "hopper",
		});
		await visit(page, "/account");
		await section.getByRole("button", { name: `Unlink ${PROVIDER_NAME}` }).click();
		await section.getByText(`no longer linked to ${PROVIDER_NAME}`).waitFor();
		await section.getByRole("button", { name: `Link ${PROVIDER_NAME}` }).waitFor();
		expect(await signInMethodsOfPage()).toMatchObject({ password: true, sso: { linked: null } });
		// Unlinked: the same person at the provider is nobody here again.
		await signOutEverywhere();
		await visit(page, "/login");
		await signInAtProvider(page, "linus");
		await expectSsoError(page, "invite", /admits new accounts by invitation/);
		expect(errors.filter((line) => line.startsWith(hub.url))).toEqual([]);
	}, 120_000);

	it("never signs into an account by its e-mail: a new person whose verified address an account has gets no session", async () => {
		// The provider says sub-hopper's verified address is hopper@example.org, hopper's address here.
		await signOutEverywhere();
		await visit(page, await invite());
		await signInAtProvider(page, "hopper", `Sign up with ${PROVIDER_NAME}`);
		await expectSsoError(page, "email", /already has your e-mail address: nobody was signed in/);
		const accounts = await fetch(`${hub.url}/api/admin/accounts?limit=100`, {
			headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
		});
		const names = ((await accounts.json()) as { name: string }[]).map((account) => account.name);
		expect(names).toContain("hopper");
		expect(names.filter((name) => name.startsWith("hopper"))).toEqual(["hopper"]);
		// And hopper's own sign-in methods are as they were: no link to sub-hopper.
		expect(await fromPage("/api/auth/login", "POST", HOPPER)).toBe(200);
		expect(await signInMethodsOfPage()).toMatchObject({ sso: { linked: null } });
	}, 60_000);

	it("refuses to unlink the only way to sign in, and to link a person linked to another account", async () => {
		// grace joined through the provider: no password, so the link is her only way in.
		await signOutEverywhere();
		await visit(page, "/login");
		await signInAtProvider(page, "grace");
		await visit(page, "/account");
		const section = page.getByTestId("sso-link");
		await section.getByRole("button", { name: `Unlink ${PROVIDER_NAME}` }).click();
		await section.getByText(/would leave your account no way to sign in/).waitFor();
		expect(await signInMethodsOfPage()).toMatchObject({
			password: false,
			sso: { linked: { subject: "grace" } },
		});
		// hopper signs in with the password and tries to link grace's person at the provider.
		await signOutEverywhere();
		expect(await fromPage("/api/auth/login", "POST", HOPPER)).toBe(200);
		await visit(page, "/account");
		await signInAtProvider(page, "grace", `Link ${PROVIDER_NAME}`, "button");
		await page.waitForURL((url) => url.searchParams.get("sso_error") === "taken");
		await section.getByText(/linked to another account on this hub/).waitFor();
		expect(await signInMethodsOfPage()).toMatchObject({ sso: { linked: null } });
		// A link started with a token, not a browser session, is refused.
		const byToken = await fetch(`${hub.url}/api/settings/sign-in/sso`, {
			method: "POST",
			headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
		});
		expect(byToken.status).toBe(401);
	}, 90_000);

	it("refuses a link finished in a browser no longer signed in, and one to an account linked meanwhile, at the callback", async () => {
		// Another browser signs in as hopper and starts linking, then signs out before coming back.
		const other = new OtherBrowser();
		expect((await other.call("POST", "/api/auth/login", HOPPER)).status).toBe(200);
		const started = await other.call("POST", "/api/settings/sign-in/sso");
		expect(started.status).toBe(200);
		const { url } = (await started.json()) as { url: string };
		expect(other.cookies.get("modelhub_oidc")).toBeTruthy();
		expect((await other.call("POST", "/api/auth/logout")).status).toBe(204);
		const back = await other.call("GET", await callbackFor(url, "nobody"));
		expect(back.status).toBe(303);
		expect(back.headers.get("location")).toBe("/account?sso_error=session");
		expect(other.cookies.get("modelhub_session")).toBeUndefined();
		expect(await fetch(`${hub.url}/api/settings/sign-in`).then((r) => r.status)).toBe(401);
		// Signed out, /account is the sign-in page, which says what happened.
		await signOutEverywhere();
		await page.goto(`${hub.url}${back.headers.get("location") ?? ""}`, { waitUntil: "networkidle" });
		await page.waitForURL((at) => at.pathname === "/login");
		expect(await page.getByTestId("sso-error").textContent()).toMatch(
			/no longer signed in to the account that started linking/,
		);

		// Two browsers of hopper start linking; the first links sub-linus, the second comes back with another
		// person: refused (one person per provider), and the first link stands.
		expect((await other.call("POST", "/api/auth/login", HOPPER)).status).toBe(200);
		const second = ((await (await other.call("POST", "/api/settings/sign-in/sso")).json()) as { url: string })
			.url;
		await signOutEverywhere();
		expect(await fromPage("/api/auth/login", "POST", HOPPER)).toBe(200);
		await visit(page, "/account");
		await signInAtProvider(page, "linus", `Link ${PROVIDER_NAME}`, "button");
		expect(await signInMethodsOfPage()).toMatchObject({ sso: { linked: { subject: "linus" } } });
		// Linked already: starting again is refused at once.
		expect(await fromPage("/api/settings/sign-in/sso", "POST")).toBe(409);
		const refused = await other.call("GET", await callbackFor(second, "someone-else"));
		expect(refused.headers.get("location")).toBe("/account?sso_error=linked");
		expect(await (await other.call("GET", "/api/settings/sign-in")).json()).toMatchObject({
			sso: { linked: { subject: "linus" } },
		});
		// someone-else is nobody here.
		await visit(page, "/login");
		await signInAtProvider(page, "someone-else");
		await expectSsoError(page, "invite", /admits new accounts by invitation/);
	}, 120_000);

	it("sets a first password on an account made through the provider, then signs in with it", async () => {
		const errorsBefore = errors.length;
		await signOutEverywhere();
		await visit(page, await invite());
		await signInAtProvider(page, "ada", `Sign up with ${PROVIDER_NAME}`);
		await visit(page, "/account");
		const section = page.getByTestId("password-change");
		await section.getByRole("heading", { name: "Set a password" }).waitFor();
		expect(await section.getByLabel("Current password").count()).toBe(0);
		await expectNoAxeViolations(page, "account page setting a first password");
		await screenshot(page, "account-set-password");
		await section.getByLabel("New password").fill("ada's first password");
		await section.getByRole("button", { name: "Set password" }).click();
		await section.getByText("Password set").waitFor();
		await section.getByRole("heading", { name: "Change password" }).waitFor();
		expect(await signInMethodsOfPage()).toMatchObject({
			password: true,
			sso: { linked: { subject: "ada" } },
		});
		await page.getByRole("button", { name: "Sign out" }).click();
		await visit(page, "/login");
		await page.getByLabel("User name").fill("ada");
		await page.getByLabel("Password", { exact: true }).fill("ada's first password");
		await page.getByRole("button", { name: "Sign in", exact: true }).click();
		await page.waitForURL((url) => url.pathname === "/account");
		await page.getByRole("heading", { name: "Your models" }).waitFor();
		expect(await page.locator("main").textContent()).toContain("Signed in as ada");
		expect(errors.slice(errorsBefore).filter((line) => line.startsWith(hub.url))).toEqual([]);
	}, 90_000);

	it("has no axe violations on sign-in and join with the provider's button and an error, 1280 and 390 px, both themes", async () => {
		await signOutEverywhere();
		for (const width of [1280, 390]) {
			await page.setViewportSize({ width, height: 844 });
			await visit(page, "/login?sso_error=state");
			await page.getByRole("link", { name: `Sign in with ${PROVIDER_NAME}` }).waitFor();
			await page.getByTestId("sso-error").waitFor();
			await expectNoAxeViolations(page, `sign-in with single sign-on at ${width}`, []);
			await screenshot(page, "login-sso");
			await visit(page, await invite());
			await page.getByRole("link", { name: `Sign up with ${PROVIDER_NAME}` }).waitFor();
			await expectNoAxeViolations(page, `join with single sign-on at ${width}`, []);
		}
		await page.setViewportSize({ width: 1280, height: 800 });
	}, 90_000);

	it("writes no authorization code, state, ID token or secret to the hub's log", () => {
		const log = hub.output();
		expect(log).toContain("/api/auth/oidc/callback");
		expect(callbacks.length).toBeGreaterThan(3);
		for (const callback of callbacks) {
			for (const name of ["code", "state"]) {
				const value = callback.searchParams.get(name);
				if (value && value !== "not-the-state") expect(log, name).not.toContain(value);
			}
		}
		for (const token of provider.issuedIdTokens) expect(log).not.toContain(token.split(".")[2]);
		expect(log).not.toContain(provider.clientSecret);
		expect(log).not.toContain("mhs_");
		expect(log).not.toContain("mhi_");
	});
});
