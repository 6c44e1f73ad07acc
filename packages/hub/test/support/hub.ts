import type { AddressInfo } from "node:net";
import { seedIfEmpty } from "../../src/seed.js";
import { createHubServer, type HubServerOptions } from "../../src/server.js";

export interface RunningHub {
	url: string;
	close(): Promise<void>;
}

/** Starts the real hub on 127.0.0.1 with a random port. The caller keeps ownership of `db`. */
export async function startHub(options: HubServerOptions & { seed?: boolean }): Promise<RunningHub> {
	if (options.seed !== false) await seedIfEmpty(options.db);
	const { app } = await createHubServer(options);
	await app.listen({ host: "127.0.0.1", port: 0 });
	const { port } = app.server.address() as AddressInfo;
	return { url: `http://127.0.0.1:${port}`, close: () => app.close() };
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
