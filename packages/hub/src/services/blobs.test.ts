import { createHash } from "node:crypto";
import type { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../db/open.js";
import type { Database } from "../db/types.js";
import { openBlobStore } from "../storage/open.js";
import { BlobNotFoundError, type BlobStore } from "../storage/types.js";
import { boundedReader, DEFAULT_ANALYSIS_SETTINGS } from "./analysis.js";
import { blobDownloadUrl, blobLocation, keepStored, readBlob, readBlobLocated } from "./blobs.js";

// readBlob's location hint (issue 21): a file's download skips the small_blobs lookup when the cached
// entry says its bytes are in the file store, and a stale hint (the blob moved) still finds the bytes.
// A reader of several ranges of one file (the analysis) looks for it once: readBlobLocated says where.

async function bytesOf(stream: Readable): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
	return Buffer.concat(chunks).toString();
}

const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex");

describe("readBlob's location hint", () => {
	let db: Database;
	let storage: BlobStore & { close(): Promise<void> };
	/** Statements run against the database while a test counts them. */
	let queries: string[] = [];
	let counted: Database;
	const inTable = "kept in the database's table";
	const inFiles = "kept in the file store";

	beforeAll(async () => {
		db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
		storage = await openBlobStore({ kind: "disk", dir: undefined });
		counted = Object.create(db) as Database;
		counted.query = async <R>(sql: string, params?: readonly unknown[]) => {
			queries.push(sql);
			return db.query<R>(sql, params);
		};
		const bytes = Buffer.from(inTable);
		await keepStored(
			{ db, storage },
			[{ sha256: sha256(inTable), size: bytes.length, gitOid: undefined, created: true }],
			[{ sha256: sha256(inTable), bytes }],
		);
		await storage.put(
			(async function* () {
				yield Buffer.from(inFiles);
			})(),
		);
	});

	afterAll(async () => {
		await storage?.close();
		await db?.close();
	});

	const table = { sha256: sha256(inTable), size: inTable.length };
	const files = { sha256: sha256(inFiles), size: inFiles.length };

	it("knows where each blob is kept", async () => {
		expect(await blobLocation(db, table)).toBe("database");
		expect(await blobLocation(db, files)).toBe("files");
	});

	it("reads a blob the hint puts in the file store without a database query", async () => {
		queries = [];
		expect(await bytesOf(await readBlob({ db: counted, storage }, { ...files, storedIn: "files" }))).toBe(
			inFiles,
		);
		expect(
			await bytesOf(
				await readBlob({ db: counted, storage }, { ...files, storedIn: "files" }, { start: 5, end: 10 }),
			),
		).toBe(inFiles.slice(5, 10));
		expect(
			await blobDownloadUrl(
				{ db: counted, storage },
				{ ...files, storedIn: "files" },
				{ filename: "f", expiresInSeconds: 60 },
			),
		).toBeUndefined();
		expect(queries).toEqual([]);
		// Without the hint, every read asks the table first.
		await bytesOf(await readBlob({ db: counted, storage }, files));
		expect(queries.filter((sql) => sql.includes("FROM small_blobs")).length).toBe(1);
	});

	it("finds the bytes where they are when the hint is stale, both ways", async () => {
		expect(await bytesOf(await readBlob({ db, storage }, { ...table, storedIn: "files" }))).toBe(inTable);
		expect(
			await bytesOf(await readBlob({ db, storage }, { ...table, storedIn: "files" }, { start: 0, end: 4 })),
		).toBe(inTable.slice(0, 4));
		expect(await bytesOf(await readBlob({ db, storage }, { ...files, storedIn: "database" }))).toBe(inFiles);
		await expect(
			readBlob({ db, storage }, { sha256: sha256("nowhere"), size: 7, storedIn: "files" }),
		).rejects.toBeInstanceOf(BlobNotFoundError);
	});

	it("says where it found the bytes, and the analysis reads a file's later ranges from there", async () => {
		expect((await readBlobLocated({ db, storage }, table)).storedIn).toBe("database");
		expect((await readBlobLocated({ db, storage }, files)).storedIn).toBe("files");
		expect((await readBlobLocated({ db, storage }, { ...table, storedIn: "files" })).storedIn).toBe(
			"database",
		);
		queries = [];
		const read = boundedReader(
			{ db: counted, storage },
			[{ path: "weights.bin", ...files }],
			DEFAULT_ANALYSIS_SETTINGS,
			() => false,
		);
		// A footer, then the header it names, then a slice: as the Parquet and safetensors readers ask.
		expect(Buffer.from(await read("weights.bin", files.size - 5, files.size)).toString()).toBe(
			inFiles.slice(-5),
		);
		expect(Buffer.from(await read("weights.bin", 0, 4)).toString()).toBe(inFiles.slice(0, 4));
		expect(Buffer.from(await read("weights.bin", 5, 10)).toString()).toBe(inFiles.slice(5, 10));
		// Before, each of the three reads asked the table first.
		expect(queries.filter((sql) => sql.includes("FROM small_blobs")).length).toBe(1);
	});
});
