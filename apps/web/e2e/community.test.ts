/**
 * Likes and gated access in Debian's Chromium against the real hub (issue 24): a signed-in user likes a
 * model and a dataset (the button's pressed state and count; the dataset is unliked again), asks for access
 * to a gated model from its page, and the
 * owner accepts the request in the model's settings, after which the user's page says so. axe at 1280
 * and 390 px in both themes on every new view; the owner's settings do not scroll sideways at 390 px.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
	expectNoAxeViolations,
	horizontalOverflow,
	launchBrowser,
	watchErrors,
	type Browser,
} from "./support/browser";
import { startHub, type RunningHub } from "./support/hub";
import { hubJson, navigateInApp, signInWithToken } from "./support/session";

const ADMIN_TOKEN = "community-e2e-admin-token-0123456789";
const MODEL = "alice/gated-model";
const DATASET = "alice/liked-rows";

let hub: RunningHub;
let browser: Browser;
const tokens: Record<string, string> = {};
const errors: string[] = [];
const pages: Page[] = [];

const api = (method: string, path: string, token: string, body?: unknown) =>
	hubJson(hub.url, method, path, token, body);

/** A new tab signed in with `token` (a token session lives in its tab only). */
async function tab(token: string): Promise<Page> {
	const page = await browser.context.newPage();
	page.setDefaultTimeout(10_000);
	const seen = watchErrors(page);
	pages.push(page);
	page.on("close", () => errors.push(...seen));
	await signInWithToken(page, hub.url, token);
	return page;
}

const go = (page: Page, path: string) => navigateInApp(page, path);

beforeAll(async () => {
	[hub, browser] = await Promise.all([startHub({ MODELHUB_ADMIN_TOKEN: ADMIN_TOKEN }), launchBrowser()]);
	for (const name of ["alice", "bob"]) {
		tokens[name] = (
			(await api("POST", "/api/admin/users", ADMIN_TOKEN, { name })) as { token: string }
		).token;
	}
	const alice = tokens.alice as string;
	await api("POST", "/api/repos/create", alice, { type: "model", name: "gated-model" });
	await api("PUT", `/api/models/${MODEL}/settings`, alice, { gated: "manual" });
	await api("POST", "/api/repos/create", alice, { type: "dataset", name: "liked-rows" });
}, 120_000);

afterAll(async () => {
	for (const page of pages) if (!page.isClosed()) await page.close();
	await browser?.close();
	await hub?.stop();
});

describe("likes and gated access in the browser", () => {
	it("likes a model, asks for access, and the owner accepts the request", async () => {
		const bob = await tab(tokens.bob as string);
		await go(bob, `/${MODEL}`);
		const like = bob.getByRole("button", { name: /^Like 0/ });
		await like.waitFor();
		await expect(like.getAttribute("aria-pressed")).resolves.toBe("false");
		await like.click();
		const liked = bob.getByRole("button", { name: /^Liked 1/ });
		await liked.waitFor();
		await expect(liked.getAttribute("aria-pressed")).resolves.toBe("true");
		expect(
			((await api("GET", `/api/models/${MODEL}`, tokens.bob as string)) as { likes: number }).likes,
		).toBe(1);

		const ask = bob.getByRole("button", { name: "Agree and send request to access repo" });
		await ask.waitFor();
		await expectNoAxeViolations(bob, "a gated model's request form");
		await ask.click();
		await bob.getByText("Your request is waiting for the owners' review.").waitFor();

		const alice = await tab(tokens.alice as string);
		await go(alice, `/${MODEL}?tab=settings`);
		await alice.getByRole("heading", { name: "Gated access" }).waitFor();
		const accept = alice.getByRole("button", { name: "Accept bob" });
		await accept.waitFor();
		await expectNoAxeViolations(alice, "the owner's request queue");
		// At a phone's width the settings fit the screen (the mode's select too): nothing scrolls sideways.
		await alice.setViewportSize({ width: 390, height: 844 });
		expect(await horizontalOverflow(alice)).toBe(0);
		await alice.setViewportSize({ width: 1280, height: 800 });
		await accept.click();
		await alice.getByText("bob's request was accepted.").waitFor();
		await alice.getByText("No request is waiting.").waitFor();

		await go(bob, "/models");
		// The models list must have replaced the model page, or going back keeps the page (and its stale
		// request state) mounted: `go` only waits for some h1, which the old page still has.
		await bob.getByRole("heading", { level: 1, name: "Models" }).waitFor();
		await go(bob, `/${MODEL}`);
		await bob.getByText("Your request was accepted: you can download this model's files.").waitFor();
		const file = await fetch(`${hub.url}/${MODEL}/resolve/main/.gitattributes`, {
			headers: { authorization: `Bearer ${tokens.bob}` },
		});
		expect(file.status).toBe(200);
		expect(errors).toEqual([]);
	});

	it("likes a dataset from its page and unlikes it again", async () => {
		const bob = await tab(tokens.bob as string);
		await go(bob, `/datasets/${DATASET}`);
		const like = bob.getByRole("button", { name: /^Like 0/ });
		await like.waitFor();
		await expect(like.getAttribute("aria-pressed")).resolves.toBe("false");
		await expectNoAxeViolations(bob, "a dataset's like button");
		await like.click();
		const liked = bob.getByRole("button", { name: /^Liked 1/ });
		await liked.waitFor();
		await expect(liked.getAttribute("aria-pressed")).resolves.toBe("true");
		const bobToken = tokens.bob as string;
		expect(((await api("GET", `/api/datasets/${DATASET}`, bobToken)) as { likes: number }).likes).toBe(1);
		expect(await api("GET", `/api/datasets/${DATASET}/likers`, bobToken)).toEqual([
			expect.objectContaining({ user: "bob" }),
		]);
		// Bob's liked repositories name it as a dataset.
		const mine = (await api("GET", "/api/users/bob/likes", bobToken)) as Array<{
			repo: { name: string; type: string };
		}>;
		expect(mine.map((entry) => `${entry.repo.type}:${entry.repo.name}`)).toContain(`dataset:${DATASET}`);

		// Opened again (the page read anew from the hub), it knows bob likes it; a second press unlikes it.
		await go(bob, "/datasets");
		await bob.getByRole("heading", { level: 1, name: "Datasets" }).waitFor();
		await go(bob, `/datasets/${DATASET}`);
		await liked.waitFor();
		await liked.click();
		await like.waitFor();
		expect(((await api("GET", `/api/datasets/${DATASET}`, bobToken)) as { likes: number }).likes).toBe(0);
		expect(errors).toEqual([]);
	});
});
