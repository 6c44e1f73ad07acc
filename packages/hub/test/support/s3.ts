import { spawn, type ChildProcessByStdio } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable, Writable } from "node:stream";
import { packageRoot } from "../../src/paths.js";
import { openS3BlobStore, type S3BlobStoreOptions } from "../../src/storage/s3/store.js";
import type { BlobStore } from "../../src/storage/types.js";

export const S3_BUCKET = "modelhub-test";
const START_TIMEOUT_MS = 60_000;

export interface LocalS3 {
	/** http://127.0.0.1:<port> */
	endpoint: URL;
	port: number;
	/** The access key the server made for the tests (moto's IAM): the only one it accepts. */
	accessKeyId: string;
	secretAccessKey: string;
	/** The server's own version (moto's), for notes. */
	version: string;
	options(overrides?: Partial<S3BlobStoreOptions>): S3BlobStoreOptions;
	open(overrides?: Partial<S3BlobStoreOptions>): BlobStore;
	stop(): Promise<void>;
}

interface Started {
	endpoint: string;
	port: number;
	accessKeyId: string;
	secretAccessKey: string;
	bucket: string;
	motoVersion: string;
}

const INSTALL_MOTO = "install it with `python3 -m pip install 'moto[server]'`";

/**
 * The one line the S3 suites fail with when `python` (with `args`) cannot import moto's server
 * (undefined when it can): checked before the server is started.
 */
export async function motoMissing(
	python = "python3",
	args: readonly string[] = [],
): Promise<string | undefined> {
	const code = await new Promise<number | "not found">((resolve) => {
		const child = spawn(python, [...args, "-c", "import boto3, moto.server"], {
			stdio: "ignore",
			env: { PATH: process.env.PATH ?? "" },
		});
		child.once("error", () => resolve("not found"));
		child.once("exit", (exit) => resolve(exit ?? 1));
	});
	if (code === "not found")
		return `${python} not found: the S3 tests run moto in server mode under python3; install python3 (\`apt-get install python3\`), then moto: ${INSTALL_MOTO}`;
	if (code !== 0)
		return `${python} cannot import moto's server (the S3 tests run moto in server mode): ${INSTALL_MOTO}`;
	return undefined;
}

/**
 * A real S3-protocol server: moto in server mode (test/support/s3_server.py, the machine's python3)
 * on 127.0.0.1, a free port, with IAM authentication on, so that every request's access key and
 * Signature V4 are checked, and one bucket. It lives until stop() or the end of the test process.
 */
export async function startLocalS3(): Promise<LocalS3> {
	const missing = await motoMissing();
	if (missing) throw new Error(missing);
	const dir = mkdtempSync(join(tmpdir(), "modelhub-s3-"));
	const script = join(packageRoot(), "test", "support", "s3_server.py");
	const child: ChildProcessByStdio<Writable, Readable, Readable> = spawn("python3", [script, S3_BUCKET], {
		stdio: ["pipe", "pipe", "pipe"],
		env: { PATH: process.env.PATH ?? "", HOME: dir, PYTHONUNBUFFERED: "1" },
	});
	let stderr = "";
	child.stderr.on("data", (chunk: Buffer) => {
		stderr = (stderr + chunk.toString("utf8")).slice(-8000);
	});
	const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
	const started = await new Promise<Started>((resolve, reject) => {
		let stdout = "";
		const fail = (reason: string) => {
			clearTimeout(timer);
			child.kill("SIGKILL");
			rmSync(dir, { recursive: true, force: true });
			reject(
				new Error(
					`The S3 test server (moto, ${script}) did not start: ${reason}. It needs python3 with moto ` +
						`(server mode) installed.\n${stderr}`,
				),
			);
		};
		const timer = setTimeout(() => fail(`no answer within ${START_TIMEOUT_MS} ms`), START_TIMEOUT_MS);
		child.once("error", (error) => fail(error.message));
		const onExit = (code: number | null) => fail(`it exited with ${code}`);
		child.once("exit", onExit);
		child.stdout.on("data", (chunk: Buffer) => {
			stdout += chunk.toString("utf8");
			const line = stdout.split("\n")[0];
			if (!stdout.includes("\n") || line === undefined) return;
			clearTimeout(timer);
			child.off("exit", onExit);
			try {
				resolve(JSON.parse(line) as Started);
			} catch {
				fail(`it printed ${JSON.stringify(line)}`);
			}
		});
	});
	const endpoint = new URL(started.endpoint);
	const options = (overrides: Partial<S3BlobStoreOptions> = {}): S3BlobStoreOptions => ({
		endpoint,
		bucket: started.bucket,
		region: "us-east-1",
		accessKeyId: started.accessKeyId,
		secretAccessKey: started.secretAccessKey,
		pathStyle: true,
		prefix: "",
		timeoutMs: 10_000,
		partSize: 5 * 1024 * 1024,
		spoolDir: join(dir, "spool"),
		presignedDownloads: undefined,
		...overrides,
	});
	let stopped: Promise<void> | undefined;
	return {
		endpoint,
		port: started.port,
		accessKeyId: started.accessKeyId,
		secretAccessKey: started.secretAccessKey,
		version: started.motoVersion,
		options,
		open: (overrides) => openS3BlobStore(options(overrides)),
		stop() {
			stopped ??= (async () => {
				// Closing its standard input stops the server; a kill after 5 s if it does not.
				child.stdin.end();
				const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
				await exited;
				clearTimeout(timer);
				rmSync(dir, { recursive: true, force: true });
			})();
			return stopped;
		},
	};
}
