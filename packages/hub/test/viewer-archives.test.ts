import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
	ViewerDatasetInfo,
	ViewerFirstRowsAnswer,
	ViewerInfoAnswer,
	ViewerIsValidAnswer,
	ViewerRowsAnswer,
	ViewerSplitsAnswer,
} from "../src/api/viewer.js";
import { openDatabase } from "../src/db/open.js";
import type { Database } from "../src/db/types.js";
import { createUser, startHub, type RunningHub } from "./support/hub.js";
import { firstRowsErrors, VIEWER_TEST_LIMITS, viewerGet } from "./support/viewer.js";
import { runHubClient } from "./support/python.js";

const ADMIN = "viewer-archives-admin-token-0123456789";

type Cell = { src: string; height: number; width: number };

interface Built {
	builder: string;
	features: Record<string, unknown>;
	rows: Array<Record<string, unknown>>;
}

type Loaded = Record<string, { columns: string[]; sizes: Array<[number, number]> }>;

interface Made {
	members: Record<string, string>;
	images: { ok?: Record<string, Built> };
	captions: { ok?: Record<string, Built> };
	sounds: { ok?: Record<string, Built> };
	loaded_images: { ok?: Loaded };
	loaded_captions: { ok?: Loaded };
	labels: { ok?: unknown; error?: string[] };
	outside: { ok?: unknown; error?: string[] };
	[push: string]: unknown;
}

/** The virtual path an image cell of an archive's file links (`{archive}::{file}`, the member route's `path`). */
function memberOf(cell: unknown): string | null {
	if (cell === null) return null;
	const src = new URL((cell as Cell).src, "http://hub.invalid");
	return src.searchParams.get("path");
}

/**
 * Image folders whose images live in zip archives (issue 23), compared with what the real `datasets` 5.0
 * builder and `load_dataset` make of the same repositories (hub1 environment): one split per archive, rows in
 * the order the builder walks the archive; a metadata.csv inside the archive ordering and captioning the rows;
 * each image served from its archive by the member route with the archive's rights; and hostile archives, each a
 * clear 422 for its config, never a 5xx.
 */
describe("the dataset viewer on folder datasets in zip archives", () => {
	let db: Database;
	let hub: RunningHub;
	let dir: string;
	let token = "";
	let made: Made;

	const get = <T>(path: string, auth?: string) => viewerGet<T>(hub.url, path, auth);

	beforeAll(async () => {
		dir = mkdtempSync(join(tmpdir(), "modelhub-viewer-archives-"));
		db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
		hub = await startHub({
			db,
			seed: false,
			adminToken: ADMIN,
			viewer: VIEWER_TEST_LIMITS,
		});
		token = await createUser(hub.url, ADMIN, "alice");
		made = await runHubClient<Made>(
			"folder_archives",
			hub.url,
			join(dir, "archives"),
			{
				token,
				images_repo: "alice/zipped-images",
				captions_repo: "alice/zipped-captions",
				private_repo: "alice/zipped-private",
				sounds_repo: "alice/zipped-sounds",
				hostile_repo: "alice/zipped-hostile",
			},
			{},
			"hf_hub_viewer.py",
			"hub1",
		);
	}, 180_000);

	afterAll(async () => {
		await hub?.close();
		await db?.close();
		if (dir) rmSync(dir, { recursive: true, force: true });
	});

	it("shows an archive's images as datasets builds and load_dataset decodes them, and serves each one", async () => {
		for (const key of [
			"push_images",
			"push_captions",
			"push_private",
			"push_sounds",
			"push_hostile",
			"images",
			"captions",
			"sounds",
		])
			expect(made[key], `${key}: ${JSON.stringify(made[key])}`).toHaveProperty("ok");
		const built = made.images.ok ?? {};
		const loaded = made.loaded_images.ok ?? {};
		expect(Object.keys(loaded)).toEqual(["train", "test"]);
		const splits = await get<ViewerSplitsAnswer>("/splits?dataset=alice/zipped-images");
		expect(splits.body.splits.map((item) => item.split)).toEqual(Object.keys(built));
		for (const split of Object.keys(built)) {
			const first = await get<ViewerFirstRowsAnswer>(
				`/first-rows?dataset=alice/zipped-images&config=default&split=${split}`,
			);
			expect(first.status, JSON.stringify(first.body)).toBe(200);
			expect(Object.fromEntries(first.body.features.map((item) => [item.name, item.type]))).toEqual(
				built[split]?.features,
			);
			expect(first.body.features.map((item) => item.name)).toEqual(loaded[split]?.columns);
			// Rows in the builder's order (os.walk: img/1, img/10, img/2, then img/sub/4), sizes as PIL decodes them.
			expect(first.body.rows.map((item) => ({ ...item.row, image: memberOf(item.row.image) }))).toEqual(
				built[split]?.rows,
			);
			expect(
				first.body.rows.map((item) => [(item.row.image as Cell).width, (item.row.image as Cell).height]),
			).toEqual(loaded[split]?.sizes);
		}
		const info = await get<ViewerInfoAnswer>("/info?dataset=alice/zipped-images&config=default");
		expect((info.body.dataset_info as ViewerDatasetInfo).features).toEqual(built.train?.features);
		expect((await get<ViewerIsValidAnswer>("/is-valid?dataset=alice/zipped-images")).body).toMatchObject({
			preview: true,
			viewer: true,
		});

		// Each member's bytes as the test wrote them, typed by extension, never sniffed, no token in the URL.
		const page = await get<ViewerRowsAnswer>(
			"/rows?dataset=alice/zipped-images&config=default&split=train&offset=1&length=3",
		);
		expect(page.body.rows.map((item) => item.row_idx)).toEqual([1, 2, 3]);
		for (const item of page.body.rows) {
			const src = (item.row.image as Cell).src;
			expect(src).not.toContain(token);
			const response = await fetch(src);
			const path = memberOf(item.row.image) ?? "";
			expect(response.status, path).toBe(200);
			expect(response.headers.get("content-type")).toBe(path.endsWith(".jpg") ? "image/jpeg" : "image/png");
			expect(response.headers.get("x-content-type-options")).toBe("nosniff");
			expect(Buffer.from(await response.arrayBuffer()).toString("hex")).toBe(made.members[path]);
			const head = await fetch(src, { method: "HEAD" });
			expect([head.status, Number(head.headers.get("content-length"))]).toEqual([
				200,
				(made.members[path] ?? "").length / 2,
			]);
		}
	}, 60_000);

	it("orders and captions rows by a metadata.csv inside the archive, as datasets does", async () => {
		const built = made.captions.ok?.train;
		const first = await get<ViewerFirstRowsAnswer>(
			"/first-rows?dataset=alice/zipped-captions&config=default&split=train",
		);
		expect(first.status, JSON.stringify(first.body)).toBe(200);
		expect(Object.fromEntries(first.body.features.map((item) => [item.name, item.type]))).toEqual(
			built?.features,
		);
		expect(first.body.rows.map((item) => ({ ...item.row, image: memberOf(item.row.image) }))).toEqual(
			built?.rows,
		);
		expect(
			first.body.rows.map((item) => [(item.row.image as Cell).width, (item.row.image as Cell).height]),
		).toEqual(made.loaded_captions.ok?.train?.sizes);
		const found = await get<ViewerRowsAnswer>(
			"/search?dataset=alice/zipped-captions&config=default&split=train&query=one",
		);
		expect(found.body.rows.map((item) => memberOf(item.row.image))).toEqual(["train/images.zip::img/1.png"]);
		const response = await fetch((first.body.rows[1]?.row.image as Cell).src);
		expect(Buffer.from(await response.arrayBuffer()).toString("hex")).toBe(
			made.members["train/images.zip::img/1.png"],
		);
	});

	it("shows an archive's audio files as datasets builds them, each a playable audio cell", async () => {
		const built = made.sounds.ok?.train;
		const first = await get<ViewerFirstRowsAnswer>(
			"/first-rows?dataset=alice/zipped-sounds&config=default&split=train",
		);
		expect(first.status, JSON.stringify(first.body)).toBe(200);
		expect(Object.fromEntries(first.body.features.map((item) => [item.name, item.type]))).toEqual(
			built?.features,
		);
		const cells = first.body.rows.map((item) => (item.row.audio as Array<{ src: string; type: string }>)[0]);
		expect(cells.map((cell) => memberOf(cell))).toEqual(built?.rows.map((row) => row.audio));
		expect(cells.map((cell) => cell?.type)).toEqual(["audio/wav", "audio/wav"]);
		const response = await fetch(cells[0]?.src ?? "");
		expect(response.headers.get("content-type")).toBe("audio/wav");
		expect(Buffer.from(await response.arrayBuffer()).toString("hex")).toBe(
			made.members["train/sounds.zip::a.wav"],
		);
	});

	it("serves a private dataset's members to its readers only, and answers bad member paths with 4xx", async () => {
		const anonymous = await get<{ error: string }>(
			"/first-rows?dataset=alice/zipped-private&config=default&split=train",
		);
		expect(anonymous.status).toBe(404);
		const first = await get<ViewerFirstRowsAnswer>(
			"/first-rows?dataset=alice/zipped-private&config=default&split=train",
			token,
		);
		expect(first.status, JSON.stringify(first.body)).toBe(200);
		const src = (first.body.rows[0]?.row.image as Cell).src;
		expect(src).not.toContain(token);
		expect((await fetch(src)).status).toBe(404);
		const read = await fetch(src, { headers: { authorization: `Bearer ${token}` } });
		expect(read.status).toBe(200);
		expect(read.headers.get("cache-control")).toMatch(/^private/);
		expect(Buffer.from(await read.arrayBuffer()).toString("hex")).toBe(
			made.members["data/train.zip::img/1.png"],
		);

		const member = (query: string) => get<{ error: string }>(`/archive-member?${query}`);
		const answers = {
			missing: (await member("dataset=alice/zipped-images&path=data/train.zip::img/99.png")).status,
			notArchive: (await member("dataset=alice/zipped-images&path=data/train.zip")).status,
			noArchive: (await member("dataset=alice/zipped-images&path=data/none.zip::a.png")).status,
			escape: (await member("dataset=alice/zipped-hostile&path=unsafe/images.zip::../evil.png")).status,
			noDataset: (await member("dataset=alice/none&path=a.zip::a.png")).status,
			noPath: (await member("dataset=alice/zipped-images")).status,
		};
		expect(answers).toEqual({
			missing: 404,
			notArchive: 422,
			noArchive: 404,
			escape: 422,
			noDataset: 404,
			noPath: 422,
		});
	});

	it("answers hostile archives with a clear 422 for their config, as datasets fails on the first two", async () => {
		// datasets labels an archive's images by the archive's folder (`data`), not one of its folders' names.
		expect(JSON.stringify(made.labels)).toContain("Invalid string class label data");
		// A metadata.csv outside the archive naming `images.zip/img/3.png`: datasets opens the archive as a folder.
		expect(JSON.stringify(made.outside)).toContain("NotADirectoryError");
		const answers = await firstRowsErrors(hub.url, "alice/zipped-hostile", [
			"labels",
			"outside",
			"corrupt",
			"encrypted",
			"unsafe",
			"bomb",
		]);
		expect(answers.labels?.slice(0, 2)).toEqual([422, "DatasetGenerationError"]);
		expect(answers.labels?.[2]).toContain("Invalid string class label data");
		expect(answers.outside?.slice(0, 2)).toEqual([422, "RowsPostProcessingError"]);
		expect(answers.outside?.[2]).toContain("NotADirectoryError");
		expect(answers.corrupt?.slice(0, 2)).toEqual([422, "DatasetGenerationError"]);
		expect(answers.corrupt?.[2]).toContain("not a readable zip archive");
		expect(answers.encrypted?.slice(0, 2)).toEqual([422, "DatasetGenerationError"]);
		expect(answers.encrypted?.[2]).toContain("encrypted");
		expect(answers.unsafe?.slice(0, 2)).toEqual([422, "DatasetGenerationError"]);
		expect(answers.bomb?.slice(0, 2)).toEqual([422, "TooBigContentError"]);
		expect(answers.bomb?.[2]).toContain("zip bomb");
		expect((await get<ViewerSplitsAnswer>("/splits?dataset=alice/zipped-hostile")).status).toBe(200);
	});
});
