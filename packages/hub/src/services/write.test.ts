import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RefusedError, type Viewer } from "../accounts/viewer.js";
import { listAudit } from "../audit/log.js";
import { openDatabase } from "../db/open.js";
import type { Database } from "../db/types.js";
import { openBlobStore } from "../storage/open.js";
import type { BlobStore } from "../storage/types.js";
import { addOrg, addToken, addUser } from "./accounts.js";
import { actorFor, CLI_ACTOR } from "./actor.js";
import { ChangeEvents, changesWhatReadersSee, type ChangeEvent, type ChangeOrigin } from "./changes.js";
import { createBranch, createRepository, deleteBranchOrTag, deleteRepository } from "./repos.js";
import { write } from "./write.js";

describe("the change bus", () => {
	it("emits to every listener in order, even when one fails", () => {
		const failures: unknown[] = [];
		const bus = new ChangeEvents((error) => failures.push(error));
		const seen: string[] = [];
		bus.on(() => void seen.push("first"));
		bus.on(() => {
			throw new Error("listener broke");
		});
		const off = bus.on(() => void seen.push("third"));
		bus.emit({ type: "hub.changed" });
		off();
		bus.emit({ type: "hub.changed" });
		expect(seen).toEqual(["first", "third", "first"]);
		expect(failures).toHaveLength(2);
	});

	it("reports a listener's rejected promise without holding the emitter up", async () => {
		const failures: unknown[] = [];
		const bus = new ChangeEvents((error) => failures.push(error));
		bus.on(async () => {
			throw new Error("later");
		});
		bus.emit({ type: "hub.changed" });
		expect(failures).toEqual([]);
		await new Promise((resolve) => setImmediate(resolve));
		expect(failures).toEqual([new Error("later")]);
	});

	it("carries an event to other processes, and skips its own notifications", () => {
		const here = new ChangeEvents();
		const there = new ChangeEvents();
		const heard: Array<[ChangeEvent, ChangeOrigin]> = [];
		here.on((event, origin) => void heard.push([event, origin]));
		const event: ChangeEvent = {
			type: "repo.committed",
			repo: { type: "model", id: "alice/m" },
			refs: [{ kind: "branch", name: "main", from: "a".repeat(40), to: "b".repeat(40) }],
		};
		here.receive(here.encode(event));
		expect(heard).toEqual([]);
		here.receive(there.encode(event));
		expect(heard).toEqual([[event, "other-process"]]);
	});

	it("says only that something changed when the payload cannot carry the event", () => {
		const here = new ChangeEvents();
		const heard: ChangeEvent[] = [];
		here.on((event) => void heard.push(event));
		// Older hubs notify with an empty payload; a payload may be garbage; a bulk import is too large.
		here.receive("");
		here.receive('{"event":{"type":"no.such.event"}}');
		const ids = Array.from({ length: 1000 }, (_, index) => `ns/model-${index}`);
		here.receive(new ChangeEvents().encode({ type: "repos.imported", repoType: "model", ids }));
		expect(heard).toEqual([{ type: "hub.changed" }, { type: "hub.changed" }, { type: "hub.changed" }]);
		expect(
			Buffer.byteLength(new ChangeEvents().encode({ type: "repos.imported", repoType: "model", ids })),
		).toBeLessThan(200);
	});

	it("tells the cache which changes readers can see", () => {
		expect(changesWhatReadersSee({ type: "repo.deleted", repo: { type: "model", id: "a/b" } })).toBe(true);
		expect(changesWhatReadersSee({ type: "account.changed", account: "acme", what: "members" })).toBe(true);
		expect(changesWhatReadersSee({ type: "account.changed", account: "bob", what: "tokens" })).toBe(false);
		expect(changesWhatReadersSee({ type: "account.changed", account: "bob", what: "user.created" })).toBe(
			false,
		);
	});
});

describe("the write path", () => {
	let db: Database;
	let storage: BlobStore;
	const changes = new ChangeEvents();
	const events: ChangeEvent[] = [];
	changes.on((event) => void events.push(event));

	beforeAll(async () => {
		db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
		storage = await openBlobStore({ kind: "disk", dir: undefined });
	});
	afterAll(async () => {
		await db.close();
		await storage.close();
	});

	async function auditActions(): Promise<string[]> {
		return (await listAudit(db, { limit: 100 })).entries.map((entry) => entry.action).reverse();
	}

	it("records the audit entry and emits one event after commit; a failed write does neither", async () => {
		events.length = 0;
		const before = (await auditActions()).length;
		await expect(
			write({ db, changes }, async (tx) => {
				await tx.query("INSERT INTO hub_meta (key, value) VALUES ('write-test', 'x')");
				throw new Error("the work failed");
			}),
		).rejects.toThrow("the work failed");
		expect(events).toEqual([]);
		expect((await auditActions()).length).toBe(before);
		expect((await db.query("SELECT 1 FROM hub_meta WHERE key = 'write-test'")).rows).toEqual([]);

		const value = await write({ db, changes }, async () => ({
			value: 42,
			audit: { ...CLI_ACTOR.audit, action: "org.create" as const, details: { org: "none" } },
			change: { type: "account.changed" as const, account: "none", what: "org.created" as const },
		}));
		expect(value).toBe(42);
		expect(events).toEqual([{ type: "account.changed", account: "none", what: "org.created" }]);
		expect((await auditActions()).slice(before)).toEqual(["org.create"]);
	});

	it("runs account and repository services once for the admin API and the command line alike", async () => {
		events.length = 0;
		const context = { db, storage, changes };
		const created = await addUser(context, CLI_ACTOR, { name: "carol" });
		expect(created.token).toMatch(/^mh_/);
		await addOrg(context, CLI_ACTOR, { name: "labs", members: [{ user: "carol", role: "write" }] });
		const token = await addToken(context, actorFor({ kind: "admin" }, "127.0.0.1"), { user: "carol" });
		const carol: Viewer = {
			kind: "user",
			account: { name: "carol", objectId: "0".repeat(24), fullname: "carol" },
			token: { id: token.id, displayName: token.displayName, role: "write", createdAt: token.createdAt },
			orgs: [{ name: "labs", objectId: "1".repeat(24), fullname: "labs", role: "write" }],
		};
		const actor = actorFor(carol, "127.0.0.1");
		// Only the hub admin manages accounts.
		await expect(addUser(context, actor, { name: "mallory" })).rejects.toBeInstanceOf(RefusedError);

		const repo = await createRepository(context, actor, {
			type: "model",
			namespace: "labs",
			name: "m",
			private: false,
		});
		const ref = { type: "model" as const, id: repo.id, namespace: "labs", private: false };
		const branch = await createBranch(context, actor, ref, "dev", "main");
		await deleteBranchOrTag(context, actor, ref, "branch", "dev");
		// Deleting needs the admin role in the namespace: refused, nothing written or announced.
		await expect(deleteRepository(context, actor, ref)).rejects.toBeInstanceOf(RefusedError);
		await deleteRepository(context, CLI_ACTOR, ref);

		expect(events).toEqual([
			{ type: "account.changed", account: "carol", what: "user.created" },
			{ type: "account.changed", account: "labs", what: "org.created" },
			{ type: "account.changed", account: "carol", what: "tokens" },
			{ type: "repo.created", repo: { type: "model", id: "labs/m" }, private: false },
			{
				type: "repo.committed",
				repo: { type: "model", id: "labs/m" },
				refs: [{ kind: "branch", name: "dev", from: null, to: branch.commitId }],
			},
			{
				type: "repo.committed",
				repo: { type: "model", id: "labs/m" },
				refs: [{ kind: "branch", name: "dev", from: branch.commitId, to: null }],
			},
			{ type: "repo.deleted", repo: { type: "model", id: "labs/m" } },
		]);
		const entries = (await listAudit(db, { limit: 100 })).entries.reverse();
		expect(entries.slice(-8).map((entry) => [entry.action, entry.actor])).toEqual([
			["user.create", "@cli"],
			["token.create", "@cli"],
			["org.create", "@cli"],
			["token.create", "@admin"],
			["repo.create", "carol"],
			["branch.create", "carol"],
			["branch.delete", "carol"],
			["repo.delete", "@cli"],
		]);
	});
});
