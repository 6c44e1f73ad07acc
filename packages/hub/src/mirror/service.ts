import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import type { MirrorCacheStats, MirrorPinnedRepo, MirrorPrefetchProgress } from "../api/admin.js";
import type { Database } from "../db/types.js";
import { entryNotFound, HubError, headerText, kindOfStatus } from "../errors.js";
import {
	OutboundError,
	outboundRequest,
	readBounded,
	type OutboundResponse,
	type ScopedCredential,
} from "../outbound/http.js";
import { utcDay } from "../downloads/counter.js";
import { mirrorDownloads } from "../downloads/store.js";
import type { BlobLocation } from "../blobs/small.js";
import { findRepo } from "../repos/read.js";
import { blobKept, readBlob } from "../services/blobs.js";
import type { RepoType } from "../repo-identity.js";
import { BlobNotFoundError, type BlobStore, type ByteRange } from "../storage/types.js";
import { COMMIT_ID } from "../vocabulary.js";
import { hostAllowed, repoAllowed, tokenForAnonymous, type UpstreamSettings } from "./settings.js";
import {
	cacheUsage,
	evictBlob,
	findStoredBlob,
	knownRepo,
	leastRecentlyUsed,
	pinnedRepos,
	setPinned,
	touchFile,
	loadAnswer,
	loadCommitPaths,
	loadFile,
	loadLibraryName,
	loadRevision,
	saveAnswer,
	saveCommit,
	saveFileBytes,
	saveFileMetadata,
	saveLibraryName,
	type MirroredFile,
	type MirrorRepo,
} from "./store.js";
import { Transfers, type Transfer } from "./transfer.js";

/**
 * Mirror mode: a repository this hub does not have is read from the upstream hub (MODELHUB_UPSTREAM_URL).
 * Its JSON answers are kept and served again (within MODELHUB_UPSTREAM_TTL_S, forever when the request
 * names a commit, and past the TTL while the upstream is unreachable, with their age); its files are
 * fetched once, verified, kept in this hub's storage and served from there. The upstream token goes to
 * the upstream's origin only; what downstream clients are sent is built here, so no upstream header
 * (Xet hints included) reaches them.
 */

export interface MirrorContext {
	db: Database;
	storage: BlobStore;
	settings: UpstreamSettings;
	/** Largest file fetched (MODELHUB_MAX_FILE_BYTES). */
	maxFileBytes: number;
}

/** A JSON answer for a downstream client. */
export interface MirrorAnswer {
	body: Buffer;
	/** Path and query of the next page (the upstream's Link rel="next", made relative). */
	nextPath: string | undefined;
	/** Seconds since the upstream gave it. */
	ageSeconds: number;
}

/** A JSON request asked of the upstream as this hub was asked it. */
export interface AnswerRequest {
	method: "GET" | "POST";
	pathAndQuery: string;
	form?: string;
	immutable: boolean;
	/** The revision of an info answer (`main` without one): its commit and files are remembered. */
	revision?: string | undefined;
}

/** A file of an upstream commit as this hub serves it. */
export interface MirrorFile extends MirroredFile {
	/** Seconds since the upstream last said where the revision points (0 for a commit id). */
	ageSeconds: number;
	/** Whether the upstream was asked about this file for this answer (it then counted a download). */
	asked: boolean;
}

/** A file's bytes for one answer. */
export interface MirrorBytes {
	body: Readable;
	/** Whether this answer started the file's fetch from the upstream (which counted a download). */
	fetched: boolean;
}

/**
 * Who asks: a signed-in downstream user or an anonymous client. What the upstream token can read that the
 * public cannot (private or gated upstream repositories) is read for signed-in users only, unless the
 * repository's namespace is listed in MODELHUB_UPSTREAM_TOKEN_ANONYMOUS.
 */
export interface RepoTarget {
	type: RepoType;
	id: string;
	signedIn: boolean;
}

/**
 * Whose reads a request gets: the upstream token's or the public's. Everything kept (answers, revisions,
 * files and their stored bytes' records) is keyed by it, so an anonymous request never gets what only the
 * token could read.
 */
type UpstreamScope = "token" | "public";

/** The fields of the upstream's JSON that tell clients to use Xet: downstream clients download over HTTP. */
function withoutXetHints(value: unknown): unknown {
	if (Array.isArray(value)) {
		return value.map((entry) => {
			if (typeof entry !== "object" || entry === null || !("xetHash" in entry)) return entry;
			const { xetHash: _dropped, ...rest } = entry as Record<string, unknown>;
			return rest;
		});
	}
	if (typeof value === "object" && value !== null && "xetEnabled" in value) {
		return { ...(value as Record<string, unknown>), xetEnabled: false };
	}
	return value;
}

function unquote(etag: string | null): string | undefined {
	if (etag === null) return undefined;
	return etag.trim().replace(/^W\//, "").replace(/^"|"$/g, "").toLowerCase();
}

/** `a/b c` → `a/b%20c`: a repository path in a URL (each segment encoded). */
function encodePath(path: string): string {
	return path.split("/").map(encodeURIComponent).join("/");
}

/** Counted since the hub started (GET /api/admin/mirror). */
interface Counters {
	hits: number;
	misses: number;
	upstreamFetches: number;
	evictions: number;
	evictedBytes: number;
}

/** Blobs looked at per query while evicting. */
const EVICTION_PAGE = 100;

/** How a prefetch runs. */
export interface PrefetchOptions {
	/** Files sized and fetched at once. */
	concurrency: number;
	/** Bytes to fetch at most: past it, nothing is fetched and the prefetch fails. */
	maxBytes: number;
}

/** The longest an upstream listing is waited for (a listing by id then shows this hub's repositories only). */
const LISTING_BUDGET_MS = 5_000;
/** Failed files named in a prefetch's progress, at most. */
const FAILURES_KEPT = 20;
/** Prefetches run at once in a hub, at most (each `concurrency` files at a time). */
export const MAX_PREFETCHES = 4;
/** Finished prefetches still answered by id. */
const FINISHED_KEPT = 20;

export class MirrorService {
	private readonly transfers: Transfers;
	private readonly credential: ScopedCredential | undefined;
	private readonly counters: Counters = {
		hits: 0,
		misses: 0,
		upstreamFetches: 0,
		evictions: 0,
		evictedBytes: 0,
	};
	/** Blobs read from storage now, with how many readers: never evicted while read. */
	private readonly reading = new Map<string, number>();
	/** The eviction under way: one at a time in this process (hubs sharing a database: the lock). */
	private evicting: Promise<void> = Promise.resolve();
	/** Prefetches under way, by `type id` (one per repository), and the last ones finished. */
	private readonly prefetches = new Map<string, MirrorPrefetchProgress>();
	private readonly finished: MirrorPrefetchProgress[] = [];
	private prefetchCount = 0;
	private closing = false;

	private constructor(
		private readonly context: MirrorContext,
		private readonly spoolDir: string,
	) {
		this.transfers = new Transfers(spoolDir);
		const origin = new URL(context.settings.url).origin;
		this.credential =
			context.settings.token === undefined
				? undefined
				: { origin, authorization: `Bearer ${context.settings.token}` };
	}

	static async create(context: MirrorContext): Promise<MirrorService> {
		// In the disk store's own folder when it has one: a verified spool is then linked in, not copied.
		const parent = context.storage.spoolDir;
		const spoolDir = await mkdtemp(
			parent === undefined ? join(tmpdir(), "modelhub-mirror-") : join(parent, "mirror-"),
		);
		return new MirrorService(context, spoolDir);
	}

	/** The upstream's URL, as errors name it. */
	get upstream(): string {
		return this.context.settings.url;
	}

	/** Transfers from the upstream under way. */
	get transfersInFlight(): number {
		return this.transfers.size;
	}

	async close(): Promise<void> {
		// Running prefetches take no new file (their transfers under way fail with the spool).
		this.closing = true;
		await rm(this.spoolDir, { recursive: true, force: true });
	}

	/** Whether the request is answered with the upstream token's reads or the public's. */
	private scopeOf(target: RepoTarget): UpstreamScope {
		if (this.credential === undefined) return "public";
		if (target.signedIn || tokenForAnonymous(this.context.settings.tokenForAnonymous, target.id))
			return "token";
		return "public";
	}

	private credentialOf(scope: UpstreamScope): ScopedCredential | undefined {
		return scope === "token" ? this.credential : undefined;
	}

	/** Whether this repository is the upstream's here: none of this hub's (any visibility), and allowed. */
	async mirrors(target: Pick<RepoTarget, "type" | "id">): Promise<boolean> {
		if (!repoAllowed(this.context.settings.allow, target.id)) return false;
		return (await findRepo(this.context.db, target.type, target.id)) === undefined;
	}

	/** Refuses a write to a repository that exists only upstream (local ones are written as always). */
	async checkWrite(target: Pick<RepoTarget, "type" | "id">): Promise<void> {
		if (!(await this.mirrors(target))) return;
		const db = this.context.db;
		const known =
			(await knownRepo(db, repoKey(target, "public"))) || (await knownRepo(db, repoKey(target, "token")));
		if (!known) return;
		throw new HubError(
			"Forbidden",
			`${target.id} is mirrored read-only from ${this.upstream}: write to a repository of this hub instead`,
			{ messageHeader: `${target.id} is mirrored read-only from the upstream hub` },
		);
	}

	/**
	 * The upstream's JSON answer to `pathAndQuery` (an API path of this hub, the same at the upstream),
	 * from what is kept when fresh enough (`immutable`: the request names a commit). An info answer's
	 * `downloads` and `downloadsAllTime` are the upstream's figures plus the downloads this hub counted
	 * (src/services/downloads.ts says which), added as it is served.
	 */
	async answer(target: RepoTarget, request: AnswerRequest): Promise<MirrorAnswer> {
		const answer = await this.upstreamAnswer(target, request);
		if (request.revision === undefined) return answer;
		const counted = await mirrorDownloads(this.context.db, target, utcDay(Date.now()));
		if (counted.allTime === 0) return answer;
		const info: unknown = JSON.parse(answer.body.toString("utf8"));
		if (!isObject(info)) return answer;
		if (typeof info.downloads === "number") info.downloads += counted.recent;
		if (typeof info.downloadsAllTime === "number") info.downloadsAllTime += counted.allTime;
		return { ...answer, body: Buffer.from(JSON.stringify(info)) };
	}

	/**
	 * The upstream's items for a listing by id (`search` naming a repository id, or `author`), asked as this
	 * hub was asked (`pathAndQuery`), within LISTING_BUDGET_MS: those the listing names (their id contains
	 * the search, or is in the author's namespace), allowed, and that no repository of this hub (any
	 * visibility) has the id of: local ones win. Read with the upstream token for signed-in users (and
	 * anonymous ones where MODELHUB_UPSTREAM_TOKEN_ANONYMOUS lists the repository), as the public otherwise.
	 * Nothing (never an error) when the upstream is down, slow or answers something else than a list;
	 * at most `max` items.
	 */
	async listing(
		type: RepoType,
		by: { search?: string | undefined; author?: string | undefined },
		pathAndQuery: string,
		signedIn: boolean,
		max: number,
	): Promise<Array<Record<string, unknown>>> {
		const settings = this.context.settings;
		const listed = settings.tokenForAnonymous;
		const subject = by.search ?? by.author ?? "";
		const scope: UpstreamScope =
			this.credential !== undefined && (signedIn || tokenForAnonymous(listed, subject)) ? "token" : "public";
		const outbound = {
			...settings.outbound,
			retries: 0,
			timeoutMs: Math.min(settings.outbound.timeoutMs, LISTING_BUDGET_MS),
			idleTimeoutMs: Math.min(settings.outbound.idleTimeoutMs, LISTING_BUDGET_MS),
		};
		let response: OutboundResponse | undefined;
		let timer: NodeJS.Timeout | undefined;
		const deadline = new Promise<undefined>((resolve) => {
			timer = setTimeout(() => {
				response?.discard();
				resolve(undefined);
			}, LISTING_BUDGET_MS);
		});
		const asked = (async (): Promise<unknown> => {
			response = await outboundRequest(outbound, {
				method: "GET",
				url: this.upstreamUrl(pathAndQuery),
				headers: { accept: "application/json" },
				credential: this.credentialOf(scope),
				redirects: "same-origin",
			});
			if (response.status !== 200) {
				response.discard();
				return undefined;
			}
			return JSON.parse((await readBounded(response, settings.maxAnswerBytes)).toString("utf8")) as unknown;
		})().catch(() => undefined);
		const parsed = await Promise.race([asked, deadline]);
		clearTimeout(timer);
		if (!Array.isArray(parsed)) return [];
		const search = by.search?.toLowerCase();
		const author = by.author?.toLowerCase();
		const items: Array<Record<string, unknown>> = [];
		const seen = new Set<string>();
		for (const item of parsed) {
			// Each item is checked against this hub's repositories: none past what the page has room for.
			if (items.length >= max) break;
			if (!isObject(item) || typeof item.id !== "string") continue;
			const id = item.id;
			const lower = id.toLowerCase();
			if (seen.has(lower) || !/^[^/]+\/[^/]+$/.test(id)) continue;
			if (search !== undefined && !lower.includes(search)) continue;
			if (author !== undefined && !lower.startsWith(`${author}/`)) continue;
			// An anonymous client read with the token gets only what the operator listed for it.
			if (scope === "token" && !signedIn && !tokenForAnonymous(listed, id)) continue;
			// Allowed, and no repository of this hub (whoever may see it) has the id.
			if (!(await this.mirrors({ type, id }))) continue;
			seen.add(lower);
			items.push({ ...(withoutXetHints(item) as Record<string, unknown>), mirroredFrom: this.upstream });
		}
		return items;
	}

	/** The library a mirrored model's info names (which of its files count as downloads), when known. */
	async libraryOf(target: Pick<RepoTarget, "type" | "id">): Promise<string | undefined> {
		return loadLibraryName(this.context.db, target);
	}

	private async upstreamAnswer(target: RepoTarget, request: AnswerRequest): Promise<MirrorAnswer> {
		const scope = this.scopeOf(target);
		const repo = repoKey(target, scope);
		const key = `${request.method} ${request.pathAndQuery}${request.form !== undefined ? `\n${request.form}` : ""}`;
		const kept = await loadAnswer(this.context.db, repo, key);
		const fresh = (age: number) => request.immutable || age * 1000 < this.context.settings.ttlMs;
		if (kept && fresh(kept.ageSeconds)) return toAnswer(kept);
		let response: OutboundResponse;
		let body: Buffer;
		try {
			response = await outboundRequest(this.context.settings.outbound, {
				method: request.method,
				url: this.upstreamUrl(request.pathAndQuery),
				headers: {
					accept: "application/json",
					...(request.form !== undefined ? { "content-type": "application/x-www-form-urlencoded" } : {}),
				},
				...(request.form !== undefined ? { body: request.form } : {}),
				credential: this.credentialOf(scope),
				redirects: "same-origin",
			});
			body = await readBounded(response, this.context.settings.maxAnswerBytes);
		} catch (error) {
			if (kept && error instanceof OutboundError) return toAnswer(kept);
			throw this.gatewayError(error);
		}
		if (response.status !== 200) {
			// The upstream's answer to this request; a 5xx while an older answer is kept: that one, offline.
			if (kept && response.status >= 500) return toAnswer(kept);
			if (response.status < 400) {
				throw new HubError("BadGateway", `the upstream hub ${this.upstream} answered ${response.status}`);
			}
			throw this.passedOn(response, body);
		}
		let parsed: unknown;
		try {
			parsed = JSON.parse(body.toString("utf8"));
		} catch {
			throw new HubError("BadGateway", `the upstream hub ${this.upstream} sent an answer that is not JSON`);
		}
		const shown = withoutXetHints(parsed);
		// An info answer says where it comes from (ModelAnswer.mirroredFrom): the web shows a badge.
		const text = JSON.stringify(
			request.revision !== undefined && isObject(shown) ? { ...shown, mirroredFrom: this.upstream } : shown,
		);
		const nextPath = this.nextPathOf(response.headers.get("link"));
		await saveAnswer(this.context.db, repo, key, text, nextPath);
		if (request.revision !== undefined && isObject(parsed) && "library_name" in parsed) {
			const library = parsed.library_name;
			await saveLibraryName(this.context.db, repo, typeof library === "string" ? library : null);
		}
		const commit = commitOfInfo(parsed);
		if (commit && request.revision !== undefined) {
			await saveCommit(this.context.db, repo, commit.sha, commit.paths, request.revision);
		}
		return { body: Buffer.from(text), nextPath, ageSeconds: 0 };
	}

	/**
	 * A file at a revision: what the upstream says of it (a HEAD at the upstream, without downloading),
	 * or what was kept when the revision's commit is fresh enough or the upstream is unreachable.
	 */
	async file(target: RepoTarget, prefix: string, revision: string, path: string): Promise<MirrorFile> {
		const scope = this.scopeOf(target);
		const repo = repoKey(target, scope);
		const db = this.context.db;
		const known = COMMIT_ID.test(revision)
			? { commitId: revision, ageSeconds: 0 }
			: await loadRevision(db, repo, revision);
		const fresh =
			known !== undefined &&
			(COMMIT_ID.test(revision) || known.ageSeconds * 1000 < this.context.settings.ttlMs);
		if (known && fresh) {
			const file = await loadFile(db, repo, known.commitId, path);
			if (file) return { ...file, ageSeconds: known.ageSeconds, asked: false };
		}
		try {
			return await this.askFile(target, repo, scope, prefix, revision, path);
		} catch (error) {
			// The upstream cannot answer: what is known of the revision's last commit, when enough is.
			if (!known || !isGatewayError(error)) throw error;
			const file = await loadFile(db, repo, known.commitId, path);
			if (file) return { ...file, ageSeconds: known.ageSeconds, asked: false };
			const paths = await loadCommitPaths(db, repo, known.commitId);
			if (paths && !paths.includes(path)) throw entryNotFound(`Entry not found: ${path}`, known.commitId);
			throw error;
		}
	}

	private async askFile(
		target: RepoTarget,
		repo: MirrorRepo,
		scope: UpstreamScope,
		prefix: string,
		revision: string,
		path: string,
	): Promise<MirrorFile> {
		const url = this.upstreamUrl(
			`/${prefix}${encodePath(target.id)}/resolve/${encodeURIComponent(revision)}/${encodePath(path)}`,
		);
		let response: OutboundResponse;
		try {
			response = await outboundRequest(this.context.settings.outbound, {
				method: "HEAD",
				url,
				credential: this.credentialOf(scope),
				redirects: "same-origin",
			});
			response.discard();
		} catch (error) {
			throw this.gatewayError(error);
		}
		const headers = response.headers;
		if (response.status >= 400) throw this.passedOn(response, Buffer.alloc(0));
		const commitId = headers.get("x-repo-commit")?.trim().toLowerCase() ?? "";
		const linked = unquote(headers.get("x-linked-etag"));
		const etag = linked ?? unquote(headers.get("etag")) ?? "";
		const sizeText = headers.get("x-linked-size") ?? headers.get("content-length") ?? "";
		const lfs = linked !== undefined;
		if (!COMMIT_ID.test(commitId) || !/^\d{1,16}$/.test(sizeText.trim())) {
			throw new HubError(
				"BadGateway",
				`the upstream hub ${this.upstream} did not say which commit and size ${path} has`,
			);
		}
		if (lfs ? !/^[0-9a-f]{64}$/.test(etag) : !/^[0-9a-f]{40}$/.test(etag)) {
			throw new HubError(
				"BadGateway",
				`the upstream hub ${this.upstream} sent no ETag ${path} can be checked against`,
			);
		}
		const size = Number(sizeText.trim());
		if (size > this.context.maxFileBytes) {
			throw new HubError(
				"TooLarge",
				`${path} is larger than this hub's limit of ${this.context.maxFileBytes} bytes`,
			);
		}
		const file = { commitId, path, size, etag, lfs };
		await saveFileMetadata(this.context.db, repo, revision, file);
		const kept = await loadFile(this.context.db, repo, commitId, path);
		return { ...(kept ?? { ...file, sha256: null }), ageSeconds: 0, asked: true };
	}

	/**
	 * The file's bytes (a range of them): from storage when kept, else from the one fetch of it under way
	 * (started here when there is none), streamed as they arrive.
	 */
	async bytes(
		target: RepoTarget,
		prefix: string,
		file: MirrorFile,
		range: ByteRange | undefined,
	): Promise<MirrorBytes> {
		const db = this.context.db;
		const scope = this.scopeOf(target);
		const repo = repoKey(target, scope);
		// Its last use, for least-recently-used eviction (before reading: a failure leaves nothing open).
		await touchFile(db, repo, file);
		if (file.sha256 !== null) {
			// Fetched files are kept in the file store: looked for there first.
			const stream = await this.readStored(
				{ sha256: file.sha256, size: file.size, storedIn: "files" },
				range,
			);
			if (stream) {
				this.counters.hits++;
				return { body: stream, fetched: false };
			}
			// Evicted or collected: fetched again below.
		}
		// The same bytes stored for another file (another scope, commit or repository, a local
		// repository's file): no fetch.
		const stored = await findStoredBlob(db, file);
		if (stored) {
			await saveFileBytes(db, repo, file, stored);
			await this.enforceBudget(stored.sha256);
			const stream = await this.readStored(stored, range);
			if (stream) {
				this.counters.hits++;
				return { body: stream, fetched: false };
			}
		}
		this.counters.misses++;
		let fetched = false;
		const transfer = await this.transferOf(target, scope, prefix, file, () => (fetched = true));
		const start = range?.start ?? 0;
		const end = range?.end ?? file.size;
		const followed = transfer.follow(start, end);
		if (followed) return { body: followed, fetched };
		const blob = await transfer.done;
		const stream = await this.readStored({ ...blob, storedIn: "files" }, range);
		if (!stream)
			throw new HubError("Unavailable", `${file.path} was evicted while it was fetched: ask again`);
		return { body: stream, fetched };
	}

	/** The one fetch of the file from the upstream: the one under way, or a new one (`onStart` called). */
	private transferOf(
		target: RepoTarget,
		scope: UpstreamScope,
		prefix: string,
		file: MirroredFile,
		onStart: () => void = () => {},
	): Promise<Transfer> {
		const repo = repoKey(target, scope);
		const db = this.context.db;
		return this.transfers.get(
			`${repo.type}\n${repo.id}\n${file.commitId}\n${file.path}`,
			{ size: file.size, etag: file.etag },
			() => {
				onStart();
				return this.download(target, scope, prefix, file);
			},
			this.context.storage,
			async (blob) => {
				await saveFileBytes(db, repo, file, blob);
				await this.enforceBudget(blob.sha256);
			},
		);
	}

	/**
	 * A stored blob's bytes wherever they are kept (a local repository's small file is in the database:
	 * readBlob), held against eviction until the stream closes; undefined when not stored.
	 */
	private async readStored(
		blob: { sha256: string; size: number; storedIn?: BlobLocation },
		range: ByteRange | undefined,
	): Promise<Readable | undefined> {
		const { sha256 } = blob;
		let stream: Readable;
		try {
			stream = await readBlob(this.context, blob, range);
		} catch (error) {
			if (error instanceof BlobNotFoundError) return undefined;
			throw error;
		}
		this.reading.set(sha256, (this.reading.get(sha256) ?? 0) + 1);
		stream.once("close", () => {
			const left = (this.reading.get(sha256) ?? 1) - 1;
			if (left > 0) this.reading.set(sha256, left);
			else this.reading.delete(sha256);
		});
		return stream;
	}

	/**
	 * Keeps the stored upstream files within MODELHUB_MIRROR_CACHE_BYTES: drops the blobs served longest
	 * ago, never a pinned repository's, one being read, or `keep` (the blob just stored: a file larger
	 * than the budget stays until the next one comes). A fetch under way is not in the cache yet.
	 */
	private enforceBudget(keep: string): Promise<void> {
		const budget = this.context.settings.cacheBytes;
		if (budget <= 0) return Promise.resolve();
		const run = this.evicting.then(() => this.evictOverBudget(budget, keep));
		this.evicting = run.catch(() => {});
		return run;
	}

	private async evictOverBudget(budget: number, keep: string): Promise<void> {
		const { db, storage } = this.context;
		let used = (await cacheUsage(db)).bytes;
		let skipped = 0;
		while (used > budget) {
			const page = await leastRecentlyUsed(db, EVICTION_PAGE, skipped);
			if (page.length === 0) return;
			for (const blob of page) {
				if (used <= budget) return;
				const spared =
					blob.sha256 === keep ||
					blob.pinned ||
					this.reading.has(blob.sha256) ||
					blob.repos.some((repo) => this.pinnedByConfig(repo.slice(repo.indexOf(" ") + 1)));
				const result = spared
					? { evicted: false, freedBytes: 0 }
					: await evictBlob(db, blob.sha256, (sha256) => storage.delete(sha256));
				if (!result.evicted) {
					skipped++;
					continue;
				}
				used -= blob.size;
				this.counters.evictions++;
				this.counters.evictedBytes += blob.size;
			}
		}
	}

	private pinnedByConfig(id: string): boolean {
		return this.context.settings.pinned.length > 0 && repoAllowed(this.context.settings.pinned, id);
	}

	/** Pins a repository (its files are never evicted) or unpins it. */
	async pin(repo: MirrorPinnedRepo, pinned: boolean): Promise<void> {
		await setPinned(this.context.db, repo, pinned);
	}

	/** Whether the file's bytes are stored (linked to this file when stored for another). */
	private async storedAlready(target: RepoTarget, file: MirroredFile): Promise<boolean> {
		const db = this.context.db;
		if (file.sha256 !== null && (await blobKept(this.context, { sha256: file.sha256, size: file.size })))
			return true;
		const stored = await findStoredBlob(db, file);
		if (!stored || !(await blobKept(this.context, stored))) return false;
		await saveFileBytes(db, repoKey(target, this.scopeOf(target)), file, stored);
		return true;
	}

	/** What the cache holds and how it was used (GET /api/admin/mirror). */
	async cacheStats(): Promise<MirrorCacheStats> {
		const usage = await cacheUsage(this.context.db);
		const pinned = await pinnedRepos(this.context.db);
		return {
			upstream: this.upstream,
			budgetBytes: this.context.settings.cacheBytes > 0 ? this.context.settings.cacheBytes : null,
			usedBytes: usage.bytes,
			files: usage.files,
			repos: usage.repos,
			...this.counters,
			transfersInFlight: this.transfers.size,
			pinned: pinned.flatMap((repo) =>
				repo.type === "model" || repo.type === "dataset" ? [{ type: repo.type, id: repo.id }] : [],
			),
			pinnedByConfig: [...this.context.settings.pinned],
		};
	}

	/**
	 * Starts a prefetch in the background (POST /api/admin/mirror/prefetch): its progress, updated as it
	 * runs. One at a time per repository: asked again for the revision under way, the running one is
	 * answered (`started` false); for another revision, a Conflict. At most MAX_PREFETCHES at once.
	 */
	startPrefetch(
		target: RepoTarget,
		revision: string,
		options: PrefetchOptions,
	): { progress: MirrorPrefetchProgress; started: boolean } {
		const key = `${target.type}\n${target.id.toLowerCase()}`;
		const running = this.prefetches.get(key);
		if (running) {
			if (running.revision === revision) return { progress: running, started: false };
			throw new HubError(
				"Conflict",
				`a prefetch of ${running.repo}@${running.revision} is under way (${running.id}); ask again once it is done`,
			);
		}
		if (this.prefetches.size >= MAX_PREFETCHES) {
			throw new HubError(
				"Unavailable",
				`${MAX_PREFETCHES} prefetches are under way, the most this hub runs at once; ask again once one is done`,
				{ headers: { "retry-after": "10" } },
			);
		}
		const progress = newProgress(`prefetch-${++this.prefetchCount}`, target, revision, options.maxBytes);
		this.prefetches.set(key, progress);
		void this.prefetch(target, revision, options, progress).finally(() => {
			this.prefetches.delete(key);
			this.finished.unshift(progress);
			this.finished.length = Math.min(this.finished.length, FINISHED_KEPT);
		});
		return { progress, started: true };
	}

	/** The prefetches under way, then the last ones finished, newest first. */
	prefetchList(): MirrorPrefetchProgress[] {
		return [...[...this.prefetches.values()].reverse(), ...this.finished];
	}

	/**
	 * Fetches every file of a repository's revision into the cache (`modelhub-hub mirror prefetch`,
	 * startPrefetch), `concurrency` at a time, as an anonymous client unless `signedIn` (then with the
	 * upstream token): first asks the upstream what each file is (size, ETag), links those stored
	 * already, and fetches the rest only when their bytes stay within `maxBytes`. Never throws: the
	 * outcome is in the progress (`state`, `error`, `failed`).
	 */
	async prefetch(
		target: RepoTarget,
		revision: string,
		options: PrefetchOptions,
		progress: MirrorPrefetchProgress = newProgress("prefetch", target, revision, options.maxBytes),
	): Promise<MirrorPrefetchProgress> {
		const prefix = target.type === "dataset" ? "datasets/" : "";
		const api = target.type === "dataset" ? "datasets" : "models";
		const fail = (path: string, error: unknown): void => {
			progress.failures++;
			if (progress.failed.length < FAILURES_KEPT)
				progress.failed.push({ path, error: error instanceof Error ? error.message : String(error) });
		};
		/** Runs `each` over `items`, `concurrency` at a time, until the hub stops. */
		const pool = async <T>(items: T[], each: (item: T) => Promise<void>): Promise<void> => {
			const queue = [...items];
			const worker = async (): Promise<void> => {
				for (let item = queue.shift(); item !== undefined && !this.closing; item = queue.shift())
					await each(item);
			};
			await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
		};
		try {
			const answer = await this.answer(target, {
				method: "GET",
				pathAndQuery: `/api/${api}/${encodePath(target.id)}/revision/${encodeURIComponent(revision)}`,
				immutable: COMMIT_ID.test(revision),
				revision,
			});
			const commit = commitOfInfo(JSON.parse(answer.body.toString("utf8")));
			if (!commit) {
				throw new HubError("BadGateway", `the upstream hub ${this.upstream} listed no files of ${target.id}`);
			}
			progress.commitId = commit.sha;
			progress.files = commit.paths.length;
			const toFetch: MirrorFile[] = [];
			await pool(commit.paths, async (path) => {
				try {
					const file = await this.file(target, prefix, commit.sha, path);
					if (await this.storedAlready(target, file)) progress.cached++;
					else toFetch.push(file);
				} catch (error) {
					fail(path, error);
				}
				progress.sized++;
			});
			const bytes = toFetch.reduce((sum, file) => sum + file.size, 0);
			progress.bytesToFetch = bytes;
			if (bytes > options.maxBytes) {
				throw new HubError(
					"TooLarge",
					`${target.id}@${revision} has ${bytes} bytes to fetch, more than this prefetch's limit of ${options.maxBytes}`,
				);
			}
			progress.state = "fetching";
			await pool(toFetch, async (file) => {
				try {
					const transfer = await this.transferOf(target, this.scopeOf(target), prefix, file);
					await transfer.done;
					progress.fetched++;
					progress.fetchedBytes += file.size;
				} catch (error) {
					fail(file.path, error);
				}
			});
			if (this.closing) throw new Error("the hub stopped before the prefetch was done");
			progress.state = "complete";
		} catch (error) {
			progress.state = "failed";
			progress.error = error instanceof Error ? error.message : String(error);
		}
		progress.finishedAt = new Date().toISOString();
		return progress;
	}

	/** Opens the upstream's bytes of a file (redirects to its storage hosts followed, without the token). */
	private async download(
		target: RepoTarget,
		scope: UpstreamScope,
		prefix: string,
		file: MirroredFile,
	): Promise<AsyncIterable<Uint8Array>> {
		const url = this.upstreamUrl(
			`/${prefix}${encodePath(target.id)}/resolve/${file.commitId}/${encodePath(file.path)}`,
		);
		let response: OutboundResponse;
		try {
			response = await outboundRequest(this.context.settings.outbound, {
				method: "GET",
				url,
				credential: this.credentialOf(scope),
				redirects: { allowHost: (host) => hostAllowed(this.context.settings.storageHosts, host) },
			});
		} catch (error) {
			throw this.gatewayError(error);
		}
		this.counters.upstreamFetches++;
		if (response.status !== 200) {
			const body = await readBounded(response, 64 * 1024).catch(() => Buffer.alloc(0));
			throw response.status >= 400 && response.status < 500
				? this.passedOn(response, body)
				: new HubError(
						"BadGateway",
						`the upstream hub ${this.upstream} answered ${response.status} for ${file.path}`,
					);
		}
		const length = response.headers.get("content-length");
		if (length !== null && length.trim() !== String(file.size)) {
			response.discard();
			throw new HubError(
				"BadGateway",
				`the upstream hub ${this.upstream} sent ${file.path} with ${length.slice(0, 20)} bytes, not the ${file.size} it announced`,
			);
		}
		return response.body;
	}

	private upstreamUrl(pathAndQuery: string): URL {
		return new URL(`${this.context.settings.url}${pathAndQuery}`);
	}

	/** The upstream's Link rel="next" as a path of this hub (same API shape), when it is the upstream's own. */
	private nextPathOf(link: string | null): string | undefined {
		if (link === null) return undefined;
		const match = /<([^>]+)>\s*;\s*rel="?next"?/i.exec(link);
		if (!match?.[1]) return undefined;
		try {
			const next = new URL(match[1], this.context.settings.url);
			const base = new URL(this.context.settings.url);
			if (next.origin !== base.origin || !next.pathname.startsWith(base.pathname.replace(/\/$/, "")))
				return undefined;
			return `${next.pathname.slice(base.pathname.replace(/\/$/, "").length)}${next.search}`;
		} catch {
			return undefined;
		}
	}

	/** An upstream error answer passed on as it was: status, message, X-Error-Code (GatedRepo included). */
	private passedOn(response: OutboundResponse, body: Buffer): HubError {
		let message = response.headers.get("x-error-message") ?? undefined;
		try {
			const parsed = JSON.parse(body.toString("utf8")) as { error?: unknown };
			if (typeof parsed.error === "string") message = parsed.error;
		} catch {
			// not JSON: the header's message, or the status's
		}
		const status = response.status;
		const code = response.headers.get("x-error-code");
		const headers: Record<string, string> = {};
		if (code !== null && /^[A-Za-z]{1,40}$/.test(code)) headers["x-error-code"] = code;
		const shown = headerText((message ?? `the upstream hub answered ${status}`).slice(0, 500));
		if (code !== null || response.headers.get("x-error-message") !== null) headers["x-error-message"] = shown;
		const kind = status >= 500 ? "BadGateway" : kindOfStatus(status);
		return new HubError(kind, message?.slice(0, 500) ?? `the upstream hub answered ${status}`, { headers });
	}

	private gatewayError(error: unknown): unknown {
		if (!(error instanceof OutboundError)) return error;
		return new HubError(
			error.failure === "timeout" ? "GatewayTimeout" : "BadGateway",
			`the upstream hub ${this.upstream} could not be read: ${error.message}`,
		);
	}
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isGatewayError(error: unknown): boolean {
	return error instanceof HubError && (error.kind === "BadGateway" || error.kind === "GatewayTimeout");
}

/** The commit and file paths of a model or dataset info answer (`sha`, `siblings[].rfilename`). */
function commitOfInfo(value: unknown): { sha: string; paths: string[] } | undefined {
	if (typeof value !== "object" || value === null) return undefined;
	const { sha, siblings } = value as { sha?: unknown; siblings?: unknown };
	if (typeof sha !== "string" || !COMMIT_ID.test(sha) || !Array.isArray(siblings)) return undefined;
	const paths: string[] = [];
	for (const sibling of siblings as unknown[]) {
		const name = (sibling as { rfilename?: unknown } | null)?.rfilename;
		if (typeof name !== "string") return undefined;
		paths.push(name);
	}
	return { sha, paths };
}

/** The repository's rows of a scope: the token's are kept apart (`model@token`), the public's as `model`. */
function repoKey(target: Pick<RepoTarget, "type" | "id">, scope: UpstreamScope): MirrorRepo {
	return { type: scope === "token" ? `${target.type}@token` : target.type, id: target.id };
}

function toAnswer(kept: { body: string; nextPath: string | null; ageSeconds: number }): MirrorAnswer {
	return {
		body: Buffer.from(kept.body),
		nextPath: kept.nextPath ?? undefined,
		ageSeconds: Math.floor(kept.ageSeconds),
	};
}

function newProgress(
	id: string,
	target: Pick<RepoTarget, "type" | "id">,
	revision: string,
	maxBytes: number,
): MirrorPrefetchProgress {
	return {
		id,
		type: target.type === "dataset" ? "dataset" : "model",
		repo: target.id,
		revision,
		state: "sizing",
		commitId: null,
		files: 0,
		sized: 0,
		bytesToFetch: null,
		maxBytes,
		fetched: 0,
		fetchedBytes: 0,
		cached: 0,
		failures: 0,
		failed: [],
		error: null,
		startedAt: new Date().toISOString(),
		finishedAt: null,
	};
}
