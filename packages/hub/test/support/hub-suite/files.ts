/**
 * The hub suite's checks of file downloads: ranges, ETags, HEAD and the error codes huggingface_hub reads
 * (support/hub-suite.ts runs them on each database).
 */
import { expect, it } from "vitest";
import { rawRequest, type HubSuite } from "./context.js";

export function defineFileChecks(suite: HubSuite): void {
	it("serves files with ranges, ETags, HEAD and the error codes huggingface_hub reads", async () => {
		const path = "/meta-llama/Llama-3.1-8B-Instruct/resolve/main/config.json";
		const full = await rawRequest(suite.base, { path });
		expect(full.status).toBe(200);
		const size = Buffer.byteLength(full.body);
		expect(full.headers["content-length"]).toBe(String(size));
		expect(full.headers["accept-ranges"]).toBe("bytes");
		expect(full.headers["x-repo-commit"]).toMatch(/^[0-9a-f]{40}$/);
		const etag = full.headers.etag as string;
		expect(etag).toMatch(/^"[0-9a-f]{40}"$/);
		const head = await rawRequest(suite.base, { method: "HEAD", path });
		expect(head.status).toBe(200);
		expect(head.headers["content-length"]).toBe(String(size));
		expect(head.body).toBe("");
		const cases: Array<[string, number, string | undefined, string]> = [
			["bytes=0-9", 206, `bytes 0-9/${size}`, full.body.slice(0, 10)],
			["bytes=-5", 206, `bytes ${size - 5}-${size - 1}/${size}`, full.body.slice(-5)],
			[`bytes=10-`, 206, `bytes 10-${size - 1}/${size}`, full.body.slice(10)],
			[`bytes=5-${size + 100}`, 206, `bytes 5-${size - 1}/${size}`, full.body.slice(5)],
			[`bytes=${size}-`, 416, `bytes */${size}`, ""],
			["bytes=9-1", 416, `bytes */${size}`, ""],
			["bytes=0-1,4-5", 200, undefined, full.body],
			["items=0-1", 200, undefined, full.body],
		];
		for (const [range, status, contentRange, body] of cases) {
			const res = await rawRequest(suite.base, { path, headers: { range } });
			expect(res.status, range).toBe(status);
			expect(res.headers["content-range"], range).toBe(contentRange);
			expect(res.body, range).toBe(body);
		}
		const cached = await rawRequest(suite.base, { path, headers: { "if-none-match": etag } });
		expect(cached.status).toBe(304);
		expect(cached.body).toBe("");
		const byCommit = await rawRequest(suite.base, {
			path: path.replace("/main/", `/${full.headers["x-repo-commit"] as string}/`),
		});
		expect(byCommit.body).toBe(full.body);
		expect(byCommit.headers["cache-control"]).toMatch(/immutable/);

		const missingFile = await rawRequest(suite.base, { path: path.replace("config.json", "nope.json") });
		expect(missingFile.status).toBe(404);
		expect(missingFile.headers["x-error-code"]).toBe("EntryNotFound");
		expect(missingFile.headers["x-repo-commit"]).toBe(full.headers["x-repo-commit"]);
		const missingRevision = await rawRequest(suite.base, { path: path.replace("/main/", "/nope/") });
		expect(missingRevision.headers["x-error-code"]).toBe("RevisionNotFound");
		expect(JSON.parse(missingRevision.body)).toEqual({ error: "Invalid rev id: nope" });
		for (const missingRepo of [
			"/nobody/nothing/resolve/main/a.txt",
			"/api/models/nobody/nothing",
			"/api/models/nothing-at-all/tree/main",
		]) {
			const res = await rawRequest(suite.base, { path: missingRepo });
			expect(res.status, missingRepo).toBe(404);
			expect(res.headers["x-error-code"], missingRepo).toBe("RepoNotFound");
			expect(JSON.parse(res.body), missingRepo).toEqual({ error: "Repository not found" });
		}
		// A revision with a slash is one encoded segment, as huggingface_hub sends it.
		const slashed = await rawRequest(suite.base, {
			path: "/api/models/openai/whisper-large-v3/revision/refs%2Fpr%2F1",
		});
		expect(slashed.headers["x-error-code"]).toBe("RevisionNotFound");
		expect(JSON.parse(slashed.body)).toEqual({ error: "Invalid rev id: refs/pr/1" });
	});
}
