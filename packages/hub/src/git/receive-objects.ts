import { spawn } from "node:child_process";
import { lstat, mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { gitEnv } from "./objects.js";

/**
 * A pushed pack, received into a quarantine beside the repository's bare cache: the real
 * `git index-pack --stdin --strict --fix-thin` checks and indexes it there (every object hashed and
 * checked by git's fsck rules, thin deltas completed only from objects the cache holds, size bounded
 * by --max-input-size), the cache's objects reachable through GIT_ALTERNATE_OBJECT_DIRECTORIES. The
 * hub then reads commits, changes and blobs with `git cat-file` and `git diff-tree`; nothing of the
 * quarantine enters the cache (the cache is rebuilt from the hub's own rows), and it is removed after.
 */

/** What went wrong in git's hands, in git's words (its stderr, last lines). */
export class GitCommandError extends Error {
	override name = "GitCommandError";
}

/** stderr kept per git process: its last lines say why it failed. */
const STDERR_KEEP = 4096;

export interface Quarantine {
	/** Runs git in the quarantine (its objects, the cache's as alternates); stdout whole, bounded. */
	output(args: readonly string[], input?: string, maxBytes?: number): Promise<Buffer>;
	/**
	 * Streams `git cat-file --batch` answers for ids, in order: objects up to `wholeMax` bytes (default:
	 * any size) whole, larger ones as a stream to read before the next.
	 */
	objects(ids: readonly string[], wholeMax?: number): AsyncGenerator<QuarantineObject>;
	remove(): Promise<void>;
}

interface RunOptions {
	env: NodeJS.ProcessEnv;
	signal: AbortSignal;
	stdin?: Readable | string;
	maxOutput?: number;
}

/** Runs git to the end: its stdout (at most maxOutput bytes), or a GitCommandError with its stderr. */
function runGit(args: readonly string[], options: RunOptions): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const child = spawn("git", args, { env: options.env, stdio: ["pipe", "pipe", "pipe"] });
		const out: Buffer[] = [];
		let outBytes = 0;
		let err = "";
		let failure: Error | undefined;
		const kill = (error: Error) => {
			failure ??= error;
			if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
		};
		const onAbort = () => kill(new GitCommandError("the push took too long (MODELHUB_GIT_TIMEOUT_SECONDS)"));
		if (options.signal.aborted) onAbort();
		options.signal.addEventListener("abort", onAbort, { once: true });
		child.stdout.on("data", (chunk: Buffer) => {
			outBytes += chunk.byteLength;
			if (options.maxOutput !== undefined && outBytes > options.maxOutput) {
				kill(new GitCommandError(`git's answer is larger than ${options.maxOutput} bytes`));
			} else out.push(chunk);
		});
		child.stderr.on("data", (chunk: Buffer) => {
			err = (err + chunk.toString("utf8")).slice(-STDERR_KEEP);
		});
		child.stdin.on("error", () => undefined);
		if (typeof options.stdin === "string") child.stdin.end(options.stdin);
		else if (options.stdin) {
			options.stdin.on("error", (error) => kill(error));
			options.stdin.pipe(child.stdin);
		} else child.stdin.end();
		child.once("error", (error) => kill(error));
		child.once("close", (code) => {
			options.signal.removeEventListener("abort", onAbort);
			if (failure) reject(failure);
			else if (code !== 0) reject(new GitCommandError(gitComplaint(err) || `git ${args[0]} failed`));
			else resolve(Buffer.concat(out));
		});
	});
}

/** git's last error lines, one line, without its `fatal: ` / `error: ` prefixes repeated. */
function gitComplaint(stderr: string): string {
	const lines = stderr
		.split("\n")
		.map((line) => line.trim())
		.filter(
			(line) => line !== "" && !line.startsWith("Receiving objects") && !line.startsWith("Resolving deltas"),
		);
	return lines.slice(-3).join("; ").slice(0, 600);
}

/**
 * Receives a pack into a new quarantine of the cache at `cacheDir`: index-pack reads `pack` (refused
 * past `maxBytes`), killed when `signal` aborts. The quarantine is removed when it fails.
 */
export async function receivePack(
	cacheDir: string,
	/** Undefined when the push only deletes refs (git sends no pack then). */
	pack: Readable | undefined,
	options: { maxBytes: number; signal: AbortSignal; tempRoot: string },
): Promise<Quarantine> {
	await mkdir(options.tempRoot, { recursive: true });
	const dir = await mkdtemp(join(options.tempRoot, "push-"));
	const objects = join(dir, "objects");
	await mkdir(join(objects, "pack"), { recursive: true });
	const env = gitEnv({
		GIT_DIR: cacheDir,
		GIT_OBJECT_DIRECTORY: objects,
		GIT_ALTERNATE_OBJECT_DIRECTORIES: join(cacheDir, "objects"),
	});
	const remove = () => rm(dir, { recursive: true, force: true });
	try {
		if (pack !== undefined)
			await runGit(
				[
					// A pack's blobs over 16 MiB are streamed, not inflated whole in memory.
					"-c",
					"core.bigFileThreshold=16m",
					"index-pack",
					"--stdin",
					"--strict",
					"--fix-thin",
					`--max-input-size=${options.maxBytes}`,
				],
				{ env, signal: options.signal, stdin: pack, maxOutput: 4096 },
			);
	} catch (error) {
		await remove();
		throw error;
	}
	return {
		output: (args, input, maxBytes = 64 * 1024 * 1024) =>
			runGit(args, {
				env,
				signal: options.signal,
				maxOutput: maxBytes,
				...(input === undefined ? {} : { stdin: input }),
			}),
		objects: (ids, wholeMax = Number.POSITIVE_INFINITY) => catFileBatch(ids, env, options.signal, wholeMax),
		remove,
	};
}

/** One object from the quarantine: small ones whole, larger ones as a stream of their bytes. */
export type QuarantineObject = { id: string; type: string; size: number } & (
	| { bytes: Buffer; body?: undefined }
	/** To be read to its end (or left) before the next object is asked for. */
	| { bytes?: undefined; body: AsyncIterable<Buffer> }
);

/**
 * `git cat-file --batch` over ids: each answer is `<id> <type> <size>\n<bytes>\n` (or `<id> missing`).
 * Objects up to `wholeMax` bytes come whole (one copy of their bytes); a larger one comes as the pieces
 * git writes, so a push of large files holds one pipe's worth of a file at a time, not the file and its
 * copies. The caller bounds sizes beforehand (`--batch-check`).
 */
async function* catFileBatch(
	ids: readonly string[],
	env: NodeJS.ProcessEnv,
	signal: AbortSignal,
	wholeMax: number,
): AsyncGenerator<QuarantineObject> {
	if (ids.length === 0) return;
	const child = spawn("git", ["cat-file", "--batch"], { env, stdio: ["pipe", "pipe", "ignore"] });
	const kill = () => {
		if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
	};
	signal.addEventListener("abort", kill, { once: true });
	child.stdin.on("error", () => undefined);
	child.stdin.end(`${ids.join("\n")}\n`);
	const chunks = child.stdout[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
	/** What git has written that is not yet taken (at most one of its pieces, or a header's few bytes more). */
	let buffer: Buffer = Buffer.alloc(0);
	const more = async (): Promise<Buffer> => {
		const next = await chunks.next();
		if (next.done)
			throw new GitCommandError(signal.aborted ? "the push took too long" : "git cat-file ended early");
		return next.value;
	};
	/** The next `bytes` bytes, as pieces (views of git's own pieces, no copy). */
	async function* pieces(bytes: number): AsyncGenerator<Buffer> {
		let left = bytes;
		while (left > 0) {
			if (buffer.byteLength === 0) buffer = await more();
			const piece = buffer.subarray(0, left);
			buffer = buffer.subarray(piece.byteLength);
			left -= piece.byteLength;
			yield piece;
		}
	}
	try {
		for (const id of ids) {
			let newline = buffer.indexOf(10);
			while (newline < 0) {
				// A header is one short line: joining here copies at most a piece and a few bytes.
				buffer = Buffer.concat([buffer, await more()]);
				newline = buffer.indexOf(10);
			}
			const header = buffer.subarray(0, newline).toString("latin1").split(" ");
			buffer = buffer.subarray(newline + 1);
			if (header[1] === "missing" || header.length !== 3)
				throw new GitCommandError(`object ${id} is missing from the push`);
			const type = header[1] as string;
			const size = Number(header[2]);
			if (size <= wholeMax) {
				const parts: Buffer[] = [];
				for await (const piece of pieces(size)) parts.push(piece);
				// A copy: the object outlives git's pieces it came in.
				yield { id, type, size, bytes: Buffer.concat(parts, size) };
			} else {
				let read = 0;
				const body = (async function* () {
					for await (const piece of pieces(size)) {
						read += piece.byteLength;
						yield piece;
					}
				})();
				yield { id, type, size, body };
				// What the caller left unread is skipped, never held.
				if (read < size) for await (const piece of pieces(size - read)) void piece;
			}
			for await (const piece of pieces(1)) void piece;
		}
	} finally {
		signal.removeEventListener("abort", kill);
		kill();
	}
}

/** The refs of a prepared bare cache (what a push is advertised), name → commit id. */
export async function cacheRefs(cacheDir: string, signal: AbortSignal): Promise<Map<string, string>> {
	const output = await runGit(["for-each-ref", "--format=%(objectname) %(refname)"], {
		env: gitEnv({ GIT_DIR: cacheDir }),
		signal,
		maxOutput: 64 * 1024 * 1024,
	});
	const refs = new Map<string, string>();
	for (const line of output.toString("utf8").split("\n")) {
		const space = line.indexOf(" ");
		if (space > 0) refs.set(line.slice(space + 1), line.slice(0, space));
	}
	return refs;
}

/** The quarantines' folder of a git folder (MODELHUB_GIT_DIR): where pushes are received. */
export function incomingDir(gitDir: string): string {
	return join(gitDir, "incoming");
}

/** The newest modification time and the bytes of a folder's files (a quarantine: a few levels, few files). */
async function treeUsage(path: string, depth = 0): Promise<{ newest: number; bytes: number }> {
	const info = await lstat(path);
	const usage = { newest: info.mtimeMs, bytes: info.isFile() ? info.size : 0 };
	if (!info.isDirectory() || depth > 8) return usage;
	for (const name of await readdir(path)) {
		const inner = await treeUsage(join(path, name), depth + 1).catch(() => undefined);
		if (!inner) continue;
		usage.newest = Math.max(usage.newest, inner.newest);
		usage.bytes += inner.bytes;
	}
	return usage;
}

/**
 * Removes the quarantines (`push-*`) of pushes that ended without removing them (a crash, a killed
 * process) once nothing in them changed for `maxAgeMs` (which the caller keeps above the push time limit,
 * so a push in progress is never swept), or with `dryRun` only counts them.
 */
export async function sweepQuarantines(
	gitDir: string,
	maxAgeMs: number,
	dryRun: boolean,
): Promise<{ count: number; bytes: number }> {
	const swept = { count: 0, bytes: 0 };
	const root = incomingDir(gitDir);
	const names = await readdir(root).catch((error: unknown) => {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
		throw error;
	});
	const before = Date.now() - maxAgeMs;
	for (const name of names) {
		if (!name.startsWith("push-")) continue;
		const usage = await treeUsage(join(root, name)).catch(() => undefined);
		if (!usage || usage.newest >= before) continue;
		swept.count++;
		swept.bytes += usage.bytes;
		if (!dryRun) await rm(join(root, name), { recursive: true, force: true });
	}
	return swept;
}
