import type { Database } from "../db/types.js";
import type { MirrorPrefetchProgress, MirrorPrefetchRequest } from "../api/admin.js";
import { MirrorService } from "../mirror/service.js";
import { prefetchLimit, type UpstreamSettings } from "../mirror/settings.js";
import type { BlobStore } from "../storage/types.js";
import { UsageError } from "./accounts.js";

export const MIRROR_USAGE = `  mirror prefetch [--dataset] [--with-token] [--concurrency N] [--offline] REPO[@REVISION]…
                            fetch every file of each repository's revision (default main) from the
                            upstream (MODELHUB_UPSTREAM_URL) into the cache, N files at a time (default
                            4); --with-token reads as a signed-in user would (the upstream token). Through
                            the running hub (MODELHUB_HUB_URL, else this host's PORT) when it answers with
                            MODELHUB_ADMIN_TOKEN, else (and with --offline) on the database directly
  mirror stats              the cache's size, budget, files, repositories and pins
  mirror pin|unpin [--dataset] REPO
                            never evict a repository's files (or allow it again)`;

/** Files fetched at once by default, and at most. */
export const DEFAULT_PREFETCH_CONCURRENCY = 4;
export const MAX_PREFETCH_CONCURRENCY = 32;
/** Failed files named per repository in the summary. */
const FAILURES_SHOWN = 5;
/** How often the CLI asks the running hub how a prefetch goes, and how long one question may take. */
const POLL_MS = 500;
const REQUEST_TIMEOUT_MS = 15_000;

/** `a/b@rev` → the repository and revision (main when none); the revision may contain `/` (refs/pr/1). */
export function parseRepoRevision(text: string): { id: string; revision: string } {
	const at = text.indexOf("@");
	const id = at < 0 ? text : text.slice(0, at);
	const revision = at < 0 ? "main" : text.slice(at + 1);
	if (!/^(?:[A-Za-z0-9][A-Za-z0-9._-]{0,95}\/)?[A-Za-z0-9][A-Za-z0-9._-]{0,95}$/.test(id) || revision === "")
		throw new UsageError(`${JSON.stringify(text)} is not REPO or REPO@REVISION (namespace/name)`);
	return { id, revision };
}

/** What `runMirrorCommand` prints, and the process's exit code (1 when a repository failed). */
export interface CommandOutcome {
	text: string;
	exitCode: number;
}

/** A mirror command's options and repositories. */
export interface MirrorArgs {
	sub: string | undefined;
	type: "model" | "dataset";
	withToken: boolean;
	offline: boolean;
	concurrency: number;
	positional: string[];
}

export function parseMirrorArgs(args: readonly string[]): MirrorArgs {
	const [sub, ...rest] = args;
	const flags = new Set(["--dataset", "--with-token", "--offline"]);
	const parsed: MirrorArgs = {
		sub,
		type: rest.includes("--dataset") ? "dataset" : "model",
		withToken: rest.includes("--with-token"),
		offline: rest.includes("--offline"),
		concurrency: DEFAULT_PREFETCH_CONCURRENCY,
		positional: [],
	};
	for (let i = 0; i < rest.length; i++) {
		const arg = rest[i] as string;
		if (flags.has(arg)) continue;
		if (arg === "--concurrency") {
			const value = rest[++i] ?? "";
			if (!/^\d{1,3}$/.test(value) || Number(value) < 1 || Number(value) > MAX_PREFETCH_CONCURRENCY)
				throw new UsageError(`--concurrency is a number from 1 to ${MAX_PREFETCH_CONCURRENCY}`);
			parsed.concurrency = Number(value);
			continue;
		}
		if (arg.startsWith("--")) throw new UsageError(`unknown option ${JSON.stringify(arg)}`);
		parsed.positional.push(arg);
	}
	return parsed;
}

function resultLines(name: string, progress: MirrorPrefetchProgress): string[] {
	if (progress.commitId === null) return [`${name}: failed: ${progress.error ?? "no commit"}`];
	const state =
		progress.error !== null
			? `failed: ${progress.error}`
			: progress.failures === 0
				? "complete"
				: `${progress.failures} failed`;
	const lines = [
		`${name} (${progress.commitId.slice(0, 12)}): ${progress.files} files, ${progress.fetched} fetched (${progress.fetchedBytes} bytes), ${progress.cached} already cached, ${state}`,
	];
	for (const failure of progress.failed.slice(0, FAILURES_SHOWN))
		lines.push(`  ${failure.path}: ${failure.error}`);
	if (progress.failures > FAILURES_SHOWN) lines.push(`  … and ${progress.failures - FAILURES_SHOWN} more`);
	return lines;
}

/** Prefetches each repository in turn with `run`, and sums up. */
async function prefetchAll(
	parsed: MirrorArgs,
	run: (id: string, revision: string) => Promise<MirrorPrefetchProgress>,
): Promise<CommandOutcome> {
	if (parsed.positional.length === 0) throw new UsageError("mirror prefetch needs at least one REPO");
	const wanted = parsed.positional.map(parseRepoRevision);
	const lines: string[] = [];
	let failed = 0;
	for (const { id, revision } of wanted) {
		const progress = await run(id, revision);
		if (progress.state !== "complete" || progress.failures > 0) failed++;
		lines.push(...resultLines(`${id}@${revision}`, progress));
	}
	lines.push(
		`Prefetched ${wanted.length} ${wanted.length === 1 ? "repository" : "repositories"}: ${wanted.length - failed} complete, ${failed} failed.`,
	);
	return { text: lines.join("\n"), exitCode: failed > 0 ? 1 : 0 };
}

/** `mirror prefetch|stats|pin|unpin …` on an open database and store. */
export async function runMirrorCommand(
	db: Database,
	storage: BlobStore,
	settings: UpstreamSettings | undefined,
	maxFileBytes: number,
	args: readonly string[],
): Promise<CommandOutcome> {
	if (settings === undefined)
		throw new UsageError("mirror commands need MODELHUB_UPSTREAM_URL (mirror mode is off)");
	const parsed = parseMirrorArgs(args);
	const { sub, type, positional } = parsed;
	const mirror = await MirrorService.create({ db, storage, settings, maxFileBytes });
	try {
		switch (sub) {
			case "prefetch":
				return await prefetchAll(parsed, (id, revision) =>
					mirror.prefetch({ type, id, signedIn: parsed.withToken }, revision, {
						concurrency: parsed.concurrency,
						maxBytes: prefetchLimit(settings),
					}),
				);
			case "stats": {
				if (positional.length > 0) throw new UsageError("mirror stats takes no REPO");
				const stats = await mirror.cacheStats();
				const pins = [
					...stats.pinned.map((repo) => `${repo.type === "dataset" ? "datasets/" : ""}${repo.id}`),
					...stats.pinnedByConfig.map((entry) => `${entry} (MODELHUB_MIRROR_PINNED)`),
				];
				return {
					text: [
						`Upstream: ${stats.upstream}`,
						`Cached: ${stats.usedBytes} bytes of ${stats.budgetBytes === null ? "no budget" : `a ${stats.budgetBytes}-byte budget`}, ${stats.files} files, ${stats.repos} repositories`,
						`Pinned: ${pins.length === 0 ? "none" : pins.join(", ")}`,
					].join("\n"),
					exitCode: 0,
				};
			}
			case "pin":
			case "unpin": {
				const [repo, ...more] = positional;
				if (repo === undefined || more.length > 0)
					throw new UsageError(`usage: mirror ${sub} [--dataset] REPO`);
				const { id } = parseRepoRevision(repo);
				await mirror.pin({ type, id }, sub === "pin");
				return { text: `${id}: ${sub === "pin" ? "pinned" : "no longer pinned"}`, exitCode: 0 };
			}
			default:
				throw new UsageError(`usage:\n${MIRROR_USAGE}`);
		}
	} finally {
		await mirror.close();
	}
}

/**
 * Whether a hub in mirror mode answers at `hubUrl` to the admin token (GET /api/admin/mirror): the CLI
 * then prefetches through it. False when nothing listens there; an answer other than 200 is an error
 * (another service, or a token the hub does not take).
 */
export async function mirrorHubAnswers(hubUrl: string, adminToken: string): Promise<boolean> {
	let status: number;
	try {
		({ status } = await adminCall(hubUrl, adminToken, "/api/admin/mirror"));
	} catch {
		return false;
	}
	if (status === 200) return true;
	throw new UsageError(
		`${hubUrl}/api/admin/mirror answered ${status}: is the hub there in mirror mode with this MODELHUB_ADMIN_TOKEN? (set MODELHUB_HUB_URL, or --offline with the hub stopped)`,
	);
}

async function adminCall(
	hubUrl: string,
	adminToken: string,
	path: string,
	body?: MirrorPrefetchRequest,
): Promise<{ status: number; json: unknown }> {
	const res = await fetch(`${hubUrl}${path}`, {
		method: body === undefined ? "GET" : "POST",
		headers: {
			authorization: `Bearer ${adminToken}`,
			...(body === undefined ? {} : { "content-type": "application/json" }),
		},
		...(body === undefined ? {} : { body: JSON.stringify(body) }),
		signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
	});
	const text = await res.text();
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		json = undefined;
	}
	return { status: res.status, json };
}

/** A progress that failed before the hub started one (its answer's error). */
function refused(id: string, revision: string, error: string): MirrorPrefetchProgress {
	return {
		id: "",
		type: "model",
		repo: id,
		revision,
		state: "failed",
		commitId: null,
		files: 0,
		sized: 0,
		bytesToFetch: null,
		maxBytes: 0,
		fetched: 0,
		fetchedBytes: 0,
		cached: 0,
		failures: 0,
		failed: [],
		error,
		startedAt: new Date().toISOString(),
		finishedAt: new Date().toISOString(),
	};
}

/**
 * `mirror prefetch …` through the running hub (POST /api/admin/mirror/prefetch, then its progress
 * until done): the hub's own database and cache, while it serves.
 */
export async function runRemotePrefetch(
	hubUrl: string,
	adminToken: string,
	args: readonly string[],
	pollMs = POLL_MS,
): Promise<CommandOutcome> {
	const parsed = parseMirrorArgs(args);
	if (parsed.sub !== "prefetch") throw new UsageError(`usage:\n${MIRROR_USAGE}`);
	return prefetchAll(parsed, async (id, revision) => {
		try {
			const started = await adminCall(hubUrl, adminToken, "/api/admin/mirror/prefetch", {
				type: parsed.type,
				repo: id,
				revision,
				withToken: parsed.withToken,
				concurrency: parsed.concurrency,
			});
			let progress = started.json as MirrorPrefetchProgress;
			if (started.status !== 200 && started.status !== 202) {
				const error = (started.json as { error?: unknown } | undefined)?.error;
				return refused(id, revision, `${started.status} ${typeof error === "string" ? error : ""}`.trim());
			}
			while (progress.state === "sizing" || progress.state === "fetching") {
				await new Promise((resolve) => setTimeout(resolve, pollMs));
				const polled = await adminCall(
					hubUrl,
					adminToken,
					`/api/admin/mirror/prefetch/${encodeURIComponent(progress.id)}`,
				);
				if (polled.status !== 200) return refused(id, revision, `the hub answered ${polled.status}`);
				progress = polled.json as MirrorPrefetchProgress;
			}
			return progress;
		} catch (error) {
			return refused(
				id,
				revision,
				`the hub at ${hubUrl}: ${error instanceof Error ? error.message : String(error)}`,
			);
		}
	});
}
