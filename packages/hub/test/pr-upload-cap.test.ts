// The cap on what someone who may only open pull requests uploads (MODELHUB_PR_UPLOAD_MAX_BYTES): LFS
// objects asked for in a batch, a signed upload URL at use, a Xet file by its rebuilt size and Xet
// xorbs; a writer is not capped. Real hub on 127.0.0.1, embedded database.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../src/db/open.js";
import type { Database } from "../src/db/types.js";
import { bytes } from "./support/hf-client-suite.js";
import { createUser, startHub, type RunningHub } from "./support/hub.js";
import { shardOf, xorbOf } from "./support/xet-objects.js";

const ADMIN = "pr-upload-cap-admin-token-0123456789";
const REPO = "olive/model";
const CAP = 100_000;

let db: Database;
let hub: RunningHub;
const tokens: Record<string, string> = {};

const sha = (data: Buffer) => createHash("sha256").update(data).digest("hex");

function call(token: string, method: string, path: string, body?: unknown, type = "application/json") {
	return fetch(`${hub.url}${path}`, {
		method,
		headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": type }) },
		...(body === undefined
			? {}
			: { body: Buffer.isBuffer(body) ? new Uint8Array(body) : JSON.stringify(body) }),
	});
}

type BatchObject = {
	oid: string;
	actions?: { upload: { href: string } };
	error?: { code: number; message: string };
};

/** An LFS upload batch as `token` (no ref: for a new pull request when the caller may not write). */
async function batch(token: string, contents: Buffer[]): Promise<BatchObject[]> {
	const res = await call(
		token,
		"POST",
		`/${REPO}.git/info/lfs/objects/batch`,
		{ operation: "upload", objects: contents.map((c) => ({ oid: sha(c), size: c.length })) },
		"application/vnd.git-lfs+json",
	);
	expect(res.status).toBe(200);
	return ((await res.json()) as { objects: BatchObject[] }).objects;
}

const capMessage = (used: number, needed: number | string, repo = REPO) =>
	`Pull request upload cap reached: rex has uploaded ${used} bytes to ${repo}, which rex may not write to, of the ${CAP} one account may (MODELHUB_PR_UPLOAD_MAX_BYTES), and this upload needs ${typeof needed === "number" ? `${needed} more` : needed}. Ask someone with write access to upload the files, or the hub admin to raise the cap`;

/** An NDJSON commit of inline (base64) files, as huggingface_hub sends small files. */
function ndjsonCommit(
	token: string,
	repo: string,
	revision: string,
	files: Record<string, Buffer>,
	query = "",
) {
	const lines = [
		{ key: "header", value: { summary: `Add ${Object.keys(files).join(", ")}` } },
		...Object.entries(files).map(([path, content]) => ({
			key: "file",
			value: { path, encoding: "base64", content: content.toString("base64") },
		})),
	];
	return call(
		token,
		"POST",
		`/api/models/${repo}/commit/${encodeURIComponent(revision)}${query}`,
		Buffer.from(lines.map((line) => JSON.stringify(line)).join("\n")),
		"application/x-ndjson",
	);
}

beforeAll(async () => {
	db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
	hub = await startHub({ db, seed: false, adminToken: ADMIN, uploads: { pullRequestMaxBytes: CAP } });
	for (const name of ["olive", "rex"]) tokens[name] = await createUser(hub.url, ADMIN, name);
	expect((await call(tokens.olive as string, "POST", "/api/repos/create", { name: "model" })).status).toBe(
		200,
	);
}, 60_000);

afterAll(async () => {
	await hub?.close();
	await db?.close();
});

describe("the pull request upload cap", () => {
	it("grants a reader's LFS objects from what the cap leaves, and checks it again when an upload URL is used", async () => {
		const rex = tokens.rex as string;
		const [first, second] = [bytes(60_000, 1), bytes(60_000, 2)];
		const planned = await batch(rex, [first, second]);
		expect(new URL(planned[0]?.actions?.upload.href ?? "").searchParams.get("right")).toBe("pull-request");
		// The second would take rex past the cap, counting the first of the same batch.
		expect(planned[1]).toMatchObject({ error: { code: 413, message: capMessage(60_000, 60_000) } });
		expect(
			(
				await fetch(planned[0]?.actions?.upload.href as string, {
					method: "PUT",
					body: new Uint8Array(first),
				})
			).status,
		).toBe(200);
		expect((await batch(rex, [bytes(50_000, 3)]))[0]).toMatchObject({
			error: { code: 413, message: capMessage(60_000, 50_000) },
		});

		// Two URLs that each fit when asked for, not both: the second is refused when used, nothing kept.
		const [a, b] = [bytes(30_000, 4), bytes(35_000, 5)];
		const [urlA] = await batch(rex, [a]);
		const [urlB] = await batch(rex, [b]);
		expect(
			(await fetch(urlA?.actions?.upload.href as string, { method: "PUT", body: new Uint8Array(a) })).status,
		).toBe(200);
		const refused = await fetch(urlB?.actions?.upload.href as string, {
			method: "PUT",
			body: new Uint8Array(b),
		});
		expect(refused.status).toBe(413);
		expect(((await refused.json()) as { error: string }).error).toBe(capMessage(90_000, 35_000));
		expect(await hub.storage.stat(sha(b))).toBeUndefined();

		// A writer is not capped.
		const [big] = await batch(tokens.olive as string, [bytes(3 * CAP, 6)]);
		expect(big?.actions?.upload.href).toBeDefined();
		expect(new URL(big?.actions?.upload.href as string).searchParams.get("right")).toBeNull();
	});

	it("refuses a reader's Xet file by its rebuilt size, and more xorbs once they hold the cap", async () => {
		const rex = tokens.rex as string;
		const token = await call(rex, "GET", `/api/models/${REPO}/xet-write-token/main?create_pr=1`);
		expect(token.status).toBe(200);
		const { accessToken, casUrl } = (await token.json()) as { accessToken: string; casUrl: string };
		const sendXorb = (hash: string, chunk: Buffer) =>
			fetch(`${casUrl}/v1/xorbs/default/${hash}`, {
				method: "POST",
				headers: { authorization: `Bearer ${accessToken}` },
				body: new Uint8Array(xorbOf([chunk])),
			});
		const chunk = bytes(5_000, 7);
		expect((await sendXorb("1".repeat(64), chunk)).status).toBe(200);
		// 4 terms of the same chunk: 20,000 bytes, past the 10,000 rex has left (90,000 uploaded above).
		const rebuilt = Buffer.concat(Array.from({ length: 4 }, () => chunk));
		const shard = await fetch(`${casUrl}/v1/shards`, {
			method: "POST",
			headers: { authorization: `Bearer ${accessToken}` },
			body: new Uint8Array(
				shardOf({
					sha256: sha(rebuilt),
					terms: Array.from({ length: 4 }, () => ({
						xorb: "1".repeat(64),
						size: chunk.length,
						start: 0,
						end: 1,
					})),
				}),
			),
		});
		expect(shard.status).toBe(413);
		expect(((await shard.json()) as { error: string }).error).toBe(capMessage(90_000, 20_000));
		expect(await hub.storage.stat(sha(rebuilt))).toBeUndefined();

		// Xorbs are raw material, but a reader's are bounded by the same figure.
		expect((await sendXorb("2".repeat(64), bytes(CAP, 8))).status).toBe(200);
		const more = await sendXorb("3".repeat(64), bytes(1_000, 9));
		expect(more.status).toBe(413);
		expect(((await more.json()) as { error: string }).error).toMatch(
			/^Pull request upload cap reached: rex's Xet xorbs hold \d+ bytes, of the 100000 one account may upload where it may not write \(MODELHUB_PR_UPLOAD_MAX_BYTES\)/,
		);
	});

	it("counts a reader's inline and multipart files, and refuses the commit that passes the cap, keeping nothing", async () => {
		const rex = tokens.rex as string;
		const repo = "olive/inline";
		expect((await call(tokens.olive as string, "POST", "/api/repos/create", { name: "inline" })).status).toBe(
			200,
		);
		// 80,000 bytes inline into a new pull request: under the cap.
		const opened = await ndjsonCommit(
			rex,
			repo,
			"main",
			{ "a.txt": bytes(40_000, 20), "b.txt": bytes(40_000, 21) },
			"?create_pr=1",
		);
		expect(opened.status).toBe(200);
		const { pullRequestUrl } = (await opened.json()) as { pullRequestUrl: string };
		const ref = `refs/pr/${pullRequestUrl.split("/").pop()}`;
		// 30,000 more inline: past the cap (what the first commit sent counts).
		const third = bytes(30_000, 22);
		const refused = await ndjsonCommit(rex, repo, ref, { "c.txt": third });
		expect(refused.status).toBe(413);
		expect(((await refused.json()) as { error: string }).error).toBe(capMessage(80_000, 30_000, repo));
		// A multipart part past what is left is refused as it streams, nothing of it kept.
		const part = bytes(70_000, 23);
		const form = new FormData();
		form.append("header", JSON.stringify({ summary: "multipart" }));
		form.append("file", new Blob([new Uint8Array(part)]), "weights.bin");
		const streamed = await fetch(`${hub.url}/api/models/${repo}/commit/${encodeURIComponent(ref)}`, {
			method: "POST",
			headers: { authorization: `Bearer ${rex}` },
			body: form,
		});
		expect(streamed.status).toBe(413);
		expect(((await streamed.json()) as { error: string }).error).toBe(
			capMessage(80_000, "more than what is left", repo),
		);
		expect(await hub.storage.stat(sha(part))).toBeUndefined();
		// 15,000 fits, and then the LFS batch sees what the inline files took.
		expect((await ndjsonCommit(rex, repo, ref, { "d.txt": bytes(15_000, 24) })).status).toBe(200);
		const res = await call(
			rex,
			"POST",
			`/${repo}.git/info/lfs/objects/batch`,
			{ operation: "upload", objects: [{ oid: sha(third), size: third.length }] },
			"application/vnd.git-lfs+json",
		);
		expect(((await res.json()) as { objects: BatchObject[] }).objects[0]).toMatchObject({
			error: { code: 413, message: capMessage(95_000, 30_000, repo) },
		});
		// The owner is not capped.
		expect(
			(await ndjsonCommit(tokens.olive as string, repo, "main", { "big.txt": bytes(3 * CAP, 25) })).status,
		).toBe(200);
	});

	it("lets one of two racing commits that together pass the cap land, whichever check sees the other", async () => {
		const repo = "olive/race";
		expect((await call(tokens.olive as string, "POST", "/api/repos/create", { name: "race" })).status).toBe(
			200,
		);
		const statuses = await Promise.all(
			[30, 31].map(async (seed) => {
				const res = await ndjsonCommit(
					tokens.rex as string,
					repo,
					"main",
					{ [`f${seed}.txt`]: bytes(60_000, seed) },
					"?create_pr=1",
				);
				await res.arrayBuffer();
				return res.status;
			}),
		);
		// Refused as it arrives (the other committed first) or in the commit's transaction (both read the cap).
		expect(statuses.sort()).toEqual([200, 413]);
	});
});
