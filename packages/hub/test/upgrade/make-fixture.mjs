// Makes the upgrade fixture (test/upgrade/fixture-v3/) with the hub as built in this checkout: run it
// once, on the commit whose schema the fixture stands for, and commit what it writes. It was made on
// schema version 3 (migrations 1–3); test/upgrade.test.ts loads it into databases at that version and
// upgrades them with the current hub.
//
//   npm run build && node packages/hub/test/upgrade/make-fixture.mjs
//
// What it does, all through the real interfaces (the CLI, the HTTP API and the real huggingface_hub):
// 1. starts the hub on a fresh embedded database (PGlite) in a temporary data folder (the seed loads),
//    after the CLI made a user and an organisation; creates users, an organisation with members,
//    tokens (one revoked), public and private repositories of users, organisations and the admin
//    token (no namespace), commits of small files, LFS files and Xet files, a copy, deletions,
//    branches, tags with and without a message, visibility changes, a deleted repository, and a model
//    with provider mappings written with the admin API; every write lands in the audit log;
// 2. stops the hub and dumps every table as INSERT statements (dump.mjs) to database.sql.gz, and
//    packs the blob store's files (content-addressed: blobs/<2 hex>/<2 hex>/<sha256>) into blobs.gz;
// 3. starts the hub again on that data and records the answers of a sample of read routes (status,
//    headers, body; a file's body as its SHA-256 and size) to answers.json.gz, with the tokens used.
// The test replays the requests of answers.json.gz in the same order against the upgraded hub.
import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	readdirSync,
	rmSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { startServer, stopServer } from "../../bench/process.mjs";
import { dumpDatabase } from "./dump.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const hubRoot = join(here, "..", "..");
const repoRoot = join(hubRoot, "..", "..");
const cli = join(hubRoot, "dist", "cli.js");
const out = join(here, "fixture-v3");
export const ADMIN_TOKEN = "upgrade-fixture-admin-token-0123456789";

function pythonOf() {
	// The test environment's venv (test-support/python-env.ts): named by a hash of the requirements.
	const requirements = readFileSync(join(repoRoot, "test-support", "python", "requirements.txt"));
	const hash = createHash("sha256").update(requirements).digest("hex").slice(0, 12);
	const python = join(repoRoot, "node_modules", ".cache", `modelhub-python-${hash}`, "bin", "python");
	if (!existsSync(python)) throw new Error(`${python} is missing: run the hub tests once (vitest makes it)`);
	return python;
}

function runPython(group, url, work, params, env = {}) {
	return new Promise((resolve, reject) => {
		const child = spawn(pythonOf(), [join(here, "make_fixture.py"), group], {
			env: {
				PATH: process.env.PATH ?? "",
				HOME: work,
				HF_HOME: join(work, "hf-home"),
				HF_ENDPOINT: url,
				HF_HUB_DISABLE_TELEMETRY: "1",
				HF_HUB_DISABLE_PROGRESS_BARS: "1",
				HF_HUB_DISABLE_IMPLICIT_TOKEN: "1",
				...env,
			},
			stdio: ["pipe", "pipe", "inherit"],
		});
		let stdout = "";
		child.stdout.on("data", (chunk) => (stdout += chunk));
		child.on("close", (code) =>
			code === 0
				? resolve(JSON.parse(stdout.trim().split("\n").pop()))
				: reject(new Error(`make_fixture.py ${group} exited with ${code}`)),
		);
		child.stdin.end(JSON.stringify({ ...params, work_dir: work }));
	});
}

function hubEnv(dataDir) {
	return {
		MODELHUB_DATA_DIR: dataDir,
		MODELHUB_ADMIN_TOKEN: ADMIN_TOKEN,
		MODELHUB_WEB_DIR: join(dataDir, "no-web-app"),
		MODELHUB_LOG_LEVEL: "warn",
		HOST: "127.0.0.1",
		PORT: "0",
		DATABASE_URL: "",
	};
}

function runCli(dataDir, args) {
	return execFileSync(process.execPath, [cli, ...args], {
		env: { ...process.env, ...hubEnv(dataDir) },
		encoding: "utf8",
	});
}

async function call(url, method, path, token, body) {
	const headers = {};
	if (token) headers.authorization = `Bearer ${token}`;
	if (body !== undefined) headers["content-type"] = "application/json";
	const response = await fetch(`${url}${path}`, {
		method,
		headers,
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
	return text === "" ? undefined : JSON.parse(text);
}

/** Phase 1: what a team would have made. Returns the raw tokens, by name. */
async function populate(dataDir, work) {
	const tokens = { admin: ADMIN_TOKEN };
	// The CLI (before any server): a user, and an organisation with that user as admin.
	tokens.frank = JSON.parse(
		runCli(dataDir, ["user", "create", "frank", "--fullname", "Frank Cli", "--json"]),
	).token;
	runCli(dataDir, ["org", "create", "labs", "--member", "frank:admin"]);

	const { child, url: started } = startServer(process.execPath, [cli, "serve"], hubEnv(dataDir));
	const url = await started;
	try {
		for (const name of ["alice", "bob", "carol", "dave"]) {
			tokens[name] = (await call(url, "POST", "/api/admin/users", ADMIN_TOKEN, { name })).token;
		}
		tokens.aliceRead = (
			await call(url, "POST", "/api/admin/users/alice/tokens", ADMIN_TOKEN, {
				scope: "read",
				name: "ci-read",
			})
		).token;
		const laptop = await call(url, "POST", "/api/admin/users/bob/tokens", ADMIN_TOKEN, {
			scope: "write",
			name: "laptop",
		});
		tokens.bobRevoked = laptop.token;
		await call(url, "DELETE", `/api/admin/tokens/${laptop.id}`, ADMIN_TOKEN);
		await call(url, "POST", "/api/admin/orgs", ADMIN_TOKEN, {
			name: "acme",
			members: [
				{ user: "bob", role: "read" },
				{ user: "carol", role: "write" },
				{ user: "dave", role: "admin" },
			],
		});
		await call(url, "PUT", "/api/admin/orgs/labs/members/alice", ADMIN_TOKEN, { role: "write" });

		// The admin token's repository has no namespace, like legacy ids such as gpt2 (made over HTTP:
		// huggingface_hub 2.0 cannot read the URL create_repo answers for such an id).
		await call(url, "POST", "/api/repos/create", ADMIN_TOKEN, { name: "standalone" });
		const xet = await runPython("xet", url, join(work, "xet"), { tokens });
		const lfs = await runPython(
			"lfs",
			url,
			join(work, "lfs"),
			{ tokens },
			{
				HF_HUB_DISABLE_XET: "1",
			},
		);
		console.log("commits:", JSON.stringify({ ...xet, ...lfs }));

		await call(url, "PUT", "/api/models/labs/mapped-model", ADMIN_TOKEN, {
			pipeline_tag: "text-generation",
			library_name: "transformers",
			tags: ["fixture", "mapped"],
			downloads: 4242,
			likes: 17,
			inferenceProviderMapping: {
				"fixture-provider": { providerId: "labs/mapped-model-live", task: "text-generation", status: "live" },
				"other-provider": {
					providerId: "labs/mapped-model-staging",
					task: "conversational",
					status: "staging",
				},
			},
		});
		await call(url, "PUT", "/api/models/legacy-fixture", ADMIN_TOKEN, {
			pipeline_tag: "fill-mask",
			tags: ["fixture"],
			downloads: 7,
		});
	} finally {
		await stopServer(child);
	}
	return tokens;
}

/** The requests whose answers are recorded: every one in order, with the name of the token it uses. */
async function requestsOf(url) {
	const repos = [
		"alice/tiny-xet",
		"alice/Private-Xet",
		"acme/Shared-Model",
		"alice/tiny-lfs",
		"acme/public-lfs",
		"standalone",
		"legacy-fixture",
		"labs/mapped-model",
		"google/gemma-2-2b-it",
		"julien-c/wine-quality",
	];
	const requests = [];
	const add = (token, method, path, body) =>
		requests.push({ token, method, path, ...(body ? { body } : {}) });
	// Admin listings first: they show tokens' last use, which the reads below change.
	add("admin", "GET", "/api/admin/users");
	add("admin", "GET", "/api/admin/orgs");
	for (const user of ["alice", "bob", "carol", "dave", "frank"])
		add("admin", "GET", `/api/admin/users/${user}/tokens`);
	add("admin", "GET", "/api/admin/audit?limit=1000");
	add("admin", "GET", "/api/admin/audit?repo=alice/tiny-xet");

	for (const token of ["alice", "aliceRead", "bob", "bobRevoked", "carol", "dave", "frank", "admin", null]) {
		add(token, "GET", "/api/whoami-v2");
	}
	for (const token of [null, "alice", "bob", "admin"]) {
		add(token, "GET", "/api/models?author=alice&full=true");
		add(token, "GET", "/api/models?author=acme");
		add(token, "GET", "/api/models?search=xet&sort=lastModified");
		add(token, "GET", "/api/models-count?filter=fixture");
	}
	add(null, "GET", "/api/models?limit=50&sort=downloads");
	add(null, "GET", "/api/models?limit=20&sort=createdAt&direction=1&full=true&config=true");
	add(null, "GET", "/api/models?filter=fixture&sort=id&direction=1");
	add(null, "GET", "/api/models?inference_provider=fixture-provider&expand[]=inferenceProviderMapping");
	add(null, "GET", "/api/models?pipeline_tag=text-classification&limit=100");
	add(null, "GET", "/api/models-count");
	add(null, "GET", "/api/libraries");
	add(null, "GET", "/api/pipelines");

	for (const repo of repos) {
		// The owner (or the organisation's admin) sees private repositories; everyone else gets 404s.
		const owner = repo.startsWith("acme/") ? "dave" : repo.startsWith("alice/") ? "alice" : "admin";
		const viewers = [...new Set([owner, null, "bob"])];
		for (const token of viewers) {
			add(token, "GET", `/api/models/${repo}`);
			add(
				token,
				"GET",
				`/api/models/${repo}?blobs=true&expand[]=usedStorage&expand[]=sha&expand[]=downloads`,
			);
		}
		add(owner, "GET", `/api/models/${repo}/tree/main?recursive=true`);
		add(owner, "GET", `/api/models/${repo}/tree/main?expand=true`);
		add(owner, "GET", `/api/models/${repo}/refs?include_prs=1`);
		add(owner, "GET", `/api/models/${repo}/commits/main`);
		add(null, "GET", `/api/models/${repo}/commits/main`);
		add(owner, "POST", `/api/models/${repo}/paths-info/main`, {
			paths: ["README.md", "config.json", "extra"],
			expand: true,
		});
		const tree = await call(url, "GET", `/api/models/${repo}/tree/main?recursive=true`, ADMIN_TOKEN);
		for (const entry of tree) {
			if (entry.type !== "file") continue;
			const path = entry.path.split("/").map(encodeURIComponent).join("/");
			add(owner, "GET", `/${repo}/resolve/main/${path}`);
			add(null, "HEAD", `/${repo}/resolve/main/${path}`);
		}
	}
	add("alice", "GET", "/api/models/alice/tiny-xet/revision/dev%2Fv1");
	add("alice", "GET", "/api/models/alice/tiny-xet/revision/v1.0");
	add("alice", "GET", "/api/models/alice/tiny-xet/tree/dev%2Fv1/extra?expand=true");
	add("alice", "GET", "/api/models/alice/tiny-xet/commits/v0.9");
	add(null, "GET", "/alice/tiny-xet/resolve/dev%2Fv1/branch.txt");
	add(null, "GET", "/alice/tiny-xet/resolve/v0.9/config.json");
	add(null, "GET", "/ALICE/TINY-XET/resolve/main/config.json");
	add(null, "GET", "/api/models/Alice/Tiny-Xet");
	add(null, "GET", "/alice/tiny-xet/resolve/main/no-such-file.txt");
	add(null, "GET", "/api/models/alice/to-delete");
	return requests;
}

/** Headers left out of the record: they vary by request, not by data. */
const VOLATILE_HEADERS = new Set(["date", "connection", "keep-alive"]);

/** Phase 3: the answers of the sample of read routes. */
async function record(dataDir, tokens) {
	const { child, url: started } = startServer(process.execPath, [cli, "serve"], hubEnv(dataDir));
	const url = await started;
	try {
		const answers = [];
		for (const request of await requestsOf(url)) {
			const headers = {};
			if (request.token) headers.authorization = `Bearer ${tokens[request.token]}`;
			if (request.body) headers["content-type"] = "application/json";
			const response = await fetch(`${url}${request.path}`, {
				method: request.method,
				headers,
				body: request.body ? JSON.stringify(request.body) : undefined,
				redirect: "manual",
			});
			const bytes = Buffer.from(await response.arrayBuffer());
			const recordedHeaders = Object.fromEntries(
				[...response.headers].filter(([name]) => !VOLATILE_HEADERS.has(name)).sort(),
			);
			const isFile = /\/resolve\//.test(request.path);
			answers.push({
				request,
				status: response.status,
				headers: recordedHeaders,
				...(isFile
					? { sha256: createHash("sha256").update(bytes).digest("hex"), size: bytes.length }
					: { body: bytes.toString("utf8") }),
			});
		}
		// Link headers name the address the hub was reached at: the test puts its own in their place.
		return { origin: url, answers };
	} finally {
		await stopServer(child);
	}
}

/**
 * The blob store's files as one stream: for each blob, the line `<sha256> <size>` and then its bytes,
 * in SHA-256 order (unpacked by the test through the blob store, which checks every digest).
 */
function packBlobs(dir) {
	const names = readdirSync(dir, { recursive: true })
		.map(String)
		.filter((name) => /[0-9a-f]{64}$/.test(name))
		.sort((a, b) => basename(a).localeCompare(basename(b)));
	const parts = [];
	for (const name of names) {
		const bytes = readFileSync(join(dir, name));
		parts.push(Buffer.from(`${basename(name)} ${bytes.length}\n`), bytes);
	}
	return { packed: Buffer.concat(parts), count: names.length };
}

async function main() {
	if (!existsSync(cli)) throw new Error(`${cli} is missing: run npm run build first`);
	const work = mkdtempSync(join(tmpdir(), "modelhub-upgrade-fixture-"));
	const dataDir = join(work, "data");
	try {
		const tokens = await populate(dataDir, work);

		const pg = await PGlite.create(join(dataDir, "pglite"), { extensions: { pg_trgm } });
		const sql = await dumpDatabase((text) => pg.query(text));
		await pg.close();

		const { origin, answers } = await record(dataDir, tokens);

		rmSync(out, { recursive: true, force: true });
		mkdirSync(out, { recursive: true });
		writeFileSync(join(out, "database.sql.gz"), gzipSync(sql, { level: 9 }));
		const blobs = packBlobs(join(dataDir, "files", "blobs"));
		writeFileSync(join(out, "blobs.gz"), gzipSync(blobs.packed, { level: 9 }));
		const made = execFileSync("git", ["-C", repoRoot, "rev-parse", "HEAD"], { encoding: "utf8" }).trim();
		writeFileSync(
			join(out, "answers.json.gz"),
			gzipSync(
				`${JSON.stringify({ madeAt: made, schemaVersion: 3, adminToken: ADMIN_TOKEN, tokens, origin, answers }, null, 1)}\n`,
				{
					level: 9,
				},
			),
		);
		console.log(`wrote ${out}: ${sql.length} bytes of SQL, ${blobs.count} blobs, ${answers.length} answers`);
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
}

await main();
