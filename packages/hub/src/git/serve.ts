import { spawn } from "node:child_process";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { HubError } from "../errors.js";
import type { RepoKey } from "../repo-identity.js";
import { listRefs } from "../repos/read.js";
import { readBlob } from "../services/blobs.js";
import {
	heldBlobSizes,
	cacheName,
	gitEnv,
	initBare,
	validRefName,
	writeHistory,
	writeRefs,
	type GitSource,
} from "./objects.js";

/**
 * Serving git's smart HTTP protocol (upload-pack: clone, fetch, ls-remote, shallow and partial clones)
 * with the real `git` binary: before each request the repository's bare cache (git/objects.ts) is
 * brought up to the hub's refs, one sync at a time per repository and only for commits it lacks; then
 * `git upload-pack --stateless-rpc` answers, its request and answer streamed, bounded and timed.
 */

export interface GitSettings {
	/** Where the bare caches live (MODELHUB_GIT_DIR; `<data dir>/git` by default). */
	dir: string;
	/** Largest upload-pack request body, after gzip (MODELHUB_GIT_MAX_REQUEST_BYTES). */
	maxRequestBytes: number;
	/** Longest an upload-pack process may run (MODELHUB_GIT_TIMEOUT_SECONDS). */
	timeoutSeconds: number;
	/** upload-pack processes and pushes at once; more wait (MODELHUB_GIT_MAX_PROCESSES). */
	maxProcesses: number;
	/** Largest pack a push may send, after gzip (MODELHUB_GIT_MAX_PUSH_BYTES). */
	maxPushBytes: number;
	/** Most commits a push may bring per branch (MODELHUB_GIT_MAX_PUSH_COMMITS). */
	maxPushCommits: number;
}

export const DEFAULT_GIT_SETTINGS: Omit<GitSettings, "dir"> = {
	maxRequestBytes: 32 * 1024 * 1024,
	timeoutSeconds: 600,
	maxProcesses: 8,
	maxPushBytes: 1024 * 1024 * 1024,
	maxPushCommits: 1000,
};

/** `GIT_PROTOCOL` as git's client sends it (`version=2`, keys and values of safe characters). */
export function gitProtocol(header: string | string[] | undefined): string | undefined {
	if (typeof header !== "string" || header.length > 256) return undefined;
	return /^[A-Za-z0-9=:._-]+$/.test(header) ? header : undefined;
}

/** Configuration upload-pack runs with: partial clones allowed (`--filter`), nothing else loosened. */
const UPLOAD_PACK_CONFIG = ["-c", "uploadpack.allowFilter=true", "-c", "core.bigFileThreshold=16m"];

export class GitServer {
	private readonly syncs = new Map<string, Promise<unknown>>();
	private running = 0;
	private readonly waiting: Array<() => void> = [];

	constructor(
		private readonly source: GitSource,
		readonly settings: GitSettings,
	) {}

	/** The repository's bare cache, synced with the hub's refs. */
	async prepare(repo: RepoKey): Promise<string> {
		const found = await this.source.db.query<{ object_id: string | null }>(
			"SELECT object_id FROM repos WHERE type = $1 AND id = $2",
			[repo.type, repo.id],
		);
		const row = found.rows[0];
		if (!row) throw new HubError("NotFound", "Repository not found");
		await mkdir(this.settings.dir, { recursive: true });
		const dir = join(this.settings.dir, cacheName(repo, row.object_id));
		// One sync at a time per repository: the next waits for the one running, then checks again.
		const previous = this.syncs.get(dir) ?? Promise.resolve();
		const current = previous.catch(() => undefined).then(() => this.sync(repo, dir));
		this.syncs.set(dir, current);
		try {
			await current;
		} finally {
			if (this.syncs.get(dir) === current) this.syncs.delete(dir);
		}
		return dir;
	}

	private async sync(repo: RepoKey, dir: string): Promise<void> {
		await initBare(dir);
		const refs = new Map<string, string>();
		for (const ref of await listRefs(this.source.db, repo)) {
			const name =
				ref.kind === "branch"
					? `refs/heads/${ref.name}`
					: ref.kind === "tag"
						? `refs/tags/${ref.name}`
						: ref.name;
			if (!validRefName(name)) continue;
			refs.set(name, ref.commitId);
		}
		for (const head of new Set(refs.values())) await writeHistory(this.source, repo, dir, head);
		await writeRefs(dir, refs, "refs/heads/main");
	}

	/** The size of a file a repository holds, by SHA-256 (undefined when none of its commits has it). */
	async heldBlobSize(repo: RepoKey, sha256: string): Promise<number | undefined> {
		return (await heldBlobSizes(this.source.db, repo, [sha256])).get(sha256);
	}

	/** The sizes of the files among `sha256s` a repository holds (one query for a batch). */
	heldBlobSizes(repo: RepoKey, sha256s: readonly string[]): Promise<Map<string, number>> {
		return heldBlobSizes(this.source.db, repo, sha256s);
	}

	/** An LFS object's bytes (a file the hub stores, by SHA-256), from the hub's blob reader. */
	lfsObject(sha256: string, size: number): Promise<Readable> {
		return readBlob(this.source, { sha256, size });
	}

	/** A place among the git processes running at once; call what it returns when done. */
	async slot(): Promise<() => void> {
		if (this.running >= this.settings.maxProcesses) {
			await new Promise<void>((resolve) => this.waiting.push(resolve));
		} else {
			this.running++;
		}
		let released = false;
		return () => {
			if (released) return;
			released = true;
			const next = this.waiting.shift();
			if (next) next();
			else this.running--;
		};
	}

	/**
	 * Runs `git upload-pack --stateless-rpc` on a prepared repository: the advertisement (no body) or the
	 * answer to a request body. The process is killed when `signal` aborts (the client went away) or
	 * after the timeout.
	 */
	async uploadPack(
		dir: string,
		options: { protocol: string | undefined; body?: Readable; signal: AbortSignal },
	): Promise<Readable> {
		const release = await this.slot();
		const args = [
			...UPLOAD_PACK_CONFIG,
			"upload-pack",
			"--stateless-rpc",
			`--timeout=${this.settings.timeoutSeconds}`,
		];
		if (!options.body) args.push("--advertise-refs");
		args.push(dir);
		const child = spawn("git", args, {
			env: gitEnv(options.protocol ? { GIT_PROTOCOL: options.protocol } : {}),
			stdio: ["pipe", "pipe", "pipe"],
		});
		const kill = () => {
			if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
		};
		const timer = setTimeout(kill, this.settings.timeoutSeconds * 1000);
		timer.unref();
		options.signal.addEventListener("abort", kill, { once: true });
		child.once("close", () => {
			clearTimeout(timer);
			options.signal.removeEventListener("abort", kill);
			release();
		});
		child.once("error", () => release());
		// git's complaints (a bad request) are not the hub's errors; read and dropped, bounded.
		child.stderr.resume();
		child.stdin.on("error", () => undefined);
		if (options.body) {
			options.body.on("error", () => {
				kill();
				child.stdin.destroy();
			});
			options.body.pipe(child.stdin);
		} else {
			child.stdin.end();
		}
		child.stdout.on("close", kill);
		return child.stdout;
	}
}
