/**
 * The Community tab in Debian's Chromium against the real hub (issue 24): a reader starts a discussion
 * (Markdown rendered safely) and comments, the list filters and counts it, its author closes and reopens
 * it, a pull request opened through the API (a `create_pr=1` commit) shows its diff and no merge button
 * to the reader, and its owner merges it from the page; comments are hidden from the page by their author
 * or a writer after a confirmation; a private model's Community pages are 404 to
 * others, on the server and in the app; a model and a dataset without a namespace (`/gpt2/discussions`,
 * `/datasets/squad/discussions`) have a Community tab too. axe at 1280 and 390 px in both themes on the list and thread.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectNoAxeViolations, launchBrowser, type Browser } from "./support/browser";
import { startHub, type RunningHub } from "./support/hub";
import { hubJson, navigateInApp, signInWithToken } from "./support/session";

const ADMIN_TOKEN = "discussions-e2e-admin-token-0123456789";
const MODEL = "alice/shared";
const PRIVATE = "alice/secret";
const DATASET = "alice/data";
/** Ids without a namespace, as the public hub's legacy canonical repositories have (the admin token makes them). */
const LEGACY_MODEL = "gpt2";
const LEGACY_DATASET = "squad";
/** notes.txt on main: twenty lines, so a pull request changing its 2nd and 19th has two hunks. */
const NOTES = ["one", "two", "three", ...Array.from({ length: 17 }, (_, i) => `line ${i + 4}`)]
	.map((line) => `${line}\n`)
	.join("");
const NOTES_PR = NOTES.replace("two\n", "2\n").replace("line 19\n", "line nineteen\n");

let hub: RunningHub;
let browser: Browser;
const tokens: Record<string, string> = {};
const pages: Page[] = [];
/** Console errors and uncaught exceptions of every tab. */
const errors: string[] = [];

/** The errors seen so far, but the console's note of an expected API answer (a 404, a refused merge). */
function unexpectedErrors(expectedStatuses: readonly number[] = []): string[] {
	return errors.filter(
		(error) =>
			!expectedStatuses.some((status) =>
				error.includes(`Failed to load resource: the server responded with a status of ${status}`),
			),
	);
}

const api = (method: string, path: string, token: string, body?: unknown) =>
	hubJson(hub.url, method, path, token, body);

/** Commits one text file as `token`, to `main` or (with `createPr`) into a new pull request. */
async function commit(token: string, repo: string, path: string, text: string, createPr = false) {
	const lines = [
		{ key: "header", value: { summary: `Add ${path}`, description: "" } },
		{ key: "file", value: { path, encoding: "base64", content: Buffer.from(text).toString("base64") } },
	];
	const response = await fetch(`${hub.url}/api/models/${repo}/commit/main${createPr ? "?create_pr=1" : ""}`, {
		method: "POST",
		headers: { authorization: `Bearer ${token}`, "content-type": "application/x-ndjson" },
		body: lines.map((line) => JSON.stringify(line)).join("\n"),
	});
	const answer = (await response.json()) as { pullRequestUrl?: string };
	if (!response.ok) throw new Error(`commit: ${response.status} ${JSON.stringify(answer)}`);
	return answer;
}

/** A new tab signed in with `token` (a token session lives in its tab only). */
async function tab(token: string): Promise<Page> {
	const page = await browser.context.newPage();
	page.setDefaultTimeout(10_000);
	pages.push(page);
	page.on("console", (message) => {
		if (message.type() === "error") errors.push(`${page.url()}: ${message.text()}`);
	});
	page.on("pageerror", (error) => errors.push(`${page.url()}: uncaught ${error.message}`));
	await signInWithToken(page, hub.url, token);
	return page;
}

const go = (page: Page, path: string) => navigateInApp(page, path);

/** The status and title the hub serves a page address with, to a browser without a session. */
async function served(path: string): Promise<{ status: number; title: string | undefined }> {
	const response = await fetch(hub.url + path, { headers: { accept: "text/html" } });
	return { status: response.status, title: /<title>([^<]*)<\/title>/.exec(await response.text())?.[1] };
}

beforeAll(async () => {
	[hub, browser] = await Promise.all([startHub({ MODELHUB_ADMIN_TOKEN: ADMIN_TOKEN }), launchBrowser()]);
	for (const name of ["alice", "bob"]) {
		tokens[name] = (
			(await api("POST", "/api/admin/users", ADMIN_TOKEN, { name })) as { token: string }
		).token;
	}
	const alice = tokens.alice as string;
	await api("POST", "/api/repos/create", alice, { type: "model", name: "shared" });
	await api("POST", "/api/repos/create", alice, { type: "model", name: "secret", private: true });
	await api("POST", "/api/repos/create", alice, { type: "dataset", name: "data" });
	await api("POST", "/api/repos/create", ADMIN_TOKEN, { type: "model", name: LEGACY_MODEL });
	await api("POST", "/api/repos/create", ADMIN_TOKEN, { type: "dataset", name: LEGACY_DATASET });
	// A card, so the model page asks for nothing the hub answers 404 (a console error).
	await commit(alice, MODEL, "README.md", "# Shared\n");
	await commit(alice, MODEL, "notes.txt", NOTES);
	await api("POST", `/api/models/${PRIVATE}/discussions`, alice, {
		title: "Private plans",
		description: "Nobody else may read this.",
		pullRequest: false,
	});
}, 120_000);

afterAll(async () => {
	for (const page of pages) if (!page.isClosed()) await page.close();
	await browser?.close();
	await hub?.stop();
});

describe("the Community tab in the browser", () => {
	it("starts a discussion with safe Markdown, comments, lists it, and its author closes and reopens it", async () => {
		const bob = await tab(tokens.bob as string);
		await go(bob, `/${MODEL}`);
		await bob.getByRole("tab", { name: "Community" }).click();
		await bob.getByRole("heading", { name: "Discussions and pull requests" }).waitFor();
		expect(new URL(bob.url()).pathname).toBe(`/${MODEL}/discussions`);
		await bob.getByText("Nothing here yet.").waitFor();

		await bob.getByRole("button", { name: "New discussion" }).click();
		await bob.getByLabel("Title", { exact: true }).fill("How was it trained?");
		await bob
			.getByLabel("Description")
			.fill(
				'Is it **fine-tuned**?\n\n<script>window.pwned=1</script><a href="javascript:window.pwned=1">x</a>',
			);
		await bob.getByRole("button", { name: "Start discussion" }).click();
		const title = bob.getByRole("heading", { level: 2, name: /How was it trained\?/ });
		await title.waitFor();
		expect(new URL(bob.url()).pathname).toBe(`/${MODEL}/discussions/1`);
		const description = bob.getByRole("article", { name: /^Comment by bob/ }).first();
		await expect(description.locator(".markdown strong").textContent()).resolves.toBe("fine-tuned");
		await expect(description.locator("script, a[href^='javascript']").count()).resolves.toBe(0);
		expect(await bob.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
		await expect(bob.title()).resolves.toBe(`How was it trained? #1 · ${MODEL} · ModelHub`);

		await bob.getByLabel("Comment", { exact: true }).fill("Also: which *data*?");
		await bob.getByRole("button", { name: "Comment", exact: true }).click();
		await bob
			.getByRole("article", { name: /^Comment by bob/ })
			.nth(1)
			.locator("em", { hasText: "data" })
			.waitFor();
		await expect(bob.getByLabel("Comment", { exact: true }).inputValue()).resolves.toBe("");
		await expectNoAxeViolations(bob, "a discussion thread");

		// The author closes and reopens it; each change is an event of the thread.
		await bob.getByRole("button", { name: "Close discussion" }).click();
		await bob.getByText("closed this discussion").waitFor();
		await bob.locator(".discussion-header .badge", { hasText: "Closed" }).waitFor();
		await bob.getByRole("button", { name: "Reopen discussion" }).click();
		await bob.getByText("opened this discussion").waitFor();
		await bob.getByRole("button", { name: "Close discussion" }).waitFor();

		await bob.getByRole("link", { name: "← All discussions" }).click();
		const item = bob.getByRole("listitem").filter({ hasText: "How was it trained?" });
		await item.getByText("2 comments").waitFor();
		await expectNoAxeViolations(bob, "the discussions list");
		await bob.getByRole("button", { name: "Pull requests" }).click();
		await bob.getByText("Nothing here yet.").waitFor();
		expect(new URL(bob.url()).search).toBe("?type=pull_request");
		await bob.getByRole("button", { name: "Closed" }).click();
		expect(new URL(bob.url()).search).toBe("?type=pull_request&status=closed");

		expect(await served(`/${MODEL}/discussions`)).toEqual({
			status: 200,
			title: `Discussions · ${MODEL} · ModelHub`,
		});
		expect(await served(`/${MODEL}/discussions/1`)).toEqual({
			status: 200,
			title: `How was it trained? #1 · ${MODEL} · ModelHub`,
		});
		expect(unexpectedErrors()).toEqual([]);
	});

	it("shows a pull request opened through the API with its diff, no merge button to a reader, and merges it for the owner", async () => {
		const opened = await commit(tokens.bob as string, MODEL, "notes.txt", NOTES_PR, true);
		const num = Number(/\/discussions\/(\d+)$/.exec(opened.pullRequestUrl ?? "")?.[1]);
		expect(num).toBeGreaterThan(0);
		const thread = `/${MODEL}/discussions/${num}`;

		const bob = pages[0] as Page;
		await go(bob, thread);
		await bob.getByRole("heading", { level: 2, name: /Add notes\.txt/ }).waitFor();
		await bob.getByText("added a commit: Add notes.txt").waitFor();
		await bob.getByRole("button", { name: "Close pull request" }).waitFor();
		await expect(bob.getByRole("button", { name: "Merge" }).count()).resolves.toBe(0);

		await bob.getByRole("link", { name: "Files changed" }).click();
		const diff = bob.getByRole("region", { name: "Changes to notes.txt" });
		await diff.waitFor();
		await expect(diff.locator("caption").textContent()).resolves.toBe("notes.txt: 2 lines added, 2 removed");
		// Two hunks, as git cuts them; the second headed by the line above it (git's function context).
		await expect(diff.locator("tr.diff-hunk").allTextContents()).resolves.toEqual([
			"@@ -1,5 +1,5 @@",
			"@@ -16,5 +16,5 @@ line 15",
		]);
		await expect(diff.locator("tr.diff-removed .diff-text").allTextContents()).resolves.toEqual([
			"two",
			"line 19",
		]);
		await expectNoAxeViolations(bob, "a pull request's changed files");
		expect(await served(`${thread}/files`)).toEqual({
			status: 200,
			title: `Files changed · Add notes.txt #${num} · ${MODEL} · ModelHub`,
		});

		const alice = await tab(tokens.alice as string);
		await go(alice, thread);
		await alice.getByRole("button", { name: "Merge" }).click();
		await alice.getByText("merged this pull request").waitFor();
		await alice.locator(".discussion-header .badge", { hasText: "Merged" }).waitFor();
		await expect(alice.getByRole("button", { name: "Merge" }).count()).resolves.toBe(0);
		const merged = await fetch(`${hub.url}/${MODEL}/resolve/main/notes.txt`);
		await expect(merged.text()).resolves.toBe(NOTES_PR);
		expect(unexpectedErrors()).toEqual([]);
	});

	it("shows the hub's message when a merge conflicts", async () => {
		const alice = pages[1] as Page;
		const opened = await commit(tokens.bob as string, MODEL, "notes.txt", "changed by the PR\n", true);
		const num = Number(/\/discussions\/(\d+)$/.exec(opened.pullRequestUrl ?? "")?.[1]);
		await commit(tokens.alice as string, MODEL, "notes.txt", "changed on main\n");
		await go(alice, `/${MODEL}/discussions/${num}`);
		await alice.getByText("Conflicting files").waitFor();
		await alice.getByRole("button", { name: "Merge" }).click();
		await alice
			.getByRole("alert")
			.filter({ hasText: `Pull request #${num} cannot be merged` })
			.waitFor();
		expect(unexpectedErrors([409])).toEqual([]);
	});

	it("answers a private model's Community pages with 404 to others, on the server and in the app", async () => {
		for (const path of [`/${PRIVATE}/discussions`, `/${PRIVATE}/discussions/1`, `/${MODEL}/discussions/99`])
			expect((await served(path)).status, path).toBe(404);
		const bob = pages[0] as Page;
		await go(bob, `/${PRIVATE}/discussions/1`);
		await bob.getByRole("heading", { level: 1, name: "Model not found" }).waitFor();
		await expect(bob.getByText("Private plans").count()).resolves.toBe(0);
		await go(bob, `/${MODEL}/discussions/99`);
		await bob.getByRole("heading", { level: 1, name: "Discussion not found" }).waitFor();

		const alice = pages[1] as Page;
		await go(alice, `/${PRIVATE}/discussions`);
		await alice.getByRole("link", { name: "Private plans" }).waitFor();
		// The 404 answers of the API calls are the pages' own not-found views.
		expect(unexpectedErrors([404, 409])).toEqual([]);
	});

	it("works on a dataset: edits one's own comment, shows a hidden comment as hidden and a rename as an event", async () => {
		const bob = pages[0] as Page;
		const base = `/api/datasets/${DATASET}/discussions`;
		const created = (await api("POST", base, tokens.bob as string, {
			title: "Missing split",
			description: "Where is the *test* split?",
			pullRequest: false,
		})) as { num: number; url: string };
		expect(new URL(created.url).pathname).toBe(`/datasets/${DATASET}/discussions/${created.num}`);
		await go(bob, `/datasets/${DATASET}/discussions`);
		await bob.getByRole("link", { name: "Missing split" }).click();
		await bob.getByRole("heading", { level: 2, name: /Missing split/ }).waitFor();

		await bob.getByRole("button", { name: "Edit the comment" }).click();
		await bob.getByLabel("Edit the comment").fill("Where is the **validation** split?");
		await bob.getByRole("button", { name: "Save" }).click();
		const description = bob.getByRole("article", { name: /^Comment by bob/ });
		await description.locator(".markdown strong", { hasText: "validation" }).waitFor();
		await description.getByText("· edited").waitFor();

		const details = (await api("GET", `${base}/${created.num}`, tokens.alice as string)) as {
			events: Array<{ id: string; type: string }>;
		};
		const first = details.events.find((event) => event.type === "comment");
		await api("POST", `${base}/${created.num}/comment/${first?.id}/hide`, tokens.alice as string);
		await api("POST", `${base}/${created.num}/title`, tokens.alice as string, { title: "No test split" });
		await go(bob, `/datasets/${DATASET}/discussions`);
		await bob.getByRole("link", { name: "No test split" }).click();
		await bob.getByText("This comment has been hidden").waitFor();
		await bob.getByText("changed the title from “Missing split” to “No test split”").waitFor();
		await expect(bob.getByText("validation").count()).resolves.toBe(0);
		await expect(bob.getByRole("button", { name: "Edit the comment" }).count()).resolves.toBe(0);
		expect(await served(`/datasets/${DATASET}/discussions/${created.num}`)).toEqual({
			status: 200,
			title: `No test split #${created.num} · ${DATASET} · ModelHub`,
		});
		expect(unexpectedErrors([404, 409])).toEqual([]);
	});

	it("hides a comment from its page: its author or a writer, after asking, and for good", async () => {
		const base = `/api/models/${MODEL}/discussions`;
		const created = (await api("POST", base, tokens.bob as string, {
			title: "Off-topic thread",
			description: "A fair question.",
			pullRequest: false,
		})) as { num: number };
		await api("POST", `${base}/${created.num}/comment`, tokens.bob as string, {
			comment: "Buy cheap watches!",
		});
		await api("POST", `${base}/${created.num}/comment`, tokens.alice as string, {
			comment: "Please stay on topic.",
		});
		const thread = `/${MODEL}/discussions/${created.num}`;
		const byBob = (page: Page) => page.getByRole("article", { name: /^Comment by bob/ });
		const byAlice = (page: Page) => page.getByRole("article", { name: /^Comment by alice/ });

		// A reader may hide only his own comments.
		const bob = await tab(tokens.bob as string);
		await go(bob, thread);
		await byAlice(bob).getByText("Please stay on topic.").waitFor();
		await expect(byBob(bob).getByRole("button", { name: "Hide the comment" }).count()).resolves.toBe(2);
		await expect(byAlice(bob).getByRole("button", { name: "Hide the comment" }).count()).resolves.toBe(0);

		// The owner (a writer) may hide anyone's; the first click asks, Cancel keeps the comment.
		const alice = await tab(tokens.alice as string);
		await go(alice, thread);
		const spam = byBob(alice).filter({ hasText: "Buy cheap watches!" });
		await spam.getByRole("button", { name: "Hide the comment" }).click();
		await spam.getByText("Hide this comment? Its text is removed for everyone").waitFor();
		await expectNoAxeViolations(alice, "a comment's hide confirmation");
		await spam.getByRole("button", { name: "Cancel" }).click();
		await expect(spam.getByRole("button", { name: "Hide comment" }).count()).resolves.toBe(0);
		await spam.getByRole("button", { name: "Hide the comment" }).click();
		await spam.getByRole("button", { name: "Hide comment" }).click();
		await alice.getByText("This comment has been hidden by alice.").waitFor();
		await expect(alice.getByText("Buy cheap watches!").count()).resolves.toBe(0);
		// Hidden once and for good: no button offers it again, and the hub has dropped the text.
		await expect(byBob(alice).getByRole("button", { name: "Hide the comment" }).count()).resolves.toBe(1);
		const details = (await api("GET", `${base}/${created.num}`, tokens.bob as string)) as {
			events: Array<{
				type: string;
				data?: { hidden?: boolean; hiddenBy?: string; latest?: { raw: string } };
			}>;
		};
		const comments = details.events.filter((event) => event.type === "comment");
		expect(comments.map((event) => [event.data?.hidden, event.data?.latest?.raw])).toEqual([
			[false, "A fair question."],
			[true, ""],
			[false, "Please stay on topic."],
		]);
		// Bob's tab reads the thread again (a move within the app to the same address reads nothing).
		await go(bob, `/${MODEL}/discussions`);
		await go(bob, thread);
		await bob.getByText("This comment has been hidden by alice.").waitFor();
		await expect(bob.getByText("Buy cheap watches!").count()).resolves.toBe(0);
		expect(unexpectedErrors([404, 409])).toEqual([]);
	});

	it("opens the Community tab of a model and a dataset without a namespace, and a discussion in it", async () => {
		const bob = await tab(tokens.bob as string);
		for (const [type, id, page] of [
			["models", LEGACY_MODEL, `/${LEGACY_MODEL}`],
			["datasets", LEGACY_DATASET, `/datasets/${LEGACY_DATASET}`],
		] as const) {
			const created = (await api("POST", `/api/${type}/${id}/discussions`, tokens.bob as string, {
				title: `Does ${id} still work?`,
				description: "Asking for a **legacy** id.",
				pullRequest: false,
			})) as { num: number };
			expect(created.num).toBeGreaterThan(0);

			// From the repository's page, by its tab (the address is the repository's, not a user's page).
			await go(bob, page);
			await bob.getByRole("tab", { name: "Community" }).click();
			await bob.getByRole("heading", { name: "Discussions and pull requests" }).waitFor();
			expect(new URL(bob.url()).pathname).toBe(`${page}/discussions`);
			await bob.getByRole("link", { name: `Does ${id} still work?` }).click();
			await bob.getByRole("heading", { level: 2, name: new RegExp(`Does ${id} still work\\?`) }).waitFor();
			expect(new URL(bob.url()).pathname).toBe(`${page}/discussions/${created.num}`);
			await bob
				.getByRole("article", { name: /^Comment by bob/ })
				.locator(".markdown strong", { hasText: "legacy" })
				.waitFor();
			await expect(bob.title()).resolves.toBe(`Does ${id} still work? #${created.num} · ${id} · ModelHub`);

			// Loaded afresh at the list's address, as a link or a reload would.
			await bob.goto(`${hub.url}${page}/discussions`, { waitUntil: "networkidle" });
			await bob.getByRole("heading", { name: "Discussions and pull requests" }).waitFor();
			await bob.getByRole("link", { name: `Does ${id} still work?` }).waitFor();
		}
		expect(unexpectedErrors([404, 409])).toEqual([]);
	});
});
