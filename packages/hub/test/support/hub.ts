import type { AddressInfo } from "node:net";
import { seedIfEmpty } from "../../src/seed.js";
import { createHubServer, type HubServerOptions } from "../../src/server.js";
import { openBlobStore } from "../../src/storage/open.js";
import type { BlobStore } from "../../src/storage/types.js";

export interface RunningHub {
	url: string;
	storage: BlobStore;
	server: Awaited<ReturnType<typeof createHubServer>>;
	close(): Promise<void>;
}

export type StartOptions = Omit<HubServerOptions, "storage"> & { storage?: BlobStore; seed?: boolean };

/**
 * Starts the real hub on 127.0.0.1 with a random port. The caller keeps ownership of `db` (and of
 * `storage` when it passes one; otherwise a temporary disk store is made and removed at close).
 */
export async function startHub(options: StartOptions): Promise<RunningHub> {
	const own = options.storage === undefined;
	const storage = options.storage ?? (await openBlobStore({ kind: "disk", dir: undefined }));
	if (options.seed !== false) await seedIfEmpty(options.db, storage);
	const server = await createHubServer({ ...options, storage });
	await server.app.listen({ host: "127.0.0.1", port: 0 });
	const { port } = server.app.server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		storage,
		server,
		close: async () => {
			await server.app.close();
			if (own) await storage.close();
		},
	};
}

export { seededRandom } from "./random.mjs";
