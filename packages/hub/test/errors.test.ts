import { describe, expect, it } from "vitest";
import { openDatabase } from "../src/db/open.js";
import { startHub } from "./support/hub.js";

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
			await db.query("ALTER TABLE models RENAME COLUMN likes TO likes_renamed");
			const res = await fetch(`${hub.url}/api/models/some/model`);
			expect(res.status).toBe(500);
			const text = await res.text();
			expect(JSON.parse(text)).toEqual({ error: "internal server error" });
			expect(text).not.toMatch(/\bat\b.*:\d+|node_modules|\.ts|\.js/);
			expect(lines.join("")).toMatch(/request failed/);
			await db.query("ALTER TABLE models RENAME COLUMN likes_renamed TO likes");

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
