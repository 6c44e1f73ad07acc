/**
 * Datasets in the browser (issue 23): `/datasets` with the public hub's filters (task, modality,
 * format, size, license, author), search, sort, the total, cursor paging, Back and Forward; a dataset's
 * page with its header facts, card, files at their own addresses (`/datasets/{id}/tree/…`, `/blob/…`,
 * `/commits/…`) and "Use this dataset"; axe in both themes at 1280 and 390 px. Debian's Chromium against
 * the real hub, with datasets committed through its API (the hub's analysis derives their tags).
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectNoAxeViolations, launchBrowser, watchErrors, type Browser } from "./support/browser";
import { startHub, type RunningHub } from "./support/hub";

const ADMIN_TOKEN = "datasets-e2e-admin-token-0123456789";
const REVIEWS = "alice/reviews";
const PICTURES = "alice/pictures";
/**
 * How long a page of rows may take to show: each viewer request opens its own engine, seconds when the
 * machine is busy (expect.poll's default second is not enough then).
 */
const ROWS_WAIT = { timeout: 15_000 };
/** A folder of audio files (audiofolder), labelled by folder. */
const SOUNDS = "alice/sounds";
/** A folder of images with a metadata file (imagefolder). */
const PICTURES_META = "alice/pictures-meta";
/** More than a viewer page (100 rows). */
const MANY = "alice/many-rows";
/** More than a page (20) of plain datasets. */
const FILLERS = Array.from({ length: 21 }, (_, index) => `bob/numbers-${String(index).padStart(2, "0")}`);
/** A 2×2 PNG: real image bytes. */
const PNG = Buffer.from(
	"iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==",
	"base64",
);
/** A tiny mono 16-bit WAV file: 800 frames of a tone at 8 kHz (0.1 s). */
function wav(frequency: number): Buffer {
	const rate = 8000;
	const data = Buffer.alloc(800 * 2);
	for (let frame = 0; frame < 800; frame++)
		data.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * frequency * frame) / rate)), frame * 2);
	const header = Buffer.alloc(44);
	header.write("RIFF", 0);
	header.writeUInt32LE(36 + data.length, 4);
	header.write("WAVEfmt ", 8);
	header.writeUInt32LE(16, 16);
	header.writeUInt16LE(1, 20); // PCM
	header.writeUInt16LE(1, 22); // one channel
	header.writeUInt32LE(rate, 24);
	header.writeUInt32LE(rate * 2, 28);
	header.writeUInt16LE(2, 32);
	header.writeUInt16LE(16, 34);
	header.write("data", 36);
	header.writeUInt32LE(data.length, 40);
	return Buffer.concat([header, data]);
}
const CARD = `---
license: mit
task_categories:
- text-classification
language:
- en
---

# Tiny reviews

Three short reviews, each labelled.
`;

let hub: RunningHub;
let browser: Browser;
let page: Page;
let errors: string[];
const tokens: Record<string, string> = {};

async function createDataset(owner: string, name: string, files: Record<string, Buffer | string>) {
	const headers = { authorization: `Bearer ${tokens[owner]}` };
	const created = await fetch(`${hub.url}/api/repos/create`, {
		method: "POST",
		headers: { ...headers, "content-type": "application/json" },
		body: JSON.stringify({ type: "dataset", name }),
	});
	if (created.status !== 200) throw new Error(`create ${name}: ${created.status}`);
	const lines = [
		{ key: "header", value: { summary: "Add the data", description: "" } },
		...Object.entries(files).map(([path, content]) => ({
			key: "file",
			value: { path, encoding: "base64", content: Buffer.from(content).toString("base64") },
		})),
	];
	const committed = await fetch(`${hub.url}/api/datasets/${owner}/${name}/commit/main`, {
		method: "POST",
		headers: { ...headers, "content-type": "application/x-ndjson" },
		body: lines.map((line) => JSON.stringify(line)).join("\n"),
	});
	if (committed.status !== 200)
		throw new Error(`commit ${name}: ${committed.status} ${await committed.text()}`);
}

/** Waits (bounded) until the hub's analysis has filed a dataset's tags. */
async function analysed(id: string, tag: string) {
	const deadline = Date.now() + 30_000;
	while (Date.now() < deadline) {
		const info = (await (await fetch(`${hub.url}/api/datasets/${id}`)).json()) as { tags?: string[] };
		if (info.tags?.includes(tag)) return;
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	throw new Error(`${id} never got the tag ${tag}`);
}

async function visit(target: Page, path: string) {
	const response = await target.goto(hub.url + path, { waitUntil: "networkidle" });
	await target.locator("main h1").first().waitFor();
	return response;
}

/** The ids of the listed datasets, in order. */
async function listed(target: Page): Promise<string[]> {
	return target.locator(".model-list .model-id a").allTextContents();
}

beforeAll(async () => {
	[hub, browser] = await Promise.all([startHub({ MODELHUB_ADMIN_TOKEN: ADMIN_TOKEN }), launchBrowser()]);
	for (const name of ["alice", "bob"]) {
		const user = await fetch(`${hub.url}/api/admin/users`, {
			method: "POST",
			headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
			body: JSON.stringify({ name }),
		});
		tokens[name] = ((await user.json()) as { token: string }).token;
	}
	await createDataset("alice", "reviews", {
		"README.md": CARD,
		"data/train.csv": "text,label\ngood,1\nbad,0\nfine,1\n",
		"data/test.csv": "text,label\nokay,1\n",
	});
	await createDataset("alice", "pictures", { "train/cat/1.png": PNG, "train/dog/2.png": PNG });
	await createDataset("alice", "many-rows", {
		"rows.jsonl": Array.from({ length: 150 }, (_, n) => JSON.stringify({ n, word: `word-${n}` })).join("\n"),
	});
	for (const id of FILLERS) {
		const [owner, name] = id.split("/") as [string, string];
		await createDataset(owner, name, { "numbers.jsonl": '{"n": 1}\n' });
	}
	await analysed(REVIEWS, "format:csv");
	await analysed(PICTURES, "modality:image");
	await analysed(MANY, "format:json");
	await analysed(FILLERS.at(-1)!, "format:json");
	page = browser.context.pages()[0] ?? (await browser.context.newPage());
	page.setDefaultTimeout(15_000);
	errors = watchErrors(page);
}, 300_000);

afterAll(async () => {
	await browser?.close();
	await hub?.stop();
});

describe("datasets in the browser", () => {
	it("lists every dataset with the total, pages by cursor, and Back and Forward restore each page", async () => {
		const response = await visit(page, "/datasets");
		expect(response?.status()).toBe(200);
		expect(await page.title()).toBe("Datasets · ModelHub");
		const total = page.getByTestId("dataset-total");
		await expect.poll(() => total.textContent()).toBe("24 datasets");
		const first = await listed(page);
		expect(first).toHaveLength(20);
		await page.getByRole("button", { name: "Next →" }).click();
		await page.getByText("(page 2)").waitFor();
		// The page label changes before the second page's rows arrive: wait for the rows.
		await expect.poll(async () => (await listed(page)).length).toBe(4);
		const second = await listed(page);
		expect(new Set([...first, ...second]).size).toBe(24);
		// The heading takes the focus, as after a page load.
		expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("H1");
		await page.goBack({ waitUntil: "networkidle" });
		await expect.poll(() => listed(page)).toEqual(first);
		await page.goForward({ waitUntil: "networkidle" });
		await expect.poll(() => listed(page)).toEqual(second);
		await page.getByText("(page 2)").waitFor();
		await page.getByRole("button", { name: "← Previous" }).click();
		await expect.poll(() => listed(page)).toEqual(first);
		await visit(page, "/datasets");
		await expectNoAxeViolations(page, "the dataset list");
		expect(errors).toEqual([]);
	});

	it("filters by task, modality, format, size, license and author, searches as you type, sorts; all in the URL", async () => {
		await visit(page, "/datasets");
		await page.getByLabel("Format").selectOption("csv");
		await page.waitForURL(`${hub.url}/datasets?format=format%3Acsv`);
		await expect.poll(() => listed(page)).toEqual([REVIEWS]);
		await expect.poll(() => page.getByTestId("dataset-total").textContent()).toBe("1 dataset");
		await page.getByRole("button", { name: "Remove filter Format: CSV" }).waitFor();
		await page.getByLabel("Modality").selectOption("image");
		await expect.poll(() => listed(page)).toEqual([]);
		await page.getByText("No datasets match these filters.").waitFor();
		await page.getByRole("button", { name: "Clear all" }).click();
		await expect.poll(async () => (await listed(page)).length).toBe(20);
		// The public hub's parameter names and prefixed values (a link from elsewhere works as is).
		await visit(page, "/datasets?task_categories=task_categories:text-classification&license=license:mit");
		await expect.poll(() => listed(page)).toEqual([REVIEWS]);
		expect(await page.locator("main h1").textContent()).toBe("Text Classification datasets");
		await visit(page, "/datasets?modality=modality:image");
		await expect.poll(() => listed(page)).toEqual([PICTURES]);
		// Sizes come from the cards or, without one, from the data files' rows: MANY (150 rows) and the
		// 20 fillers (1 row each) are under 1K, a full first page.
		await visit(page, "/datasets?size_categories=size_categories:n<1K");
		await expect.poll(async () => (await listed(page)).length).toBe(20);
		await visit(page, "/datasets?size_categories=size_categories:1M<n<10M");
		await page.getByText("No datasets match these filters.").waitFor();
		// Search as you type: the URL follows (one history entry), Back leaves the list.
		await visit(page, "/datasets");
		await page.getByLabel("Search datasets").fill("numbers-1");
		await page.waitForURL(`${hub.url}/datasets?search=numbers-1`);
		await expect.poll(async () => (await listed(page)).length).toBe(10);
		await page.getByLabel("Author").fill("alice");
		await page.waitForURL(/author=alice/);
		await page.getByText("No datasets match these filters.").waitFor();
		await page.getByRole("button", { name: "Remove filter Search: numbers-1" }).click();
		await expect.poll(() => listed(page)).toEqual([REVIEWS, PICTURES, MANY]);
		await page.getByLabel("Sort").selectOption("id");
		await page.waitForURL(/sort=id/);
		await expect.poll(() => listed(page)).toEqual([MANY, PICTURES, REVIEWS]);
		await page.goBack({ waitUntil: "networkidle" });
		await expect.poll(() => page.getByLabel("Sort").inputValue()).toBe("downloads");
		await visit(page, "/datasets?format=format:csv&author=alice");
		await expectNoAxeViolations(page, "a filtered dataset list");
		expect(errors).toEqual([]);
	});

	it("shows a dataset: header facts, card, files at their own addresses, history, and a 404 for others", async () => {
		await visit(page, "/datasets?author=alice");
		await page.getByRole("link", { name: REVIEWS }).click();
		await page.waitForURL(`${hub.url}/datasets/${REVIEWS}`);
		// A navigation inside the app: the title follows once the dataset is loaded.
		await expect.poll(() => page.title()).toBe(`${REVIEWS} · ModelHub`);
		const facts = page.getByRole("list", { name: "Dataset facts" });
		await facts.getByRole("link", { name: "Text Classification" }).waitFor();
		expect(await facts.textContent()).toMatch(/FormatCSV/);
		expect(await facts.textContent()).toMatch(/Licensemit/);
		await page.getByRole("heading", { name: "Tiny reviews" }).waitFor();
		await expectNoAxeViolations(page, "the dataset card");
		await page.getByRole("tab", { name: "Files and versions" }).click();
		await page.waitForURL(`${hub.url}/datasets/${REVIEWS}/tree/main`);
		const table = page.locator("table.file-table");
		await table.getByRole("link", { name: "data/" }).click();
		await page.waitForURL(`${hub.url}/datasets/${REVIEWS}/tree/main/data`);
		await table.getByRole("link", { name: "train.csv", exact: true }).click();
		await page.waitForURL(`${hub.url}/datasets/${REVIEWS}/blob/main/data/train.csv`);
		await page.getByText("good,1").waitFor();
		await expect.poll(() => page.title()).toBe(`data/train.csv · ${REVIEWS} at main · ModelHub`);
		// The download link is the dataset's resolve URL.
		const download = await page
			.getByRole("link", { name: /Download/ })
			.first()
			.getAttribute("href");
		expect(download).toContain(`/datasets/${REVIEWS}/resolve/main/data/train.csv`);
		await page.reload({ waitUntil: "networkidle" });
		await page.getByText("good,1").waitFor();
		await expectNoAxeViolations(page, "a dataset file");
		await page.getByRole("link", { name: "History" }).click();
		await page.waitForURL(`${hub.url}/datasets/${REVIEWS}/commits/main`);
		await page.getByRole("link", { name: "Add the data" }).waitFor();
		// The first paint of each address is the server's: dataset pages and their views, 404 for the missing.
		const status = async (path: string) =>
			(await fetch(hub.url + path, { headers: { accept: "text/html" } })).status;
		expect(await status(`/datasets/${REVIEWS}/blob/main/data/train.csv`)).toBe(200);
		expect(await status(`/datasets/${REVIEWS}/blob/main/nope.csv`)).toBe(404);
		const missing = await visit(page, "/datasets/alice/nothing-here");
		expect(missing?.status()).toBe(404);
		await page.getByRole("heading", { name: "Dataset not found" }).waitFor();
		expect(errors.filter((error) => !error.includes("404"))).toEqual([]);
		errors.length = 0;
	});

	it("the Viewer tab pages a split's rows, switches splits and searches, from the hub's viewer API", async () => {
		await visit(page, `/datasets/${REVIEWS}`);
		await page.getByRole("tab", { name: "Viewer" }).click();
		await page.waitForURL(`${hub.url}/datasets/${REVIEWS}?tab=viewer`);
		const status = page.locator(".viewer-pane [role=status]");
		await expect.poll(() => status.textContent(), ROWS_WAIT).toBe("Rows 1–3 of 3.");
		const cells = () => page.locator(".viewer-table tbody td").allTextContents();
		expect(await cells()).toEqual(["good", "1", "bad", "0", "fine", "1"]);
		await page.getByLabel("Config and split").selectOption("default/test");
		await expect.poll(cells, ROWS_WAIT).toEqual(["okay", "1"]);
		await page.reload({ waitUntil: "networkidle" });
		await expect.poll(cells, ROWS_WAIT).toEqual(["okay", "1"]);
		await page.getByLabel("Config and split").selectOption("default/train");
		await page.getByLabel("Search this split").fill("bad");
		await page.keyboard.press("Enter");
		await expect.poll(() => status.textContent(), ROWS_WAIT).toBe("Rows 1–1 of 1 found.");
		expect(await cells()).toEqual(["bad", "0"]);
		await expectNoAxeViolations(page, "the viewer");
		// 150 rows: two pages of the viewer's 100.
		await visit(page, `/datasets/${MANY}?tab=viewer`);
		await expect.poll(() => status.textContent(), ROWS_WAIT).toBe("Rows 1–100 of 150.");
		await page.getByRole("button", { name: "Next rows →" }).click();
		await expect.poll(() => status.textContent(), ROWS_WAIT).toBe("Rows 101–150 of 150.");
		expect((await cells()).slice(0, 2)).toEqual(["100", "word-100"]);
		expect(await page.getByRole("button", { name: "Next rows →" }).isDisabled()).toBe(true);
		await page.goBack({ waitUntil: "networkidle" });
		await expect.poll(() => status.textContent(), ROWS_WAIT).toBe("Rows 1–100 of 150.");
		// The filter box: the viewer's where clause (in the address), and its message for a bad clause.
		await page.getByLabel("Filter this split").fill(`"n" >= 145 AND "word" LIKE '%4%'`);
		await page.keyboard.press("Enter");
		await expect.poll(() => status.textContent(), ROWS_WAIT).toBe("Rows 1–5 of 5 matching.");
		expect((await cells()).slice(0, 2)).toEqual(["145", "word-145"]);
		expect(new URL(page.url()).searchParams.get("where")).toBe(`"n" >= 145 AND "word" LIKE '%4%'`);
		await expectNoAxeViolations(page, "the viewer's filter");
		await page.getByLabel("Filter this split").fill("n >= 1; DROP TABLE data");
		await page.keyboard.press("Enter");
		const refused = page.locator(".viewer-pane [role=alert]");
		await expect
			.poll(() => refused.textContent())
			.toContain("Parameter 'where' contains errors or invalid symbols");
		expect(await refused.locator("strong").textContent()).toBe("The viewer refused this filter");
		await expectNoAxeViolations(page, "the viewer's filter error");
		errors.length = 0; // the refused filter's 422 is the console's only error
		await page.getByLabel("Filter this split").fill("");
		await page.keyboard.press("Enter");
		await expect.poll(() => status.textContent(), ROWS_WAIT).toBe("Rows 1–100 of 150.");
		expect(errors).toEqual([]);
	});

	it("the Viewer tab plays a folder of audio files: a player per audio cell, named by its column and row", async () => {
		// Made here, after the tests that count the listed datasets.
		await createDataset("alice", "sounds", { "train/cat/a.wav": wav(440), "train/dog/b.wav": wav(660) });
		// The Viewer tab shows for the formats the viewer reads: the tag the hub's analysis files.
		await analysed(SOUNDS, "format:audiofolder");
		await visit(page, `/datasets/${SOUNDS}?tab=viewer`);
		const status = page.locator(".viewer-pane [role=status]");
		await expect.poll(() => status.textContent(), ROWS_WAIT).toBe("Rows 1–2 of 2.");
		expect(await page.locator(".viewer-table thead th").allTextContents()).toEqual(["#", "audio", "label"]);
		// Labels from the folders (cat 0, dog 1); the audio cells are players, not text.
		expect(await page.locator(".viewer-table tbody td").allTextContents()).toEqual(["", "0", "", "1"]);
		const player = page.getByLabel("audio, row 1");
		expect(await player.evaluate((element) => element.tagName)).toBe("AUDIO");
		expect(await player.getAttribute("controls")).not.toBeNull();
		const source = player.locator("source");
		expect(await source.getAttribute("type")).toBe("audio/wav");
		expect(await source.getAttribute("src")).toMatch(
			new RegExp(`^${hub.url}/datasets/${SOUNDS}/resolve/[0-9a-f]{40}/train/dog/b\\.wav$`),
		);
		// Chromium loads the file from the hub and decodes its header: 800 frames at 8 kHz.
		const duration = await player.evaluate(
			(element) =>
				new Promise<number>((resolve, reject) => {
					const audio = element as HTMLAudioElement;
					const bound = setTimeout(() => reject(new Error("no metadata within 10 s")), 10_000);
					audio.addEventListener("loadedmetadata", () => {
						clearTimeout(bound);
						resolve(audio.duration);
					});
					audio.preload = "metadata";
					audio.load();
				}),
		);
		expect(duration).toBeCloseTo(0.1, 3);
		await expectNoAxeViolations(page, "the viewer's audio cells");
	}, 90_000);

	it("the Viewer tab shows a folder of images with a metadata file: the metadata's columns, an image per image cell", async () => {
		await createDataset("alice", "pictures-meta", {
			"imgs/a.png": PNG,
			"metadata.csv": "file_name,caption\nimgs/a.png,a tiny square\n",
		});
		await analysed(PICTURES_META, "format:imagefolder");
		await visit(page, `/datasets/${PICTURES_META}?tab=viewer`);
		const status = page.locator(".viewer-pane [role=status]");
		await expect.poll(() => status.textContent(), ROWS_WAIT).toBe("Rows 1–1 of 1.");
		// datasets' columns: file_name becomes the image column, in its place.
		expect(await page.locator(".viewer-table thead th").allTextContents()).toEqual(["#", "image", "caption"]);
		const image = page.getByRole("img", { name: "image, row 0" });
		expect(await image.getAttribute("src")).toMatch(
			new RegExp(`^${hub.url}/datasets/${PICTURES_META}/resolve/[0-9a-f]{40}/imgs/a\\.png$`),
		);
		expect([await image.getAttribute("width"), await image.getAttribute("height")]).toEqual(["2", "2"]);
		// Chromium loads the image from the hub and decodes it: 2×2 pixels.
		await expect
			.poll(() => image.evaluate((element) => (element as HTMLImageElement).naturalWidth), ROWS_WAIT)
			.toBe(2);
		expect(await page.locator(".viewer-table tbody td").last().textContent()).toBe("a tiny square");
		await expectNoAxeViolations(page, "the viewer's image cells");
		expect(errors).toEqual([]);
	}, 90_000);

	it("'Use this dataset' shows each way the files allow, with snippets that target this hub", async () => {
		await visit(page, `/datasets/${REVIEWS}`);
		await page.getByRole("button", { name: "Use this dataset" }).click();
		const dialog = page.getByRole("dialog", { name: `Use ${REVIEWS}` });
		await dialog.waitFor();
		const tabs = dialog.getByRole("tab");
		await expect
			.poll(() => tabs.allTextContents())
			.toEqual(["Datasets", "pandas", "Polars", "DuckDB", "huggingface_hub", "hf CLI"]);
		expect(await dialog.locator("pre").first().textContent()).toContain(`load_dataset("${REVIEWS}")`);
		expect(await dialog.locator("pre").first().textContent()).toContain(
			`os.environ["HF_ENDPOINT"] = "${hub.url}"`,
		);
		await dialog.getByRole("tab", { name: "pandas" }).click();
		await expect
			.poll(() => dialog.locator("pre").first().textContent())
			.toContain(`pd.read_csv("hf://datasets/${REVIEWS}/" + splits["train"])`);
		await expectNoAxeViolations(page, "the Use this dataset dialog");
		await page.keyboard.press("Escape");
		// A folder of pictures: no table library to offer.
		await visit(page, `/datasets/${PICTURES}`);
		await page.getByRole("button", { name: "Use this dataset" }).click();
		await expect
			.poll(() => page.getByRole("dialog").getByRole("tab").allTextContents())
			.toEqual(["Datasets", "huggingface_hub", "hf CLI"]);
		expect(errors).toEqual([]);
	});
	it("a task page lists the hub's datasets filed under the task, each linked to its page, and the filtered list", async () => {
		// The hub's own answer to the query the page sends: only the dataset whose card names the task.
		const tagged = (await (
			await fetch(`${hub.url}/api/datasets?filter=task_categories:text-classification`)
		).json()) as Array<{ id: string }>;
		expect(tagged.map((dataset) => dataset.id)).toEqual([REVIEWS]);

		await visit(page, "/tasks/text-classification");
		const section = page.getByRole("region", { name: "Datasets on this hub" });
		const list = section.getByRole("list", { name: "Text Classification datasets on this hub" });
		await list.waitFor();
		await expect.poll(() => list.getByRole("link").allTextContents()).toEqual([REVIEWS]);
		expect(await list.getByRole("listitem").first().textContent()).toContain("Three short reviews");
		const browse = page.getByRole("link", { name: "Browse Text Classification datasets" });
		expect(await browse.getAttribute("href")).toBe(
			"/datasets?task_categories=task_categories%3Atext-classification",
		);
		await expectNoAxeViolations(page, "a task page with the hub's datasets");

		await list.getByRole("link", { name: REVIEWS }).click();
		await page.waitForURL(`${hub.url}/datasets/${REVIEWS}`);
		await page.getByRole("heading", { level: 1, name: /reviews/ }).waitFor();
		await page.goBack({ waitUntil: "networkidle" });
		await page.getByRole("link", { name: "Browse Text Classification datasets" }).click();
		await expect.poll(() => listed(page)).toEqual([REVIEWS]);

		// A task no dataset here is filed under says so.
		await visit(page, "/tasks/image-to-image");
		await page
			.getByRole("region", { name: "Datasets on this hub" })
			.getByText("No dataset on this hub is filed under Image-to-Image yet")
			.waitFor();
		expect(errors).toEqual([]);
	});
});
