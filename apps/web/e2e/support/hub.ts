import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import {
	cpSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	renameSync,
	rmSync,
	statSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { SHORT_LIVED_NODE_FLAGS } from "../../../../test-support/node-flags.js";

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

/** A hub process on `dataDir` and what it printed. */
interface HubProcess {
	url: string;
	output: () => string;
	/** SIGTERM, then SIGKILL after `graceMs`; resolves with whether it exited on its own. */
	stop: (graceMs: number) => Promise<boolean>;
}

function spawnHub(dataDir: string, env: Record<string, string>, web: boolean): Promise<HubProcess> {
	const child: ChildProcess = spawn(process.execPath, [...SHORT_LIVED_NODE_FLAGS, hubCli, "serve"], {
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
	return new Promise<HubProcess>((resolve, reject) => {
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
				resolve({
					url: match[1].replace(/\/$/, ""),
					output: () => output,
					stop: async (graceMs) => {
						if (child.exitCode !== null || child.signalCode !== null) return child.exitCode === 0;
						const exited = new Promise((done) => child.once("exit", done));
						child.kill("SIGTERM");
						await Promise.race([exited, new Promise((done) => setTimeout(done, graceMs))]);
						if (child.exitCode !== null) return child.exitCode === 0;
						child.kill("SIGKILL");
						return false;
					},
				});
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
}

const seededRoot = join(repoRoot, "node_modules", ".cache", "modelhub-e2e-seeded");

/** Every file under `dir`, relative paths in a fixed order. */
function filesUnder(dir: string, prefix = ""): string[] {
	return readdirSync(join(dir, prefix), { withFileTypes: true })
		.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
		.flatMap((entry) => {
			const path = join(prefix, entry.name);
			return entry.isDirectory() ? filesUnder(dir, path) : [path];
		});
}

/**
 * Names a seeded data folder after everything that made it: the hub's build (its migrations and seeding
 * code), its seed models and PGlite's release. Any change to them makes (and uses) a new one.
 */
function seededKey(): string {
	const hash = createHash("sha256");
	for (const dir of [join(repoRoot, "packages/hub/dist"), join(repoRoot, "packages/hub/seed")]) {
		for (const path of filesUnder(dir)) hash.update(`${path}\0`).update(readFileSync(join(dir, path)));
	}
	hash.update(readFileSync(join(repoRoot, "node_modules/@electric-sql/pglite/package.json")));
	return hash.digest("hex").slice(0, 16);
}

/**
 * A data folder holding the hub's seeded embedded database and files, made once by a hub that started on
 * an empty folder and stopped cleanly, for the suites to copy: seeding took half of every fresh hub's
 * start (15 of 16 browser suites paid it again). Undefined when it could not be made; the suite's hub
 * then starts empty and seeds itself, as before.
 */
async function seededDataDir(): Promise<string | undefined> {
	const key = seededKey();
	const ready = join(seededRoot, key);
	// Renamed into place only when whole, so one that exists is complete.
	if (existsSync(ready)) return ready;
	mkdirSync(seededRoot, { recursive: true });
	// The folder being made is also the lock: a suite starting meanwhile seeds its own hub, as before (a
	// wait for the other's could take its whole setup time at CI load).
	const making = join(seededRoot, `making-${key}`);
	const stale = Date.now() - 2 * START_LIMIT_MS;
	if (existsSync(making) && statSync(making).mtimeMs < stale)
		rmSync(making, { recursive: true, force: true });
	try {
		mkdirSync(making);
	} catch {
		return undefined;
	}
	try {
		const hub = await spawnHub(making, {}, false);
		// Only a database closed by the hub itself may be copied: a killed one is not.
		const closed = await hub.stop(60_000);
		if (!closed || !hub.output().includes("seed models into the empty database")) return undefined;
		renameSync(making, ready);
		for (const name of readdirSync(seededRoot)) {
			if (name !== key && /^[0-9a-f]{16}$/.test(name))
				rmSync(join(seededRoot, name), { recursive: true, force: true });
		}
		return ready;
	} catch {
		return undefined;
	} finally {
		rmSync(making, { recursive: true, force: true });
	}
}

/**
 * Starts the real hub server (packages/hub/dist/cli.js) on a random port of 127.0.0.1 with its own
 * embedded database, a copy of the seeded one (see seededDataDir), and the built web app, and waits for
 * the URL it prints. `env` adds settings (MODELHUB_ADMIN_TOKEN, upload limits…); `web: false` serves the
 * API only (no web build needed).
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
	// Files in S3 would not be in the copied folder: such a hub seeds itself.
	const seeded =
		(env.MODELHUB_S3_BUCKET ?? process.env.MODELHUB_S3_BUCKET) ? undefined : await seededDataDir();
	const dataDir = mkdtempSync(join(tmpdir(), "modelhub-web-e2e-"));
	if (seeded) cpSync(seeded, dataDir, { recursive: true });
	let hub: HubProcess;
	try {
		hub = await spawnHub(dataDir, env, web);
	} catch (error) {
		rmSync(dataDir, { recursive: true, force: true });
		throw error;
	}
	return {
		url: hub.url,
		output: hub.output,
		stop: async () => {
			await hub.stop(5000);
			rmSync(dataDir, { recursive: true, force: true });
		},
	};
}
