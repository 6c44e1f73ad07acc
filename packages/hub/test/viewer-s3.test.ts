// The dataset viewer on a hub whose files are in S3-compatible storage (moto on 127.0.0.1): the engine
// reads local copies, and on S3 those are copied, not linked. A split's first rows must not wait for
// the whole copy: the footer and the leading row groups are fetched first (ranged GETs). The store here
// holds every whole-file read until the test lets it go, so an answer given meanwhile can only have come
// from those ranges.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ViewerFirstRowsAnswer, ViewerRowsAnswer } from "../src/api/viewer.js";
import { openDatabase } from "../src/db/open.js";
import type { Database } from "../src/db/types.js";
import type { BlobStore } from "../src/storage/types.js";
import { lfsCommit } from "./support/git.js";
import { createUser, startHub, type RunningHub } from "./support/hub.js";
import { startLocalS3, type LocalS3 } from "./support/s3.js";
import { VIEWER_TEST_LIMITS, viewerGet } from "./support/viewer.js";

const ADMIN = "viewer-s3-admin-token-0123456789";
const ROWS = 60_000;
const DATA_PATH = "data/train-00000-of-00001.parquet";

/** A store whose whole-file reads wait while the gate is shut (ranged reads go through). */
function gatedStore(store: BlobStore): { store: BlobStore; shut(): void; open(): void; held(): number } {
	let opened: Promise<void> = Promise.resolve();
	let release: () => void = () => {};
	let held = 0;
	const gated = new Proxy(store, {
		get(target, property, receiver) {
			const value: unknown = Reflect.get(target, property, receiver);
			if (property !== "read" || typeof value !== "function") {
				return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
			}
			return async (sha256: string, range?: { start: number; end: number }) => {
				if (range === undefined) {
					held += 1;
					await opened;
				}
				return target.read(sha256, range);
			};
		},
	});
	return {
		store: gated,
		shut: () => {
			opened = new Promise<void>((resolve) => {
				release = resolve;
			});
		},
		open: () => release(),
		held: () => held,
	};
}

/** Rows of a local Parquet file as DuckDB reads them (ids and texts), from `offset`. */
async function rowsOf(
	path: string,
	offset: number,
	length: number,
): Promise<Array<{ id: number; text: string }>> {
	const instance = await DuckDBInstance.create(":memory:");
	const connection = await instance.connect();
	try {
		const reader = await connection.runAndReadAll(
			`SELECT id::INTEGER AS id, text FROM read_parquet('${path}') LIMIT ${length} OFFSET ${offset}`,
		);
		return reader.getRowObjectsJS() as Array<{ id: number; text: string }>;
	} finally {
		connection.closeSync();
		instance.closeSync();
	}
}

describe("the dataset viewer on S3 storage", () => {
	let s3: LocalS3;
	let db: Database;
	let hub: RunningHub;
	let gate: ReturnType<typeof gatedStore>;
	let dir: string;
	let local = "";

	beforeAll(async () => {
		dir = mkdtempSync(join(tmpdir(), "modelhub-viewer-s3-"));
		local = join(dir, "train.parquet");
		const instance = await DuckDBInstance.create(":memory:");
		const connection = await instance.connect();
		// Random texts (md5) so the file is not one compressed page: 30 row groups of 2,048 rows.
		await connection.run(
			`COPY (SELECT i AS id, md5(i::VARCHAR) || ' ' || md5((i * 7)::VARCHAR) AS text FROM range(${ROWS}) t(i))
			TO '${local}' (FORMAT parquet, ROW_GROUP_SIZE 2048)`,
		);
		connection.closeSync();
		instance.closeSync();

		s3 = await startLocalS3();
		gate = gatedStore(s3.open());
		db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
		hub = await startHub({
			db,
			storage: gate.store,
			seed: false,
			adminToken: ADMIN,
			viewer: VIEWER_TEST_LIMITS,
		});
		const token = await createUser(hub.url, ADMIN, "alice");
		const created = await fetch(`${hub.url}/api/repos/create`, {
			method: "POST",
			headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
			body: JSON.stringify({ type: "dataset", name: "numbers", organization: "alice" }),
		});
		expect(created.status, await created.clone().text()).toBe(200);
		await lfsCommit(hub.url, "alice/numbers", token, DATA_PATH, readFileSync(local), "datasets");
	}, 180_000);

	afterAll(async () => {
		gate?.open();
		await hub?.close();
		await db?.close();
		await s3?.stop();
		if (dir) rmSync(dir, { recursive: true, force: true });
	});

	const get = <T>(path: string) => viewerGet<T>(hub.url, path);
	const query = "dataset=alice/numbers&config=default&split=train";

	it("answers the first rows and the first pages from the leading row groups while the whole file is still held", async () => {
		gate.shut();
		const heldBefore = gate.held();
		const first = await get<ViewerFirstRowsAnswer>(`/first-rows?${query}`);
		expect(first.status, JSON.stringify(first.body)).toBe(200);
		// The copy of the whole file has begun and is still waiting: the answer came from the ranges.
		expect(gate.held()).toBe(heldBefore + 1);
		expect(first.body.features.map((feature) => feature.name)).toEqual(["id", "text"]);
		expect(first.body.truncated).toBe(true);
		expect(first.body.rows.map((item) => item.row)).toEqual(await rowsOf(local, 0, 100));

		// A later page within the first ones (row groups 0 and 1: rows 2,040 to 2,059 straddle them).
		const page = await get<ViewerRowsAnswer>(`/rows?${query}&offset=900&length=100`);
		expect(page.status, JSON.stringify(page.body)).toBe(200);
		expect(page.body.num_rows_total).toBe(ROWS);
		expect(page.body.rows.map((item) => item.row)).toEqual(await rowsOf(local, 900, 100));
		expect(page.body.rows[0]?.row_idx).toBe(900);
		expect(gate.held()).toBe(heldBefore + 1);

		// Far pages and searches wait for the whole copy: once the store lets it go, they are answered.
		const far = get<ViewerRowsAnswer>(`/rows?${query}&offset=55000&length=10`);
		gate.open();
		const farAnswer = await far;
		expect(farAnswer.status, JSON.stringify(farAnswer.body)).toBe(200);
		expect(farAnswer.body.rows.map((item) => item.row)).toEqual(await rowsOf(local, 55_000, 10));
		const [wanted] = await rowsOf(local, 43_210, 1);
		const found = await get<ViewerRowsAnswer>(
			`/search?${query}&query=${encodeURIComponent(wanted?.text.slice(0, 32) ?? "")}`,
		);
		expect(found.status, JSON.stringify(found.body)).toBe(200);
		expect(found.body.rows.map((item) => item.row)).toEqual([wanted]);
		expect(found.body.rows[0]?.row_idx).toBe(43_210);
		// One whole-file copy in all.
		expect(gate.held()).toBe(heldBefore + 1);
	});
});
