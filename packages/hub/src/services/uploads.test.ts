import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { viewerForToken } from "../accounts/store.js";
import { RefusedError, type RepoRef, type Viewer } from "../accounts/viewer.js";
import { listAudit } from "../audit/log.js";
import { DEFAULT_UPLOAD_SETTINGS } from "../config.js";
import { openDatabase } from "../db/open.js";
import type { Database } from "../db/types.js";
import { HubError } from "../errors.js";
import { openBlobStore } from "../storage/open.js";
import type { BlobStore } from "../storage/types.js";
import { addUser } from "./accounts.js";
import { actorFor, CLI_ACTOR, type Actor } from "./actor.js";
import { ChangeEvents, changesWhatReadersSee, type ChangeEvent } from "./changes.js";
import { createServiceContext, type ServiceContext } from "./context.js";
import { createRepository, createTag } from "./repos.js";
import {
	checkUploadUrl,
	planLfsUploads,
	planPreupload,
	receiveLfsObject,
	startCommit,
	verifyLfsObject,
	type UploadGrant,
} from "./uploads.js";

async function* bytesOf(buffer: Buffer): AsyncIterable<Uint8Array> {
	// Two chunks, as a request body arrives.
	yield buffer.subarray(0, 3);
	yield buffer.subarray(3);
}

describe("the upload services", () => {
	let db: Database;
	let storage: BlobStore;
	let services: ServiceContext;
	const events: ChangeEvent[] = [];
	let alice: Actor;
	let bob: Actor;
	let repo: RepoRef;

	async function actorOf(token: string): Promise<Actor> {
		return actorFor((await viewerForToken(db, token)) as Viewer, "127.0.0.1");
	}

	beforeAll(async () => {
		db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
		storage = await openBlobStore({ kind: "disk", dir: undefined });
		const changes = new ChangeEvents();
		changes.on((event) => void events.push(event));
		services = await createServiceContext({
			db,
			storage,
			changes,
			settings: { maxFileBytes: 1024, uploads: { ...DEFAULT_UPLOAD_SETTINGS, maxRegularFileBytes: 64 } },
		});
		alice = await actorOf((await addUser(services, CLI_ACTOR, { name: "alice" })).token);
		bob = await actorOf((await addUser(services, CLI_ACTOR, { name: "bob" })).token);
		await createRepository(services, alice, { type: "model", namespace: "alice", name: "m", private: false });
		repo = { type: "model", id: "alice/m", namespace: "alice", private: false };
	});
	afterAll(async () => {
		await db.close();
		await storage.close();
	});

	it("hands out a signed URL, receives the object through it once, and records it with one event", async () => {
		const object = Buffer.from("the bytes of a large file");
		const oid = createHash("sha256").update(object).digest("hex");
		const main = { kind: "branch" } as const;
		await expect(
			planLfsUploads(services, bob, repo, [{ oid, size: object.length }], main),
		).rejects.toBeInstanceOf(RefusedError);
		// A reader may upload for a pull request: the URL names that right, and the signature covers it.
		const [forPr] = await planLfsUploads(services, bob, repo, [{ oid, size: object.length }], {
			kind: "new-pull-request",
		});
		const prQuery = (forPr as Extract<typeof forPr, { status: "upload" }>).query;
		expect(prQuery.right).toBe("pull-request");
		const prUrl = { repo: { type: repo.type, id: repo.id }, oid, query: prQuery };
		expect(checkUploadUrl(services, prUrl)).toMatchObject({
			status: "valid",
			grant: { right: "pull-request" },
		});
		const { right: _dropped, ...asWriter } = prQuery;
		expect(checkUploadUrl(services, { ...prUrl, query: asWriter }).status).toBe("invalid");

		const plans = await planLfsUploads(
			services,
			alice,
			repo,
			[
				{ oid, size: object.length },
				{ oid: "not-a-digest", size: 1 },
				{ oid, size: 4096 },
			],
			main,
		);
		expect(plans.map((plan) => plan.status)).toEqual(["upload", "invalid", "too-large"]);
		const plan = plans[0] as Extract<(typeof plans)[number], { status: "upload" }>;
		expect(plan.query.actor).toBe("alice");

		const url = { repo: { type: repo.type, id: repo.id }, oid, query: plan.query };
		expect(checkUploadUrl(services, { ...url, query: { ...plan.query, size: "1" } }).status).toBe("invalid");
		expect(checkUploadUrl(services, { ...url, repo: { type: "model", id: "bob/m" } }).status).toBe("invalid");
		const checked = checkUploadUrl(services, url);
		expect(checked.status).toBe("valid");
		const grant = (checked as { grant: UploadGrant }).grant;

		// Bytes that are not the announced ones are refused, and nothing is recorded.
		events.length = 0;
		await expect(
			receiveLfsObject(services, grant, bytesOf(Buffer.from("other bytes of a large file")), "127.0.0.1"),
		).rejects.toBeInstanceOf(HubError);
		expect(events).toEqual([]);
		expect((await verifyLfsObject(services, alice, repo, { oid, size: object.length })).status).toBe(
			"not-held",
		);

		await receiveLfsObject(services, grant, bytesOf(object), "127.0.0.1");
		expect(events).toEqual([
			{ type: "repo.uploaded", repo: { type: "model", id: "alice/m" }, sha256: oid, size: object.length },
		]);
		// Readers see nothing new until a commit uses the object: cached answers stay.
		expect(changesWhatReadersSee(events[0] as ChangeEvent)).toBe(false);
		const audit = (await listAudit(db, { limit: 1 })).entries[0];
		expect(audit).toMatchObject({ actor: "alice", action: "lfs.upload", repo: "alice/m" });
		expect(audit?.tokenId).toBe(alice.audit.tokenId);
		expect(await verifyLfsObject(services, alice, repo, { oid, size: object.length })).toEqual({
			status: "held",
			oid,
			size: object.length,
		});
		// Held now: the next batch asks for no upload.
		expect(
			(await planLfsUploads(services, alice, repo, [{ oid, size: object.length }], main))[0]?.status,
		).toBe("held");

		// The commit refers to it by SHA-256; its inline files are stored as they arrive.
		const commit = await startCommit(services, alice, repo, "main");
		const readme = await commit.storeFile("README.md", Buffer.from("# m\n"), true);
		// Where its bytes went (a small file: the database's table), for reading the card back (readBlob's hint).
		expect(readme).toMatchObject({
			kind: "file",
			path: "README.md",
			lfs: false,
			size: 4,
			storedIn: "database",
		});
		await expect(commit.storeFile("big.txt", Buffer.alloc(65, 0x61), true)).rejects.toMatchObject({
			kind: "TooLarge",
		});
		const result = await commit.commit({ summary: "Add files", description: "" }, [
			readme,
			{ kind: "lfsFile", path: "weights.bin", sha256: oid, size: object.length },
		]);
		expect(result.changed).toBe(true);

		const preupload = await planPreupload(services, alice, repo, "main", {
			files: [
				{ path: "weights.bin", size: object.length, sample: Buffer.alloc(0) },
				{ path: "notes.txt", size: 10, sample: Buffer.from("some notes") },
				{ path: "cache/x.txt", size: 1, sample: Buffer.from("x") },
			],
			gitIgnore: "cache/\n",
		});
		expect(preupload).toEqual({
			commitId: result.commitId,
			files: [
				{ path: "weights.bin", mode: "lfs", ignored: false, oid },
				{ path: "notes.txt", mode: "regular", ignored: false, oid: undefined },
				{ path: "cache/x.txt", mode: "regular", ignored: true, oid: undefined },
			],
		});
	});

	it("refuses commits to anything but a branch, and writers without rights, before any byte is stored", async () => {
		await createTag(services, alice, repo, "v1", "main", undefined);
		await expect(startCommit(services, alice, repo, "v1")).rejects.toThrow(
			"Commits can only be made on a branch: v1 is not a branch of alice/m",
		);
		await expect(startCommit(services, alice, repo, "nope")).rejects.toMatchObject({
			code: "RevisionNotFound",
		});
		await expect(startCommit(services, bob, repo, "main")).rejects.toBeInstanceOf(RefusedError);
	});

	it("publishes a commit's stored files after MODELHUB_COMMIT_STAGED_MAX_MS, not only in batches of 256", async () => {
		const bytes = (text: string): Buffer => Buffer.from(text);
		const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex");
		// The default (10 s): a first file waits for its batch, unreadable until published.
		const batched = await startCommit(services, alice, repo, "main");
		await batched.storeFile("staged.txt", bytes("waits for its batch\n"), true);
		expect(await storage.stat(sha256("waits for its batch\n"))).toBeUndefined();
		await batched.abandon();
		// 0: each file is made readable and kept from the collector as it is stored (in the file store, which
		// this checks: small files would otherwise be kept in the database, small_blobs).
		const eager = await createServiceContext({
			db,
			storage,
			changes: new ChangeEvents(),
			settings: {
				maxFileBytes: 1024,
				uploads: { ...DEFAULT_UPLOAD_SETTINGS, stagedMaxMs: 0, smallBlobMaxBytes: 0 },
			},
		});
		const commit = await startCommit(eager, alice, repo, "main");
		expect(await commit.storeFile("now.txt", bytes("published at once\n"), true)).toMatchObject({
			storedIn: "files",
		});
		expect(await storage.stat(sha256("published at once\n"))).toEqual({ size: 18 });
		const row = await db.query("SELECT touched_at FROM blobs WHERE sha256 = $1", [
			sha256("published at once\n"),
		]);
		expect(row.rows).toHaveLength(1);
		await commit.abandon();
	});
});
