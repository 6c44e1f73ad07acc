// The garbage collector against real parts: PGlite with a disk store, PostgreSQL with S3 (moto). What
// it reclaims (stale uploads, expired xorbs, deleted repositories' files, bytes no row knows of,
// temporaries of crashed writes), dry run against real run, and commits in flight racing it.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CreateMultipartUploadCommand, UploadPartCommand } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { viewerForToken } from "../src/accounts/store.js";
import type { RepoRef, Viewer } from "../src/accounts/viewer.js";
import { listAudit } from "../src/audit/log.js";
import { runGcCommand } from "../src/commands/storage.js";
import { DEFAULT_GC_SETTINGS, DEFAULT_UPLOAD_SETTINGS, type GcSettings } from "../src/config.js";
import { openDatabase } from "../src/db/open.js";
import type { Database, Queryable, QueryOptions } from "../src/db/types.js";
import { HubError } from "../src/errors.js";
import { incomingDir, receivePack } from "../src/git/receive-objects.js";
import { addUser } from "../src/services/accounts.js";
import { actorFor, CLI_ACTOR, type Actor } from "../src/services/actor.js";
import { ChangeEvents } from "../src/services/changes.js";
import { createServiceContext, type ServiceContext } from "../src/services/context.js";
import { readBlob } from "../src/services/blobs.js";
import { collectGarbage } from "../src/services/gc.js";
import { listFiles } from "../src/repos/read.js";
import {
	DEFAULT_TREE_CACHE_BYTES,
	loadTree,
	rootTrees,
	setTreeCacheBytes,
	walkTree,
} from "../src/repos/trees.js";
import { createRepository, deleteRepository } from "../src/services/repos.js";
import { planLfsUploads, receiveLfsObject, startCommit, type UploadGrant } from "../src/services/uploads.js";
import { receiveXorb } from "../src/services/xet.js";
import { chunksOf } from "../src/storage/digest.js";
import { openBlobStore } from "../src/storage/open.js";
import { createS3Client } from "../src/storage/s3/client.js";
import type { BlobStore } from "../src/storage/types.js";
import { bytes } from "./support/hf-client-suite.js";
import { startPostgresCluster, type PostgresCluster } from "./support/postgres.js";
import { startHub } from "./support/hub.js";
import { startLocalS3, type LocalS3 } from "./support/s3.js";
import { xorbOf } from "./support/xet-objects.js";

function sha(data: Buffer): string {
	return createHash("sha256").update(data).digest("hex");
}

/**
 * The database, recording how many rows each answer to a statement matching `tables` held (in
 * transactions too).
 */
function recordRows(db: Database, tables: RegExp, rows: number[]): Database {
	const record = (queryable: Queryable): Queryable["query"] =>
		(async (sql: string, params?: readonly unknown[], options?: QueryOptions) => {
			const result = await queryable.query(sql, params, options);
			if (tables.test(sql)) rows.push(result.rows.length);
			return result;
		}) as Queryable["query"];
	return {
		kind: db.kind,
		close: () => db.close(),
		query: record(db),
		exec: (sql) => db.exec(sql),
		transaction: (work) => db.transaction((tx) => work({ query: record(tx), exec: (sql) => tx.exec(sql) })),
	};
}

const HOUR = 3_600_000;
let cluster: PostgresCluster | undefined;
let s3: LocalS3 | undefined;
const folders: string[] = [];
afterAll(async () => {
	await cluster?.stop();
	await s3?.stop();
	for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

interface Backend {
	db: Database;
	storage: BlobStore;
	/** Leaves what crashed writes would have left, old enough to be swept: how many, their bytes. */
	leaveTemporaries(): Promise<{ count: number; bytes: number }>;
	/** The age past which temporaries are swept in these tests. */
	tempMaxAgeMs: number;
}

const BACKENDS: Array<[string, () => Promise<Backend>]> = [
	[
		"PGlite and a disk store",
		async () => {
			const dir = mkdtempSync(join(tmpdir(), "modelhub-gc-"));
			folders.push(dir);
			const storage = await openBlobStore({ kind: "disk", dir: join(dir, "files") });
			return {
				db: await openDatabase({ databaseUrl: undefined, dataDir: "memory://" }),
				storage,
				tempMaxAgeMs: HOUR,
				async leaveTemporaries() {
					// A put killed mid-way (SIGKILL): its temporary file stays in tmp/, two hours old.
					const stale = join(dir, "files", "tmp", "killed-upload");
					writeFileSync(stale, bytes(3000, 90));
					const old = new Date(Date.now() - 2 * HOUR);
					utimesSync(stale, old, old);
					// One being written now is left alone.
					writeFileSync(join(dir, "files", "tmp", "in-progress"), bytes(10, 91));
					return { count: 1, bytes: 3000 };
				},
			};
		},
	],
	[
		"PostgreSQL and S3",
		async () => {
			cluster ??= await startPostgresCluster();
			s3 ??= await startLocalS3();
			const spoolDir = mkdtempSync(join(tmpdir(), "modelhub-gc-spool-"));
			folders.push(spoolDir);
			const prefix = `gc-${Date.now()}/`;
			const options = s3.options({ prefix, spoolDir });
			const local = s3;
			return {
				db: await openDatabase({ databaseUrl: await cluster.createDatabase("gc"), dataDir: "memory://" }),
				storage: local.open({ prefix, spoolDir }),
				// S3 dates an unfinished upload by its start, which a test cannot move back.
				tempMaxAgeMs: 0,
				async leaveTemporaries() {
					// A crashed process's spool, and a multipart upload it never completed (its part is stored).
					mkdirSync(join(spoolDir, "crashed-process"), { recursive: true });
					const spool = join(spoolDir, "crashed-process", "spool");
					writeFileSync(spool, bytes(2000, 92));
					const old = new Date(Date.now() - 2 * HOUR);
					utimesSync(spool, old, old);
					const client = createS3Client(options);
					const Key = `${prefix}blobs/ab/cd/${"ab".padEnd(64, "c")}`;
					const created = await client.send(
						new CreateMultipartUploadCommand({ Bucket: options.bucket, Key }),
					);
					const part = bytes(5 * 1024 * 1024, 93);
					await client.send(
						new UploadPartCommand({
							Bucket: options.bucket,
							Key,
							UploadId: created.UploadId,
							PartNumber: 1,
							Body: part,
							ContentLength: part.length,
						}),
					);
					client.destroy();
					return { count: 2, bytes: 2000 + part.length };
				},
			};
		},
	],
];

for (const [label, open] of BACKENDS) {
	describe(`the garbage collector on ${label}`, () => {
		let backend: Backend;
		let services: ServiceContext;
		/** The same stores with small files kept in the database (the default). */
		let packed: ServiceContext;
		let erin: Actor;
		let repo: RepoRef;

		async function commitInline(
			files: Record<string, Buffer>,
			into: RepoRef = repo,
			context: ServiceContext = services,
		): Promise<string> {
			const upload = await startCommit(context, erin, into, "main");
			const operations = [];
			for (const [path, content] of Object.entries(files))
				operations.push(await upload.storeFile(path, content, true));
			return (await upload.commit({ summary: "files", description: "" }, operations)).commitId;
		}

		/**
		 * A commit racing collections: it lands, or is refused cleanly (503: its bytes were reclaimed; 412:
		 * another commit moved the branch) and is sent again, as a client would, up to 8 times. Under heavy
		 * load every first attempt can lose (a CI run at load ~16 saw 16 of 16 refused), and the races'
		 * checks need some commit that landed while collections ran.
		 */
		async function commitRacingCollections(
			files: Record<string, Buffer>,
			into: RepoRef = repo,
			context: ServiceContext = services,
		): Promise<"committed" | "refused"> {
			for (let attempt = 0; attempt < 8; attempt++) {
				try {
					await commitInline(files, into, context);
					return "committed";
				} catch (error) {
					if (!(error instanceof HubError && (error.status === 503 || error.status === 412))) throw error;
				}
			}
			return "refused";
		}

		/** The collector with everything unreferenced collectable at once (no grace, no ages). */
		let EAGER: GcSettings;

		beforeAll(async () => {
			backend = await open();
			EAGER = {
				...DEFAULT_GC_SETTINGS,
				graceMs: 0,
				uploadMaxAgeMs: 0,
				xorbMaxAgeMs: 0,
				tempMaxAgeMs: backend.tempMaxAgeMs,
			};
			services = await createServiceContext({
				db: backend.db,
				storage: backend.storage,
				changes: new ChangeEvents(),
				// These cases follow the file store's protocol: every file a blob file (small files kept in
				// the database have their own case, with `packed`).
				settings: {
					maxFileBytes: 64 * 1024 * 1024,
					uploads: { ...DEFAULT_UPLOAD_SETTINGS, smallBlobMaxBytes: 0 },
				},
			});
			packed = await createServiceContext({
				db: backend.db,
				storage: backend.storage,
				changes: new ChangeEvents(),
				settings: { maxFileBytes: 64 * 1024 * 1024, uploads: DEFAULT_UPLOAD_SETTINGS },
			});
			const { token } = await addUser(services, CLI_ACTOR, { name: "erin" });
			erin = actorFor((await viewerForToken(backend.db, token)) as Viewer, "127.0.0.1");
			await createRepository(services, erin, {
				type: "model",
				namespace: "erin",
				name: "gc",
				private: false,
			});
			repo = { type: "model", id: "erin/gc", namespace: "erin", private: false };
		}, 180_000);
		afterAll(async () => {
			await services?.downloads.close();
			await packed?.downloads.close();
			await backend?.db.close();
			await backend?.storage.close();
		});

		it("reports in a dry run exactly what the real run then reclaims, and a second run finds nothing", async () => {
			const kept = bytes(1500, 1);
			await commitInline({ "kept.bin": kept });
			// A deleted repository's own file.
			await createRepository(services, erin, {
				type: "model",
				namespace: "erin",
				name: "gone",
				private: false,
			});
			const gone: RepoRef = { type: "model", id: "erin/gone", namespace: "erin", private: false };
			const lost = bytes(2500, 2);
			await commitInline({ "lost.bin": lost }, gone);
			await deleteRepository(services, erin, gone);
			// An LFS upload no commit took.
			const stale = bytes(4000, 3);
			const [plan] = await planLfsUploads(services, erin, repo, [{ oid: sha(stale), size: stale.length }], {
				kind: "branch",
			});
			expect(plan?.status).toBe("upload");
			const grant: UploadGrant = {
				repo: { type: "model", id: "erin/gc" },
				oid: sha(stale),
				size: stale.length,
				expires: Math.floor(Date.now() / 1000) + 60,
				actor: "erin",
				tokenId: erin.audit.tokenId ?? "",
				right: "write",
			};
			await receiveLfsObject(services, grant, chunksOf(stale), "127.0.0.1");
			// A xorb past its age (its bytes are a blob of their own).
			const xorb = xorbOf([bytes(700, 4)]);
			await receiveXorb(
				services,
				{
					account: "erin",
					repo: { type: "model", id: "erin/gc" },
					accessTokenId: null,
					issuer: null,
					right: "write",
				},
				"4".repeat(64),
				chunksOf(xorb),
			);
			// Bytes stored with no row (a crash between storing and recording).
			const orphan = bytes(900, 5);
			await backend.storage.put(chunksOf(orphan));
			const temporaries = await backend.leaveTemporaries();
			await new Promise((resolve) => setTimeout(resolve, 20));

			const expected = {
				staleUploads: { count: 1, bytes: stale.length },
				expiredXorbs: { count: 1, bytes: xorb.length },
				unreferencedBlobs: { count: 3, bytes: lost.length + stale.length + xorb.length },
				orphanedObjects: { count: 1, bytes: orphan.length },
				temporaries,
			};
			const dry = await collectGarbage(services, CLI_ACTOR, { dryRun: true, settings: EAGER });
			expect(dry).toMatchObject({ dryRun: true, ...expected });
			for (const blob of [lost, stale, xorb, orphan, kept])
				expect(await backend.storage.stat(sha(blob))).toBeDefined();
			expect((await backend.db.query("SELECT 1 FROM upload_objects")).rows.length).toBe(1);

			const real = await collectGarbage(services, CLI_ACTOR, { dryRun: false, settings: EAGER });
			expect(real).toEqual({ ...dry, dryRun: false });
			expect(real.reclaimedBytes).toBe(
				lost.length + stale.length + xorb.length + orphan.length + temporaries.bytes,
			);
			for (const blob of [lost, stale, xorb, orphan])
				expect(await backend.storage.stat(sha(blob))).toBeUndefined();
			// What commits refer to stays, bytes and rows.
			expect(await backend.storage.stat(sha(kept))).toEqual({ size: kept.length });
			expect((await backend.db.query("SELECT 1 FROM blobs WHERE sha256 = $1", [sha(kept)])).rows.length).toBe(
				1,
			);
			const [entry] = (await listAudit(backend.db, { action: "gc.run", limit: 1 })).entries;
			expect(entry).toMatchObject({ actor: "@cli", details: { reclaimedBytes: real.reclaimedBytes } });

			const again = await runGcCommand(backend.db, backend.storage, EAGER, ["--dry-run"]);
			expect(again).toMatch(/^Would reclaim \(dry run, nothing deleted\):/);
			expect(again).toMatch(/storage to reclaim: 0 bytes$/);
		});

		it("deletes the trees no commit reaches after a dry run that counts them, and keeps every tree a commit uses", async () => {
			const { db } = backend;
			await collectGarbage(services, CLI_ACTOR, { dryRun: false, settings: EAGER });
			const storedTrees = async (): Promise<number> =>
				Number(
					(
						await db.query<{ n: string | number }>(
							"SELECT (SELECT count(*) FROM trees) + (SELECT count(*) FROM tree_chunks) AS n",
						)
					).rows[0]?.n,
				);
			await createRepository(services, erin, {
				type: "model",
				namespace: "erin",
				name: "doomed",
				private: false,
			});
			const doomed: RepoRef = { type: "model", id: "erin/doomed", namespace: "erin", private: false };
			// A folder larger than one stored tree holds (kept in chunks), a nested folder, and a folder
			// the kept repository has too (one tree, shared).
			// (rows/ holds 1,100 copies of one stored file, named by SHA-256: one blob to store, not 1,100.)
			const row = Buffer.from("doomed row\n");
			await commitInline(
				{
					"deep/er/x.txt": Buffer.from("doomed\n"),
					"shared/same.txt": Buffer.from("the same in both\n"),
					"row.txt": row,
				},
				doomed,
			);
			const copies = await startCommit(services, erin, doomed, "main");
			const doomedCommit = (
				await copies.commit(
					{ summary: "rows", description: "" },
					Array.from({ length: 1100 }, (_, index) => ({
						kind: "lfsFile" as const,
						path: `rows/r-${index}.txt`,
						sha256: sha(row),
						size: row.length,
					})),
				)
			).commitId;
			const keptCommit = await commitInline({ "shared/same.txt": Buffer.from("the same in both\n") });
			const doomedRoot = (await rootTrees(db, doomed, [doomedCommit])).get(doomedCommit) as string;
			const folders = new Map(
				(await walkTree(db, doomedRoot))
					.filter((entry) => entry.item.type === "directory")
					.map((entry) => [entry.path, (entry.item as { oid: string }).oid]),
			);
			const chunks = (await loadTree(db, folders.get("rows") as string)).chunks?.length ?? 0;
			expect(chunks).toBeGreaterThan(1);
			const before = await storedTrees();
			await deleteRepository(services, erin, doomed);

			// Its two roots, rows/ (its list of chunks, and the chunks), deep/, deep/er/; not shared/.
			const expected = 5 + chunks;
			// The collector reads trees a page at a time (MODELHUB_GC_TREE_BATCH): no answer it gets about
			// trees, chunks or commits holds more rows than that, however many are stored.
			const treeBatch = 2;
			const rowsRead: number[] = [];
			const recording = recordRows(db, /\btrees\b|tree_chunks|\bcommits\b|gc_tree_marks/, rowsRead);
			const paged = { ...services, db: recording };
			const dry = await collectGarbage(paged, CLI_ACTOR, { dryRun: true, settings: { ...EAGER, treeBatch } });
			expect(dry.orphanedTrees.count).toBe(expected);
			expect(dry.orphanedTrees.bytes).toBeGreaterThan(1100 * 20);
			expect(await storedTrees()).toBe(before);
			const real = await collectGarbage(paged, CLI_ACTOR, {
				dryRun: false,
				settings: { ...EAGER, treeBatch },
			});
			expect(real.orphanedTrees).toEqual(dry.orphanedTrees);
			expect(await storedTrees()).toBe(before - expected);
			expect(rowsRead.length).toBeGreaterThan(10);
			expect(Math.max(...rowsRead)).toBeLessThanOrEqual(treeBatch);
			// Its marks are gone with the run.
			expect((await db.query("SELECT 1 FROM gc_tree_marks")).rows).toEqual([]);
			const gone = await db.query("SELECT 1 FROM trees WHERE oid = ANY($1::text[])", [
				[doomedRoot, folders.get("rows"), folders.get("deep"), folders.get("deep/er")],
			]);
			expect(gone.rows).toEqual([]);

			// Every commit of the kept repository still reads whole from the database (no cached trees).
			setTreeCacheBytes(0);
			try {
				const history = await db.query<{ id: string }>("SELECT id FROM commits WHERE repo_id = 'erin/gc'");
				expect(history.rows.length).toBeGreaterThan(1);
				for (const { id } of history.rows) await listFiles(db, { type: "model", id: "erin/gc" }, id);
				const kept = await listFiles(db, { type: "model", id: "erin/gc" }, keptCommit);
				expect(kept.map((file) => file.path)).toContain("shared/same.txt");
			} finally {
				setTreeCacheBytes(DEFAULT_TREE_CACHE_BYTES);
			}
			const again = await collectGarbage(services, CLI_ACTOR, { dryRun: true, settings: EAGER });
			expect(again.orphanedTrees).toEqual({ count: 0, bytes: 0 });
		}, 120_000);

		it("spares a file stored for a commit within the grace period, and refuses a commit whose file it took", async () => {
			const spared = bytes(1200, 20);
			const upload = await startCommit(services, erin, repo, "main");
			const operation = await upload.storeFile("spared.bin", spared, true);
			await collectGarbage(services, CLI_ACTOR, { dryRun: false, settings: { ...EAGER, graceMs: HOUR } });
			await upload.commit({ summary: "after a collection", description: "" }, [operation]);
			expect(await backend.storage.stat(sha(spared))).toEqual({ size: spared.length });

			// A commit that comes after the grace period: its file was collected, and it is told so. (Sent
			// as a stream, the file is stored and published at once; inline bytes wait for the commit's
			// batch in a disk store's temporaries, out of the collector's reach.)
			const late = bytes(1300, 21);
			const slow = await startCommit(services, erin, repo, "main");
			const lateOperation = await slow.storeFile("late.bin", chunksOf(late), true);
			await collectGarbage(services, CLI_ACTOR, { dryRun: false, settings: EAGER });
			expect(await backend.storage.stat(sha(late))).toBeUndefined();
			const refused = await slow
				.commit({ summary: "too late", description: "" }, [lateOperation])
				.catch((error: unknown) => error);
			expect(refused).toBeInstanceOf(HubError);
			expect((refused as HubError).status).toBe(503);
			expect((refused as HubError).message).toMatch(/reclaimed by the garbage collector/);
			const files = await backend.db.query("SELECT 1 FROM repo_blobs WHERE sha256 = $1", [sha(late)]);
			expect(files.rows.length).toBe(0);
		});

		it("never leaves a commit referring to bytes it deleted, while commits and collections race", async () => {
			const contents = Array.from({ length: 16 }, (_, index) => bytes(600 + index, 100 + index));
			let collecting = true;
			const collections = (async () => {
				let runs = 0;
				while (collecting || runs < 2) {
					await collectGarbage(services, CLI_ACTOR, { dryRun: false, settings: EAGER });
					runs++;
				}
				return runs;
			})();
			const outcomes = await Promise.all(
				contents.map((content, index) => commitRacingCollections({ [`race/${index}.bin`]: content })),
			);
			collecting = false;
			expect(await collections).toBeGreaterThanOrEqual(2);
			const committed = contents.filter((_, index) => outcomes[index] === "committed");
			expect(committed.length).toBeGreaterThan(0);
			// Every committed file has its row and its bytes, after collections ran during and after.
			await collectGarbage(services, CLI_ACTOR, { dryRun: false, settings: EAGER });
			for (const content of committed) {
				expect(await backend.storage.stat(sha(content))).toEqual({ size: content.length });
			}
			const dangling = await backend.db.query(
				"SELECT count(*) AS n FROM repo_blobs f WHERE NOT EXISTS (SELECT 1 FROM blobs b WHERE b.sha256 = f.sha256)",
			);
			expect(Number((dangling.rows[0] as { n: string | number }).n)).toBe(0);
		});

		it("keeps small files in the database, reclaims them with their repository, and never loses a committed one in a race", async () => {
			const { db } = backend;
			const inTable = async (content: Buffer): Promise<boolean> =>
				(await db.query("SELECT 1 FROM small_blobs WHERE sha256 = $1", [sha(content)])).rows.length === 1;
			await collectGarbage(packed, CLI_ACTOR, { dryRun: false, settings: EAGER });
			const shared = bytes(700, 40);
			await commitInline({ "shared.txt": shared }, repo, packed);
			await createRepository(packed, erin, {
				type: "model",
				namespace: "erin",
				name: "packed",
				private: false,
			});
			const doomed: RepoRef = { type: "model", id: "erin/packed", namespace: "erin", private: false };
			const own = [bytes(500, 41), bytes(501, 42)];
			await commitInline(
				{ "a.txt": own[0] as Buffer, "b.txt": own[1] as Buffer, "shared.txt": shared },
				doomed,
				packed,
			);
			// In the database, not one file each.
			for (const content of [shared, ...own]) {
				expect(await inTable(content)).toBe(true);
				expect(await backend.storage.stat(sha(content))).toBeUndefined();
			}

			await deleteRepository(packed, erin, doomed);
			const dry = await collectGarbage(packed, CLI_ACTOR, { dryRun: true, settings: EAGER });
			expect(dry.unreferencedBlobs).toEqual({ count: 2, bytes: 1001 });
			for (const content of own) expect(await inTable(content)).toBe(true);
			const real = await collectGarbage(packed, CLI_ACTOR, { dryRun: false, settings: EAGER });
			expect(real.unreferencedBlobs).toEqual({ count: 2, bytes: 1001 });
			expect(real.reclaimedBytes).toBeGreaterThanOrEqual(1001);
			for (const content of own) expect(await inTable(content)).toBe(false);
			// What a commit still refers to stays, row and bytes.
			const read = await readBlob(packed, { sha256: sha(shared), size: shared.length });
			const chunks: Buffer[] = [];
			for await (const chunk of read) chunks.push(chunk as Buffer);
			expect(Buffer.concat(chunks).equals(shared)).toBe(true);

			// Commits of small files racing collections: each either lands with its bytes or is refused.
			const contents = Array.from({ length: 16 }, (_, index) => bytes(650 + index, 140 + index));
			let collecting = true;
			const collections = (async () => {
				let runs = 0;
				while (collecting || runs < 2) {
					await collectGarbage(packed, CLI_ACTOR, { dryRun: false, settings: EAGER });
					runs++;
				}
				return runs;
			})();
			const outcomes = await Promise.all(
				contents.map((content, index) =>
					commitRacingCollections({ [`packed-race/${index}.txt`]: content }, repo, packed),
				),
			);
			collecting = false;
			expect(await collections).toBeGreaterThanOrEqual(2);
			const committed = contents.filter((_, index) => outcomes[index] === "committed");
			expect(committed.length).toBeGreaterThan(0);
			await collectGarbage(packed, CLI_ACTOR, { dryRun: false, settings: EAGER });
			for (const content of committed) expect(await inTable(content)).toBe(true);
		});
	});
}

describe("the garbage collector and git pushes' quarantines", () => {
	it("removes a quarantine an aborted push left once untouched for the temporaries' age, never a recent one", async () => {
		const dir = mkdtempSync(join(tmpdir(), "modelhub-gc-git-"));
		folders.push(dir);
		const db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
		const storage = await openBlobStore({ kind: "disk", dir: join(dir, "files") });
		try {
			const gitDir = join(dir, "git");
			const cache = join(gitDir, "cache.git");
			mkdirSync(cache, { recursive: true });
			// Quarantines as receivePack makes them, left as a killed hub would leave them: a partial pack
			// in each, one untouched for two hours, one written a moment ago (a push in progress).
			const options = { maxBytes: 1024, signal: new AbortController().signal, tempRoot: incomingDir(gitDir) };
			await receivePack(cache, undefined, options);
			await receivePack(cache, undefined, options);
			const [first, second] = readdirSync(incomingDir(gitDir))
				.map((name) => join(incomingDir(gitDir), name))
				.sort();
			expect(first).toBeDefined();
			expect(second).toBeDefined();
			const partial = Buffer.alloc(5000, 7);
			for (const folder of [first, second] as string[])
				writeFileSync(join(folder, "objects", "pack", "tmp_pack_partial"), partial);
			// Which is which does not matter: one is made old.
			const old = first as string;
			const recent = second as string;
			const twoHoursAgo = new Date(Date.now() - 2 * HOUR);
			for (const path of [
				join(old, "objects", "pack", "tmp_pack_partial"),
				join(old, "objects", "pack"),
				join(old, "objects"),
				old,
			])
				utimesSync(path, twoHoursAgo, twoHoursAgo);
			const context = { db, storage, git: { dir: gitDir, timeoutMs: 600_000 } };
			const settings = { ...DEFAULT_GC_SETTINGS, tempMaxAgeMs: HOUR };
			const dry = await collectGarbage(context, CLI_ACTOR, { dryRun: true, settings });
			expect(dry.temporaries).toEqual({ count: 1, bytes: partial.length });
			expect(existsSync(old)).toBe(true);
			const real = await collectGarbage(context, CLI_ACTOR, { dryRun: false, settings });
			expect(real.temporaries).toEqual({ count: 1, bytes: partial.length });
			expect(existsSync(old)).toBe(false);
			expect(existsSync(join(recent, "objects", "pack", "tmp_pack_partial"))).toBe(true);
			// The push time limit bounds the age from below: with a limit over two hours, nothing goes.
			utimesSync(recent, twoHoursAgo, twoHoursAgo);
			utimesSync(join(recent, "objects"), twoHoursAgo, twoHoursAgo);
			utimesSync(join(recent, "objects", "pack"), twoHoursAgo, twoHoursAgo);
			utimesSync(join(recent, "objects", "pack", "tmp_pack_partial"), twoHoursAgo, twoHoursAgo);
			const slow = await collectGarbage(
				{ ...context, git: { dir: gitDir, timeoutMs: 3 * HOUR } },
				CLI_ACTOR,
				{ dryRun: false, settings },
			);
			expect(slow.temporaries.count).toBe(0);
			expect(existsSync(recent)).toBe(true);
		} finally {
			await db.close();
			await storage.close();
		}
	}, 180_000);
});

describe("the periodic garbage collector", () => {
	it("reclaims a deleted repository's file in a hub started with a short interval, with no command run, and records the run as @gc", async () => {
		const ADMIN = "gc-periodic-admin-token-0123456789abcdef";
		const dir = mkdtempSync(join(tmpdir(), "modelhub-gc-periodic-"));
		folders.push(dir);
		const db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
		const storage = await openBlobStore({ kind: "disk", dir: join(dir, "files") });
		// Every file a blob file, everything unreferenced collectable at once, a run every 200 ms.
		const hub = await startHub({
			db,
			storage,
			seed: false,
			adminToken: ADMIN,
			uploads: { smallBlobMaxBytes: 0 },
			gc: { intervalMs: 200, graceMs: 0, uploadMaxAgeMs: 0, xorbMaxAgeMs: 0 },
		});
		try {
			const send = (method: string, path: string, token: string, body?: string, type = "application/json") =>
				fetch(`${hub.url}${path}`, {
					method,
					headers: {
						authorization: `Bearer ${token}`,
						...(body === undefined ? {} : { "content-type": type }),
					},
					...(body === undefined ? {} : { body }),
				});
			const created = await send("POST", "/api/admin/users", ADMIN, JSON.stringify({ name: "gwen" }));
			const { token } = (await created.json()) as { token: string };
			for (const name of ["doomed", "kept"])
				expect((await send("POST", "/api/repos/create", token, JSON.stringify({ name }))).status).toBe(200);
			/**
			 * A commit of one inline file. With no grace period the collector may take its bytes before the
			 * commit lands (503, the client sends it again), as it would a client's.
			 */
			const commit = async (name: string, content: Buffer): Promise<void> => {
				const body = [
					JSON.stringify({ key: "header", value: { summary: "add" } }),
					JSON.stringify({
						key: "file",
						value: { path: "weights.bin", content: content.toString("base64"), encoding: "base64" },
					}),
				].join("\n");
				const statuses: number[] = [];
				for (let attempt = 0; attempt < 8; attempt++) {
					const res = await send(
						"POST",
						`/api/models/gwen/${name}/commit/main`,
						token,
						body,
						"application/x-ndjson",
					);
					statuses.push(res.status);
					if (res.status !== 503) break;
				}
				expect(statuses.at(-1)).toBe(200);
			};
			const doomed = bytes(3000, 70);
			const kept = bytes(2000, 71);
			await commit("doomed", doomed);
			await commit("kept", kept);
			expect(await storage.stat(sha(doomed))).toBeDefined();
			expect(
				(await send("DELETE", "/api/repos/delete", token, JSON.stringify({ name: "doomed", type: "model" })))
					.status,
			).toBe(200);
			// No command is run: the hub's own periodic run reclaims the bytes. Polled a bounded number of
			// times (no timing is asserted: the interval only makes it happen soon).
			let tries = 0;
			while ((await storage.stat(sha(doomed))) !== undefined && tries < 300) {
				tries++;
				await new Promise((resolve) => setTimeout(resolve, 100));
			}
			expect(await storage.stat(sha(doomed))).toBeUndefined();
			// The live repository's file stays, and still downloads.
			expect(await storage.stat(sha(kept))).toBeDefined();
			const download = await fetch(`${hub.url}/gwen/kept/resolve/main/weights.bin`, {
				headers: { authorization: `Bearer ${token}` },
			});
			expect(Buffer.from(await download.arrayBuffer()).equals(kept)).toBe(true);
			// The run is in the audit log, by the collector's actor, with what it reclaimed: written when the
			// run ends, after its blobs are deleted, so it too is polled a bounded number of times.
			const runs = async (): Promise<Array<{ actor: string; details: GcRunDetails }>> => {
				const audit = await send("GET", "/api/admin/audit?action=gc.run", ADMIN);
				expect(audit.status).toBe(200);
				return ((await audit.json()) as { entries: Array<{ actor: string; details: GcRunDetails }> }).entries;
			};
			const reclaimed = (entry: { details: GcRunDetails }) =>
				entry.details.dryRun === false && entry.details.unreferencedBlobs.bytes >= doomed.length;
			let entries = await runs();
			for (tries = 0; !entries.some(reclaimed) && tries < 300; tries++) {
				await new Promise((resolve) => setTimeout(resolve, 100));
				entries = await runs();
			}
			expect(entries.filter(reclaimed).length).toBeGreaterThanOrEqual(1);
			expect(entries.every((entry) => entry.actor === "@gc")).toBe(true);
		} finally {
			await hub.close();
			await storage.close();
			await db.close();
		}
	}, 180_000);
});

/** What a `gc.run` audit entry records (the collector's report). */
interface GcRunDetails {
	dryRun: boolean;
	unreferencedBlobs: { count: number; bytes: number };
}
