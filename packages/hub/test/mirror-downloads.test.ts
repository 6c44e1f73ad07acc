import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { hubCall, ndjsonCommit } from "./support/git.js";
import { createUser, type RunningHub } from "./support/hub.js";
import { startMirrorPair, type MirrorPair } from "./support/mirror.js";

const ADMIN = "mirror-downloads-admin-token-0123456789";
const INTERNAL = "x-modelhub-internal-read";

/**
 * Download counts of mirrored repositories (src/services/downloads.ts, migration 27): an upstream hub
 * and a downstream one mirroring it, both counting; clients told apart by X-Forwarded-For. A download
 * the downstream answers without asking the upstream counts downstream; one that asked the upstream
 * (the first of a file within the TTL) was counted by the upstream, and is not counted twice.
 */
describe("mirror mode: downloads of mirrored repositories", () => {
	let pair: MirrorPair | undefined;
	let upstream: RunningHub;
	let downstream: RunningHub;

	function get(path: string, client: string, headers: Record<string, string> = {}, method = "GET") {
		return fetch(`${downstream.url}/${path}`, {
			method,
			headers: { "x-forwarded-for": client, ...headers },
		});
	}

	/** A file fetched by a client: HEAD then GET, as huggingface_hub does; both answered 200. */
	async function download(repoPath: string, client: string): Promise<void> {
		expect((await get(repoPath, client, {}, "HEAD")).status).toBe(200);
		const res = await get(repoPath, client);
		expect(res.status).toBe(200);
		await res.arrayBuffer();
	}

	async function counts(hub: RunningHub, api: string, id: string) {
		const res = await fetch(`${hub.url}/api/${api}/${id}?expand[]=downloads&expand[]=downloadsAllTime`);
		expect(res.status).toBe(200);
		const body = (await res.json()) as { downloads: number; downloadsAllTime: number };
		return { downloads: body.downloads, downloadsAllTime: body.downloadsAllTime };
	}

	/** A hub's figures (30 days and ever equal here) once its counter has written them. */
	async function countsReach(hub: RunningHub, api: string, id: string, expected: number): Promise<void> {
		await vi.waitFor(
			async () =>
				expect(await counts(hub, api, id)).toEqual({ downloads: expected, downloadsAllTime: expected }),
			{ timeout: 10_000, interval: 50 },
		);
	}

	beforeAll(async () => {
		// The default TTL: within it, a file's answers do not ask the upstream.
		pair = await startMirrorPair({
			adminToken: ADMIN,
			upstream: { downloads: { flushIntervalMs: 100 } },
			downstream: { trustProxy: true, downloads: { flushIntervalMs: 100 } },
		});
		({ upstream, downstream } = pair);
		const token = await createUser(upstream.url, ADMIN, "alice");
		for (const [name, type] of [
			["plain", "model"],
			["adapter", "model"],
			["reviews", "dataset"],
		] as const) {
			const created = await hubCall(upstream.url, "/api/repos/create", token, { name, type });
			expect(created.status, await created.clone().text()).toBe(200);
		}
		await ndjsonCommit(
			upstream.url,
			{ api: "models", id: "alice/plain" },
			token,
			{ "README.md": "# plain\n", "config.json": '{"model_type": "bert"}\n', "weights.bin": "w\n" },
			"plain",
		);
		// peft counts adapter_config.json, not config.json: the library comes from the upstream's info.
		await ndjsonCommit(
			upstream.url,
			{ api: "models", id: "alice/adapter" },
			token,
			{
				"README.md": "---\nlibrary_name: peft\n---\n# adapter\n",
				"adapter_config.json": '{"peft_type": "LORA"}\n',
				"config.json": "{}\n",
			},
			"adapter",
		);
		await ndjsonCommit(
			upstream.url,
			{ api: "datasets", id: "alice/reviews" },
			token,
			{ "train.csv": "text,n\na,1\n", "test.csv": "text,n\nb,2\n" },
			"csv",
		);
	}, 120_000);

	afterAll(() => pair?.close());

	it("adds the model downloads it served from its cache to the upstream's figure, counting none twice", async () => {
		// The first client's HEAD asks the upstream and its GET fetches the bytes: the upstream counts it.
		await download("alice/plain/resolve/main/config.json", "10.0.0.1");
		await countsReach(upstream, "models", "alice/plain", 1);
		// Two more clients, served from the cache: counted here, once each (HEAD and GET are one).
		await download("alice/plain/resolve/main/config.json", "10.0.0.2");
		await download("alice/plain/resolve/main/config.json", "10.0.0.3");
		// A revalidation (304) serves the file too; the hub's own read and files that are not the
		// model's query files do not count.
		expect(
			(await get("alice/plain/resolve/main/config.json", "10.0.0.4", { "if-none-match": "*" })).status,
		).toBe(304);
		await (await get("alice/plain/resolve/main/config.json", "10.0.0.5", { [INTERNAL]: "1" })).arrayBuffer();
		await download("alice/plain/resolve/main/weights.bin", "10.0.0.6");
		await download("alice/plain/resolve/main/weights.bin", "10.0.0.7");

		await countsReach(downstream, "models", "alice/plain", 4);
		// The info without expand shows the same figure; the upstream's own is unchanged.
		const info = (await (await fetch(`${downstream.url}/api/models/alice/plain`)).json()) as {
			downloads: number;
		};
		expect(info.downloads).toBe(4);
		expect(await counts(upstream, "models", "alice/plain")).toEqual({ downloads: 1, downloadsAllTime: 1 });
	}, 60_000);

	it("counts a mirrored model's files by the rule of the library its upstream info names", async () => {
		// The info is asked first (the upstream's figure is then 0, kept for the TTL): its library is peft.
		expect(await counts(downstream, "models", "alice/adapter")).toEqual({
			downloads: 0,
			downloadsAllTime: 0,
		});
		await download("alice/adapter/resolve/main/adapter_config.json", "10.0.1.1");
		await download("alice/adapter/resolve/main/config.json", "10.0.1.1");
		await download("alice/adapter/resolve/main/adapter_config.json", "10.0.1.2");
		await download("alice/adapter/resolve/main/config.json", "10.0.1.2");
		await download("alice/adapter/resolve/main/config.json", "10.0.1.3");
		await countsReach(downstream, "models", "alice/adapter", 1);
	}, 60_000);

	it("counts a mirrored dataset's files once per client, as local datasets", async () => {
		await download("datasets/alice/reviews/resolve/main/train.csv", "10.0.2.1");
		await download("datasets/alice/reviews/resolve/main/test.csv", "10.0.2.1");
		await countsReach(upstream, "datasets", "alice/reviews", 1);
		// Two files of one dataset by one client: one download.
		await download("datasets/alice/reviews/resolve/main/train.csv", "10.0.2.2");
		await download("datasets/alice/reviews/resolve/main/test.csv", "10.0.2.2");
		await download("datasets/alice/reviews/resolve/main/train.csv", "10.0.2.3");
		await countsReach(downstream, "datasets", "alice/reviews", 3);
	}, 60_000);
});
