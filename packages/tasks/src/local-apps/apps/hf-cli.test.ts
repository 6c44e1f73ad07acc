/**
 * The hf CLI snippet run for real: bash executes the copied command with huggingface_hub's own `hf`
 * (the pinned test environment), pointed by HF_ENDPOINT at a hub on 127.0.0.1 that answers the routes
 * a download uses. `--dry-run` lists what would be fetched without writing model files.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pythonEnv } from "../../../../../test-support/python-env.js";
import type { ModelData } from "../../libraries/types.js";
import { getLocalAppSnippets } from "../index.js";
import { hfCliApps } from "./hf-cli.js";

const SHA = "0123456789abcdef0123456789abcdef01234567";
const FILES = ["config.json", "model-Q4_K_M.gguf"];

/** The hub routes `hf download` calls: revision info, the file tree, and file metadata. */
function startHub(requests: string[]): Promise<Server> {
	const server = createServer((req, res) => {
		const path = decodeURIComponent(new URL(req.url ?? "/", "http://hub").pathname);
		requests.push(`${req.method} ${path}`);
		const json = (status: number, body: unknown) => {
			res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
		};
		const revision = /^\/api\/models\/(.+)\/revision\/main$/.exec(path);
		if (revision)
			return json(200, { id: revision[1], sha: SHA, siblings: FILES.map((rfilename) => ({ rfilename })) });
		if (/^\/api\/models\/.+\/tree\//.test(path))
			return json(
				200,
				FILES.map((file) => ({
					type: "file",
					path: file,
					size: 2,
					oid: "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391",
				})),
			);
		if (/\/resolve\/[^/]+\//.test(path)) {
			res.writeHead(200, { "Content-Length": "2", ETag: '"etag"', "X-Repo-Commit": SHA });
			return res.end(req.method === "HEAD" ? undefined : "{}");
		}
		json(404, { error: "Not found" });
	});
	return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

function runBash(script: string, env: Record<string, string>, cwd: string) {
	return new Promise<{ code: number; stderr: string }>((resolve) => {
		execFile("bash", ["-c", script], { env, cwd, timeout: 60_000 }, (error, _stdout, stderr) =>
			resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stderr }),
		);
	});
}

describe("hf CLI snippet, run with huggingface_hub's hf", () => {
	const requests: string[] = [];
	let server: Server;
	let dir: string;
	let env: Record<string, string>;

	beforeAll(async () => {
		server = await startHub(requests);
		dir = mkdtempSync(join(tmpdir(), "modelhub-hf-cli-"));
		const { bin } = pythonEnv();
		env = {
			PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}`,
			HOME: dir,
			HF_HOME: join(dir, "hf-home"),
			HF_ENDPOINT: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
			HF_HUB_DISABLE_TELEMETRY: "1",
			HF_HUB_DISABLE_UPDATE_CHECK: "1",
			HF_HUB_DISABLE_PROGRESS_BARS: "1",
			NO_COLOR: "1",
		};
	});
	afterAll(() => {
		server.close();
		rmSync(dir, { recursive: true, force: true });
	});

	/** The snippet's download block as the user copies it, told to only list what it would fetch. */
	const command = (model: ModelData) =>
		`${getLocalAppSnippets(hfCliApps["hf-cli"], model)[0]!.content[0]!} --dry-run`;

	it("downloads a repository by id", async () => {
		const result = await runBash(command({ id: "acme/tiny-model", tags: [] }), env, dir);
		expect(result.code, result.stderr).toBe(0);
		expect(requests).toContain("GET /api/models/acme/tiny-model/revision/main");
	});

	it("downloads only the chosen file of a GGUF repository", async () => {
		requests.length = 0;
		const gguf: ModelData = {
			id: "acme/tiny-GGUF",
			tags: ["gguf"],
			gguf: { total: 1, context_length: 2048 },
			siblings: FILES.map((rfilename) => ({ rfilename })),
		};
		const result = await runBash(command(gguf), env, dir);
		expect(result.code, result.stderr).toBe(0);
		expect(
			requests.some((request) => request.endsWith("/acme/tiny-GGUF/resolve/main/model-Q4_K_M.gguf")),
		).toBe(true);
		expect(requests.some((request) => request.includes("config.json"))).toBe(false);
	});

	it("hands an adversarial id to hf as one argument, which hf then refuses", async () => {
		const canary = join(dir, "canary");
		for (const id of [`$(touch ${canary})/model`, "`touch canary`", "a/b; touch canary", 'it\'s "quoted"']) {
			const result = await runBash(command({ id, tags: [] }), env, dir);
			expect(result.code, id).not.toBe(0);
			expect(result.stderr, id).toContain(id);
			expect(existsSync(canary) || existsSync(join(dir, "canary")), id).toBe(false);
		}
	});
});
