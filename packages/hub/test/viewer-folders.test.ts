import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
	ViewerDatasetInfo,
	ViewerFirstRowsAnswer,
	ViewerInfoAnswer,
	ViewerRowsAnswer,
	ViewerSplitsAnswer,
} from "../src/api/viewer.js";
import { openDatabase } from "../src/db/open.js";
import type { Database } from "../src/db/types.js";
import { createUser, startHub, type RunningHub } from "./support/hub.js";
import { firstRowsErrors, VIEWER_TEST_LIMITS, viewerGet } from "./support/viewer.js";
import { runHubClient } from "./support/python.js";

const ADMIN = "viewer-folders-admin-token-0123456789";

type Cell = { src: string; type?: string; height?: number; width?: number };

interface Built {
	builder: string;
	features: Record<string, unknown>;
	rows: Array<Record<string, unknown>>;
}

/** The repository path an audio or image cell links (its `/resolve/{sha}/…` URL), or null. */
function srcPath(cell: unknown): string | null {
	if (cell === null) return null;
	const src = (Array.isArray(cell) ? (cell[0] as Cell) : (cell as Cell)).src;
	return decodeURIComponent(
		src.slice(src.indexOf("/resolve/") + "/resolve/".length).replace(/^[0-9a-f]{40}\//, ""),
	);
}

/**
 * Folder datasets (audiofolder, imagefolder) in the cases the first folder tests leave out, each compared with
 * what the real `datasets` 5.0 builders make of the same repository (hub1 environment): metadata rows naming
 * several files (`file_names` lists); the card's `drop_labels`, `drop_metadata` and `dataset_info` features.
 */
describe("the dataset viewer on folder datasets", () => {
	let db: Database;
	let hub: RunningHub;
	let dir: string;
	let token = "";

	const get = <T>(path: string) => viewerGet<T>(hub.url, path);

	beforeAll(async () => {
		dir = mkdtempSync(join(tmpdir(), "modelhub-viewer-folders-"));
		db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
		hub = await startHub({
			db,
			seed: false,
			adminToken: ADMIN,
			viewer: VIEWER_TEST_LIMITS,
		});
		token = await createUser(hub.url, ADMIN, "alice");
	}, 180_000);

	afterAll(async () => {
		await hub?.close();
		await db?.close();
		if (dir) rmSync(dir, { recursive: true, force: true });
	});

	it("shows metadata rows naming several files (file_names, x_file_names) as lists of images and audio, as datasets builds them", async () => {
		const made = await runHubClient<{
			pictures: { ok?: Record<string, Built> };
			sounds: { ok?: Record<string, Built> };
			loaded_pictures: { ok?: { columns: string[]; sizes: Array<Array<[number, number]>> } };
			[push: string]: unknown;
		}>(
			"folder_lists",
			hub.url,
			join(dir, "lists"),
			{
				token,
				pictures_repo: "alice/pictures-lists",
				sounds_repo: "alice/sounds-lists",
				hostile_repo: "alice/lists-hostile",
			},
			{},
			"hf_hub_viewer.py",
			"hub1",
		);
		for (const key of [
			"push_pictures",
			"push_sounds",
			"push_hostile",
			"pictures",
			"sounds",
			"loaded_pictures",
		])
			expect(made[key], `${key}: ${JSON.stringify(made[key])}`).toHaveProperty("ok");

		// Images: `file_names` → `images`, `thumbs_file_names` → `thumbs` (lists), `cover_file_name` → `cover`.
		const pictures = made.pictures.ok?.train;
		const loaded = made.loaded_pictures.ok;
		const first = await get<ViewerFirstRowsAnswer>(
			"/first-rows?dataset=alice/pictures-lists&config=default&split=train",
		);
		expect(first.status, JSON.stringify(first.body)).toBe(200);
		expect(first.body.features.map((item) => item.name)).toEqual(loaded?.columns);
		expect(Object.fromEntries(first.body.features.map((item) => [item.name, item.type]))).toEqual(
			pictures?.features,
		);
		expect(first.body.features.find((item) => item.name === "images")?.type).toEqual({
			feature: { _type: "Image" },
			_type: "List",
		});
		// Each list's cells as the builder's examples name them, at most 20 shown (the third row names 25).
		const shown = first.body.rows.map((item) => ({
			...item.row,
			images: (item.row.images as Cell[]).map(srcPath),
			thumbs: (item.row.thumbs as Cell[]).map(srcPath),
			cover: srcPath(item.row.cover),
		}));
		expect(shown).toEqual(
			(pictures?.rows ?? []).map((row) => ({ ...row, images: (row.images as string[]).slice(0, 20) })),
		);
		expect(first.body.rows.map((item) => item.truncated_cells)).toEqual([[], [], ["images"]]);
		// Image sizes as load_dataset decodes them (PIL).
		expect(
			first.body.rows.map((item) =>
				(item.row.images as Cell[]).map((cell) => [cell.width ?? 0, cell.height ?? 0]),
			),
		).toEqual((loaded?.sizes ?? []).map((sizes) => sizes.slice(0, 20)));
		const info = await get<ViewerInfoAnswer>("/info?dataset=alice/pictures-lists&config=default");
		expect((info.body.dataset_info as ViewerDatasetInfo).features).toEqual(pictures?.features);
		const filtered = await get<ViewerRowsAnswer>(
			`/filter?dataset=alice/pictures-lists&config=default&split=train&where=${encodeURIComponent(`"caption"='one'`)}`,
		);
		expect(filtered.body.rows.map((item) => (item.row.thumbs as Cell[]).map(srcPath))).toEqual([
			["a.png", "a.png"],
		]);

		// Audio with a metadata.parquet: `file_names` → `audios`, a list of the public viewer's audio cells; a
		// file the revision lacks is a null in its list.
		const sounds = made.sounds.ok?.train;
		const heard = await get<ViewerFirstRowsAnswer>(
			"/first-rows?dataset=alice/sounds-lists&config=default&split=train",
		);
		expect(heard.status, JSON.stringify(heard.body)).toBe(200);
		expect(Object.fromEntries(heard.body.features.map((item) => [item.name, item.type]))).toEqual(
			sounds?.features,
		);
		expect(heard.body.features.map((item) => item.name)).toEqual(Object.keys(sounds?.features ?? {}));
		expect(
			heard.body.rows.map((item) => ({ ...item.row, audios: (item.row.audios as unknown[]).map(srcPath) })),
		).toEqual(
			(sounds?.rows ?? []).map((row) => ({
				...row,
				audios: (row.audios as string[]).map((path) => (path === "y_missing.wav" ? null : path)),
			})),
		);
		expect(((heard.body.rows[0]?.row.audios as Cell[][])[0] ?? [])[0]?.type).toBe("audio/wav");

		// Hostile lists (datasets 5.0 fails to build each of the first three: it iterates the missing list,
		// refuses `..`): a clear 422 each.
		const answers = await firstRowsErrors(hub.url, "alice/lists-hostile", ["empty", "missing", "escape"]);
		expect(answers.empty?.slice(0, 2)).toEqual([422, "RowsPostProcessingError"]);
		expect(answers.empty?.[2]).toContain("row 1: its list of file names is empty");
		expect(answers.missing?.slice(0, 2)).toEqual([422, "RowsPostProcessingError"]);
		expect(answers.missing?.[2]).toContain("row 1: its list of file names is missing");
		expect(answers.escape?.slice(0, 2)).toEqual([422, "RowsPostProcessingError"]);
		expect(answers.escape?.[2]).toContain("must stay inside the folder of its metadata file");
		// 100,000 names in one row: 20 shown, the cell marked cut.
		const huge = await get<ViewerFirstRowsAnswer>(
			"/first-rows?dataset=alice/lists-hostile&config=huge&split=train",
		);
		expect(huge.status, JSON.stringify(huge.body).slice(0, 500)).toBe(200);
		expect((huge.body.rows[0]?.row.images as Cell[]).length).toBe(20);
		expect(huge.body.rows[0]?.truncated_cells).toEqual(["images"]);
		expect((await get<ViewerSplitsAnswer>("/splits?dataset=alice/lists-hostile")).status).toBe(200);
	}, 240_000);
	it("follows the card's drop_labels and drop_metadata, and builds its own features whatever the card's dataset_info says, as datasets does", async () => {
		const names = [
			"labels-dropped",
			"labels-kept",
			"metadata-dropped",
			"metadata-dropped-folders",
			"both-dropped",
			"card-features",
		];
		const made = await runHubClient<Record<string, { ok?: Record<string, Built> } | undefined>>(
			"folder_options",
			hub.url,
			join(dir, "options"),
			{ token, repo: "alice/pictures-options" },
			{},
			"hf_hub_viewer.py",
			"hub1",
		);
		for (const key of ["push", ...names])
			expect(made[key], `${key}: ${JSON.stringify(made[key])}`).toHaveProperty("ok");
		const seen: Record<string, unknown> = {};
		const expected: Record<string, unknown> = {};
		for (const config of names) {
			const built = made[config]?.ok?.train;
			const first = await get<ViewerFirstRowsAnswer>(
				`/first-rows?dataset=alice/pictures-options&config=${config}&split=train`,
			);
			const info = await get<ViewerInfoAnswer>(`/info?dataset=alice/pictures-options&config=${config}`);
			seen[config] = {
				status: [first.status, info.status],
				features: Object.fromEntries(first.body.features.map((item) => [item.name, item.type])),
				info: (info.body.dataset_info as ViewerDatasetInfo).features,
				rows: first.body.rows.map((item) => ({ ...item.row, image: srcPath(item.row.image) })),
			};
			expected[config] = {
				status: [200, 200],
				features: built?.features,
				info: built?.features,
				rows: built?.rows,
			};
		}
		expect(seen).toEqual(expected);
		// What the cases show (the builder's answers, above, are the reference).
		expect(Object.keys((expected["metadata-dropped"] as { features: object }).features)).toEqual(["image"]);
		expect((expected["labels-kept"] as { features: { label: unknown } }).features.label).toEqual({
			names: ["flat", "sub"],
			_type: "ClassLabel",
		});
		expect((expected["card-features"] as { features: { label: unknown } }).features.label).toEqual({
			names: ["cat", "dog"],
			_type: "ClassLabel",
		});
	}, 240_000);
});
