/**
 * Editing in the browser (issue 22, item 5) in Debian's Chromium against the real hub, signed in with a
 * password (the session cookie and its CSRF token, as uploads are): the model card edited with its
 * metadata checked by the hub first (errors inline, nothing committed), then the whole page showing the
 * new metadata without a reload; a text file edited and committed from the keyboard only; a file
 * deleted; a branch and a tag created; nothing offered to those who may not write; axe at 1280 and
 * 390 px in both themes on the editor, the deletion and the branch form. E2E_SCREENSHOTS_DIR writes
 * screenshots.
 */
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ndjson } from "../../../test-support/ndjson";
import { expectNoAxeViolations, launchBrowser, watchErrors, type Browser } from "./support/browser";
import { startHub, type RunningHub } from "./support/hub";

const ADMIN_TOKEN = "edit-e2e-admin-token-0123456789";
const PASSWORD = "correct horse battery staple";
const SCREENS = process.env.E2E_SCREENSHOTS_DIR;
const MODEL = "carol/edit-demo";
const OTHERS = "bob/not-yours";
const CARD = "---\nlicense: mit\n---\n\n# Edit demo\n\nA model to edit.\n";

let hub: RunningHub;
let browser: Browser;
let page: Page;
let errors: string[];

/** A request from the page itself: the session cookie, and the CSRF token the hub wants on writes. */
async function fromPage(
	target: Page,
	path: string,
	init: { method?: string; body?: string; type?: string } = {},
) {
	return target.evaluate(
		async ({ path, init }) => {
			const csrf = /(?:^|;\s*)modelhub_csrf=([^;]+)/.exec(document.cookie)?.[1];
			const response = await fetch(path, {
				method: init.method ?? "GET",
				headers: {
					...(init.type ? { "content-type": init.type } : {}),
					...(csrf ? { "x-csrf-token": csrf } : {}),
				},
				...(init.body !== undefined ? { body: init.body } : {}),
			});
			return { status: response.status, text: await response.text() };
		},
		{ path, init },
	);
}

async function commitTitles(repo: string, revision = "main"): Promise<string[]> {
	const response = await fetch(`${hub.url}/api/models/${repo}/commits/${revision}`, {
		headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
	});
	return ((await response.json()) as Array<{ title: string }>).map((commit) => commit.title);
}

async function fileText(
	repo: string,
	revision: string,
	path: string,
): Promise<{ status: number; text: string }> {
	const response = await fetch(`${hub.url}/${repo}/resolve/${revision}/${path}`);
	return { status: response.status, text: await response.text() };
}

async function visit(target: Page, path: string) {
	await target.goto(hub.url + path, { waitUntil: "networkidle" });
	await target.locator("main h1").first().waitFor();
}

async function screenshot(target: Page, name: string) {
	if (!SCREENS) return;
	mkdirSync(SCREENS, { recursive: true });
	for (const width of [1280, 390]) {
		await target.setViewportSize({ width, height: width < 500 ? 844 : 800 });
		await target.waitForTimeout(100);
		await target.screenshot({ path: join(SCREENS, `${name}-${width}.png`), fullPage: true });
	}
	await target.setViewportSize({ width: 1280, height: 800 });
}

/** The name of the focused element: its label, aria-label or text. */
function focusedName(target: Page): Promise<string> {
	return target.evaluate(() => {
		const element = document.activeElement as HTMLElement | null;
		if (!element) return "";
		const labelled = element.id ? document.querySelector(`label[for="${CSS.escape(element.id)}"]`) : null;
		return (labelled?.textContent ?? element.getAttribute("aria-label") ?? element.textContent ?? "").trim();
	});
}

async function tabTo(target: Page, name: string, max = 60) {
	for (let i = 0; i < max; i++) {
		await target.keyboard.press("Tab");
		if ((await focusedName(target)) === name) return;
	}
	throw new Error(`${name} never got the focus by Tab`);
}

beforeAll(async () => {
	[hub, browser] = await Promise.all([
		startHub({ MODELHUB_ADMIN_TOKEN: ADMIN_TOKEN, MODELHUB_SIGNUP: "open", MODELHUB_PASSWORD_COST: "14" }),
		launchBrowser(),
	]);
	// Bob's model, which carol may read and not write.
	const bob = await fetch(`${hub.url}/api/admin/users`, {
		method: "POST",
		headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
		body: JSON.stringify({ name: "bob" }),
	});
	const bobToken = ((await bob.json()) as { token: string }).token;
	const bobApi = (path: string, body: string, type: string) =>
		fetch(hub.url + path, {
			method: "POST",
			headers: { authorization: `Bearer ${bobToken}`, "content-type": type },
			body,
		});
	expect(
		(await bobApi("/api/repos/create", JSON.stringify({ name: "not-yours" }), "application/json")).status,
	).toBe(200);
	expect(
		(
			await bobApi(
				`/api/models/${OTHERS}/commit/main`,
				ndjson({ "README.md": CARD, "a.txt": "a\n" }, "Bob's"),
				"application/x-ndjson",
			)
		).status,
	).toBe(200);

	page = browser.context.pages()[0] ?? (await browser.context.newPage());
	page.setDefaultTimeout(20_000);
	errors = watchErrors(page);
	// Carol joins (the hub is open to sign-ups): her browser holds the session cookie from here on.
	await visit(page, "/");
	const joined = await fromPage(page, "/api/auth/join", {
		method: "POST",
		type: "application/json",
		body: JSON.stringify({ username: "carol", password: PASSWORD }),
	});
	expect(joined.status, joined.text).toBeLessThan(300);
	const created = await fromPage(page, "/api/repos/create", {
		method: "POST",
		type: "application/json",
		body: JSON.stringify({ name: "edit-demo" }),
	});
	expect(created.status, created.text).toBe(200);
	const first = await fromPage(page, `/api/models/${MODEL}/commit/main`, {
		method: "POST",
		type: "application/x-ndjson",
		body: ndjson({ "README.md": CARD, "notes.txt": "first line\n", "src/old.py": "print('old')\n" }, "Start"),
	});
	expect(first.status, first.text).toBe(200);
}, 300_000);

afterAll(async () => {
	await browser?.close();
	await hub?.stop();
});

describe("editing in the browser", () => {
	it("edits the model card: bad metadata is shown beside the text and nothing is committed; a good edit updates the whole page without a reload", async () => {
		await visit(page, `/${MODEL}`);
		const facts = page.getByRole("list", { name: "Model facts" });
		await facts.waitFor();
		expect(await facts.textContent()).not.toContain("Task");
		// Marks this document: a reload would lose it.
		await page.evaluate(() => ((window as unknown as { unreloaded: boolean }).unreloaded = true));
		await page.getByText("The playground does not cover models without a task").waitFor();
		// Without a library, "Use this model" has no library tab.
		await page.getByRole("button", { name: "Use this model" }).click();
		await page.getByRole("dialog").getByRole("tab", { name: "hf CLI" }).waitFor();
		expect(await page.getByRole("dialog").getByRole("tab", { name: "Transformers" }).count()).toBe(0);
		await page.keyboard.press("Escape");

		await page.getByRole("link", { name: "Edit model card" }).click();
		await page.waitForURL(`${hub.url}/${MODEL}/blob/main/README.md`);
		const text = page.getByLabel("Contents of README.md");
		await text.waitFor();
		expect(await text.inputValue()).toBe(CARD);
		expect(await text.evaluate((node) => node === document.activeElement)).toBe(true);

		// Front matter the hub refuses: its message beside the text, the commit not sent.
		await text.fill("---\nlicense: [mit\n---\n\n# Broken\n");
		await page.getByLabel("Commit message").fill("Break the card");
		await page.getByRole("button", { name: "Commit changes to main" }).click();
		const check = page.locator(".card-check[role=alert]");
		await check.waitFor();
		expect(await check.textContent()).toContain("nothing was committed");
		expect(await text.getAttribute("aria-invalid")).toBe("true");
		expect(await text.getAttribute("aria-describedby")).toContain(await check.getAttribute("id"));
		// Only the hub's first commit and "Start".
		expect(await commitTitles(MODEL)).toEqual(["Start", "initial commit"]);
		await expectNoAxeViolations(page, "card editor with metadata errors");
		await screenshot(page, "edit-card-errors");

		await text.fill(
			"---\nlicense: apache-2.0\npipeline_tag: text-classification\nlibrary_name: transformers\ntags:\n- edited-tag\n---\n\n# Edit demo, edited\n\nNow it classifies text.\n",
		);
		await page.getByLabel("Commit message").fill("Give the model a task");
		await page.getByLabel(/Extended description/).fill("Set from the browser.");
		await page.getByRole("button", { name: "Commit changes to main" }).click();
		await page
			.getByRole("status")
			.filter({ hasText: /Committed [0-9a-f]{7} to main/ })
			.waitFor();
		expect((await commitTitles(MODEL)).slice(0, 2)).toEqual(["Give the model a task", "Start"]);

		// The header, without a reload.
		await facts.getByRole("link", { name: "Text Classification" }).waitFor();
		expect(await facts.getByRole("link", { name: "transformers" }).count()).toBe(1);
		expect(await facts.textContent()).toContain("apache-2.0");
		// The file view shows the new text rendered.
		await page.locator(".blob-markdown h2", { hasText: "Edit demo, edited" }).waitFor();
		// The card tab: new tags and text.
		await page.getByRole("tab", { name: "Model card" }).click();
		// (The tags come from the hub's analysis, just after the commit: the page reads the model again.)
		await page
			.getByRole("list", { name: "Tags" })
			.getByRole("link", { name: /edited-tag/ })
			.waitFor();
		await page.locator(".markdown h2", { hasText: "Edit demo, edited" }).waitFor();
		// The sidebar's playground knows the task now.
		await page.getByText("No inference provider serves this model, so it cannot run here.").waitFor();
		await page.getByRole("button", { name: "Use this model" }).click();
		// "Use this model" offers the new library's snippets.
		const dialog = page.getByRole("dialog");
		await dialog.getByRole("tab", { name: "Transformers" }).waitFor();
		expect(await dialog.locator("pre").allInnerTexts()).toContainEqual(
			expect.stringContaining('AutoModel.from_pretrained("carol/edit-demo")'),
		);
		await page.keyboard.press("Escape");
		expect(await page.evaluate(() => (window as unknown as { unreloaded?: boolean }).unreloaded)).toBe(true);
		expect(errors.filter((error) => !error.includes("400"))).toEqual([]);
	}, 180_000);

	it("edits and commits a text file with the keyboard only", async () => {
		await visit(page, `/${MODEL}/blob/main/notes.txt`);
		await page.getByRole("region", { name: "Contents of notes.txt" }).waitFor();
		await tabTo(page, "Edit notes.txt");
		await page.keyboard.press("Enter");
		const text = page.getByLabel("Contents of notes.txt");
		await text.waitFor();
		await page.waitForFunction(() => document.activeElement?.tagName === "TEXTAREA");
		await page.keyboard.press("Control+End");
		await page.keyboard.type("second line\n");
		await page.keyboard.press("Tab");
		expect(await focusedName(page)).toBe("Commit message");
		await page.keyboard.type("Add a second line");
		await page.keyboard.press("Enter");
		await page
			.getByRole("status")
			.filter({ hasText: /Committed [0-9a-f]{7} to main/ })
			.waitFor();
		await page.getByRole("region", { name: "Contents of notes.txt" }).getByText("second line").waitFor();
		expect(await fileText(MODEL, "main", "notes.txt")).toEqual({
			status: 200,
			text: "first line\nsecond line\n",
		});
		expect((await commitTitles(MODEL))[0]).toBe("Add a second line");
	}, 120_000);

	it("refuses an edit when someone committed in between (the parent commit), saying so", async () => {
		await visit(page, `/${MODEL}/blob/main/notes.txt`);
		await page.getByRole("button", { name: "Edit notes.txt" }).click();
		const text = page.getByLabel("Contents of notes.txt");
		await text.waitFor();
		const meanwhile = await fromPage(page, `/api/models/${MODEL}/commit/main`, {
			method: "POST",
			type: "application/x-ndjson",
			body: ndjson({ "other.txt": "x\n" }, "Meanwhile"),
		});
		expect(meanwhile.status).toBe(200);
		await text.fill("overwritten\n");
		await page.getByRole("button", { name: "Commit changes to main" }).click();
		await page.getByText(/A commit has happened since/).waitFor();
		expect((await fileText(MODEL, "main", "notes.txt")).text).toBe("first line\nsecond line\n");
		await page.getByRole("button", { name: "Cancel" }).click();
	}, 120_000);

	it("deletes a file, and creates a branch and a tag", async () => {
		await visit(page, `/${MODEL}/blob/main/src/old.py`);
		await page.getByRole("button", { name: "Delete src/old.py" }).click();
		await page.getByRole("button", { name: "Delete and commit to main" }).waitFor();
		expect(await focusedName(page)).toBe("Commit message");
		await expectNoAxeViolations(page, "delete form");
		await page.getByRole("button", { name: "Delete and commit to main" }).click();
		await page.waitForURL(`${hub.url}/${MODEL}/tree/main/src`);
		await page.getByRole("status").filter({ hasText: "src/old.py was deleted" }).waitFor();
		expect((await fileText(MODEL, "main", "src/old.py")).status).toBe(404);
		expect((await commitTitles(MODEL))[0]).toBe("Delete old.py");

		await visit(page, `/${MODEL}/tree/main`);
		await page.getByRole("button", { name: "New branch or tag" }).click();
		const name = page.getByLabel("Branch name");
		await name.waitFor();
		// A name git refuses: the hub's message.
		await name.fill("bad..name");
		await page.getByRole("button", { name: "Create branch" }).click();
		await page.getByText(/not a valid git ref name/).waitFor();
		await expectNoAxeViolations(page, "branch form with the hub's refusal");
		await screenshot(page, "new-branch");
		await name.fill("dev");
		await page.getByRole("button", { name: "Create branch" }).click();
		await page.waitForURL(`${hub.url}/${MODEL}/tree/dev`);
		await page.getByRole("status").filter({ hasText: "Created the branch dev at main" }).waitFor();
		expect(await page.getByLabel("Revision").inputValue()).toBe("dev");

		await page.getByRole("button", { name: "New branch or tag" }).click();
		await page.getByLabel("Tag", { exact: true }).check();
		await page.getByLabel("Tag name").fill("v1.0");
		await page.getByLabel(/Tag message/).fill("First release");
		await page.getByRole("button", { name: "Create tag" }).click();
		await page.getByRole("status").filter({ hasText: "Created the tag v1.0 at dev" }).waitFor();
		await page.locator("select option", { hasText: "v1.0 (tag)" }).waitFor({ state: "attached" });
		const refs = (await (
			await fetch(`${hub.url}/api/models/${MODEL}/refs`, {
				headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
			})
		).json()) as { branches: Array<{ name: string }>; tags: Array<{ name: string }> };
		expect(refs.branches.map((ref) => ref.name).sort()).toEqual(["dev", "main"]);
		expect(refs.tags.map((ref) => ref.name)).toEqual(["v1.0"]);

		// A tag is a read-only view: no Edit there; a branch is editable.
		await visit(page, `/${MODEL}/blob/v1.0/notes.txt`);
		await page.getByRole("region", { name: "Contents of notes.txt" }).waitFor();
		expect(await page.getByRole("button", { name: "Edit notes.txt" }).count()).toBe(0);
		await visit(page, `/${MODEL}/blob/dev/notes.txt`);
		await page.getByRole("button", { name: "Edit notes.txt" }).click();
		await page.getByRole("button", { name: "Commit changes to dev" }).waitFor();
		await expectNoAxeViolations(page, "text editor");
		await screenshot(page, "edit-text");
	}, 180_000);

	it("creates the model card of a model without one: a starter card the hub validates, committed from the page", async () => {
		const created = await fromPage(page, "/api/repos/create", {
			method: "POST",
			type: "application/json",
			body: JSON.stringify({ name: "no-card" }),
		});
		expect(created.status, created.text).toBe(200);
		const first = await fromPage(page, "/api/models/carol/no-card/commit/main", {
			method: "POST",
			type: "application/x-ndjson",
			body: ndjson({ "config.json": "{}\n" }, "Weights first"),
		});
		expect(first.status, first.text).toBe(200);
		errors.length = 0;
		await visit(page, "/carol/no-card");
		await page.getByText("This model has no model card (README.md) yet.").waitFor();
		// The page asks for README.md only when the model's files list one: no 404 in the console.
		expect(errors).toEqual([]);
		await page.getByRole("button", { name: "Create model card" }).click();
		const text = page.getByLabel("Contents of README.md");
		await text.waitFor();
		const starter = await text.inputValue();
		expect(starter).toMatch(/^---\n# Metadata the hub reads[^\n]*\ntags: \[\]\n---\n\n# no-card\n/);
		expect(await page.getByRole("heading", { name: "Create README.md on main" }).count()).toBe(1);
		await expectNoAxeViolations(page, "new model card");
		await page.getByRole("button", { name: "Commit changes to main" }).click();
		await page.locator(".markdown h2", { hasText: "no-card" }).waitFor();
		expect(await fileText("carol/no-card", "main", "README.md")).toEqual({ status: 200, text: starter });
		expect((await commitTitles("carol/no-card"))[0]).toBe("Create README.md");
		expect(await page.getByRole("button", { name: "Create model card" }).count()).toBe(0);
		await page.getByRole("link", { name: "Edit model card" }).waitFor();
	}, 120_000);

	it("creates the dataset card of a dataset without one", async () => {
		const created = await fromPage(page, "/api/repos/create", {
			method: "POST",
			type: "application/json",
			body: JSON.stringify({ name: "no-card-data", type: "dataset" }),
		});
		expect(created.status, created.text).toBe(200);
		const first = await fromPage(page, "/api/datasets/carol/no-card-data/commit/main", {
			method: "POST",
			type: "application/x-ndjson",
			body: ndjson({ "rows.csv": "a,b\n1,2\n" }, "Data first"),
		});
		expect(first.status, first.text).toBe(200);
		await visit(page, "/datasets/carol/no-card-data");
		await page.getByText("This dataset has no dataset card (README.md) yet.").waitFor();
		await page.getByRole("button", { name: "Create dataset card" }).click();
		const text = page.getByLabel("Contents of README.md");
		await text.waitFor();
		const starter = await text.inputValue();
		expect(starter).toContain("## Dataset structure");
		await expectNoAxeViolations(page, "new dataset card");
		await page.getByRole("button", { name: "Commit changes to main" }).click();
		await page.locator(".markdown h2", { hasText: "no-card-data" }).waitFor();
		const stored = await fetch(`${hub.url}/datasets/carol/no-card-data/resolve/main/README.md`);
		expect(await stored.text()).toBe(starter);
		expect(await page.getByRole("button", { name: "Create dataset card" }).count()).toBe(0);
	}, 120_000);

	it("uploads a large file from the page through the LFS batch API: the commit names it by SHA-256, stored as LFS", async () => {
		const size = 12 * 1024 * 1024;
		const big = Buffer.alloc(size);
		for (let at = 0; at < size; at += 4) big.writeUInt32LE((at * 2654435761) >>> 0, at);
		const oid = createHash("sha256").update(big).digest("hex");
		const requests: { method: string; url: string }[] = [];
		const record = (request: Request) => requests.push({ method: request.method(), url: request.url() });
		page.on("request", record);
		errors.length = 0;
		const files = mkdtempSync(join(tmpdir(), "modelhub-edit-upload-"));
		try {
			await visit(page, `/${MODEL}`);
			await page.getByRole("tab", { name: "Files and versions" }).click();
			await page.getByRole("button", { name: "Add files" }).click();
			await page.getByRole("heading", { name: /^Add files to/ }).waitFor();
			// Files on disk are handed to the browser by path; a 12 MB buffer would cross the DevTools
			// connection as base64, which on a loaded machine takes longer than the action may wait.
			// (The browser reads them when the upload does: they are removed once the test is over.)
			writeFileSync(join(files, "big.safetensors"), big);
			writeFileSync(join(files, "small.txt"), "small\n");
			await page
				.getByLabel("Choose files")
				.setInputFiles([join(files, "big.safetensors"), join(files, "small.txt")]);
			await page.getByRole("button", { name: "Commit changes to main" }).click();
			await page
				.getByText(/Committed 2 files to main/)
				.or(page.getByTestId("upload-error"))
				.waitFor({ timeout: 60_000 });
			expect(await page.getByTestId("upload-error").count()).toBe(0);
		} finally {
			page.off("request", record);
			rmSync(files, { recursive: true, force: true });
		}
		// The batch request (with the session cookie), the bytes PUT to the signed upload URL, then the commit.
		const batch = requests.findIndex((entry) => entry.url.endsWith(`/${MODEL}.git/info/lfs/objects/batch`));
		const put = requests.findIndex(
			(entry) => entry.method === "PUT" && entry.url.includes(`/api/lfs-upload/`),
		);
		const commit = requests.findIndex((entry) => entry.url.endsWith(`/api/models/${MODEL}/commit/main`));
		expect(batch).toBeGreaterThanOrEqual(0);
		expect(put).toBeGreaterThan(batch);
		expect(commit).toBeGreaterThan(put);
		// The hub lists it as an LFS file with the browser's SHA-256, and serves the same bytes.
		const tree = await fetch(`${hub.url}/api/models/${MODEL}/tree/main`);
		const entries = (await tree.json()) as {
			path: string;
			size: number;
			lfs?: { oid: string; size: number };
		}[];
		expect(entries.find((entry) => entry.path === "big.safetensors")).toMatchObject({
			size,
			lfs: { oid, size },
		});
		expect(entries.find((entry) => entry.path === "small.txt")?.lfs).toBeUndefined();
		const download = await fetch(`${hub.url}/${MODEL}/resolve/main/big.safetensors`);
		expect(
			createHash("sha256")
				.update(Buffer.from(await download.arrayBuffer()))
				.digest("hex"),
		).toBe(oid);
		expect(errors).toEqual([]);
	}, 120_000);

	it('uploads from the page: config.json then a README with a task, and the header, tags and "Use this model" follow without a reload', async () => {
		const id = "carol/upload-facts";
		const created = await fromPage(page, "/api/repos/create", {
			method: "POST",
			type: "application/json",
			body: JSON.stringify({ name: "upload-facts" }),
		});
		expect(created.status, created.text).toBe(200);
		errors.length = 0;
		await visit(page, `/${id}`);
		const facts = page.getByRole("list", { name: "Model facts" });
		await facts.waitFor();
		expect(await facts.textContent()).not.toMatch(/Task|transformers/);
		// Marks this document: a reload would lose it.
		await page.evaluate(() => ((window as unknown as { unreloaded: boolean }).unreloaded = true));
		await page.getByRole("button", { name: "Use this model" }).click();
		await page.getByRole("dialog").getByRole("tab", { name: "hf CLI" }).waitFor();
		expect(await page.getByRole("dialog").getByRole("tab", { name: "Transformers" }).count()).toBe(0);
		await page.keyboard.press("Escape");

		const upload = async (file: { name: string; text: string }) => {
			await page.getByRole("tab", { name: "Files and versions" }).click();
			if ((await page.getByLabel("Choose files").count()) === 0)
				await page.getByRole("button", { name: "Add files" }).click();
			await page
				.getByLabel("Choose files")
				.setInputFiles([
					{ name: file.name, mimeType: "application/octet-stream", buffer: Buffer.from(file.text) },
				]);
			await page.getByRole("button", { name: "Commit changes to main" }).click();
			await page
				.getByText(/Committed 1 file to main/)
				.or(page.getByTestId("upload-error"))
				.waitFor({ timeout: 60_000 });
			expect(await page.getByTestId("upload-error").count()).toBe(0);
		};

		// A transformers config: the hub's analysis (just after the commit) names the library and the
		// auto class, and the page reads the model again.
		await upload({
			name: "config.json",
			text: JSON.stringify({ architectures: ["BertForSequenceClassification"], model_type: "bert" }),
		});
		await facts.getByRole("link", { name: "transformers" }).waitFor();
		await page.getByRole("button", { name: "Use this model" }).click();
		const dialog = page.getByRole("dialog");
		await dialog.getByRole("tab", { name: "Transformers" }).waitFor();
		await expect
			.poll(() => dialog.locator("pre").allInnerTexts())
			.toContainEqual(
				expect.stringContaining('AutoModelForSequenceClassification.from_pretrained("carol/upload-facts")'),
			);
		await page.keyboard.press("Escape");

		// A card with a task, a license and a tag.
		await upload({
			name: "README.md",
			text: "---\nlicense: apache-2.0\npipeline_tag: token-classification\ntags:\n- uploaded-tag\n---\n\n# Upload facts\n",
		});
		await facts.getByRole("link", { name: "Token Classification" }).waitFor();
		expect(await facts.textContent()).toContain("apache-2.0");
		await page.getByRole("tab", { name: "Model card" }).click();
		await page
			.getByRole("list", { name: "Tags" })
			.getByRole("link", { name: /uploaded-tag/ })
			.waitFor();
		await page.locator(".markdown h2", { hasText: "Upload facts" }).waitFor();
		await page.getByRole("button", { name: "Use this model" }).click();
		await dialog.getByRole("tab", { name: "Transformers" }).waitFor();
		await expect
			.poll(() => dialog.locator("pre").allInnerTexts())
			.toContainEqual(
				expect.stringContaining('pipeline("token-classification", model="carol/upload-facts")'),
			);
		await page.keyboard.press("Escape");
		expect(await page.evaluate(() => (window as unknown as { unreloaded?: boolean }).unreloaded)).toBe(true);
		expect(errors).toEqual([]);
	}, 180_000);

	it("offers no editing to those who may not write", async () => {
		await visit(page, `/${OTHERS}`);
		await page.locator(".markdown h2", { hasText: "Edit demo" }).waitFor();
		expect(await page.getByRole("link", { name: "Edit model card" }).count()).toBe(0);
		await visit(page, `/${OTHERS}/blob/main/a.txt`);
		await page.getByRole("region", { name: "Contents of a.txt" }).waitFor();
		expect(await page.getByRole("button", { name: /^(Edit|Delete) a.txt$/ }).count()).toBe(0);
		expect(await page.getByRole("button", { name: "New branch or tag" }).count()).toBe(0);
	}, 60_000);
});
