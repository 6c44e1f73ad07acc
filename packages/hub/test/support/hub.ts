import type { AddressInfo } from "node:net";
import { seedIfEmpty } from "../../src/seed.js";
import { createHubServer, type HubServerOptions } from "../../src/server.js";
import { openBlobStore } from "../../src/storage/open.js";
import type { BlobStore } from "../../src/storage/types.js";

export interface RunningHub {
	url: string;
	storage: BlobStore;
	server: Awaited<ReturnType<typeof createHubServer>>;
	/** Stops the hub; a second call waits for the first. */
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
	// Once: a test may stop a hub (an upstream going offline) that its teardown stops again.
	let closed: Promise<void> | undefined;
	return {
		url: `http://127.0.0.1:${port}`,
		storage,
		server,
		close: () =>
			(closed ??= (async () => {
				await server.app.close();
				if (own) await storage.close();
			})()),
	};
}

/** What callHub gives: the status, the body as text and as JSON (an empty object when it is not JSON). */
export interface HubAnswer {
	status: number;
	json: Record<string, unknown>;
	text: string;
	headers: Headers;
}

/**
 * One request to a hub's API as a client sends it: the token as a bearer, a string body as
 * huggingface_hub's NDJSON commit, any other body as JSON.
 */
export async function callHub(
	hubUrl: string,
	method: string,
	path: string,
	token: string | undefined,
	body?: unknown,
	headers: Record<string, string> = {},
): Promise<HubAnswer> {
	const ndjson = typeof body === "string";
	const res = await fetch(`${hubUrl}${path}`, {
		method,
		headers: {
			...(token ? { authorization: `Bearer ${token}` } : {}),
			...(body === undefined ? {} : { "content-type": ndjson ? "application/x-ndjson" : "application/json" }),
			...headers,
		},
		...(body === undefined ? {} : { body: ndjson ? body : JSON.stringify(body) }),
	});
	const text = await res.text();
	let json: Record<string, unknown> = {};
	try {
		json = JSON.parse(text) as Record<string, unknown>;
	} catch {
		// Not JSON: `text` has it.
	}
	return { status: res.status, json, text, headers: res.headers };
}

/** Creates a user through the admin API and returns the access token it is issued with. */
export async function createUser(hubUrl: string, adminToken: string, name: string): Promise<string> {
	const res = await fetch(`${hubUrl}/api/admin/users`, {
		method: "POST",
		headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
		body: JSON.stringify({ name }),
	});
	if (res.status !== 201) throw new Error(`creating user ${name}: ${res.status} ${await res.text()}`);
	return ((await res.json()) as { token: string }).token;
}

/** Creates a repository as `token`'s owner (`POST /api/repos/create`); throws with the hub's answer otherwise. */
export async function createRepo(
	hub: RunningHub,
	token: string,
	name: string,
	isPrivate = false,
	type: "model" | "dataset" = "model",
): Promise<void> {
	const res = await fetch(`${hub.url}/api/repos/create`, {
		method: "POST",
		headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
		body: JSON.stringify({ name, private: isPrivate, type }),
	});
	if (res.status !== 200) throw new Error(`creating ${name}: ${res.status} ${await res.text()}`);
}

export { seededRandom } from "./random.mjs";
