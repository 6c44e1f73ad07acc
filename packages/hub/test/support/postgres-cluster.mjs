// A throwaway PostgreSQL cluster run from Debian's binaries, on a random port and a private socket.
// Plain JavaScript so that the benchmarks (plain node) and the tests (through postgres.ts) share it.
import { execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

const INSTALL_HINT =
	"PostgreSQL server binaries not found (looked for /usr/lib/postgresql/*/bin/initdb). The PostgreSQL suite " +
	"needs them: install Debian's postgresql package (apt-get install -y postgresql), as .ci/run does.";

/** The newest /usr/lib/postgresql/<version>/bin with initdb, pg_ctl and postgres, or undefined. */
export function findPostgresBin() {
	const root = "/usr/lib/postgresql";
	if (!existsSync(root)) return undefined;
	const versions = readdirSync(root)
		.filter((name) => /^\d+$/.test(name))
		.sort((a, b) => Number(b) - Number(a));
	for (const version of versions) {
		const bin = join(root, version, "bin");
		if (["initdb", "pg_ctl", "postgres"].every((tool) => existsSync(join(bin, tool)))) return bin;
	}
	return undefined;
}

async function freePort() {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once("error", reject);
		server.listen(0, "127.0.0.1", () => {
			const address = server.address();
			const port = typeof address === "object" && address ? address.port : 0;
			server.close(() => resolve(port));
		});
	});
}

/**
 * Starts a cluster; throws with an install hint when the binaries are missing (never skips).
 * `settings` are extra `-c name=value` server settings (the benchmark sizes shared_buffers).
 */
export async function startPostgresCluster(settings = {}) {
	const bin = findPostgresBin();
	if (!bin) throw new Error(INSTALL_HINT);
	const dir = mkdtempSync(join(tmpdir(), "modelhub-pg-"));
	const data = join(dir, "data");
	const asRoot = process.getuid?.() === 0;
	// PostgreSQL refuses to run as root: run its tools as the postgres user, in a folder it owns.
	if (asRoot) {
		const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
		const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
		chownSync(dir, uid, gid);
	}
	const run = (tool, args) => {
		const command = asRoot ? "runuser" : join(bin, tool);
		const fullArgs = asRoot ? ["-u", "postgres", "--", join(bin, tool), ...args] : args;
		execFileSync(command, fullArgs, { stdio: "pipe", cwd: dir, timeout: 120_000 });
	};
	const port = await freePort();
	run("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync"]);
	const extra = Object.entries(settings)
		.map(([name, value]) => ` -c ${name}=${value}`)
		.join("");
	const options = `-p ${port} -k ${dir} -c listen_addresses='' -c fsync=off -c synchronous_commit=off -c max_connections=200${extra}`;
	const start = () =>
		run("pg_ctl", ["-D", data, "-o", options, "-l", join(dir, "server.log"), "-w", "-t", "60", "start"]);
	start();

	const url = (database) => `postgresql://postgres@/${database}?host=${encodeURIComponent(dir)}&port=${port}`;
	let stopped = false;
	return {
		url,
		async createDatabase(name) {
			const client = new pg.Client({ connectionString: url("postgres") });
			await client.connect();
			try {
				await client.query(`CREATE DATABASE "${name.replace(/"/g, "")}"`);
			} finally {
				await client.end();
			}
			return url(name);
		},
		pause() {
			run("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]);
		},
		resume() {
			start();
		},
		stop() {
			if (stopped) return;
			stopped = true;
			try {
				run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
			} catch {
				// Already stopped (paused by a test).
			} finally {
				rmSync(dir, { recursive: true, force: true });
			}
		},
	};
}
