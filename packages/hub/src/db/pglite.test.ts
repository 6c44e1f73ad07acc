import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "./open.js";
import { SERVER_SHARED_BUFFERS, SMALL_SHARED_BUFFERS } from "./pglite.js";
import type { Database } from "./types.js";

async function sharedBuffers(db: Database): Promise<string> {
	const shown = await db.query<{ shared_buffers: string }>("SHOW shared_buffers");
	return shown.rows[0]!.shared_buffers;
}

describe("the embedded database's page cache (shared_buffers)", () => {
	const dir = mkdtempSync(join(tmpdir(), "modelhub-pglite-buffers-"));
	afterAll(() => rmSync(dir, { recursive: true, force: true }));

	it("is PostgreSQL's default for a server's data folder and small for a command or in memory; the data is the same", async () => {
		const config = { databaseUrl: undefined, dataDir: join(dir, "data") };
		const server = await openDatabase(config);
		try {
			expect(await sharedBuffers(server)).toBe(SERVER_SHARED_BUFFERS);
			await server.exec("CREATE TABLE kept (note text); INSERT INTO kept VALUES ('written by the server')");
		} finally {
			await server.close();
		}

		const command = await openDatabase(config, { brief: true });
		try {
			expect(await sharedBuffers(command)).toBe(SMALL_SHARED_BUFFERS);
			expect((await command.query("SELECT note FROM kept")).rows).toEqual([
				{ note: "written by the server" },
			]);
		} finally {
			await command.close();
		}

		const memory = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
		try {
			expect(await sharedBuffers(memory)).toBe(SMALL_SHARED_BUFFERS);
		} finally {
			await memory.close();
		}
	}, 60_000);
});
