import { describe, expect, it } from "vitest";
import { openDatabase } from "../src/db/open.js";
import { startHub } from "./support/hub.js";

const TOKEN = "log-test-token-do-not-print-0123456789";

describe("failures inside the server", () => {
	it("answer 500 with a bare { error }, no stack trace, and never log the admin token", async () => {
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

			// The database goes away under the running server.
			await db.close();
			const res = await fetch(`${hub.url}/api/models/some/model`);
			expect(res.status).toBe(500);
			const text = await res.text();
			expect(JSON.parse(text)).toEqual({ error: "internal server error" });
			expect(text).not.toMatch(/\bat\b.*:\d+|node_modules|\.ts|\.js/);
			const health = await fetch(`${hub.url}/healthz`);
			expect(health.status).toBe(503);

			const log = lines.join("");
			expect(log.length).toBeGreaterThan(0);
			expect(log).toMatch(/request failed/);
			expect(log).not.toContain(TOKEN);
		} finally {
			await hub.close();
		}
	});
});
