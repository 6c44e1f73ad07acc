/**
 * A dataset made and kept from the web (issue 23): "New dataset" (`/new-dataset`, the public hub's
 * address; the same form as `/new` with its type chosen), then on the dataset's page the flows it shares
 * with models: uploading a file, making it private and public, renaming it and deleting it. Each step is
 * checked through the hub's API, as a client would see it; elements are found by role and name. Debian's
 * Chromium against the real hub, a user signed in with an access token.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectNoAxeViolations, launchBrowser, watchErrors, type Browser } from "./support/browser";
import { startHub, type RunningHub } from "./support/hub";
import { hubJson, navigateInApp, signInWithToken } from "./support/session";

const ADMIN_TOKEN = "dataset-settings-e2e-admin-token-0123456789";
const CSV = "text,label\ngood,1\nbad,0\n";

let hub: RunningHub;
let browser: Browser;
let page: Page;
let errors: string[];
let alice = "";

/** The hub's answer to `GET path`, as `token`'s owner or anonymously: its status and JSON body. */
async function api(path: string, token?: string): Promise<{ status: number; body: Record<string, unknown> }> {
	const response = await fetch(
		hub.url + path,
		token ? { headers: { authorization: `Bearer ${token}` } } : {},
	);
	const text = await response.text();
	return {
		status: response.status,
		body: text.startsWith("{") ? (JSON.parse(text) as Record<string, unknown>) : {},
	};
}

/** The titles of the dataset's commits on main, newest first, as its owner reads them. */
async function commitTitles(): Promise<string[]> {
	const commits = (await hubJson(
		hub.url,
		"GET",
		"/api/datasets/alice/field-notes/commits/main",
		alice,
	)) as Array<{
		title: string;
	}>;
	return commits.map((commit) => commit.title);
}

beforeAll(async () => {
	[hub, browser] = await Promise.all([startHub({ MODELHUB_ADMIN_TOKEN: ADMIN_TOKEN }), launchBrowser()]);
	const user = (await hubJson(hub.url, "POST", "/api/admin/users", ADMIN_TOKEN, { name: "alice" })) as {
		token: string;
	};
	alice = user.token;
	await hubJson(hub.url, "POST", "/api/admin/orgs", ADMIN_TOKEN, {
		name: "acme-data",
		members: [{ user: "alice", role: "write" }],
	});
	page = browser.context.pages()[0] ?? (await browser.context.newPage());
	page.setDefaultTimeout(15_000);
	errors = watchErrors(page);
}, 180_000);

afterAll(async () => {
	await browser?.close();
	await hub?.stop();
});

describe("a dataset made and kept from the web", () => {
	it("/new-dataset is a page of its own before any script runs", async () => {
		const response = await fetch(`${hub.url}/new-dataset`, { headers: { accept: "text/html" } });
		expect(response.status).toBe(200);
		expect(await response.text()).toContain("<title>New dataset · ModelHub</title>");
	});

	it("New dataset: the type is chosen, the name checked, and the dataset's files open on the upload form", async () => {
		await signInWithToken(page, hub.url, alice);
		await page.getByRole("link", { name: "New dataset" }).click();
		await page.getByRole("heading", { level: 1, name: "Create a new dataset repository" }).waitFor();
		expect(await page.title()).toBe("New dataset · ModelHub");
		const types = page.getByRole("group", { name: "Repository type" });
		expect(await types.getByRole("radio", { name: "Dataset" }).isChecked()).toBe(true);
		expect(await types.getByRole("radio", { name: "Model" }).isChecked()).toBe(false);
		expect(await page.getByRole("combobox", { name: "Owner" }).locator("option").allTextContents()).toEqual([
			"alice",
			"acme-data",
		]);
		// The same form makes a model: choosing the type renames the fields and the button.
		await types.getByRole("radio", { name: "Model" }).check();
		await page.getByRole("heading", { level: 1, name: "Create a new model repository" }).waitFor();
		await page.getByRole("button", { name: "Create model" }).waitFor();
		await types.getByRole("radio", { name: "Dataset" }).check();
		await page.getByRole("textbox", { name: "Dataset name" }).fill("bad name!");
		await page.getByRole("button", { name: "Create dataset" }).click();
		await page.getByText("Dataset name must be 1 to 96 characters").waitFor();
		expect(await page.getByRole("textbox", { name: "Dataset name" }).getAttribute("aria-invalid")).toBe(
			"true",
		);
		await expectNoAxeViolations(page, "the new dataset form");

		await page.getByRole("textbox", { name: "Dataset name" }).fill("field-notes");
		await page.getByRole("button", { name: "Create dataset" }).click();
		await page.waitForURL(`${hub.url}/datasets/alice/field-notes`);
		await page.getByRole("heading", { name: "Add files to alice/field-notes" }).waitFor();
		expect(await page.getByRole("tab", { name: "Files and versions" }).getAttribute("aria-selected")).toBe(
			"true",
		);
		// A public dataset, not a model.
		const made = await api("/api/datasets/alice/field-notes");
		expect(made.status).toBe(200);
		expect(made.body).toMatchObject({ id: "alice/field-notes", private: false });
		expect((await api("/api/models/alice/field-notes", alice)).status).toBe(404);
	}, 90_000);

	it("uploads a file to the dataset: it is committed to the dataset and downloads as sent", async () => {
		await page
			.getByLabel("Choose files")
			.setInputFiles([{ name: "train.csv", mimeType: "text/csv", buffer: Buffer.from(CSV) }]);
		await page.getByRole("textbox", { name: "Commit message" }).fill("Add the training split");
		await page.getByRole("button", { name: "Commit changes to main" }).click();
		await page.getByText(/Committed 1 file to main \(commit [0-9a-f]{7}\)/).waitFor({ timeout: 30_000 });
		await page
			.locator(".file-table:not(.pending-files)")
			.getByRole("rowheader", { name: /train\.csv/ })
			.waitFor();

		const tree = (await hubJson(
			hub.url,
			"GET",
			"/api/datasets/alice/field-notes/tree/main",
			alice,
		)) as Array<{
			path: string;
		}>;
		expect(tree.map((entry) => entry.path)).toContain("train.csv");
		expect((await commitTitles()).slice(0, 1)).toEqual(["Add the training split"]);
		const download = await fetch(`${hub.url}/datasets/alice/field-notes/resolve/main/train.csv`);
		expect(download.status).toBe(200);
		expect(await download.text()).toBe(CSV);
	}, 60_000);

	it("Create dataset card, then Edit dataset card: the editor opens on README.md and the edit is committed", async () => {
		await page.getByRole("tab", { name: "Dataset card" }).click();
		await page.getByRole("button", { name: "Create dataset card" }).click();
		await page.getByRole("textbox", { name: "Contents of README.md" }).waitFor();
		await page.getByRole("button", { name: "Commit changes to main" }).click();
		const edit = page.getByRole("link", { name: "Edit dataset card" });
		await edit.click();
		await page.waitForURL(`${hub.url}/datasets/alice/field-notes/blob/main/README.md`);
		const text = page.getByRole("textbox", { name: "Contents of README.md" });
		await text.waitFor();
		const card = `${await text.inputValue()}\nEdited from the web.\n`;
		await text.fill(card);
		await page.getByRole("textbox", { name: "Commit message" }).fill("Edit the card");
		await page.getByRole("button", { name: "Commit changes to main" }).click();
		await expect
			.poll(async () => (await fetch(`${hub.url}/datasets/alice/field-notes/resolve/main/README.md`)).text())
			.toBe(card);
		expect((await commitTitles()).slice(0, 2)).toEqual(["Edit the card", "Create README.md"]);
	}, 60_000);

	it("Make private and Make public: the hub hides the dataset from others, then shows it again", async () => {
		await page.getByRole("tab", { name: "Settings" }).click();
		await page.getByText("This dataset is public").waitFor();
		await expectNoAxeViolations(page, "the dataset's settings");
		await page.getByRole("button", { name: "Make private" }).click();
		await page.getByRole("status").filter({ hasText: "This dataset is now private" }).waitFor();
		expect(await page.locator(".model-header .badge-private").textContent()).toBe("Private");
		expect((await api("/api/datasets/alice/field-notes")).status).toBe(404);
		expect((await fetch(`${hub.url}/datasets/alice/field-notes/resolve/main/train.csv`)).status).toBe(404);
		const owner = await api("/api/datasets/alice/field-notes", alice);
		expect(owner.status).toBe(200);
		expect(owner.body.private).toBe(true);

		await page.getByRole("button", { name: "Make public" }).click();
		await page.getByRole("status").filter({ hasText: "This dataset is now public" }).waitFor();
		expect(await page.locator(".model-header .badge-private").count()).toBe(0);
		const everyone = await api("/api/datasets/alice/field-notes");
		expect(everyone.status).toBe(200);
		expect(everyone.body.private).toBe(false);
	}, 60_000);

	it("renames the dataset: the hub answers at the new id, the former one redirects, the page links there", async () => {
		await page.getByRole("textbox", { name: "New name", exact: true }).fill("field-notes-2");
		await page.getByRole("button", { name: "Move to alice/field-notes-2" }).click();
		const moved = page.getByRole("status").filter({ hasText: "Moved." });
		await moved.waitFor();
		const renamed = await api("/api/datasets/alice/field-notes-2");
		expect(renamed.status).toBe(200);
		expect(renamed.body.id).toBe("alice/field-notes-2");
		// A dataset's rename, not a model's: there is no model of either name.
		expect((await api("/api/models/alice/field-notes-2", alice)).status).toBe(404);
		const former = await fetch(`${hub.url}/api/datasets/alice/field-notes`, { redirect: "manual" });
		expect([301, 302, 307, 308]).toContain(former.status);
		expect(former.headers.get("location")).toContain("/api/datasets/alice/field-notes-2");

		await moved.getByRole("link", { name: "alice/field-notes-2" }).click();
		await page.waitForURL(`${hub.url}/datasets/alice/field-notes-2`);
		await page.getByRole("heading", { level: 1, name: /field-notes-2/ }).waitFor();
	}, 60_000);

	it("deletes the dataset once its id is typed: the hub has it no more, and the list of the owner's datasets opens", async () => {
		await page.getByRole("tab", { name: "Settings" }).click();
		const remove = page.getByRole("button", { name: "Delete alice/field-notes-2" });
		await remove.waitFor();
		expect(await remove.isDisabled()).toBe(true);
		await page
			.getByRole("textbox", { name: "Type alice/field-notes-2 to confirm" })
			.fill("alice/field-notes");
		expect(await remove.isDisabled()).toBe(true);
		await page
			.getByRole("textbox", { name: "Type alice/field-notes-2 to confirm" })
			.fill("alice/field-notes-2");
		await remove.click();
		await page.waitForURL(`${hub.url}/datasets?author=alice`);
		await page.getByRole("heading", { level: 1, name: "Datasets" }).waitFor();
		expect((await api("/api/datasets/alice/field-notes-2", alice)).status).toBe(404);
		expect((await api("/api/datasets/alice/field-notes", alice)).status).toBe(404);
		const listed = (await hubJson(hub.url, "GET", "/api/datasets?author=alice", alice)) as unknown[];
		expect(listed).toEqual([]);
		expect(errors).toEqual([]);
	}, 60_000);

	it("a model's settings delete it the same way (the section is shared)", async () => {
		await hubJson(hub.url, "POST", "/api/repos/create", alice, { type: "model", name: "scratch" });
		await navigateInApp(page, "/alice/scratch?tab=settings");
		await page.getByRole("heading", { name: "Delete this model" }).waitFor();
		await page.getByRole("textbox", { name: "Type alice/scratch to confirm" }).fill("alice/scratch");
		await page.getByRole("button", { name: "Delete alice/scratch" }).click();
		await page.waitForURL(`${hub.url}/models?author=alice`);
		expect((await api("/api/models/alice/scratch", alice)).status).toBe(404);
		expect(errors).toEqual([]);
	}, 60_000);
});
