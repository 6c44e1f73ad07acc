import { describe, expect, it } from "vitest";
import { openDatabase } from "../src/db/open.js";
import { createUser, startHub } from "./support/hub.js";

const TOKEN = "log-test-token-do-not-print-0123456789";

describe("failures inside the server", () => {
	it("answer 500 (503 when the database is gone) with a bare { error }, no stack trace, and never log the admin token", async () => {
		const lines: string[] = [];
		const db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
		const hub = await startHub({
			db,
			seed: false,
			adminToken: TOKEN,
			logLevel: "trace",
			logStream: { write: (line: string) => void lines.push(line) },
		});
		try {
			const ok = await fetch(`${hub.url}/api/models/log/test`, {
				method: "PUT",
				headers: {
					authorization: `Bearer ${TOKEN}`,
					"content-type": "application/json",
					cookie: `session=${TOKEN}`,
				},
				body: JSON.stringify({ tags: [] }),
			});
			expect(ok.status).toBe(201);
			const wrong = await fetch(`${hub.url}/api/models/log/test`, {
				method: "PUT",
				headers: { authorization: `Bearer ${TOKEN}-wrong`, "content-type": "application/json" },
				body: "{}",
			});
			expect(wrong.status).toBe(403);

			// A fault of the server's own: 500, a bare message, the details only in the log.
			await db.query("ALTER TABLE repos RENAME COLUMN likes TO likes_renamed");
			const res = await fetch(`${hub.url}/api/models/some/model`);
			expect(res.status).toBe(500);
			const text = await res.text();
			expect(JSON.parse(text)).toEqual({ error: "internal server error" });
			expect(text).not.toMatch(/\bat\b.*:\d+|node_modules|\.ts|\.js/);
			expect(lines.join("")).toMatch(/request failed/);
			await db.query("ALTER TABLE repos RENAME COLUMN likes_renamed TO likes");

			// The database goes away under the running server: 503 with Retry-After (clients retry), one
			// short log line per request.
			await db.close();
			const before = lines.length;
			const gone = await fetch(`${hub.url}/api/models/some/model`);
			expect(gone.status).toBe(503);
			expect(gone.headers.get("retry-after")).toBe("5");
			expect(((await gone.json()) as { error: string }).error).toMatch(/database is unavailable/);
			const health = await fetch(`${hub.url}/healthz`);
			expect(health.status).toBe(503);
			const outageLines = lines.slice(before).filter((line) => /unavailable/.test(line));
			expect(outageLines.length).toBeGreaterThan(0);
			for (const line of outageLines) expect(line.length).toBeLessThan(600);

			const log = lines.join("");
			expect(log).not.toContain(TOKEN);
		} finally {
			await hub.close();
		}
	});
});

describe("errors raised deep inside the hub", () => {
	it("reach the client as the public hub sends them: X-Error-Code, X-Error-Message, { error }", async () => {
		const db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
		const hub = await startHub({ db, seed: false, adminToken: TOKEN });
		try {
			const token = await createUser(hub.url, TOKEN, "deep");
			const auth = { authorization: `Bearer ${token}` };
			const created = await fetch(`${hub.url}/api/repos/create`, {
				method: "POST",
				headers: { ...auth, "content-type": "application/json" },
				body: JSON.stringify({ name: "errors" }),
			});
			expect(created.status).toBe(200);

			// Raised while applying the operations, inside the commit's transaction (uploads/operations.ts).
			const commit = await fetch(`${hub.url}/api/models/deep/errors/commit/main`, {
				method: "POST",
				headers: { ...auth, "content-type": "application/x-ndjson" },
				body: [
					{ key: "header", value: { summary: "remove a file that is not there" } },
					{ key: "deletedFile", value: { path: "missing.txt" } },
				]
					.map((line) => JSON.stringify(line))
					.join("\n"),
			});
			expect(commit.status).toBe(404);
			expect(commit.headers.get("x-error-code")).toBe("EntryNotFound");
			expect(commit.headers.get("x-error-message")).toBe("A file with this name doesn't exist: missing.txt");
			expect(commit.headers.get("content-type")).toBe("application/json; charset=utf-8");
			expect(await commit.text()).toBe('{"error":"A file with this name doesn\'t exist: missing.txt"}');

			// Raised by the ref store inside the deletion's transaction (repos/write.ts).
			const branch = await fetch(`${hub.url}/api/models/deep/errors/branch/nowhere`, {
				method: "DELETE",
				headers: auth,
			});
			expect(branch.status).toBe(404);
			expect(branch.headers.get("x-error-code")).toBe("RevisionNotFound");
			expect(await branch.json()).toEqual({ error: "Invalid rev id: nowhere" });

			// The LFS batch API answers its own errors in git-LFS's format; the access check before it
			// answers as every other route does.
			const lfsType = "application/vnd.git-lfs+json";
			// (Downloads are answered since git over HTTP, issue 26: an unknown operation is the LFS error.)
			const unknown = await fetch(`${hub.url}/deep/errors.git/info/lfs/objects/batch`, {
				method: "POST",
				headers: { ...auth, "content-type": lfsType },
				body: JSON.stringify({ operation: "delete", objects: [] }),
			});
			expect(unknown.status).toBe(422);
			expect(unknown.headers.get("content-type")).toBe(`${lfsType}; charset=utf-8`);
			expect(Object.keys((await unknown.json()) as object)).toEqual(["message"]);
			const missing = await fetch(`${hub.url}/deep/nothing.git/info/lfs/objects/batch`, {
				method: "POST",
				headers: { ...auth, "content-type": lfsType },
				body: JSON.stringify({ operation: "upload", objects: [] }),
			});
			expect(missing.status).toBe(404);
			expect(missing.headers.get("x-error-code")).toBe("RepoNotFound");
			expect(await missing.json()).toEqual({ error: "Repository not found" });
		} finally {
			await hub.close();
			await db.close();
		}
	});
});
