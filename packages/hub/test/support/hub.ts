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

/** A small seeded random generator (mulberry32), so random tests repeat exactly. */
export function seededRandom(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}
