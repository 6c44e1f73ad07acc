import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.js";
import { openDatabase } from "../src/db/open.js";
import type { Database } from "../src/db/types.js";
import { addressRefusal, isPublicAddress, parseAddressPolicy } from "../src/webhooks/address-policy.js";
import { checkedAddresses } from "../src/webhooks/send.js";
import { createUser, startHub, type RunningHub } from "./support/hub.js";
import { runHubClient } from "./support/python.js";

const ADMIN_TOKEN = "webhooks-admin-token-0123456789abcdef";
const SCRIPT = "hf_hub_webhooks.py";
const SECRET = "s3cret-for-tests";

interface Received {
	path: string;
	headers: IncomingHttpHeaders;
	body: Record<string, unknown>;
}

/** How a receiver answers POSTs to one path, always: 500, a redirect to `/landed`, or never. */
type Mode = "fail" | "redirect" | "hang";

/**
 * A real HTTP receiver on 127.0.0.1: records every POST; `fail` answers the next N to `failPath` with 500;
 * `modes` makes a path answer one way every time.
 */
class Receiver {
	readonly received: Received[] = [];
	fail = 0;
	failPath = "/alice";
	readonly modes = new Map<string, Mode>();
	private server: Server | undefined;
	url = "";

	async start(): Promise<void> {
		this.server = createServer((request, response) => {
			const chunks: Buffer[] = [];
			request.on("data", (chunk: Buffer) => chunks.push(chunk));
			request.on("end", () => {
				this.received.push({
					path: request.url ?? "",
					headers: request.headers,
					body: JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>,
				});
				const mode = this.modes.get(request.url ?? "");
				if (mode === "hang") return; // read, never answered: the hub's time limit ends it
				if (mode === "fail") response.writeHead(500).end("never");
				else if (mode === "redirect") response.writeHead(302, { location: `${this.url}/landed` }).end();
				else if (this.fail > 0 && request.url === this.failPath) {
					this.fail--;
					response.writeHead(500).end("not now");
				} else response.writeHead(200).end("ok");
			});
		});
		await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
		this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
	}

	on(path: string): Received[] {
		return this.received.filter((entry) => entry.path === path);
	}

	/** Waits (polling, bounded) until `check` holds for what arrived. */
	async until(check: () => boolean, what: string): Promise<void> {
		for (let i = 0; i < 300 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
		if (!check())
			throw new Error(
				`the receiver never saw ${what}: ${JSON.stringify(this.received.map((r) => [r.path, r.body.event]))}`,
			);
	}

	async close(): Promise<void> {
		this.server?.closeAllConnections();
		await new Promise((resolve) => this.server?.close(resolve));
	}
}

describe("webhook targets (MODELHUB_WEBHOOK_ALLOWED_HOSTS)", () => {
	it("tells public addresses from loopback, private, link-local and mapped ones", () => {
		for (const address of ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111"])
			expect(isPublicAddress(address)).toBe(true);
		for (const address of [
			"127.0.0.1",
			"10.1.2.3",
			"172.16.0.1",
			"192.168.1.1",
			"169.254.169.254",
			"100.64.0.1",
			"0.0.0.0",
			"::1",
			"fe80::1",
			"fd00::1",
			"::ffff:127.0.0.1",
			"224.0.0.1",
		]) {
			expect(isPublicAddress(address), address).toBe(false);
		}
		const byDefault = parseAddressPolicy("public");
		expect(addressRefusal(byDefault, "8.8.8.8")).toBeUndefined();
		expect(addressRefusal(byDefault, "127.0.0.1")).toMatch(/not allowed by MODELHUB_WEBHOOK_ALLOWED_HOSTS/);
		expect(addressRefusal(byDefault, "::ffff:10.0.0.1")).toMatch(/not allowed/);
		const listed = parseAddressPolicy("127.0.0.1, 10.1.0.0/16");
		expect(addressRefusal(listed, "127.0.0.1")).toBeUndefined();
		expect(addressRefusal(listed, "10.1.200.3")).toBeUndefined();
		expect(addressRefusal(listed, "10.2.0.1")).toMatch(/not allowed/);
		expect(addressRefusal(listed, "8.8.8.8")).toMatch(/not allowed/);
		expect(addressRefusal(parseAddressPolicy(""), "8.8.8.8")).toMatch(/deliver nowhere/);
		expect(() => parseAddressPolicy("10.0.0.0/33")).toThrow(/not a valid CIDR range/);
		expect(() => parseAddressPolicy("http://x")).toThrow(/none of/);
	});

	it("checks every address a name resolves to (localhost is loopback: refused by default)", async () => {
		const refused = await checkedAddresses(parseAddressPolicy("public"), "localhost");
		expect(refused).toHaveProperty("refused");
		expect((refused as { refused: string }).refused).toMatch(/^localhost resolves to .* not allowed/);
		const byName = await checkedAddresses(parseAddressPolicy("localhost"), "localhost");
		expect(byName).toHaveProperty("addresses");
	});
});

/**
 * Webhooks through the real huggingface_hub 2.x and a real receiver on 127.0.0.1 (allowed explicitly):
 * the CRUD, payloads (parsed by huggingface_hub's WebhookPayload) with X-Webhook-Secret, private
 * repositories' events only to webhooks whose owner may read them, retries with backoff, the delivery
 * log, refused targets, a delivery that outlives a hub restart, and moves heard in both namespaces.
 */
describe("webhooks with huggingface_hub and a real receiver", () => {
	let db: Database;
	let hub: RunningHub;
	let dir: string;
	const receiver = new Receiver();
	const tokens: Record<string, string> = {};
	let aliceHook = "";
	const webhooks = { allowedHosts: "127.0.0.1", retryBaseMs: 1000, timeoutMs: 3000, maxAttempts: 3 };

	function client(group: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
		return runHubClient(
			group,
			hub.url,
			join(dir, `${group}-${Math.random().toString(36).slice(2)}`),
			params,
			{},
			SCRIPT,
		);
	}

	async function log(id: string, token: string): Promise<Array<Record<string, unknown>>> {
		const res = await fetch(`${hub.url}/api/settings/webhooks/${id}/deliveries`, {
			headers: { authorization: `Bearer ${token}` },
		});
		expect(res.status).toBe(200);
		return (await res.json()) as Array<Record<string, unknown>>;
	}

	beforeAll(async () => {
		dir = mkdtempSync(join(tmpdir(), "modelhub-webhooks-"));
		await receiver.start();
		db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
		hub = await startHub({ db, seed: false, adminToken: ADMIN_TOKEN, webhooks });
		for (const name of ["alice", "bob"]) tokens[name] = await createUser(hub.url, ADMIN_TOKEN, name);
	}, 120_000);

	afterAll(async () => {
		await hub?.close();
		await db?.close();
		await receiver.close();
		if (dir) rmSync(dir, { recursive: true, force: true });
	});

	it("manages webhooks as huggingface_hub calls it and refuses targets the policy does not allow", async () => {
		const out = await client("manage", {
			token: tokens.alice,
			url: `${receiver.url}/alice`,
			watched: [{ type: "user", name: "alice" }],
			domains: ["repo"],
			secret: SECRET,
			bad_urls: [
				"http://10.0.0.1/hook",
				"http://169.254.169.254/latest",
				"ftp://127.0.0.1/x",
				"http://user:pw@127.0.0.1/x",
			],
		});
		const created = (out.create as { ok: Record<string, unknown> }).ok;
		expect(created).toMatchObject({
			url: `${receiver.url}/alice`,
			watched: [{ type: "user", name: "alice" }],
			domains: ["repo"],
			secret: SECRET,
			disabled: false,
		});
		aliceHook = created.id as string;
		expect(aliceHook).toMatch(/^[0-9a-f]{24}$/);
		expect(out.list).toEqual([aliceHook]);
		expect(out.get).toEqual(created);
		expect(out.disable).toBe(true);
		expect(out.enable).toBe(false);
		expect((out.update as { ok: { domains: string[] } }).ok.domains).toEqual(["repo", "discussion"]);
		for (const bad of ["http://10.0.0.1/hook", "http://169.254.169.254/latest"]) {
			const refused = out[`bad:${bad}`] as { status: number; message: string };
			expect(refused.status, bad).toBe(400);
			expect(refused.message).toMatch(/not allowed by MODELHUB_WEBHOOK_ALLOWED_HOSTS/);
		}
		expect((out["bad:ftp://127.0.0.1/x"] as { message: string }).message).toMatch(/http:\/\/ or https:\/\//);
		expect((out["bad:http://user:pw@127.0.0.1/x"] as { message: string }).message).toMatch(/credentials/);

		// Bob watches alice too: he must never hear of her private repositories.
		const bob = await client("manage", {
			token: tokens.bob,
			url: `${receiver.url}/bob`,
			watched: [{ type: "user", name: "alice" }],
		});
		expect(bob.list).toHaveLength(1);
		const notHis = await fetch(`${hub.url}/api/settings/webhooks/${aliceHook}`, {
			headers: { authorization: `Bearer ${tokens.bob}` },
		});
		expect(notHis.status).toBe(404);
	});

	it("delivers repo events with the secret and the public hub's payload; private ones only to readers", async () => {
		await client("commit", {
			token: tokens.alice,
			repos: [
				["alice/open", false],
				["alice/hidden", true],
			],
		});
		await receiver.until(
			() =>
				receiver.on("/alice").filter((r) => (r.body.event as { scope: string }).scope === "repo.content")
					.length >= 2,
			"alice's two commits",
		);
		await receiver.until(() => receiver.on("/bob").length >= 2, "bob's events of alice/open");
		for (const entry of receiver.on("/alice")) expect(entry.headers["x-webhook-secret"]).toBe(SECRET);
		for (const entry of receiver.on("/bob")) expect(entry.headers["x-webhook-secret"]).toBeUndefined();
		// Nothing of alice/hidden reached bob's webhook, in any event.
		expect(JSON.stringify(receiver.on("/bob"))).not.toContain("hidden");

		const content = receiver
			.on("/alice")
			.filter((r) => (r.body.event as { scope: string }).scope === "repo.content");
		const hidden = content.find((r) => (r.body.repo as { name: string }).name === "alice/hidden");
		expect(hidden?.body.repo).toMatchObject({ type: "model", name: "alice/hidden", private: true });
		expect((hidden?.body.repo as { headSha: string }).headSha).toMatch(/^[0-9a-f]{40}$/);
		const parsed = (await client("parse", { payloads: receiver.on("/alice").map((r) => r.body) }))
			.parsed as Array<Record<string, unknown>>;
		expect(parsed.map((p) => `${p.scope}:${p.action}:${p.repo}`)).toEqual(
			expect.arrayContaining([
				"repo:create:alice/open",
				"repo.content:update:alice/open",
				"repo:create:alice/hidden",
				"repo.content:update:alice/hidden",
			]),
		);
		const commit = parsed.find((p) => p.scope === "repo.content" && p.repo === "alice/open");
		expect(commit).toMatchObject({
			type: "model",
			private: false,
			web: `${hub.url}/alice/open`,
			webhook_version: 3,
		});
		const [ref] = commit?.refs as Array<[string, string, string]>;
		expect(ref?.[0]).toBe("refs/heads/main");
		expect(ref?.[1]).toMatch(/^[0-9a-f]{40}$/);
		expect(ref?.[2]).toMatch(/^[0-9a-f]{40}$/);

		const entries = await log(aliceHook, tokens.alice as string);
		expect(entries.length).toBeGreaterThanOrEqual(4);
		expect(entries.every((e) => e.status === "delivered" && e.responseStatus === 200)).toBe(true);
		const denied = await fetch(`${hub.url}/api/settings/webhooks/${aliceHook}/deliveries`, {
			headers: { authorization: `Bearer ${tokens.bob}` },
		});
		expect(denied.status).toBe(404);
		const admin = await fetch(`${hub.url}/api/settings/webhooks/${aliceHook}/deliveries`, {
			headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
		});
		expect(admin.status).toBe(200);
	});

	it("delivers discussion and pull request events with their title, authors, comment and merge commit", async () => {
		const whoami = async (name: string) =>
			(
				(await (
					await fetch(`${hub.url}/api/whoami-v2`, { headers: { authorization: `Bearer ${tokens[name]}` } })
				).json()) as { id: string }
			).id;
		const [aliceId, bobId] = [await whoami("alice"), await whoami("bob")];
		const before = receiver.on("/alice").length;
		const send = (method: string, path: string, token: string, body: string, type = "application/json") =>
			fetch(`${hub.url}${path}`, {
				method,
				headers: { authorization: `Bearer ${token}`, "content-type": type },
				body,
			});
		// Bob (a reader) opens a pull request by a commit; alice comments, then merges it.
		const opened = await send(
			"POST",
			"/api/models/alice/open/commit/main?create_pr=1",
			tokens.bob as string,
			[
				{ key: "header", value: { summary: "Better weights", description: "Please *merge*" } },
				{
					key: "file",
					value: { path: "w.txt", content: Buffer.from("w\n").toString("base64"), encoding: "base64" },
				},
			]
				.map((line) => JSON.stringify(line))
				.join("\n"),
			"application/x-ndjson",
		);
		expect(opened.status).toBe(200);
		const num = Number(((await opened.json()) as { pullRequestUrl: string }).pullRequestUrl.split("/").pop());
		const commented = await send(
			"POST",
			`/api/models/alice/open/discussions/${num}/comment`,
			tokens.alice as string,
			JSON.stringify({ comment: "Thanks!" }),
		);
		expect(commented.status).toBe(200);
		const merged = await send(
			"POST",
			`/api/models/alice/open/discussions/${num}/merge`,
			tokens.alice as string,
			"{}",
		);
		expect(merged.status).toBe(200);
		const { mergeCommitId } = (await merged.json()) as { mergeCommitId: string };
		const discussionEvents = () =>
			receiver
				.on("/alice")
				.slice(before)
				.filter((r) => (r.body.event as { scope: string }).scope.startsWith("discussion"));
		await receiver.until(
			() => discussionEvents().some((r) => (r.body.discussion as { status: string }).status === "merged"),
			"the merge's discussion event",
		);
		const parsed = (await client("parse", { payloads: discussionEvents().map((r) => r.body) }))
			.parsed as Array<{
			scope: string;
			action: string;
			discussion: Record<string, unknown>;
			comment: Record<string, unknown> | null;
		}>;
		const url = {
			web: `${hub.url}/alice/open/discussions/${num}`,
			api: `${hub.url}/api/models/alice/open/discussions/${num}`,
		};
		const discussion = {
			num,
			title: "Better weights",
			isPullRequest: true,
			author: { id: bobId },
			url,
			pinned: false,
		};
		const create = parsed.find((p) => p.scope === "discussion" && p.action === "create");
		expect(create?.discussion).toMatchObject({
			...discussion,
			status: "open",
			changes: { base: "refs/heads/main" },
		});
		expect(create?.comment).toMatchObject({
			author: { id: bobId },
			content: "Please *merge*",
			hidden: false,
		});
		const comment = parsed.find((p) => p.scope === "discussion.comment" && p.action === "create");
		expect(comment?.discussion).toMatchObject(discussion);
		expect(comment?.comment).toMatchObject({ author: { id: aliceId }, content: "Thanks!", hidden: false });
		const merge = parsed.find((p) => p.discussion.status === "merged");
		expect(merge?.discussion).toMatchObject({
			...discussion,
			changes: { base: "refs/heads/main", mergeCommitId },
		});
	});

	it("retries a failed delivery with backoff and logs each outcome", async () => {
		const before = receiver.on("/alice").length;
		receiver.fail = 1;
		const settings = await fetch(`${hub.url}/api/models/alice/open/settings`, {
			method: "PUT",
			headers: { authorization: `Bearer ${tokens.alice}`, "content-type": "application/json" },
			body: JSON.stringify({ private: true }),
		});
		expect(settings.status).toBe(200);
		await receiver.until(() => receiver.on("/alice").length >= before + 2, "the retried repo.config event");
		const [failed, retried] = receiver.on("/alice").slice(before);
		expect(failed?.body).toEqual(retried?.body);
		expect(retried?.body.event).toEqual({ action: "update", scope: "repo.config" });
		expect(retried?.body.updatedConfig).toEqual({ private: true });
		// The outcome is stored after the receiver answers: the log is read until it holds it (bounded).
		let latest: Record<string, unknown> | undefined;
		for (let i = 0; i < 100; i++) {
			[latest] = await log(aliceHook, tokens.alice as string);
			if (latest?.status !== "pending") break;
			await new Promise((resolve) => setTimeout(resolve, 20));
		}
		expect(latest).toMatchObject({ status: "delivered", attempts: 2, responseStatus: 200 });
	});

	it("keeps a delivery across a restart of the hub, then deletes the webhook", async () => {
		const before = receiver.on("/alice").length;
		receiver.fail = 1;
		await fetch(`${hub.url}/api/models/alice/open/settings`, {
			method: "PUT",
			headers: { authorization: `Bearer ${tokens.alice}`, "content-type": "application/json" },
			body: JSON.stringify({ private: false }),
		});
		await receiver.until(() => receiver.on("/alice").length >= before + 1, "the first attempt");
		// Stopped once the failure is stored and before its retry (1 s later): the delivery is in the
		// database only.
		let pending = false;
		for (let i = 0; i < 100 && !pending; i++) {
			const [latest] = await log(aliceHook, tokens.alice as string);
			pending = latest?.status === "pending" && latest.attempts === 1;
			if (!pending) await new Promise((resolve) => setTimeout(resolve, 10));
		}
		expect(pending).toBe(true);
		await hub.close();
		hub = await startHub({ db, seed: false, adminToken: ADMIN_TOKEN, webhooks, storage: undefined });
		await receiver.until(() => receiver.on("/alice").length >= before + 2, "the retry after the restart");
		expect(receiver.on("/alice").at(-1)?.body.updatedConfig).toEqual({ private: false });

		const out = await client("delete", { token: tokens.alice, id: aliceHook });
		expect(out).toEqual({ delete: { ok: null }, list: [] });
	});

	it("delivers a move to the watchers of the former namespace too; a private one only to its readers", async () => {
		const call = async (method: string, path: string, token: string, body?: unknown) => {
			const res = await fetch(`${hub.url}${path}`, {
				method,
				headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
				...(body === undefined ? {} : { body: JSON.stringify(body) }),
			});
			const text = await res.text();
			return { status: res.status, text, json: JSON.parse(text || "null") as Record<string, unknown> };
		};
		tokens.carol = await createUser(hub.url, ADMIN_TOKEN, "carol");
		const org = await call("POST", "/api/admin/orgs", ADMIN_TOKEN, {
			name: "acme",
			members: [{ user: "alice", role: "admin" }],
		});
		expect(org.status, org.text).toBe(201);
		// Carol (no member of anything) watches the organisation; alice watches her own namespace.
		const hookOf = async (token: string, path: string, watched: Array<{ type: string; name: string }>) => {
			const made = await call("POST", "/api/settings/webhooks", token, {
				url: `${receiver.url}${path}`,
				watched,
				domains: ["repo"],
			});
			expect(made.status, made.text).toBe(200);
			return (made.json.webhook as { id: string }).id;
		};
		const carolHook = await hookOf(tokens.carol, "/carol", [{ type: "org", name: "acme" }]);
		await hookOf(tokens.alice as string, "/alice-moves", [{ type: "user", name: "alice" }]);
		for (const [name, isPrivate] of [
			["outgoing", false],
			["secret", true],
		] as const) {
			const made = await call("POST", "/api/repos/create", tokens.alice as string, {
				name,
				organization: "acme",
				private: isPrivate,
			});
			expect(made.status, made.text).toBe(200);
		}
		// Out of the organisation, the private one first.
		for (const name of ["secret", "outgoing"]) {
			const moved = await call("POST", "/api/repos/move", tokens.alice as string, {
				fromRepo: `acme/${name}`,
				toRepo: `alice/${name}`,
			});
			expect(moved.status, moved.text).toBe(200);
		}
		const moves = (path: string) =>
			receiver.on(path).filter((r) => (r.body.event as { action: string }).action === "move");
		await receiver.until(() => moves("/alice-moves").length >= 2, "alice's two moves");
		await receiver.until(() => moves("/carol").length >= 1, "the move out of acme at acme's watcher");
		const parsed = (
			await client("parse", { payloads: [...moves("/carol"), ...moves("/alice-moves")].map((r) => r.body) })
		).parsed as Array<Record<string, unknown>>;
		// Carol's first, then alice's two (arriving in either order).
		const seen = parsed.map((p) => `${p.scope}:${p.action}:${p.repo}->${p.moved_to}:${p.private}`);
		expect([seen[0], ...seen.slice(1).sort()]).toEqual([
			"repo:move:acme/outgoing->alice/outgoing:false",
			"repo:move:acme/outgoing->alice/outgoing:false",
			"repo:move:acme/secret->alice/secret:true",
		]);
		// Each event's deliveries are stored in one transaction: alice got the private move, so carol's
		// would be stored by now. It is not: carol may not read alice/secret.
		const entries = await log(carolHook, tokens.carol);
		expect(
			entries.filter((e) => (e.payload as { event: { action: string } }).event.action === "move"),
		).toHaveLength(1);
		expect(JSON.stringify(entries)).not.toContain("secret");
		expect(JSON.stringify(receiver.on("/carol"))).not.toContain("secret");
	});
});

/**
 * The bounds of delivery, with small MODELHUB_WEBHOOK_* settings read by loadConfig (as the hub reads its
 * environment) and receivers on 127.0.0.1 that always fail, always redirect or never answer: a delivery
 * gives up after MODELHUB_WEBHOOK_MAX_ATTEMPTS and is logged `failed`, a redirect is not followed, a silent
 * receiver is cut off at MODELHUB_WEBHOOK_TIMEOUT_MS, MODELHUB_WEBHOOKS_PER_ACCOUNT answers 400, and past
 * MODELHUB_WEBHOOK_QUEUE_LIMIT deliveries are logged `dropped` and not sent. Also a dataset's commit, as
 * the public hub's payload with `repo.type` "dataset". Every wait polls the delivery log (bounded), none
 * is timed.
 */
describe("webhook delivery bounds (small MODELHUB_WEBHOOK_* settings)", () => {
	const receiver = new Receiver();
	const hubs: Array<{ hub: RunningHub; db: Database }> = [];
	let dir: string;

	async function hubWith(env: Record<string, string>): Promise<{ url: string; token: string }> {
		const db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
		const webhooks = loadConfig({ MODELHUB_WEBHOOK_ALLOWED_HOSTS: "127.0.0.1", ...env }, dir).webhooks;
		const hub = await startHub({ db, seed: false, adminToken: ADMIN_TOKEN, webhooks });
		hubs.push({ hub, db });
		return { url: hub.url, token: await createUser(hub.url, ADMIN_TOKEN, "dora") };
	}

	async function call(hubUrl: string, method: string, path: string, token: string, body?: unknown) {
		const res = await fetch(`${hubUrl}${path}`, {
			method,
			headers: {
				authorization: `Bearer ${token}`,
				...(body === undefined
					? {}
					: { "content-type": typeof body === "string" ? "application/x-ndjson" : "application/json" }),
			},
			...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
		});
		const text = await res.text();
		return { status: res.status, text, json: JSON.parse(text || "null") as Record<string, unknown> };
	}

	/** One file committed to `dora/{name}`'s main (NDJSON, as huggingface_hub sends it). */
	async function commit(hubUrl: string, token: string, name: string, text: string): Promise<void> {
		const lines = [
			{ key: "header", value: { summary: `Add ${text}`, description: "" } },
			{
				key: "file",
				value: { path: `${text}.txt`, content: Buffer.from(text).toString("base64"), encoding: "base64" },
			},
		];
		const done = await call(
			hubUrl,
			"POST",
			`/api/models/dora/${name}/commit/main`,
			token,
			lines.map((line) => JSON.stringify(line)).join("\n"),
		);
		expect(done.status, done.text).toBe(200);
	}

	async function hookTo(hubUrl: string, token: string, path: string, repo: string, type = "model") {
		const made = await call(hubUrl, "POST", "/api/settings/webhooks", token, {
			url: `${receiver.url}${path}`,
			watched: [{ type, name: repo }],
			domains: ["repo"],
		});
		expect(made.status, made.text).toBe(200);
		return (made.json.webhook as { id: string }).id;
	}

	async function log(hubUrl: string, token: string, id: string): Promise<Array<Record<string, unknown>>> {
		const res = await call(hubUrl, "GET", `/api/settings/webhooks/${id}/deliveries`, token);
		expect(res.status, res.text).toBe(200);
		return res.json as unknown as Array<Record<string, unknown>>;
	}

	/** The delivery log once its newest entry holds `check` (polled, bounded). */
	async function logWhen(
		hubUrl: string,
		token: string,
		id: string,
		check: (latest: Record<string, unknown>) => boolean,
	): Promise<Array<Record<string, unknown>>> {
		for (let i = 0; i < 300; i++) {
			const entries = await log(hubUrl, token, id);
			if (entries[0] && check(entries[0])) return entries;
			await new Promise((resolve) => setTimeout(resolve, 50));
		}
		throw new Error(
			`the delivery log of ${id} never got there: ${JSON.stringify(await log(hubUrl, token, id))}`,
		);
	}

	beforeAll(async () => {
		dir = mkdtempSync(join(tmpdir(), "modelhub-webhook-bounds-"));
		await receiver.start();
		receiver.modes.set("/fail", "fail").set("/redirect", "redirect").set("/hang", "hang");
	});

	afterAll(async () => {
		for (const { hub, db } of hubs) {
			await hub.close();
			await db.close();
		}
		await receiver.close();
		if (dir) rmSync(dir, { recursive: true, force: true });
	});

	it("gives up after MODELHUB_WEBHOOK_MAX_ATTEMPTS on failures, redirects (never followed) and silence (cut off at MODELHUB_WEBHOOK_TIMEOUT_MS), and caps webhooks per account", async () => {
		const { url, token } = await hubWith({
			MODELHUB_WEBHOOK_MAX_ATTEMPTS: "3",
			MODELHUB_WEBHOOK_RETRY_BASE_MS: "1",
			MODELHUB_WEBHOOK_TIMEOUT_MS: "200",
			MODELHUB_WEBHOOKS_PER_ACCOUNT: "3",
		});
		const paths = ["/fail", "/redirect", "/hang"] as const;
		const ids: Record<string, string> = {};
		for (const path of paths) {
			const name = path.slice(1);
			expect((await call(url, "POST", "/api/repos/create", token, { name })).status).toBe(200);
			ids[path] = await hookTo(url, token, path, `dora/${name}`);
		}
		// The fourth webhook is one too many.
		const over = await call(url, "POST", "/api/settings/webhooks", token, {
			url: `${receiver.url}/fourth`,
			watched: [{ type: "user", name: "dora" }],
		});
		expect(over.status).toBe(400);
		expect(over.json.error).toBe("dora has 3 webhooks, the most allowed (MODELHUB_WEBHOOKS_PER_ACCOUNT)");

		for (const path of paths) await commit(url, token, path.slice(1), "one");
		const finished = async (path: string) => {
			const entries = await logWhen(url, token, ids[path] as string, (latest) => latest.status !== "pending");
			expect(entries).toHaveLength(1);
			return entries[0];
		};
		expect(await finished("/fail")).toMatchObject({
			status: "failed",
			attempts: 3,
			responseStatus: 500,
			error: "answered 500",
		});
		expect(await finished("/redirect")).toMatchObject({
			status: "failed",
			attempts: 3,
			responseStatus: 302,
			error: "answered 302: redirects are not followed",
		});
		expect(await finished("/hang")).toMatchObject({
			status: "failed",
			attempts: 3,
			error: "no answer within 200 ms",
		});
		// Three attempts reached each receiver, the same payload each time, and none reached the redirect's target.
		for (const path of paths) {
			const got = receiver.on(path);
			expect(got, path).toHaveLength(3);
			expect(new Set(got.map((entry) => JSON.stringify(entry.body))).size, path).toBe(1);
		}
		expect(receiver.on("/landed")).toEqual([]);
	});

	it("logs deliveries past MODELHUB_WEBHOOK_QUEUE_LIMIT as dropped and never sends them", async () => {
		// One delivery may wait; a failed attempt waits an hour for its retry.
		const { url, token } = await hubWith({
			MODELHUB_WEBHOOK_QUEUE_LIMIT: "1",
			MODELHUB_WEBHOOK_MAX_ATTEMPTS: "2",
			MODELHUB_WEBHOOK_RETRY_BASE_MS: "3600000",
		});
		expect((await call(url, "POST", "/api/repos/create", token, { name: "queued" })).status).toBe(200);
		receiver.modes.set("/queued", "fail");
		const id = await hookTo(url, token, "/queued", "dora/queued");
		await commit(url, token, "queued", "first");
		await logWhen(url, token, id, (latest) => latest.attempts === 1);
		await commit(url, token, "queued", "second");
		const [second, first] = await logWhen(url, token, id, (latest) => latest.status === "dropped");
		expect(first).toMatchObject({ status: "pending", attempts: 1, responseStatus: 500 });
		expect(second).toMatchObject({
			status: "dropped",
			attempts: 0,
			error: "the delivery queue is full (MODELHUB_WEBHOOK_QUEUE_LIMIT)",
		});
		expect(JSON.stringify(second?.payload)).toContain("refs/heads/main");
		// Only the first delivery's one attempt reached the receiver.
		expect(receiver.on("/queued")).toHaveLength(1);
	});

	it("delivers a dataset's commit as the public hub's payload with repo.type dataset", async () => {
		const { url, token } = await hubWith({});
		const id = await hookTo(url, token, "/rows", "dora/rows", "dataset");
		const out = await runHubClient(
			"commit",
			url,
			join(dir, "dataset-commit"),
			{ token, repo_type: "dataset", repos: [["dora/rows", false]] },
			{},
			SCRIPT,
		);
		expect(out["create:dora/rows"]).toBe(`${url}/datasets/dora/rows`);
		const content = () =>
			receiver.on("/rows").filter((r) => (r.body.event as { scope: string }).scope === "repo.content");
		await receiver.until(() => content().length >= 1, "the dataset's commit");
		const [event] = content();
		expect(event?.body.repo).toMatchObject({
			type: "dataset",
			name: "dora/rows",
			private: false,
			url: { web: `${url}/datasets/dora/rows`, api: `${url}/api/datasets/dora/rows` },
			headSha: out["commit:dora/rows"],
		});
		const parsed = (
			await runHubClient(
				"parse",
				url,
				join(dir, "dataset-parse"),
				{ payloads: receiver.on("/rows").map((r) => r.body) },
				{},
				SCRIPT,
			)
		).parsed as Array<Record<string, unknown>>;
		expect(parsed.map((p) => `${p.scope}:${p.action}:${p.type}:${p.repo}`)).toEqual(
			expect.arrayContaining(["repo:create:dataset:dora/rows", "repo.content:update:dataset:dora/rows"]),
		);
		const [entry] = await logWhen(url, token, id, (latest) => latest.status === "delivered");
		expect(entry).toMatchObject({ status: "delivered", responseStatus: 200 });
	});
});
