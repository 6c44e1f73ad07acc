import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hubCall, ndjsonCommit } from "./support/git.js";
import { createUser, type RunningHub } from "./support/hub.js";
import { startMirrorPair, type MirrorPair } from "./support/mirror.js";

const ADMIN = "mirror-datasets-admin-token-0123456789";
const CSV = { "train.csv": "text,n\nfirst,1\nsecond,2\n", "test.csv": "text,n\nthird,3\n" };

/**
 * Mirror mode for the dataset routes outside the repository API's own (`/api/datasets/{id}/croissant`): an
 * upstream hub holding datasets, a downstream hub mirroring it that holds one of its own.
 */
describe("mirror mode: a dataset's Croissant metadata", () => {
	let pair: MirrorPair | undefined;
	let upstream: RunningHub;
	let downstream: RunningHub;
	const tokens: Record<string, string> = {};

	async function createDataset(hub: RunningHub, token: string, name: string, priv = false): Promise<void> {
		const created = await hubCall(hub.url, "/api/repos/create", token, {
			name,
			type: "dataset",
			private: priv,
		});
		expect(created.status, await created.clone().text()).toBe(200);
	}

	beforeAll(async () => {
		pair = await startMirrorPair({ adminToken: ADMIN, settings: { ttlMs: 0 } });
		({ upstream, downstream } = pair);
		tokens.upstream = await createUser(upstream.url, ADMIN, "alice");
		await createDataset(upstream, tokens.upstream, "reviews");
		await ndjsonCommit(upstream.url, { api: "datasets", id: "alice/reviews" }, tokens.upstream, CSV, "csv");
		await createDataset(upstream, tokens.upstream, "hidden", true);
		await ndjsonCommit(upstream.url, { api: "datasets", id: "alice/hidden" }, tokens.upstream, CSV, "csv");
		tokens.downstream = await createUser(downstream.url, ADMIN, "bob");
		await createDataset(downstream, tokens.downstream, "local");
		await ndjsonCommit(downstream.url, { api: "datasets", id: "bob/local" }, tokens.downstream, CSV, "csv");
	}, 120_000);

	afterAll(() => pair?.close());

	it("answers a dataset only the upstream has with the upstream's Croissant, and a local one with its own", async () => {
		const direct = await fetch(`${upstream.url}/api/datasets/alice/reviews/croissant`);
		expect(direct.status).toBe(200);
		const mirrored = await fetch(`${downstream.url}/api/datasets/alice/reviews/croissant`);
		expect(mirrored.status).toBe(200);
		expect(mirrored.headers.get("content-type")).toContain("application/ld+json");
		expect(mirrored.headers.get("x-mirror-age")).toBe("0");
		const doc = (await mirrored.json()) as { url: string; recordSet: Array<{ "@id": string }> };
		expect(doc).toEqual(await direct.json());
		expect(doc.url).toBe(`${upstream.url}/datasets/alice/reviews`);
		expect(doc.recordSet.map((set) => set["@id"])).toEqual(["default_splits", "default"]);
		// The downstream's own dataset is described by the downstream, never asked upstream.
		const local = await fetch(`${downstream.url}/api/datasets/bob/local/croissant`);
		expect(local.status).toBe(200);
		expect(local.headers.get("x-mirror-age")).toBeNull();
		expect(((await local.json()) as { url: string }).url).toBe(`${downstream.url}/datasets/bob/local`);
	});

	it("passes on the upstream's 404 for what it does not show (missing, private) and refuses a malformed id", async () => {
		for (const id of ["alice/hidden", "alice/nothing-here", "bob/nothing-here"]) {
			const response = await fetch(`${downstream.url}/api/datasets/${id}/croissant`);
			expect(response.status, id).toBe(404);
			expect(response.headers.get("x-error-code"), id).toBe("RepoNotFound");
		}
		const malformed = await fetch(`${downstream.url}/api/datasets/alice/bad..name/croissant`);
		expect(malformed.status).toBe(400);
		expect(await malformed.text()).toContain("invalid dataset id");
	});
});
