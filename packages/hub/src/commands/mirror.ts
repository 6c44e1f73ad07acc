import type { Database } from "../db/types.js";
import { MirrorService, type PrefetchResult } from "../mirror/service.js";
import type { UpstreamSettings } from "../mirror/settings.js";
import type { BlobStore } from "../storage/types.js";
import { UsageError } from "./accounts.js";

export const MIRROR_USAGE = `  mirror prefetch [--dataset] [--with-token] [--concurrency N] REPO[@REVISION]…
                            fetch every file of each repository's revision (default main) from the
                            upstream (MODELHUB_UPSTREAM_URL) into the cache, N files at a time (default
                            4); --with-token reads as a signed-in user would (the upstream token)
  mirror stats              the cache's size, budget, files, repositories and pins
  mirror pin|unpin [--dataset] REPO
                            never evict a repository's files (or allow it again)`;

/** Files fetched at once by default, and at most. */
const DEFAULT_CONCURRENCY = 4;
const MAX_CONCURRENCY = 32;
/** Failed files named per repository in the summary. */
const FAILURES_SHOWN = 5;

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

function resultLine(repo: string, result: PrefetchResult): string[] {
	const state = result.failed.length === 0 ? "complete" : `${result.failed.length} failed`;
	const lines = [
		`${repo} (${result.commitId.slice(0, 12)}): ${result.files} files, ${result.fetched} fetched (${result.fetchedBytes} bytes), ${result.cached} already cached, ${state}`,
	];
	for (const failure of result.failed.slice(0, FAILURES_SHOWN))
		lines.push(`  ${failure.path}: ${failure.error}`);
	if (result.failed.length > FAILURES_SHOWN)
		lines.push(`  … and ${result.failed.length - FAILURES_SHOWN} more`);
	return lines;
}

/** `mirror prefetch|stats|pin|unpin …` on an open database and store. */
export async function runMirrorCommand(
	db: Database,
	storage: BlobStore,
	settings: UpstreamSettings | undefined,
	maxFileBytes: number,
	args: readonly string[],
): Promise<CommandOutcome> {
	const [sub, ...rest] = args;
	if (settings === undefined)
		throw new UsageError("mirror commands need MODELHUB_UPSTREAM_URL (mirror mode is off)");
	const flags = new Set<string>(rest.filter((arg) => arg === "--dataset" || arg === "--with-token"));
	const type = flags.has("--dataset") ? "dataset" : "model";
	let concurrency = DEFAULT_CONCURRENCY;
	const positional: string[] = [];
	for (let i = 0; i < rest.length; i++) {
		const arg = rest[i] as string;
		if (flags.has(arg)) continue;
		if (arg === "--concurrency") {
			const value = rest[++i] ?? "";
			if (!/^\d{1,3}$/.test(value) || Number(value) < 1 || Number(value) > MAX_CONCURRENCY)
				throw new UsageError(`--concurrency is a number from 1 to ${MAX_CONCURRENCY}`);
			concurrency = Number(value);
			continue;
		}
		if (arg.startsWith("--")) throw new UsageError(`unknown option ${JSON.stringify(arg)}`);
		positional.push(arg);
	}
	const mirror = await MirrorService.create({ db, storage, settings, maxFileBytes });
	try {
		switch (sub) {
			case "prefetch": {
				if (positional.length === 0) throw new UsageError("mirror prefetch needs at least one REPO");
				const wanted = positional.map(parseRepoRevision);
				const lines: string[] = [];
				let failed = 0;
				for (const { id, revision } of wanted) {
					const name = `${id}@${revision}`;
					try {
						const signedIn = flags.has("--with-token");
						const result = await mirror.prefetch({ type, id, signedIn }, revision, concurrency);
						if (result.failed.length > 0) failed++;
						lines.push(...resultLine(name, result));
					} catch (error) {
						failed++;
						lines.push(`${name}: failed: ${error instanceof Error ? error.message : String(error)}`);
					}
				}
				lines.push(
					`Prefetched ${wanted.length} ${wanted.length === 1 ? "repository" : "repositories"}: ${wanted.length - failed} complete, ${failed} failed.`,
				);
				return { text: lines.join("\n"), exitCode: failed > 0 ? 1 : 0 };
			}
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
