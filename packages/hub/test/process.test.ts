import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { Agent, request as httpRequest } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../src/db/open.js";
import { listFiles } from "../src/repos/read.js";
import { loadSeedModels } from "../src/seed.js";
import { buildCli } from "./support/build-cli.mjs";

// The CLI as a real child process on a real data folder: imports, crashes and shutdowns.

let cli: string;
const dirs: string[] = [];
const children = new Set<ChildProcess>();

function tempDir(): string {
	const dir = mkdtempSync(join(tmpdir(), "modelhub-hub-proc-"));
	dirs.push(dir);
	return dir;
}

interface Run {
	child: ChildProcess;
	output(): string;
	exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
	waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
}

function run(args: string[], env: Record<string, string>): Run {
	const child = spawn(process.execPath, [cli, ...args], {
		env: { PATH: process.env.PATH ?? "", MODELHUB_LOG_LEVEL: "warn", ...env },
		stdio: ["ignore", "pipe", "pipe"],
	});
	children.add(child);
	let text = "";
	const listeners = new Set<() => void>();
	const onData = (chunk: Buffer): void => {
		text += chunk.toString("utf8");
		for (const listener of listeners) listener();
	};
	child.stdout?.on("data", onData);
	child.stderr?.on("data", onData);
	const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
		child.on("exit", (code, signal) => {
			children.delete(child);
			resolve({ code, signal });
			for (const listener of listeners) listener();
		});
	});
	return {
		child,
		output: () => text,
		exited,
		waitFor(pattern, timeoutMs = 30_000) {
			return new Promise((resolve, reject) => {
				const check = (): void => {
					const match = pattern.exec(text);
					if (match) {
						listeners.delete(check);
						clearTimeout(timer);
						resolve(match);
					} else if (child.exitCode !== null || child.signalCode !== null) {
						listeners.delete(check);
						clearTimeout(timer);
						reject(new Error(`process ended before printing ${pattern}; output:\n${text}`));
					}
				};
				const timer = setTimeout(() => {
					listeners.delete(check);
					reject(new Error(`timed out waiting for ${pattern}; output:\n${text}`));
				}, timeoutMs);
				listeners.add(check);
				check();
			});
		},
	};
}

function generatedModels(prefix: string, count: number): unknown[] {
	return Array.from({ length: count }, (_, index) => ({
		id: `${prefix}/model-${String(index).padStart(5, "0")}`,
		pipeline_tag: "text-generation",
		library_name: "transformers",
		tags: ["transformers", "conversational", `batch-${index % 7}`],
		config: { architectures: ["LlamaForCausalLM"], tokenizer_config: { chat_template: "{{ messages }}" } },
		downloads: index,
		likes: index % 13,
		inferenceProviderMapping: {
			together: { providerId: `${prefix}/model-${index}-turbo`, task: "conversational", status: "live" },
			groq: { providerId: `model-${index}`, task: "conversational", status: "staging" },
		},
	}));
}

async function countWhere(dataDir: string, authorLower: string): Promise<number> {
	const db = await openDatabase({ databaseUrl: undefined, dataDir });
	try {
		const result = await db.query<{ count: number }>(
			"SELECT count(*) AS count FROM repos WHERE type = 'model' AND lower(namespace) = $1",
			[authorLower],
		);
		return Number(result.rows[0]?.count);
	} finally {
		await db.close();
	}
}

/**
 * Each case runs several hub processes, and each opens the embedded database (PGlite in WASM): a few seconds
 * idle, but 3-4 times that at CI load (a run at load ~10 cut "imports one model" at the 30 s default).
 */
const PROCESS_TEST_MS = 300_000;

beforeAll(async () => {
	cli = await buildCli("process");
}, 120_000);

afterAll(() => {
	for (const child of children) child.kill("SIGKILL");
	for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("the CLI", { timeout: PROCESS_TEST_MS }, () => {
	it("imports one model or a list, and refuses an invalid file without writing anything", async () => {
		const dir = tempDir();
		const env = { MODELHUB_DATA_DIR: join(dir, "data") };
		const one = join(dir, "one.json");
		writeFileSync(one, JSON.stringify({ id: "cli-test/single", pipeline_tag: "fill-mask", tags: [] }));
		const list = join(dir, "list.json");
		writeFileSync(list, JSON.stringify(generatedModels("cli-test", 3)));
		const bad = join(dir, "bad.json");
		writeFileSync(
			bad,
			JSON.stringify([...generatedModels("cli-bad", 2), { id: "cli-bad/x", downloads: -5 }]),
		);
		const notJson = join(dir, "not.json");
		writeFileSync(notJson, "{ nope");

		const first = run(["import", one, list], env);
		expect((await first.exited).code).toBe(0);
		expect(first.output()).toMatch(/Imported 4: 4 created, 0 replaced/);

		const failed = run(["import", bad], env);
		expect((await failed.exited).code).toBe(2);
		expect(failed.output()).toMatch(/record 2 \("cli-bad\/x"\): 'downloads'/);

		const broken = run(["import", notJson], env);
		expect((await broken.exited).code).toBe(2);
		expect(broken.output()).toMatch(/not valid JSON/);

		expect(await countWhere(join(dir, "data"), "cli-test")).toBe(4);
		expect(await countWhere(join(dir, "data"), "cli-bad")).toBe(0);
	});

	it("reloads the seed with `seed`", async () => {
		const dir = tempDir();
		const seeded = run(["seed"], { MODELHUB_DATA_DIR: join(dir, "data") });
		expect((await seeded.exited).code).toBe(0);
		const count = (await loadSeedModels()).length;
		expect(seeded.output()).toContain(`${count} created`);
	});

	it("sweeps with `gc` the quarantine an aborted git push left, and keeps a recent one", async () => {
		const dir = tempDir();
		const env = { MODELHUB_DATA_DIR: join(dir, "data"), MODELHUB_GC_TEMP_MAX_AGE_SECONDS: "3600" };
		// Quarantines as a killed hub leaves them in <data>/git/incoming: a partial pack in each, one
		// untouched for two hours (past the hour and the 600 s push limit), one written now.
		const incoming = join(dir, "data", "git", "incoming");
		const partial = Buffer.alloc(5000, 7);
		const quarantine = (name: string): string[] => {
			const pack = join(incoming, name, "objects", "pack");
			mkdirSync(pack, { recursive: true });
			writeFileSync(join(pack, "tmp_pack_partial"), partial);
			return [join(pack, "tmp_pack_partial"), pack, join(incoming, name, "objects"), join(incoming, name)];
		};
		const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
		for (const path of quarantine("push-old")) utimesSync(path, twoHoursAgo, twoHoursAgo);
		quarantine("push-recent");

		// One run (a fresh embedded database migrates first); the dry run's count is gc.test.ts's.
		const real = run(["gc", "--json"], env);
		expect((await real.exited).code).toBe(0);
		expect(JSON.parse(real.output()).temporaries).toEqual({ count: 1, bytes: partial.length });
		expect(existsSync(join(incoming, "push-old"))).toBe(false);
		expect(existsSync(join(incoming, "push-recent", "objects", "pack", "tmp_pack_partial"))).toBe(true);
	});

	it("refuses bad configuration with a clear message", async () => {
		const dir = tempDir();
		const badPort = run(["serve"], { PORT: "eighty", MODELHUB_DATA_DIR: join(dir, "data") });
		expect((await badPort.exited).code).toBe(2);
		expect(badPort.output()).toMatch(/PORT must be a whole number/);
		const unknown = run(["frobnicate"], { MODELHUB_DATA_DIR: join(dir, "data") });
		expect((await unknown.exited).code).toBe(2);
		expect(unknown.output()).toMatch(/unknown command/);
	});

	it("manages users, tokens and organisations on the embedded database, and the tokens work", async () => {
		const dir = tempDir();
		const env = { MODELHUB_DATA_DIR: join(dir, "data") };
		const created = run(["user", "create", "alice", "--fullname", "Alice A."], env);
		expect((await created.exited).code).toBe(0);
		const token = /^(mh_[0-9A-Za-z]+)$/m.exec(created.output())?.[1];
		expect(token, created.output()).toBeDefined();
		const again = run(["user", "create", "Alice"], env);
		expect((await again.exited).code).toBe(2);
		expect(again.output()).toMatch(/an account named Alice already exists/);

		const read = run(["token", "create", "alice", "--scope", "read", "--name", "ci", "--json"], env);
		expect((await read.exited).code).toBe(0);
		const readToken = JSON.parse(read.output()) as {
			token: string;
			id: string;
			scope: string;
			displayName: string;
		};
		expect(readToken).toMatchObject({ scope: "read", displayName: "ci" });
		expect((await run(["user", "create", "bob"], env).exited).code).toBe(0);
		const org = run(["org", "create", "acme", "--member", "alice:admin", "--member", "bob:read"], env);
		expect((await org.exited).code).toBe(0);
		expect(org.output()).toMatch(/Created organisation acme with alice \(admin\), bob \(read\)/);
		const badRole = run(["org", "set-member", "acme", "bob", "owner"], env);
		expect((await badRole.exited).code).toBe(2);
		expect(badRole.output()).toMatch(/the role must be one of read, write, admin/);

		const listed = run(["token", "list", "alice"], env);
		expect((await listed.exited).code).toBe(0);
		expect(listed.output()).toMatch(/write/);
		expect(listed.output()).not.toContain("mh_");
		const revoked = run(["token", "revoke", readToken.id], env);
		expect((await revoked.exited).code).toBe(0);
		const audit = run(["audit", "--json"], env);
		expect((await audit.exited).code).toBe(0);
		const entries = JSON.parse(audit.output()) as Array<{ actor: string; action: string }>;
		expect(entries.map((e) => e.action)).toEqual(
			expect.arrayContaining(["user.create", "token.create", "org.create", "token.revoke"]),
		);
		expect(entries.every((e) => e.actor === "@cli")).toBe(true);

		// The server on the same folder accepts the printed token, and not the revoked one.
		const server = run([], { ...env, PORT: "0", MODELHUB_DATA_DIR: join(dir, "data") });
		const [, url] = await server.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)\//, 60_000);
		const whoami = await fetch(`${url}/api/whoami-v2`, { headers: { authorization: `Bearer ${token}` } });
		expect(whoami.status).toBe(200);
		expect(await whoami.json()).toMatchObject({
			name: "alice",
			fullname: "Alice A.",
			orgs: [expect.objectContaining({ name: "acme", roleInOrg: "admin" })],
		});
		const gone = await fetch(`${url}/api/whoami-v2`, {
			headers: { authorization: `Bearer ${readToken.token}` },
		});
		expect(gone.status).toBe(401);
		// While the server holds the folder, the account commands are refused (stop it first).
		const busy = run(["user", "list"], env);
		expect((await busy.exited).code).toBe(2);
		expect(busy.output()).toMatch(/in use/);
		server.child.kill("SIGTERM");
		expect((await server.exited).code).toBe(0);
	});

	it("loses no committed data when killed in the middle of an import", async () => {
		const dir = tempDir();
		const dataDir = join(dir, "data");
		const env = { MODELHUB_DATA_DIR: dataDir };
		const committed = join(dir, "committed.json");
		writeFileSync(committed, JSON.stringify(generatedModels("committed", 50)));
		expect((await run(["import", committed], env).exited).code).toBe(0);

		const big = join(dir, "big.json");
		const count = 4000;
		writeFileSync(big, JSON.stringify(generatedModels("killed", count)));
		const importing = run(["import", big], env);
		await importing.waitFor(/Importing 4000 models/);
		await new Promise((resolve) => setTimeout(resolve, 400));
		importing.child.kill("SIGKILL");
		const ended = await importing.exited;
		expect(ended.signal).toBe("SIGKILL");
		expect(importing.output()).not.toMatch(/Imported/);

		// The folder opens again (a dead process's lock is taken over), committed data is intact and the
		// interrupted transaction left nothing behind.
		expect(await countWhere(dataDir, "committed")).toBe(50);
		expect(await countWhere(dataDir, "killed")).toBe(0);

		// And the same import runs to the end afterwards.
		const again = run(["import", big], env);
		expect((await again.exited).code).toBe(0);
		expect(await countWhere(dataDir, "killed")).toBe(count);
	});

	it("keeps every small file of a commit it answered 200, through a SIGKILL right after", async () => {
		const dir = tempDir();
		const dataDir = join(dir, "data");
		const admin = "process-small-token-0123456789";
		const env = { PORT: "0", HOST: "127.0.0.1", MODELHUB_DATA_DIR: dataDir, MODELHUB_ADMIN_TOKEN: admin };
		const start = async (): Promise<{ server: Run; base: string }> => {
			const server = run(["serve"], env);
			const [, url] = await server.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)\//);
			return { server, base: url as string };
		};
		const first = await start();
		const user = await fetch(`${first.base}/api/admin/users`, {
			method: "POST",
			headers: { authorization: `Bearer ${admin}`, "content-type": "application/json" },
			body: JSON.stringify({ name: "kim" }),
		});
		const { token } = (await user.json()) as { token: string };
		const auth = { authorization: `Bearer ${token}` };
		const created = await fetch(`${first.base}/api/repos/create`, {
			method: "POST",
			headers: { ...auth, "content-type": "application/json" },
			body: JSON.stringify({ name: "durable" }),
		});
		expect(created.status).toBe(200);
		// 600 small files (kept in the database, src/blobs/small.ts) and one over the small-blob size (a file).
		const files = new Map<string, Buffer>();
		for (let index = 0; index < 600; index++)
			files.set(`rows/${index}.txt`, Buffer.from(`row ${index}\n`.repeat((index % 50) + 1)));
		files.set("large.txt", Buffer.from("x".repeat(100_000)));
		const body = [
			JSON.stringify({ key: "header", value: { summary: "many small files" } }),
			...[...files].map(([path, bytes]) =>
				JSON.stringify({
					key: "file",
					value: { path, content: bytes.toString("base64"), encoding: "base64" },
				}),
			),
		].join("\n");
		const committed = await fetch(`${first.base}/api/models/kim/durable/commit/main`, {
			method: "POST",
			headers: { ...auth, "content-type": "application/x-ndjson" },
			body,
		});
		expect(committed.status).toBe(200);
		const { commitOid } = (await committed.json()) as { commitOid: string };
		first.server.child.kill("SIGKILL");
		expect((await first.server.exited).signal).toBe("SIGKILL");

		const second = await start();
		try {
			for (const [path, bytes] of files) {
				const res = await fetch(`${second.base}/kim/durable/resolve/${commitOid}/${path}`);
				expect(res.status, path).toBe(200);
				expect(Buffer.from(await res.arrayBuffer()).equals(bytes), path).toBe(true);
			}
		} finally {
			second.server.child.kill("SIGTERM");
			await second.server.exited;
		}
	});
});

describe("the server process", { timeout: PROCESS_TEST_MS }, () => {
	it("starts on an empty folder, seeds it, keeps a second process out, and stops gracefully on SIGTERM", async () => {
		const dir = tempDir();
		const dataDir = join(dir, "data");
		const token = "process-test-token-0123456789";
		const server = run(["serve"], {
			PORT: "0",
			HOST: "127.0.0.1",
			MODELHUB_DATA_DIR: dataDir,
			MODELHUB_ADMIN_TOKEN: token,
		});
		const [, url] = await server.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)\//);
		expect(server.output()).toMatch(/Loaded \d+ seed models/);
		const base = url as string;
		expect((await fetch(`${base}/healthz`)).status).toBe(200);

		// The embedded database belongs to the running server.
		const model = join(dir, "m.json");
		writeFileSync(model, JSON.stringify({ id: "second/process", tags: [] }));
		const intruder = run(["import", model], { MODELHUB_DATA_DIR: dataDir });
		expect((await intruder.exited).code).toBe(2);
		expect(intruder.output()).toMatch(/in use by process \d+/);

		// A request in flight: a PUT whose body arrives slowly, straddling the SIGTERM.
		const body = JSON.stringify({ pipeline_tag: "text-generation", tags: ["slow"], downloads: 7 });
		const half = Math.floor(body.length / 2);
		const { port } = new URL(base);
		const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
			const req = httpRequest(
				{
					host: "127.0.0.1",
					port,
					method: "PUT",
					path: "/api/models/slow/request",
					headers: {
						authorization: `Bearer ${token}`,
						"content-type": "application/json",
						"content-length": Buffer.byteLength(body),
					},
				},
				(res) => {
					let text = "";
					res.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
					res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
				},
			);
			req.on("error", reject);
			req.write(body.slice(0, half));
			setTimeout(() => {
				server.child.kill("SIGTERM");
				setTimeout(() => req.end(body.slice(half)), 500);
			}, 200);
		});

		await server.waitFor(/SIGTERM: stopped accepting connections; finishing \d+ in-flight requests/);
		// New connections are refused while the in-flight request finishes (a fresh one: fetch would reuse
		// its kept-alive connection, on which a request is still served while stopping).
		await expect(
			new Promise((resolve, reject) => {
				const probe = connect({ host: "127.0.0.1", port: Number(new URL(base).port) });
				probe.once("connect", () => {
					probe.destroy();
					resolve("connected");
				});
				probe.once("error", reject);
			}),
		).rejects.toThrow(/ECONNREFUSED/);

		const answer = await response;
		expect(answer.status).toBe(201);
		expect(JSON.parse(answer.text)).toMatchObject({ id: "slow/request", downloads: 7 });
		const ended = await server.exited;
		expect(ended.code).toBe(0);
		expect(server.output()).toMatch(/Stopped\./);

		// The write committed and the database was closed cleanly.
		expect(await countWhere(dataDir, "slow")).toBe(1);
	});
});

describe("the server stopping under load", { timeout: PROCESS_TEST_MS }, () => {
	it("answers all 60 concurrent requests already sent when SIGTERM comes, then exits 0 within the grace", async () => {
		// Before: the listener's queued connections were reset and accepted connections whose request was
		// not parsed yet were closed as idle (5–54 of these 60 answered, varying with timing).
		const dir = tempDir();
		const token = "process-test-token-0123456789";
		const env = { MODELHUB_DATA_DIR: join(dir, "data"), MODELHUB_ADMIN_TOKEN: token };
		const size = 8 * 1024 * 1024;
		mkdirSync(join(dir, "files"));
		writeFileSync(join(dir, "files", "big.bin"), Buffer.alloc(size, 7));
		writeFileSync(
			join(dir, "big.json"),
			JSON.stringify({ id: "load/big", tags: [], files: { "big.bin": "files/big.bin" } }),
		);
		expect((await run(["import", join(dir, "big.json")], env).exited).code).toBe(0);
		const graceMs = 30_000;
		const server = run(["serve"], {
			...env,
			PORT: "0",
			HOST: "127.0.0.1",
			MODELHUB_SHUTDOWN_GRACE_MS: String(graceMs),
		});
		const [, url] = await server.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)\//, 60_000);
		const { port } = new URL(url as string);

		interface Outcome {
			index: number;
			status?: number;
			bytes?: number;
			error?: string;
		}
		// Half big downloads, half admin writes whose bodies arrive after the signal; each on its own
		// fresh connection (no agent reuse), all sent at once. The signal waits until every socket is
		// connected (bounded): "already sent" means the hub has them, which 20 ms alone did not make sure of
		// on a loaded machine (a connection begun after the signal is rightly refused).
		let connected = 0;
		let allConnected: () => void = () => {};
		const connectedAll = new Promise<void>((resolve) => (allConnected = resolve));
		let finishWrites: () => void = () => {};
		const signalGiven = new Promise<void>((resolve) => (finishWrites = resolve));
		const send = (index: number): Promise<Outcome> =>
			new Promise((resolve) => {
				const write = index % 2 === 1;
				const body = JSON.stringify({ pipeline_tag: "text-generation", tags: ["load"], downloads: index });
				const req = httpRequest(
					{
						host: "127.0.0.1",
						port,
						agent: false,
						method: write ? "PUT" : "GET",
						path: write ? `/api/models/load/written-${index}` : "/load/big/resolve/main/big.bin",
						headers: write
							? {
									authorization: `Bearer ${token}`,
									"content-type": "application/json",
									"content-length": Buffer.byteLength(body),
								}
							: {},
					},
					(res) => {
						let bytes = 0;
						res.on("data", (chunk: Buffer) => (bytes += chunk.length));
						res.on("end", () => resolve({ index, status: res.statusCode, bytes }));
						res.on("error", (error: NodeJS.ErrnoException) => resolve({ index, error: error.code }));
					},
				);
				req.on("error", (error: NodeJS.ErrnoException) => resolve({ index, error: error.code }));
				req.on("socket", (socket) =>
					socket.once("connect", () => {
						if (++connected === 60) allConnected();
					}),
				);
				if (write) {
					req.write(body.slice(0, 10));
					void signalGiven.then(() => setTimeout(() => req.end(body.slice(10)), 300));
				} else req.end();
			});
		const outcomes = Promise.all(Array.from({ length: 60 }, (_, index) => send(index)));
		await Promise.race([connectedAll, new Promise((resolve) => setTimeout(resolve, 10_000))]);
		expect(connected).toBe(60);
		await new Promise((resolve) => setTimeout(resolve, 20));
		const signalled = Date.now();
		server.child.kill("SIGTERM");
		finishWrites();
		const answers = await outcomes;
		const ended = await server.exited;
		const took = Date.now() - signalled;

		const failed = answers.filter((answer) =>
			answer.index % 2 === 1 ? answer.status !== 201 : answer.status !== 200 || answer.bytes !== size,
		);
		expect(failed, server.output()).toEqual([]);
		expect(ended.code, server.output()).toBe(0);
		expect(took).toBeLessThan(graceMs);
		expect(server.output()).toMatch(/Stopped\./);
		expect(await countWhere(join(dir, "data"), "load")).toBe(31);
	});
});

describe("the server with keep-alive clients", { timeout: PROCESS_TEST_MS }, () => {
	it("stops on SIGTERM promptly and exits 0 while clients hold connections open", async () => {
		const dir = tempDir();
		const server = run(["serve"], { PORT: "0", HOST: "127.0.0.1", MODELHUB_DATA_DIR: join(dir, "data") });
		const [, url] = await server.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)\//);
		const base = new URL(url as string);
		const agent = new Agent({ keepAlive: true, maxSockets: 4 });
		const get = (path: string) =>
			new Promise<number>((resolve, reject) => {
				const req = httpRequest({ host: base.hostname, port: base.port, path, agent }, (res) => {
					res.resume();
					res.on("end", () => resolve(res.statusCode ?? 0));
				});
				req.on("error", reject);
				req.end();
			});
		// An idle keep-alive connection, and a client that keeps asking on its own connections.
		expect(await get("/api/tasks")).toBe(200);
		let busy = true;
		const loop = (async () => {
			while (busy) {
				await get("/api/models/openai/whisper-large-v3").catch(() => 0);
				await new Promise((resolve) => setTimeout(resolve, 20));
			}
		})();
		// A keep-alive client that has begun its next request when the signal comes (a partial header):
		// it holds no request being served, so it must not hold the shutdown up either.
		const socket = connect({ host: base.hostname, port: Number(base.port) });
		socket.on("error", () => {});
		await new Promise((resolve) => socket.once("connect", resolve));
		socket.write("GET /api/tasks HTTP/1.1\r\nHost: x\r\n\r\n");
		await new Promise((resolve) => setTimeout(resolve, 200));
		socket.write("GET /api/tas");
		await new Promise((resolve) => setTimeout(resolve, 200));
		const signalled = Date.now();
		server.child.kill("SIGTERM");
		const ended = await server.exited;
		const took = Date.now() - signalled;
		busy = false;
		await loop;
		agent.destroy();
		socket.destroy();
		expect(ended.code).toBe(0);
		// Far below the 10 s shutdown limit the process would otherwise wait out.
		expect(took).toBeLessThan(3000);
		expect(server.output()).toMatch(/Stopped\./);
	});
});

describe("imports with files", { timeout: PROCESS_TEST_MS }, () => {
	it("stores a JSON record's files and a model folder, and generates cards only when asked", async () => {
		const dir = tempDir();
		const env = { MODELHUB_DATA_DIR: join(dir, "data") };
		mkdirSync(join(dir, "json", "blobs"), { recursive: true });
		writeFileSync(join(dir, "json", "blobs", "weights.safetensors"), Buffer.alloc(1000, 7));
		writeFileSync(join(dir, "json", "blobs", "card.md"), "---\nlicense: mit\n---\n# Own card\n");
		writeFileSync(
			join(dir, "json", "models.json"),
			JSON.stringify([
				{
					id: "files/json-model",
					tags: [],
					files: { "model.safetensors": "blobs/weights.safetensors", "README.md": "blobs/card.md" },
				},
				{ id: "files/metadata-only", tags: [] },
			]),
		);
		const folder = join(dir, "folder-model");
		mkdirSync(join(folder, "sub"), { recursive: true });
		writeFileSync(
			join(folder, "model.json"),
			JSON.stringify({ id: "files/from-folder", pipeline_tag: "fill-mask", tags: [] }),
		);
		writeFileSync(join(folder, "config.json"), "{}\n");
		writeFileSync(join(folder, "sub", "vocab.txt"), "a\nb\n");
		const imported = run(["import", "--no-generated-files", join(dir, "json", "models.json"), folder], env);
		expect((await imported.exited).code, imported.output()).toBe(0);
		expect(imported.output()).toMatch(/Imported 3: 3 created, 0 replaced, 3 commits/);

		const missing = join(dir, "missing.json");
		writeFileSync(missing, JSON.stringify({ id: "files/broken", tags: [], files: { "a.bin": "nope.bin" } }));
		const broken = run(["import", missing], env);
		expect((await broken.exited).code).toBe(2);
		expect(broken.output()).toMatch(/a\.bin: .*nope\.bin is not a readable file/);

		const db = await openDatabase({ databaseUrl: undefined, dataDir: join(dir, "data") });
		try {
			const heads = await db.query<{ repo_id: string; commit_id: string }>(
				"SELECT repo_id, commit_id FROM refs WHERE repo_type = 'model' ORDER BY repo_id",
			);
			const files: string[] = [];
			for (const head of heads.rows) {
				for (const file of await listFiles(db, { type: "model", id: head.repo_id }, head.commit_id))
					files.push(`${head.repo_id}:${file.path}${file.lfs ? " (lfs)" : ""}`);
			}
			expect(files).toEqual([
				"files/from-folder:config.json",
				"files/from-folder:sub/vocab.txt",
				"files/json-model:README.md",
				"files/json-model:model.safetensors (lfs)",
				"files/metadata-only:.gitattributes",
			]);
		} finally {
			await db.close();
		}
	});
});
