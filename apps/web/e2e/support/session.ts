/**
 * What the browser suites do with a running hub and a tab: call its API as a user, open a page, sign a
 * tab in with an access token, and move within the app as a link would.
 */
import type { Page } from "playwright-core";

/** A JSON call to the hub's API as `token`; a non-2xx answer throws with its status and body. */
export async function hubJson(
	hubUrl: string,
	method: string,
	path: string,
	token: string,
	body?: unknown,
): Promise<unknown> {
	const response = await fetch(hubUrl + path, {
		method,
		headers: {
			authorization: `Bearer ${token}`,
			...(body === undefined ? {} : { "content-type": "application/json" }),
		},
		...(body === undefined ? {} : { body: JSON.stringify(body) }),
	});
	if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
	return response.json();
}

/** Loads `url` and waits for the page's main heading. */
export async function visitPage(page: Page, url: string): Promise<void> {
	await page.goto(url, { waitUntil: "networkidle" });
	await page.locator("main h1").first().waitFor();
}

/** Signs `page` in with an access token from /account (a token session lives in its tab only). */
export async function signInWithToken(page: Page, hubUrl: string, token: string): Promise<void> {
	await visitPage(page, `${hubUrl}/account`);
	await page.getByText("Sign in with an access token").click();
	await page.getByLabel("Hub access token").fill(token);
	await page.getByRole("button", { name: "Sign in with token" }).click();
	await page.getByRole("heading", { name: "Your models" }).waitFor();
}

/**
 * Moves within the app as a link would (a token session lives in memory: a reload would end it), then
 * waits for the level-1 `heading` when named, else for the network to settle and any main heading.
 */
export async function navigateInApp(page: Page, path: string, heading?: string): Promise<void> {
	await page.evaluate((to) => {
		window.history.pushState({}, "", to);
		window.dispatchEvent(new PopStateEvent("popstate"));
	}, path);
	if (heading !== undefined) {
		await page.getByRole("heading", { level: 1, name: heading }).waitFor();
		await page.waitForLoadState("networkidle");
		return;
	}
	await page.waitForLoadState("networkidle");
	await page.locator("main h1").first().waitFor();
}
