import { describe, expect, it } from "vitest";
import { checkAdmin } from "../src/auth.js";
import { ResponseCache } from "../src/cache.js";
import { ConfigError, loadConfig } from "../src/config.js";
import { decodeCursor, encodeCursor } from "../src/models/cursor.js";
import { modelIdProblem } from "../src/models/ids.js";
import { ModelInputError, parseModelInput } from "../src/models/input.js";

describe("model ids", () => {
	it("accept the public hub's ids and refuse everything else", () => {
		for (const id of [
			"openai/whisper-large-v3",
			"google-bert/bert-base-uncased",
			"a/b",
			"Qwen/Qwen2.5-7B-Instruct",
			"x_1/y.z-2",
		]) {
			expect(modelIdProblem(id), id).toBeUndefined();
		}
		// Ids without a namespace are the public hub's legacy canonical models (gpt2, bert-base-uncased).
		for (const id of ["gpt2", "bert-base-uncased", "t5.small_v1"])
			expect(modelIdProblem(id), id).toBeUndefined();
		for (const id of [
			"",
			"/b",
			"a/",
			"a/b/c",
			"a..b/c",
			"a/..",
			"-a/b",
			"a/.b",
			"a b/c",
			`a/${"x".repeat(97)}`,
			"a/b\u0000",
			42,
		]) {
			expect(modelIdProblem(id), String(id)).toBeDefined();
		}
	});
});

describe("parseModelInput", () => {
	it("reads the public hub's JSON, defaults and all", () => {
		const model = parseModelInput({
			id: "acme/model",
			tags: ["a", "a", "b"],
			lastModified: "2024-01-02T03:04:05Z",
			inferenceProviderMapping: {
				"fal-ai": {
					providerId: "fal-ai/x",
					task: "text-to-image",
					status: "live",
					adapter: "lora",
					adapterWeightsPath: "w.safetensors",
				},
				groq: { providerId: "x", task: "conversational", status: "staging" },
			},
		});
		expect(model).toMatchObject({
			id: "acme/model",
			author: "acme",
			name: "model",
			tags: ["a", "b"],
			downloads: 0,
			likes: 0,
			private: false,
		});
		expect(model.lastModified).toBe("2024-01-02T03:04:05.000Z");
		expect(model.mappings.map((m) => m.provider)).toEqual(["fal-ai", "groq"]);
		expect(model.mappings[0]).toEqual({
			provider: "fal-ai",
			providerId: "fal-ai/x",
			task: "text-to-image",
			status: "live",
			adapter: "lora",
			adapterWeightsPath: "w.safetensors",
		});
	});

	it("takes the id from the URL and refuses a different one in the body", () => {
		expect(parseModelInput({}, "a/b").id).toBe("a/b");
		expect(() => parseModelInput({ id: "a/c" }, "a/b")).toThrow(/does not match/);
		expect(() => parseModelInput({ id: "a/b", modelId: "a/c" })).toThrow(/differ/);
		expect(() => parseModelInput({})).toThrow(/'id' is required/);
	});

	it("refuses hostile nesting without overflowing the stack", () => {
		let deep: unknown = 1;
		for (let i = 0; i < 200_000; i++) deep = [deep];
		expect(() => parseModelInput({ id: "a/b", config: { deep } })).toThrow(ModelInputError);
	});

	it("refuses duplicate providers across both mapping forms", () => {
		expect(() =>
			parseModelInput({
				id: "a/b",
				inferenceProviderMapping: [
					{ provider: "groq", providerId: "x", task: "conversational", status: "live" },
					{ provider: "groq", providerId: "y", task: "conversational", status: "live" },
				],
			}),
		).toThrow(/twice/);
	});
});

describe("cursors", () => {
	it("round-trip and are tied to their sort order", () => {
		const position = { sort: "downloads" as const, direction: -1 as const, value: 1234, id: "a/b" };
		const text = encodeCursor(position);
		expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
		expect(decodeCursor(text, "downloads", -1)).toEqual(position);
		expect(decodeCursor(text, "downloads", 1)).toMatch(/sort order/);
		expect(decodeCursor(text, "likes", -1)).toMatch(/sort order/);
		const dated = encodeCursor({
			sort: "lastModified",
			direction: 1,
			value: "2024-01-01T00:00:00.000Z",
			id: "a/b",
		});
		expect(decodeCursor(dated, "lastModified", 1)).toMatchObject({ value: "2024-01-01T00:00:00.000Z" });
	});

	it("refuse tampered payloads", () => {
		const forged = (payload: unknown) => Buffer.from(JSON.stringify(payload)).toString("base64url");
		expect(decodeCursor(forged([1, "downloads", -1, "1; DROP TABLE", "a/b"]), "downloads", -1)).toEqual(
			expect.any(String),
		);
		expect(decodeCursor(forged([1, "downloads", -1, -5, "a/b"]), "downloads", -1)).toEqual(
			expect.any(String),
		);
		expect(decodeCursor(forged([1, "downloads", -1, 5, "../../x"]), "downloads", -1)).toEqual(
			expect.any(String),
		);
		expect(decodeCursor(forged([1, "lastModified", -1, "yesterday", "a/b"]), "lastModified", -1)).toEqual(
			expect.any(String),
		);
		expect(decodeCursor(forged({ a: 1 }), "downloads", -1)).toEqual(expect.any(String));
		expect(decodeCursor("!!", "downloads", -1)).toEqual(expect.any(String));
	});
});

describe("the admin check", () => {
	it("distinguishes missing, malformed, wrong and right tokens", () => {
		expect(checkAdmin("Bearer secret-token", undefined)).toMatchObject({ ok: false, status: 403 });
		expect(checkAdmin(undefined, "secret-token")).toMatchObject({ ok: false, status: 401 });
		expect(checkAdmin("Token secret-token", "secret-token")).toMatchObject({ ok: false, status: 401 });
		expect(checkAdmin("Bearer secret-tokeN", "secret-token")).toMatchObject({ ok: false, status: 403 });
		expect(checkAdmin("Bearer secret-token-and-more", "secret-token")).toMatchObject({
			ok: false,
			status: 403,
		});
		expect(checkAdmin("Bearer secret-token", "secret-token")).toEqual({ ok: true });
		expect(checkAdmin("bearer   secret-token  ", "secret-token")).toEqual({ ok: true });
	});
});

describe("the response cache", () => {
	const body = (size: number) => ({ body: Buffer.alloc(size) });

	it("drops answers read before a write cleared it", () => {
		const cache = new ResponseCache(64 * 1024);
		const version = cache.version;
		cache.clear();
		cache.set("a", { body: Buffer.from("stale") }, version);
		expect(cache.get("a")).toBeUndefined();
		cache.set("a", { body: Buffer.from("1") }, cache.version);
		expect(cache.get("a")?.body.toString()).toBe("1");
		cache.setEnabled(false);
		cache.set("d", { body: Buffer.from("4") }, cache.version);
		expect(cache.get("d")).toBeUndefined();
	});

	it("stays within its byte budget, evicting the least recently used, and skips oversized entries", () => {
		const cache = new ResponseCache(16 * 1024);
		for (const key of ["a", "b", "c", "d", "e", "f", "g", "h"]) cache.set(key, body(1800), cache.version);
		expect(cache.size).toBe(8);
		// "a" is used again, so "b" is the least recently used when room is needed.
		expect(cache.get("a")).toBeDefined();
		cache.set("i", body(1800), cache.version);
		expect(cache.get("b")).toBeUndefined();
		expect(cache.get("a")).toBeDefined();
		expect(cache.bytes).toBeLessThanOrEqual(cache.budget);
		// An entry larger than an eighth of the budget is never stored.
		cache.set("big", body(3000), cache.version);
		expect(cache.get("big")).toBeUndefined();
	});

	it("never grows past the budget under a flood of distinct keys (forged cursors)", () => {
		const cache = new ResponseCache(256 * 1024);
		for (let index = 0; index < 100_000; index++) {
			cache.set(
				`l:sort=downloads&cursor=${index.toString(36).padStart(40, "x")}`,
				body(100 + (index % 900)),
				cache.version,
			);
			if (cache.bytes > cache.budget) throw new Error(`over budget after ${index} keys: ${cache.bytes}`);
		}
		expect(cache.bytes).toBeLessThanOrEqual(256 * 1024);
		expect(cache.size).toBeLessThan(1000);
	});
});

describe("configuration", () => {
	it("has documented defaults", () => {
		const config = loadConfig({}, "/tmp");
		expect(config).toMatchObject({
			port: 8080,
			host: "127.0.0.1",
			databaseUrl: undefined,
			adminToken: undefined,
			logLevel: "warn",
		});
		expect(config.dataDir).toMatch(/\.modelhub-data$/);
		expect(config.bodyLimit).toBe(1024 * 1024);
	});

	it("refuses unusable values", () => {
		expect(() => loadConfig({ PORT: "http" })).toThrow(ConfigError);
		expect(() => loadConfig({ PORT: "70000" })).toThrow(ConfigError);
		expect(() => loadConfig({ DATABASE_URL: "mysql://x" })).toThrow(ConfigError);
		expect(() => loadConfig({ MODELHUB_LOG_LEVEL: "loud" })).toThrow(ConfigError);
		expect(loadConfig({ MODELHUB_ADMIN_TOKEN: "   " }).adminToken).toBeUndefined();
		expect(() => loadConfig({ MODELHUB_ADMIN_TOKEN: "short" })).toThrow(/at least 16 characters/);
		expect(() => loadConfig({ MODELHUB_MAX_REGULAR_FILE_BYTES: String(11 * 1024 * 1024) })).toThrow(
			/MODELHUB_MAX_REGULAR_FILE_BYTES must be between 0 and 10485760/,
		);
		expect(loadConfig({ MODELHUB_XET: "false" }).uploads.xet).toBe(false);
		expect(loadConfig({}).uploads.pullRequestMaxBytes).toBe(20 * 1024 * 1024 * 1024);
		expect(loadConfig({ MODELHUB_PR_UPLOAD_MAX_BYTES: "1000" }).uploads.pullRequestMaxBytes).toBe(1000);
		expect(() => loadConfig({ MODELHUB_PR_UPLOAD_MAX_BYTES: "-1" })).toThrow(/MODELHUB_PR_UPLOAD_MAX_BYTES/);
		expect(loadConfig({ MODELHUB_PUBLIC_URL: "https://hub.example.org" }).publicUrl).toBe(
			"https://hub.example.org",
		);
		expect(loadConfig({ MODELHUB_WEB_DIR: "/does/not/exist" }).webDir).toBeUndefined();
		expect(loadConfig({}).postgresPool).toEqual({ size: 10, preparedStatements: 100 });
		expect(
			loadConfig({ MODELHUB_DISK_WRITES_IN_FLIGHT: "8", MODELHUB_DISK_WRITE_BYTES_IN_FLIGHT: "2097152" })
				.storage,
		).toMatchObject({ kind: "disk", groupWrites: { files: 8, bytes: 2097152 } });
		expect(loadConfig({}).storage).toMatchObject({ groupWrites: { files: 32, bytes: 64 * 1024 * 1024 } });
		expect(loadConfig({}).uploads.stagedMaxMs).toBe(10_000);
		expect(loadConfig({}).gc.treeBatch).toBe(1000);
		expect(loadConfig({ MODELHUB_GC_TREE_BATCH: "50" }).gc.treeBatch).toBe(50);
		const mirrored = { MODELHUB_UPSTREAM_URL: "http://127.0.0.1:9" };
		expect(loadConfig(mirrored).upstream).toMatchObject({ cacheBytes: 0, pinned: [] });
		expect(
			loadConfig({ ...mirrored, MODELHUB_MIRROR_CACHE_BYTES: "1000", MODELHUB_MIRROR_PINNED: "org, a/b" })
				.upstream,
		).toMatchObject({ cacheBytes: 1000, pinned: ["org", "a/b"] });
		expect(() => loadConfig({ ...mirrored, MODELHUB_MIRROR_CACHE_BYTES: "-1" })).toThrow(
			/MODELHUB_MIRROR_CACHE_BYTES must be a whole number/,
		);
		expect(loadConfig(mirrored).upstream?.prefetchMaxBytes).toBe(100 * 1024 ** 3);
		expect(
			loadConfig({ ...mirrored, MODELHUB_MIRROR_PREFETCH_MAX_BYTES: "5000" }).upstream?.prefetchMaxBytes,
		).toBe(5000);
		expect(() => loadConfig({ ...mirrored, MODELHUB_MIRROR_PREFETCH_MAX_BYTES: "0" })).toThrow(
			/MODELHUB_MIRROR_PREFETCH_MAX_BYTES must be between 1 and/,
		);
		expect(() => loadConfig({ MODELHUB_GC_TREE_BATCH: "0" })).toThrow(
			/MODELHUB_GC_TREE_BATCH must be between 1 and 100000/,
		);
		expect(loadConfig({ MODELHUB_COMMIT_STAGED_MAX_MS: "0" }).uploads.stagedMaxMs).toBe(0);
		expect(loadConfig({}).uploads.smallBlobMaxBytes).toBe(64 * 1024);
		expect(loadConfig({ MODELHUB_SMALL_BLOB_MAX_BYTES: "0" }).uploads.smallBlobMaxBytes).toBe(0);
		expect(() => loadConfig({ MODELHUB_SMALL_BLOB_MAX_BYTES: "1048577" })).toThrow(
			/MODELHUB_SMALL_BLOB_MAX_BYTES must be between 0 and 1048576/,
		);
		expect(() => loadConfig({ MODELHUB_COMMIT_STAGED_MAX_MS: "600001" })).toThrow(
			/MODELHUB_COMMIT_STAGED_MAX_MS must be between 0 and 600000/,
		);
		expect(() => loadConfig({ MODELHUB_DISK_WRITES_IN_FLIGHT: "0" })).toThrow(
			/MODELHUB_DISK_WRITES_IN_FLIGHT must be between 1 and 1024/,
		);
		expect(
			loadConfig({ MODELHUB_DB_POOL_SIZE: "50", MODELHUB_DB_PREPARED_STATEMENTS: "0" }).postgresPool,
		).toEqual({ size: 50, preparedStatements: 0 });
		expect(() => loadConfig({ MODELHUB_DB_POOL_SIZE: "0" })).toThrow(
			/MODELHUB_DB_POOL_SIZE must be between 1/,
		);
		expect(() => loadConfig({ MODELHUB_DB_PREPARED_STATEMENTS: "100000" })).toThrow(
			/MODELHUB_DB_PREPARED_STATEMENTS must be between 0 and 10000/,
		);
	});

	it("reads the sign-up mode, session lifetimes and password cost, bounded", () => {
		expect(loadConfig({}).selfService).toEqual({
			signup: "invite",
			session: { idleSeconds: 604800, maxSeconds: 2592000 },
			passwordCost: { log2N: 15 },
			inviteSeconds: 604800,
			signupsPerHour: 10,
		});
		expect(loadConfig({ MODELHUB_SIGNUP: "Open" }).selfService.signup).toBe("open");
		expect(() => loadConfig({ MODELHUB_SIGNUP: "anyone" })).toThrow(
			/MODELHUB_SIGNUP must be one of open, invite, closed/,
		);
		expect(() => loadConfig({ MODELHUB_PASSWORD_COST: "10" })).toThrow(/between 14 and 19/);
		expect(() => loadConfig({ MODELHUB_PASSWORD_COST: "25" })).toThrow(/between 14 and 19/);
		expect(() =>
			loadConfig({ MODELHUB_SESSION_IDLE_SECONDS: "7200", MODELHUB_SESSION_MAX_SECONDS: "3600" }),
		).toThrow(/must not exceed/);
	});

	it("reads single sign-on: issuer, client id and secret together, the redirect URL from MODELHUB_PUBLIC_URL", () => {
		const sso = {
			MODELHUB_OIDC_ISSUER: "https://id.example.org/realms/team",
			MODELHUB_OIDC_CLIENT_ID: "modelhub",
			MODELHUB_OIDC_CLIENT_SECRET: "s3cret",
			MODELHUB_PUBLIC_URL: "https://hub.example.org",
		};
		expect(loadConfig(sso).selfService.oidc).toEqual({
			issuer: "https://id.example.org/realms/team",
			clientId: "modelhub",
			clientSecret: "s3cret",
			displayName: "id.example.org",
			scopes: "openid profile email",
			redirectUri: "https://hub.example.org/api/auth/oidc/callback",
			flowSeconds: 600,
			allowHttp: false,
		});
		expect(loadConfig({ ...sso, MODELHUB_OIDC_SCOPES: "profile groups" }).selfService.oidc?.scopes).toBe(
			"openid profile groups",
		);
		expect(loadConfig({}).selfService.oidc).toBeUndefined();
		expect(() => loadConfig({ MODELHUB_OIDC_ISSUER: sso.MODELHUB_OIDC_ISSUER })).toThrow(/together/);
		expect(() => loadConfig({ ...sso, MODELHUB_PUBLIC_URL: "" })).toThrow(/needs MODELHUB_PUBLIC_URL/);
		expect(() => loadConfig({ ...sso, MODELHUB_OIDC_ISSUER: "http://id.example.org" })).toThrow(
			/must be an https:\/\/ URL/,
		);
		expect(
			loadConfig({ ...sso, MODELHUB_OIDC_ISSUER: "http://127.0.0.1:9000" }).selfService.oidc?.allowHttp,
		).toBe(true);
		expect(() => loadConfig({ ...sso, MODELHUB_OIDC_FLOW_SECONDS: "5" })).toThrow(
			/MODELHUB_OIDC_FLOW_SECONDS/,
		);
	});
});
