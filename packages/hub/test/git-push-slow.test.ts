// A git push whose body takes longer than the request time limit (a large push over a slow link) is
// answered, not cut off: receive-pack is an upload route, held to the idle limit instead.
import { afterAll, beforeAll, expect, it } from "vitest";
import { openDatabase } from "../src/db/open.js";
import type { Database } from "../src/db/types.js";
import { hubCall } from "./support/git.js";
import { startHub, type RunningHub } from "./support/hub.js";

const ADMIN = "git-push-slow-admin-token-0123456789";
let db: Database;
let hub: RunningHub;
let token: string;

beforeAll(async () => {
	db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
	hub = await startHub({ db, seed: false, adminToken: ADMIN, requestTimeoutMs: 1000 });
	const created = await hubCall(hub.url, "/api/admin/users", ADMIN, { name: "alice" });
	token = ((await created.json()) as { token: string }).token;
	expect((await hubCall(hub.url, "/api/repos/create", token, { name: "tiny" })).status).toBe(200);
}, 120_000);

afterAll(async () => {
	await hub?.close();
	await db?.close();
});

it("answers a push whose body arrives over longer than MODELHUB_REQUEST_TIMEOUT_MS", async () => {
	// An empty command list ("0000", what git sends when nothing is to be updated), two bytes at a time,
	// 2.4 s in all against a 1 s request limit.
	const encoder = new TextEncoder();
	const chunks = ["00", "00"];
	const body = new ReadableStream<Uint8Array>({
		async pull(controller) {
			await new Promise((resolve) => setTimeout(resolve, 1200));
			const next = chunks.shift();
			if (next === undefined) controller.close();
			else controller.enqueue(encoder.encode(next));
		},
	});
	const res = await fetch(`${hub.url}/alice/tiny/git-receive-pack`, {
		method: "POST",
		headers: {
			authorization: `Basic ${Buffer.from(`alice:${token}`).toString("base64")}`,
			"content-type": "application/x-git-receive-pack-request",
		},
		body,
		duplex: "half",
	} as RequestInit);
	expect(res.status).toBe(200);
	expect(res.headers.get("content-type")).toBe("application/x-git-receive-pack-result");
	await res.arrayBuffer();
}, 60_000);
