/**
 * The admin API (`/api/admin/*`, authorised by MODELHUB_ADMIN_TOKEN): users and their tokens,
 * organisations and their members, the audit log.
 */
import type { AuditAction } from "../vocabulary.js";
import type { OrgRole, TokenRole } from "./accounts.js";

/** The actions the audit log records (src/vocabulary.ts). */
export type { AuditAction };

/** The body of `POST /api/admin/users`. */
export interface CreateUserRequest {
	name: string;
	fullname?: string;
}

/** A new user and the write token made with it (the secret is shown once). */
export interface CreatedUser {
	name: string;
	token: string;
}

/** One user of `GET /api/admin/users`. */
export interface AdminUser {
	name: string;
	fullname: string;
	/** ISO 8601, UTC. */
	createdAt: string;
	orgs: Array<{ name: string; role: OrgRole }>;
}

/** The body of `POST /api/admin/users/{user}/tokens`; `role` and `displayName` are accepted for `scope` and `name`. */
export interface CreateTokenRequest {
	/** `write` by default. */
	scope?: TokenRole;
	role?: TokenRole;
	name?: string;
	displayName?: string;
}

/** A new token (the secret is shown once). */
export interface CreatedToken {
	/** The user's name. */
	name: string;
	token: string;
	id: string;
	scope: TokenRole;
	displayName: string;
}

/** One token of `GET /api/admin/users/{user}/tokens` (never its secret). */
export interface AdminToken {
	id: string;
	displayName: string;
	scope: TokenRole;
	createdAt: string;
	lastUsedAt: string | null;
	revokedAt: string | null;
}

/** The answer of `DELETE /api/admin/tokens/{id}`. */
export interface RevokedToken {
	id: string;
	/** The user's name. */
	name: string;
	revokedAt: string | null;
}

export interface OrgMember {
	user: string;
	role: OrgRole;
}

/** The body of `POST /api/admin/orgs`. */
export interface CreateOrgRequest {
	name: string;
	fullname?: string;
	members?: OrgMember[];
}

/** The answer of `POST /api/admin/orgs`: the organisation and its members as stored. */
export interface CreatedOrg {
	name: string;
	members: OrgMember[];
}

/** One organisation of `GET /api/admin/orgs`. */
export interface AdminOrg {
	name: string;
	fullname: string;
	members: OrgMember[];
}

/** The body of `PUT /api/admin/orgs/{org}/members/{user}`. */
export interface SetMemberRequest {
	role: OrgRole;
}

/** The answer of `PUT /api/admin/orgs/{org}/members/{user}` (names as stored). */
export interface Membership {
	org: string;
	user: string;
	role: OrgRole;
}

/** The answer of `DELETE /api/admin/orgs/{org}/members/{user}`. */
export interface RemovedMember {
	removed: true;
}

/** The query parameters of `GET /api/admin/audit` (newest first; the next page is in `Link`). */
export interface AuditParameters {
	limit?: number;
	/** Entries with a smaller id. */
	before?: number;
	repo?: string;
	actor?: string;
	action?: AuditAction;
}

/** One audit log entry: who did what, with which token (its id), from where. */
export interface AuditLogEntry {
	id: number;
	/** ISO 8601, UTC. */
	at: string;
	/** A user, `@admin` for the admin token, `@cli` for the command line. */
	actor: string;
	tokenId: string | null;
	action: AuditAction;
	repo: string | null;
	ip: string | null;
	details: Record<string, unknown>;
}

export interface AuditPage {
	entries: AuditLogEntry[];
	/** The `before` of the next page. */
	next?: number;
}

/**
 * The body of `PUT /api/admin/accounts/{name}/quota`: a number of bytes, `"unlimited"`, or
 * `"default"` (the configured MODELHUB_QUOTA_USER_BYTES / MODELHUB_QUOTA_ORG_BYTES). Answered with the
 * account's storage (`AccountStorageInfo`).
 */
export interface SetQuotaRequest {
	bytes: number | "unlimited" | "default";
}

/** The body of `POST /api/admin/gc`: `dryRun` reports what would be reclaimed without deleting. */
export interface GcRequest {
	dryRun?: boolean;
}

/** What one kind of thing the collector found: how many, and their bytes. */
export interface GcTally {
	count: number;
	bytes: number;
}

/** The answer of `POST /api/admin/gc` (and `modelhub-hub gc --json`). */
export interface GcReport {
	dryRun: boolean;
	/** Uploaded objects no commit took within MODELHUB_GC_UPLOAD_MAX_AGE_SECONDS (their rows). */
	staleUploads: GcTally;
	/** Xet xorbs older than MODELHUB_GC_XORB_MAX_AGE_SECONDS (their rows). */
	expiredXorbs: GcTally;
	/** Blobs nothing refers to any more (row and bytes). */
	unreferencedBlobs: GcTally;
	/** Stored bytes with no row at all (left by a crash between storing and recording). */
	orphanedObjects: GcTally;
	/**
	 * Trees and tree chunks no commit reaches (left by deleted repositories and removed history): database
	 * rows, counted in bytes of their packed entries (not in reclaimedBytes, which is file storage).
	 */
	orphanedTrees: GcTally;
	/**
	 * Temporary files, unfinished multipart uploads and aborted git pushes' quarantines older than
	 * MODELHUB_GC_TEMP_MAX_AGE_SECONDS.
	 */
	temporaries: GcTally;
	/** Bytes of storage reclaimed (or that would be): blobs, orphans and temporaries. */
	reclaimedBytes: number;
}

/** A repository pinned in mirror mode's cache (its files are never evicted). */
export interface MirrorPinnedRepo {
	type: "model" | "dataset";
	id: string;
}

/**
 * The answer of `GET /api/admin/mirror` (mirror mode, MODELHUB_UPSTREAM_URL): what the cache of
 * upstream files holds and how it was used. Counters are since the hub started.
 */
export interface MirrorCacheStats {
	upstream: string;
	/** MODELHUB_MIRROR_CACHE_BYTES; null: no budget. */
	budgetBytes: number | null;
	/** Bytes of the stored upstream files (each distinct content once). */
	usedBytes: number;
	/** Upstream files whose bytes are stored (per repository scope and commit). */
	files: number;
	/** Repositories with at least one stored file. */
	repos: number;
	/** Downloads served from storage. */
	hits: number;
	/** Downloads that were not in storage: fetched from the upstream, or followed a fetch under way. */
	misses: number;
	/** Fetches from the upstream started. */
	upstreamFetches: number;
	/** Blobs dropped from the cache to stay within the budget, and their bytes. */
	evictions: number;
	evictedBytes: number;
	/** Fetches from the upstream under way now. */
	transfersInFlight: number;
	/** Pinned in the database (PUT /api/admin/mirror/pins) and by MODELHUB_MIRROR_PINNED. */
	pinned: MirrorPinnedRepo[];
	pinnedByConfig: string[];
}

/** The body of `PUT /api/admin/mirror/pins`: pins (or unpins) a mirrored repository. */
export interface MirrorPinRequest {
	type?: "model" | "dataset";
	repo: string;
	pinned: boolean;
}

/** The body of `POST /api/admin/mirror/prefetch`: fetch every file of an upstream revision into the cache. */
export interface MirrorPrefetchRequest {
	type?: "model" | "dataset";
	repo: string;
	/** Default `main`. */
	revision?: string;
	/** Read as a signed-in user would (with the upstream token). */
	withToken?: boolean;
	/** Files fetched at once (1–32, default 4). */
	concurrency?: number;
	/** Refuse when the files to fetch have more bytes than this (never more than the hub's own limit). */
	maxBytes?: number;
}

/**
 * A prefetch and how far it got (`POST` and `GET /api/admin/mirror/prefetch[/{id}]`, and the CLI's
 * `mirror prefetch`): sizing (asking the upstream what each file is), then fetching the ones not cached.
 */
export interface MirrorPrefetchProgress {
	id: string;
	type: "model" | "dataset";
	repo: string;
	revision: string;
	state: "sizing" | "fetching" | "complete" | "failed";
	/** The revision's commit, once the upstream named it. */
	commitId: string | null;
	/** Files of the commit. */
	files: number;
	/** Files sized so far. */
	sized: number;
	/** Bytes of the files to fetch (not cached yet), once all are sized. */
	bytesToFetch: number | null;
	/** The bound on bytesToFetch this prefetch had. */
	maxBytes: number;
	/** Files fetched from the upstream, and their bytes. */
	fetched: number;
	fetchedBytes: number;
	/** Files whose bytes were stored already. */
	cached: number;
	/** Files that could not be fetched, and the first few of them with why. */
	failures: number;
	failed: Array<{ path: string; error: string }>;
	/** Why the whole prefetch failed (the upstream unreachable, over maxBytes, the hub stopping). */
	error: string | null;
	startedAt: string;
	finishedAt: string | null;
}
