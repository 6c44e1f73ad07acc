import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));
export const webDist = join(repoRoot, "apps/web/dist");
const hubCli = join(repoRoot, "packages/hub/dist/cli.js");
const START_LIMIT_MS = 110_000;

export interface RunningHub {
	url: string;
	/** Everything the hub printed so far (its log). */
	output: () => string;
	stop: () => Promise<void>;
}

/**
 * Starts the real hub server (packages/hub/dist/cli.js) on a random port of 127.0.0.1 with a fresh
 * embedded database and the built web app, and waits for the URL it prints. `env` adds settings
 * (MODELHUB_ADMIN_TOKEN, upload limits…); `web: false` serves the API only (no web build needed).
 */
export async function startHub(
	env: Record<string, string> = {},
	{ web = true }: { web?: boolean } = {},
): Promise<RunningHub> {
	if (!existsSync(hubCli))
		throw new Error(`${hubCli} is missing: run \`npm run build\` at the repository root first.`);
	if (web && !existsSync(join(webDist, "index.html"))) {
		throw new Error(`${webDist}/index.html is missing: run \`npm run build -w @modelhub/web\` first.`);
	}
	const dataDir = mkdtempSync(join(tmpdir(), "modelhub-web-e2e-"));
	const child: ChildProcess = spawn(process.execPath, [hubCli, "serve"], {
		env: {
			...process.env,
			PORT: "0",
			HOST: "127.0.0.1",
			MODELHUB_DATA_DIR: dataDir,
			MODELHUB_WEB_DIR: web ? webDist : "",
			MODELHUB_LOG_LEVEL: "warn",
			DATABASE_URL: "",
			...env,
		},
		stdio: ["ignore", "pipe", "pipe"],
	});
	let output = "";
	const url = await new Promise<string>((resolve, reject) => {
		// A fresh hub migrates and seeds its database first: ~15 s on an idle 2-core machine, and over
		// 60 s at load ~16 with other suites' hubs starting too (a CI run at 5f92017 timed out at 60 s).
		// The suites' setup hooks allow 120 s or more; a hub that has not started is stopped, not left behind.
		const timer = setTimeout(() => {
			child.kill("SIGKILL");
			reject(new Error(`the hub did not start within ${START_LIMIT_MS / 1000} s:\n${output}`));
		}, START_LIMIT_MS);
		const onData = (chunk: Buffer) => {
			output += chunk.toString();
			const match = /listening on (http:\/\/\S+?)\/?(?:\s|$)/.exec(output);
			if (match?.[1]) {
				clearTimeout(timer);
				resolve(match[1].replace(/\/$/, ""));
			}
		};
		child.stdout?.on("data", onData);
		if (process.env.E2E_HUB_LOG) child.stdout?.on("data", (chunk: Buffer) => process.stderr.write(chunk));
		child.stderr?.on("data", onData);
		child.once("exit", (code) => {
			clearTimeout(timer);
			reject(new Error(`the hub exited with ${code} before listening:\n${output}`));
		});
	});
	return {
		url,
		output: () => output,
		stop: async () => {
			if (child.exitCode === null) {
				const exited = new Promise((resolve) => child.once("exit", resolve));
				child.kill("SIGTERM");
				await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
				if (child.exitCode === null) child.kill("SIGKILL");
			}
			rmSync(dataDir, { recursive: true, force: true });
		},
	};
}
