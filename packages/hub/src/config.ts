import { existsSync, statSync } from "node:fs";
import { SMALL_BLOB_LIMIT_BYTES } from "./blobs/small.js";
import { parseAddressPolicy } from "./webhooks/address-policy.js";
import { DEFAULT_WEBHOOK_SETTINGS, type WebhookSettings } from "./webhooks/settings.js";
import { DEFAULT_AUTH_LIMITS } from "./accounts/auth-limits.js";
import { DEFAULT_PASSWORD_COST, PASSWORD_COST_BOUNDS, type PasswordCost } from "./accounts/passwords.js";
import type { SessionLifetime } from "./accounts/sessions.js";
import {
	DEFAULT_OIDC_FLOW_SECONDS,
	DEFAULT_OIDC_SCOPES,
	OIDC_CALLBACK_PATH,
	type OidcSettings,
} from "./accounts/oidc.js";
import type { SignupMode } from "./api/sessions.js";
import { tmpdir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { DEFAULT_SHUTDOWN_SETTINGS, type ShutdownSettings } from "./connections.js";
import { DEFAULT_PARSE_SETTINGS, type ParseSettings } from "./parsing/pool.js";
import { repoRoot } from "./paths.js";
import { DEFAULT_SERVING_CACHE_SETTINGS, type ServingCacheSettings } from "./serving/cache.js";
import { DEFAULT_VIEWER_SETTINGS, type ViewerSettings } from "./viewer/settings.js";
import { DEFAULT_TOKEN_CACHE_SETTINGS, type TokenCacheSettings } from "./accounts/token-cache.js";
import { DEFAULT_TREE_CACHE_BYTES } from "./repos/trees.js";
import { DEFAULT_GIT_SETTINGS, type GitSettings } from "./git/serve.js";
import { DEFAULT_GROUP_WRITES } from "./storage/disk.js";
import {
	DEFAULT_UPSTREAM_SETTINGS,
	PUBLIC_HUB_STORAGE_HOSTS,
	type UpstreamSettings,
} from "./mirror/settings.js";

/** Everything the hub reads from its environment, parsed and checked once at start. */
export interface HubConfig {
	port: number;
	host: string;
	/** PostgreSQL connection string; when absent the embedded PGlite database is used. */
	databaseUrl: string | undefined;
	/** Connections to PostgreSQL and statements kept prepared on each (unused with PGlite). */
	postgresPool: PostgresPoolSettings;
	/** Folder for the embedded database (`<dir>/pglite`) and its lock file; `memory://` keeps it in memory. */
	dataDir: string;
	/** Admin token for writes; writes are refused when it is not set. */
	adminToken: string | undefined;
	/** Folder of the built web app, or undefined when there is none (a small built-in page is served). */
	webDir: string | undefined;
	logLevel: LogLevel;
	/** Trust X-Forwarded-* headers (set when the hub runs behind a reverse proxy or load balancer). */
	trustProxy: boolean;
	/** Largest accepted request body, in bytes. */
	bodyLimit: number;
	/** How a stop treats requests in flight: their grace, and when quiet connections are closed. */
	shutdown: ShutdownSettings;
	/** Where file bytes are stored. */
	storage: StorageConfig;
	/** Byte budget of the response cache. */
	cacheBytes: number;
	/** Byte budget of the parsed-tree cache (packed bytes of git trees, src/repos/trees.ts). */
	treeCacheBytes: number;
	/** Longest time a client may take to send a request's headers. */
	headersTimeoutMs: number;
	/** Longest time a client may take to send a whole request (headers and body). */
	requestTimeoutMs: number;
	/** Largest file an import or upload stores. */
	maxFileBytes: number;
	/** Limits and settings of uploads through the API. */
	uploads: UploadSettings;
	/** The URL clients reach the hub at (for URLs the hub hands out); the request's own when unset. */
	publicUrl: string | undefined;
	/** Authentication failures allowed per client address and window before its credential attempts get 429s. */
	authFailureLimit: number;
	/** Failures allowed per credential tried (a hash of it) and window before it gets 429s. */
	authCredentialFailureLimit: number;
	authFailureWindowMs: number;
	/** Credentials and addresses tracked at most (each) by the failure limits. */
	authFailureTracked: number;
	/** Who recently used access tokens are, remembered (src/accounts/token-cache.ts). */
	tokenCache: TokenCacheSettings;
	/** `POST /api/validate-yaml` calls allowed per minute, per address (anonymous) or per account. */
	validateYamlPerMinute: number;
	/** The worker threads that parse cards and weights' headers (src/parsing/pool.ts). */
	parsing: ParseSettings;
	/** How download counts are written and bounded (src/downloads/counter.ts). */
	downloads: DownloadCountingSettings;
	/** What serving files remembers between requests (src/serving/cache.ts). */
	serving: ServingCacheSettings;
	/** The dataset viewer's limits (src/viewer/settings.ts). */
	viewer: ViewerSettings;
	/** Git serving: where the bare caches live, its bounds (src/git/serve.ts). */
	git: Partial<GitSettings>;
	/** Storage quotas and the repository creation rate (src/quota/). */
	accountLimits: AccountLimits;
	/** The collector of unreferenced bytes (src/gc/). */
	gc: GcSettings;
	/** Bounds of discussions and pull requests (src/services/discussions.ts). */
	discussions: DiscussionLimits;
	/** Sign-up, browser sessions and password hashing (src/services/sessions.ts). */
	selfService: SelfServiceSettings;
	/** Mirror mode: the upstream hub whose repositories are served and cached here (src/mirror/). */
	upstream: UpstreamSettings | undefined;
	/** Where webhooks may deliver, their retries and bounds (src/services/webhooks.ts). */
	webhooks: WebhookSettings;
}

/** Who may join, how long browser sessions last, what a password hash costs. */
export interface SelfServiceSettings {
	signup: SignupMode;
	session: SessionLifetime;
	passwordCost: PasswordCost;
	/** How long an invite link stays valid unless the admin says otherwise. */
	inviteSeconds: number;
	/** Sign-ups allowed per client address and hour (each costs a password hash and an account). */
	signupsPerHour: number;
	/** Single sign-on with an OpenID Connect provider, when MODELHUB_OIDC_ISSUER is set. */
	oidc?: OidcSettings | undefined;
}

export const SIGNUP_MODES: readonly SignupMode[] = ["open", "invite", "closed"];

/**
 * `invite` by default: a self-hosted hub is often reachable by more people than should hold accounts
 * on it (a company network, the internet), and each account may store files; with invitations only
 * those the admin sends a link to may join, without the admin typing their passwords.
 */
export const DEFAULT_SELF_SERVICE: SelfServiceSettings = {
	signup: "invite",
	session: { idleSeconds: 7 * 24 * 3600, maxSeconds: 30 * 24 * 3600 },
	passwordCost: DEFAULT_PASSWORD_COST,
	inviteSeconds: 7 * 24 * 3600,
	signupsPerHour: 10,
};

/** What one account may hold and do; `null` quota = unlimited. */
export interface AccountLimits {
	/** Bytes a user's namespace may hold, unless the admin set the user's own quota. */
	userQuotaBytes: number | null;
	/** Bytes an organisation's namespace may hold, unless the admin set its own quota. */
	orgQuotaBytes: number | null;
	/** Repositories one account may create per minute (0: no limit). */
	repoCreatePerMinute: number;
}

export const DEFAULT_ACCOUNT_LIMITS: AccountLimits = {
	userQuotaBytes: null,
	orgQuotaBytes: null,
	repoCreatePerMinute: 30,
};

/** The garbage collector: when it runs, and what it may take (all ages in milliseconds). */
export interface GcSettings {
	/** How often a hub process runs it (0: never; `modelhub-hub gc` runs it by hand). */
	intervalMs: number;
	/** Bytes stored or handed to a writer this recently are never collected (a commit may be on its way). */
	graceMs: number;
	/** Uploaded objects (LFS, Xet) no commit took within this long are dropped. */
	uploadMaxAgeMs: number;
	/** Xet xorbs are kept this long (hf_xet's local cache may refer to them in later uploads). */
	xorbMaxAgeMs: number;
	/** Temporary files (crashed uploads, spools) older than this are removed. */
	tempMaxAgeMs: number;
	/** Rows the tree collector reads, marks or deletes per query (its memory is about one such page). */
	treeBatch: number;
}

const HOUR_MS = 3_600_000;
export const DEFAULT_GC_SETTINGS: GcSettings = {
	intervalMs: HOUR_MS,
	graceMs: 24 * HOUR_MS,
	uploadMaxAgeMs: 7 * 24 * HOUR_MS,
	xorbMaxAgeMs: 14 * 24 * HOUR_MS,
	tempMaxAgeMs: HOUR_MS,
	treeBatch: 1000,
};

/** Download counting: how often counts are written, and the windows of one count per client and model
 * file, and per client and dataset. */
export interface DownloadCountingSettings {
	flushIntervalMs: number;
	dedupeWindowMs: number;
	repositoryWindowMs: number;
}

/** Upload limits (all sizes in bytes). */
export interface UploadSettings {
	/** Largest file sent inline in a commit (base64 in NDJSON, or a regular multipart part): larger
	 * files go through LFS or Xet. At most 10 MiB, the size up to which files keep a git blob id. */
	maxRegularFileBytes: number;
	/** Most operations (added, deleted, copied files) in one commit. */
	maxCommitOperations: number;
	/** A stalled upload (no bytes for this long) is cut off. */
	idleTimeoutMs: number;
	/** Speak the Xet upload protocol (huggingface_hub's default with hf_xet installed). */
	xet: boolean;
	/** Steps one preupload request may spend matching `.gitignore` rules against its paths (then 400). */
	gitignoreMaxSteps: number;
	/**
	 * The longest a commit's files stored as they arrive wait to be made durable and kept from the
	 * collector (they are otherwise published 256 at a time, services/uploads.ts).
	 */
	stagedMaxMs: number;
	/**
	 * A commit's files of at most this many bytes are kept in the database (src/blobs/small.ts), not as a
	 * file each; 0 keeps every file in the file store.
	 */
	smallBlobMaxBytes: number;
	/** Bytes a Xet shard may rebuild per byte of the distinct uploaded chunks it uses (src/xet/plan.ts). */
	xetMaxExpansion: number;
	/** Bytes a Xet shard may rebuild beyond `xetMaxExpansion` times its chunks' bytes. */
	xetExpansionAllowanceBytes: number;
	/** Bytes of zero regions (hashed, not written) a Xet shard may rebuild (src/xet/plan.ts). */
	xetMaxZeroBytes: number;
	/**
	 * Terms a file uploaded through Xet may have to be kept as its recipe (a database row each,
	 * src/xet/files.ts); a file of more is written as a file of its own.
	 */
	xetMaxRecipeTerms: number;
	/**
	 * Bytes of files (LFS and Xet objects, and files sent with its commits) one account may upload to a
	 * repository it may only open pull requests on (no write access); with its Xet xorbs, bounded by the
	 * same figure.
	 */
	pullRequestMaxBytes: number;
}

/** The bounds of discussions (MODELHUB_DISCUSSION_* and MODELHUB_PR_DIFF_MAX_BYTES). */
export interface DiscussionLimits {
	/** Largest comment (and description) in bytes of UTF-8. */
	maxCommentBytes: number;
	/** Discussions and pull requests one repository may have in all. */
	maxPerRepo: number;
	/** Events (comments, status and title changes, commits) one discussion may have. */
	maxEvents: number;
	/** Discussions per page of a listing. */
	pageSize: number;
	/** Bytes of a pull request's diff shown at most (the rest is cut, `diffTruncated`). */
	maxDiffBytes: number;
	/** Changed files a pull request's diff and merge consider at most. */
	maxFiles: number;
}

export const DEFAULT_DISCUSSION_LIMITS: DiscussionLimits = {
	maxCommentBytes: 64 * 1024,
	maxPerRepo: 10_000,
	maxEvents: 1000,
	pageSize: 50,
	maxDiffBytes: 1024 * 1024,
	maxFiles: 1000,
};

/** Local disk (under the data folder) or an S3-compatible bucket. */
export type StorageConfig =
	| {
			kind: "disk";
			dir: string | undefined;
			/** A group's writes and flushes in flight, and their bytes in memory (storage/disk.ts). */
			groupWrites?: { files: number; bytes: number };
	  }
	| {
			kind: "s3";
			endpoint: URL;
			bucket: string;
			region: string;
			accessKeyId: string;
			secretAccessKey: string;
			pathStyle: boolean;
			prefix: string;
			partSize: number;
			/** Redirect downloads of LFS files to presigned URLs at this address (clients must reach it). */
			presignedDownloads: URL | undefined;
			spoolDir: string;
	  };

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const DEFAULT_BODY_LIMIT = 1024 * 1024;
export const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;

export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
const MIB = 1024 * 1024;
export const DEFAULT_MAX_FILE_BYTES = 50 * 1024 * MIB;
export const DEFAULT_UPLOAD_SETTINGS: UploadSettings = {
	maxRegularFileBytes: 10 * MIB,
	maxCommitOperations: 25_000,
	idleTimeoutMs: 60_000,
	xet: true,
	// A 60-rule Python .gitignore against 256 paths (huggingface_hub's batch) takes about 70,000 steps;
	// the bound keeps a hostile one to about a second here.
	gitignoreMaxSteps: 10_000_000,
	stagedMaxMs: 10_000,
	// Configs, tokenizer files, cards and code: 64 KiB holds most of a model's or dataset's small files
	// (a commit of 10,000 of them is then a few INSERTs, not 10,000 flushed files).
	smallBlobMaxBytes: 64 * 1024,
	// LZ4 shrinks text and JSON 2–10 times and weights barely; a ratio of 64 refuses only files that repeat
	// the same chunks (a sparse or zero-filled file), which the allowance lets through up to 16 MiB.
	xetMaxExpansion: 64,
	xetExpansionAllowanceBytes: 16 * MIB,
	// Zero regions cost their hashing only (about 0.6 s of CPU per GiB here): 8 GiB bounds what one
	// shard of a few hundred bytes can cost to about 5 s, and lets zero-filled files of that size through.
	xetMaxZeroBytes: 8 * 1024 * MIB,
	// hf_xet makes a term per run of chunks in one xorb (xorbs hold up to 64 MiB): a 50 GiB file is about
	// 800 terms, more where its chunks are shared with other files.
	xetMaxRecipeTerms: 10_000,
	// A reader's proposals can hold a few large checkpoints; more needs a writer (or this raised).
	pullRequestMaxBytes: 20 * 1024 * MIB,
};

/** How the hub uses a PostgreSQL server (db/postgres.ts). */
export interface PostgresPoolSettings {
	/** Connections the hub opens at most; requests beyond them wait for one. */
	size: number;
	/**
	 * Distinct statement texts the hub prepares (named statements, planned once per connection); 0 turns
	 * preparing off. Bounded because every connection keeps each one it has run.
	 */
	preparedStatements: number;
}

export const DEFAULT_POSTGRES_POOL: PostgresPoolSettings = { size: 10, preparedStatements: 100 };

/** A configuration value that cannot be used; the CLI prints the message and exits with status 2. */
export class ConfigError extends Error {
	override name = "ConfigError";
}

type Env = Record<string, string | undefined>;

function nonEmpty(value: string | undefined): string | undefined {
	if (value === undefined) return undefined;
	const trimmed = value.trim();
	return trimmed === "" ? undefined : trimmed;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
	const raw = nonEmpty(env[name]);
	if (raw === undefined) return fallback;
	if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got ${JSON.stringify(raw)}`);
	const value = Number(raw);
	if (value < min || value > max)
		throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
	return value;
}

/** A byte count, or `unlimited` (null). */
function quota(env: Env, name: string, fallback: number | null): number | null {
	const raw = nonEmpty(env[name]);
	if (raw === undefined) return fallback;
	if (raw.toLowerCase() === "unlimited") return null;
	return integer(env, name, 0, 0, Number.MAX_SAFE_INTEGER);
}

function boolean(env: Env, name: string): boolean {
	const raw = nonEmpty(env[name])?.toLowerCase();
	if (raw === undefined) return false;
	if (["1", "true", "yes", "on"].includes(raw)) return true;
	if (["0", "false", "no", "off"].includes(raw)) return false;
	throw new ConfigError(`${name} must be true or false, got ${JSON.stringify(raw)}`);
}

/** Reads the configuration from `env` (process.env by default). Throws ConfigError on bad values. */
/** MODELHUB_GIT_*: git serving's cache directory and bounds. */
function gitSettings(env: Env, dataDir: string): Partial<GitSettings> {
	const d = DEFAULT_GIT_SETTINGS;
	const dir = nonEmpty(env.MODELHUB_GIT_DIR) ?? (dataDir === "memory://" ? undefined : join(dataDir, "git"));
	return {
		...(dir === undefined ? {} : { dir }),
		maxRequestBytes: integer(env, "MODELHUB_GIT_MAX_REQUEST_BYTES", d.maxRequestBytes, 1024, 2 ** 40),
		timeoutSeconds: integer(env, "MODELHUB_GIT_TIMEOUT_SECONDS", d.timeoutSeconds, 1, 86_400),
		maxProcesses: integer(env, "MODELHUB_GIT_MAX_PROCESSES", d.maxProcesses, 1, 1024),
		maxPushBytes: integer(env, "MODELHUB_GIT_MAX_PUSH_BYTES", d.maxPushBytes, 1024, 2 ** 40),
		maxPushCommits: integer(env, "MODELHUB_GIT_MAX_PUSH_COMMITS", d.maxPushCommits, 1, 1_000_000),
	};
}

/** MODELHUB_VIEWER_*: the dataset viewer's limits. */
function viewerSettings(env: Env): ViewerSettings {
	const d = DEFAULT_VIEWER_SETTINGS;
	return {
		spoolDir: nonEmpty(env.MODELHUB_VIEWER_SPOOL_DIR),
		spoolBytes: integer(env, "MODELHUB_VIEWER_SPOOL_BYTES", d.spoolBytes, 1024 * 1024, 2 ** 50),
		maxSplitBytes: integer(env, "MODELHUB_VIEWER_MAX_SPLIT_BYTES", d.maxSplitBytes, 1024, 2 ** 50),
		timeoutMs: integer(env, "MODELHUB_VIEWER_TIMEOUT_MS", d.timeoutMs, 100, 600_000),
		memoryMb: integer(env, "MODELHUB_VIEWER_MEMORY_MB", d.memoryMb, 64, 64 * 1024),
		threads: integer(env, "MODELHUB_VIEWER_THREADS", d.threads, 1, 64),
		concurrency: integer(env, "MODELHUB_VIEWER_CONCURRENCY", d.concurrency, 1, 256),
		queue: integer(env, "MODELHUB_VIEWER_QUEUE", d.queue, 0, 100_000),
		cellChars: integer(env, "MODELHUB_VIEWER_CELL_CHARS", d.cellChars, 100, 10_000_000),
		rowChars: integer(env, "MODELHUB_VIEWER_ROW_CHARS", d.rowChars, 100, 100_000_000),
		maxColumns: integer(env, "MODELHUB_VIEWER_MAX_COLUMNS", d.maxColumns, 1, 100_000),
		cacheBytes: integer(env, "MODELHUB_VIEWER_CACHE_BYTES", d.cacheBytes, 0, 2 ** 40),
	};
}

export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): HubConfig {
	const root = repoRoot();
	const port = integer(env, "PORT", 8080, 0, 65535);
	const host = nonEmpty(env.HOST) ?? "127.0.0.1";

	const databaseUrl = nonEmpty(env.DATABASE_URL);
	if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//i.test(databaseUrl)) {
		throw new ConfigError("DATABASE_URL must be a postgres:// or postgresql:// connection string");
	}

	const rawDataDir = nonEmpty(env.MODELHUB_DATA_DIR);
	const dataDir =
		rawDataDir === "memory://" ? rawDataDir : resolve(cwd, rawDataDir ?? join(root, ".modelhub-data"));

	const adminToken = nonEmpty(env.MODELHUB_ADMIN_TOKEN);
	if (adminToken !== undefined && (adminToken.length < 16 || /\s/.test(adminToken))) {
		throw new ConfigError(
			"MODELHUB_ADMIN_TOKEN must be at least 16 characters without spaces (e.g. the output of `openssl rand -hex 32`)",
		);
	}

	let webDir: string | undefined;
	const rawWebDir = nonEmpty(env.MODELHUB_WEB_DIR);
	if (rawWebDir !== undefined) {
		webDir = isAbsolute(rawWebDir) ? rawWebDir : resolve(cwd, rawWebDir);
		if (!isDirectory(webDir)) webDir = undefined;
	} else {
		const candidate = join(root, "apps", "web", "dist");
		webDir = isDirectory(candidate) ? candidate : undefined;
	}

	const rawLevel = nonEmpty(env.MODELHUB_LOG_LEVEL)?.toLowerCase() ?? "warn";
	if (!(LOG_LEVELS as readonly string[]).includes(rawLevel)) {
		throw new ConfigError(`MODELHUB_LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}`);
	}

	return {
		storage: storageConfig(env, dataDir),
		cacheBytes: integer(env, "MODELHUB_CACHE_BYTES", DEFAULT_CACHE_BYTES, 0, 16 * 1024 * MIB),
		treeCacheBytes: integer(env, "MODELHUB_TREE_CACHE_BYTES", DEFAULT_TREE_CACHE_BYTES, 0, 16 * 1024 * MIB),
		headersTimeoutMs: integer(env, "MODELHUB_HEADERS_TIMEOUT_MS", DEFAULT_HEADERS_TIMEOUT_MS, 1000, 600_000),
		requestTimeoutMs: integer(
			env,
			"MODELHUB_REQUEST_TIMEOUT_MS",
			DEFAULT_REQUEST_TIMEOUT_MS,
			1000,
			3_600_000,
		),
		maxFileBytes: integer(env, "MODELHUB_MAX_FILE_BYTES", DEFAULT_MAX_FILE_BYTES, 1, Number.MAX_SAFE_INTEGER),
		uploads: {
			maxRegularFileBytes: integer(
				env,
				"MODELHUB_MAX_REGULAR_FILE_BYTES",
				DEFAULT_UPLOAD_SETTINGS.maxRegularFileBytes,
				0,
				10 * MIB,
			),
			maxCommitOperations: integer(
				env,
				"MODELHUB_MAX_COMMIT_OPERATIONS",
				DEFAULT_UPLOAD_SETTINGS.maxCommitOperations,
				1,
				1_000_000,
			),
			idleTimeoutMs: integer(
				env,
				"MODELHUB_UPLOAD_IDLE_TIMEOUT_MS",
				DEFAULT_UPLOAD_SETTINGS.idleTimeoutMs,
				1000,
				3_600_000,
			),
			xet: env.MODELHUB_XET === undefined ? true : boolean(env, "MODELHUB_XET"),
			// Well under the temporaries sweep's age (MODELHUB_GC_TEMP_MAX_AGE_SECONDS, an hour by default):
			// a staged file is a temporary until it is published.
			stagedMaxMs: integer(
				env,
				"MODELHUB_COMMIT_STAGED_MAX_MS",
				DEFAULT_UPLOAD_SETTINGS.stagedMaxMs,
				0,
				600_000,
			),
			smallBlobMaxBytes: integer(
				env,
				"MODELHUB_SMALL_BLOB_MAX_BYTES",
				DEFAULT_UPLOAD_SETTINGS.smallBlobMaxBytes,
				0,
				SMALL_BLOB_LIMIT_BYTES,
			),
			gitignoreMaxSteps: integer(
				env,
				"MODELHUB_GITIGNORE_MAX_STEPS",
				DEFAULT_UPLOAD_SETTINGS.gitignoreMaxSteps,
				1000,
				Number.MAX_SAFE_INTEGER,
			),
			xetMaxExpansion: integer(
				env,
				"MODELHUB_XET_MAX_EXPANSION",
				DEFAULT_UPLOAD_SETTINGS.xetMaxExpansion,
				1,
				1_000_000,
			),
			xetExpansionAllowanceBytes: integer(
				env,
				"MODELHUB_XET_ALLOWANCE_BYTES",
				DEFAULT_UPLOAD_SETTINGS.xetExpansionAllowanceBytes,
				0,
				Number.MAX_SAFE_INTEGER,
			),
			xetMaxZeroBytes: integer(
				env,
				"MODELHUB_XET_MAX_ZERO_BYTES",
				DEFAULT_UPLOAD_SETTINGS.xetMaxZeroBytes,
				0,
				Number.MAX_SAFE_INTEGER,
			),
			xetMaxRecipeTerms: integer(
				env,
				"MODELHUB_XET_MAX_RECIPE_TERMS",
				DEFAULT_UPLOAD_SETTINGS.xetMaxRecipeTerms,
				0,
				1_000_000,
			),
			pullRequestMaxBytes: integer(
				env,
				"MODELHUB_PR_UPLOAD_MAX_BYTES",
				DEFAULT_UPLOAD_SETTINGS.pullRequestMaxBytes,
				0,
				Number.MAX_SAFE_INTEGER,
			),
		},
		publicUrl: url(env, "MODELHUB_PUBLIC_URL")?.origin,
		authFailureLimit: integer(
			env,
			"MODELHUB_AUTH_FAILURE_LIMIT",
			DEFAULT_AUTH_LIMITS.perAddress,
			1,
			1_000_000,
		),
		authCredentialFailureLimit: integer(
			env,
			"MODELHUB_AUTH_TOKEN_FAILURE_LIMIT",
			DEFAULT_AUTH_LIMITS.perCredential,
			1,
			1_000_000,
		),
		authFailureWindowMs: integer(
			env,
			"MODELHUB_AUTH_FAILURE_WINDOW_MS",
			DEFAULT_AUTH_LIMITS.windowMs,
			1000,
			86_400_000,
		),
		authFailureTracked: integer(
			env,
			"MODELHUB_AUTH_FAILURE_TRACKED",
			DEFAULT_AUTH_LIMITS.maxEntries,
			100,
			10_000_000,
		),
		tokenCache: {
			maxEntries: integer(
				env,
				"MODELHUB_TOKEN_CACHE_ENTRIES",
				DEFAULT_TOKEN_CACHE_SETTINGS.maxEntries,
				0,
				10_000_000,
			),
			ttlMs: integer(env, "MODELHUB_TOKEN_CACHE_TTL_MS", DEFAULT_TOKEN_CACHE_SETTINGS.ttlMs, 0, 3_600_000),
		},
		validateYamlPerMinute: integer(env, "MODELHUB_VALIDATE_YAML_PER_MINUTE", 60, 1, 1_000_000),
		parsing: {
			workers: integer(env, "MODELHUB_PARSE_WORKERS", DEFAULT_PARSE_SETTINGS.workers, 1, 64),
			maxQueued: integer(env, "MODELHUB_PARSE_QUEUE", DEFAULT_PARSE_SETTINGS.maxQueued, 0, 100_000),
			timeoutMs: integer(env, "MODELHUB_PARSE_TIMEOUT_MS", DEFAULT_PARSE_SETTINGS.timeoutMs, 1, 600_000),
			memoryMb: integer(
				env,
				"MODELHUB_PARSE_WORKER_MEMORY_MB",
				DEFAULT_PARSE_SETTINGS.memoryMb,
				64,
				64 * 1024,
			),
		},
		downloads: {
			flushIntervalMs: integer(env, "MODELHUB_DOWNLOAD_FLUSH_MS", 5_000, 10, 600_000),
			dedupeWindowMs: integer(env, "MODELHUB_DOWNLOAD_DEDUPE_SECONDS", 3_600, 0, 86_400) * 1000,
			repositoryWindowMs: integer(env, "MODELHUB_DATASET_DOWNLOAD_SECONDS", 300, 0, 86_400) * 1000,
		},
		viewer: viewerSettings(env),
		git: gitSettings(env, dataDir),
		serving: {
			metadataBytes: integer(
				env,
				"MODELHUB_RESOLVE_CACHE_BYTES",
				DEFAULT_SERVING_CACHE_SETTINGS.metadataBytes,
				0,
				16 * 1024 * MIB,
			),
			blobBytes: integer(
				env,
				"MODELHUB_BLOB_CACHE_BYTES",
				DEFAULT_SERVING_CACHE_SETTINGS.blobBytes,
				0,
				16 * 1024 * MIB,
			),
			maxBlobFileBytes: integer(
				env,
				"MODELHUB_BLOB_CACHE_FILE_BYTES",
				DEFAULT_SERVING_CACHE_SETTINGS.maxBlobFileBytes,
				0,
				16 * MIB,
			),
		},
		accountLimits: {
			userQuotaBytes: quota(env, "MODELHUB_QUOTA_USER_BYTES", DEFAULT_ACCOUNT_LIMITS.userQuotaBytes),
			orgQuotaBytes: quota(env, "MODELHUB_QUOTA_ORG_BYTES", DEFAULT_ACCOUNT_LIMITS.orgQuotaBytes),
			repoCreatePerMinute: integer(
				env,
				"MODELHUB_REPO_CREATE_PER_MINUTE",
				DEFAULT_ACCOUNT_LIMITS.repoCreatePerMinute,
				0,
				1_000_000,
			),
		},
		discussions: {
			maxCommentBytes: integer(
				env,
				"MODELHUB_DISCUSSION_MAX_COMMENT_BYTES",
				DEFAULT_DISCUSSION_LIMITS.maxCommentBytes,
				1,
				1024 * 1024,
			),
			maxPerRepo: integer(
				env,
				"MODELHUB_DISCUSSIONS_PER_REPO",
				DEFAULT_DISCUSSION_LIMITS.maxPerRepo,
				1,
				10_000_000,
			),
			maxEvents: integer(
				env,
				"MODELHUB_DISCUSSION_MAX_EVENTS",
				DEFAULT_DISCUSSION_LIMITS.maxEvents,
				2,
				1_000_000,
			),
			pageSize: integer(env, "MODELHUB_DISCUSSIONS_PAGE_SIZE", DEFAULT_DISCUSSION_LIMITS.pageSize, 1, 1000),
			maxDiffBytes: integer(
				env,
				"MODELHUB_PR_DIFF_MAX_BYTES",
				DEFAULT_DISCUSSION_LIMITS.maxDiffBytes,
				0,
				64 * MIB,
			),
			maxFiles: integer(env, "MODELHUB_PR_MAX_FILES", DEFAULT_DISCUSSION_LIMITS.maxFiles, 1, 1_000_000),
		},
		gc: {
			intervalMs: integer(
				env,
				"MODELHUB_GC_INTERVAL_MS",
				DEFAULT_GC_SETTINGS.intervalMs,
				0,
				30 * 24 * HOUR_MS,
			),
			graceMs: seconds(env, "MODELHUB_GC_GRACE_SECONDS", DEFAULT_GC_SETTINGS.graceMs),
			uploadMaxAgeMs: seconds(env, "MODELHUB_GC_UPLOAD_MAX_AGE_SECONDS", DEFAULT_GC_SETTINGS.uploadMaxAgeMs),
			xorbMaxAgeMs: seconds(env, "MODELHUB_GC_XORB_MAX_AGE_SECONDS", DEFAULT_GC_SETTINGS.xorbMaxAgeMs),
			tempMaxAgeMs: seconds(env, "MODELHUB_GC_TEMP_MAX_AGE_SECONDS", DEFAULT_GC_SETTINGS.tempMaxAgeMs),
			treeBatch: integer(env, "MODELHUB_GC_TREE_BATCH", DEFAULT_GC_SETTINGS.treeBatch, 1, 100_000),
		},
		selfService: { ...selfServiceConfig(env), oidc: oidcConfig(env) },
		upstream: upstreamConfig(env),
		webhooks: webhookConfig(env),
		port,
		host,
		databaseUrl,
		postgresPool: {
			size: integer(env, "MODELHUB_DB_POOL_SIZE", DEFAULT_POSTGRES_POOL.size, 1, 1000),
			preparedStatements: integer(
				env,
				"MODELHUB_DB_PREPARED_STATEMENTS",
				DEFAULT_POSTGRES_POOL.preparedStatements,
				0,
				10_000,
			),
		},
		dataDir,
		adminToken,
		webDir,
		logLevel: rawLevel as LogLevel,
		trustProxy: boolean(env, "MODELHUB_TRUST_PROXY"),
		bodyLimit: integer(env, "MODELHUB_BODY_LIMIT", DEFAULT_BODY_LIMIT, 1024, 64 * 1024 * 1024),
		shutdown: {
			// MODELHUB_SHUTDOWN_TIMEOUT_MS is the name this setting had before; still read when the new one is unset.
			graceMs: integer(
				env,
				env.MODELHUB_SHUTDOWN_GRACE_MS === undefined && env.MODELHUB_SHUTDOWN_TIMEOUT_MS !== undefined
					? "MODELHUB_SHUTDOWN_TIMEOUT_MS"
					: "MODELHUB_SHUTDOWN_GRACE_MS",
				DEFAULT_SHUTDOWN_SETTINGS.graceMs,
				0,
				600_000,
			),
			idleCloseMs: integer(
				env,
				"MODELHUB_SHUTDOWN_IDLE_MS",
				DEFAULT_SHUTDOWN_SETTINGS.idleCloseMs,
				0,
				60_000,
			),
		},
	};
}

function selfServiceConfig(env: Env): SelfServiceSettings {
	const signup = (nonEmpty(env.MODELHUB_SIGNUP)?.toLowerCase() ?? DEFAULT_SELF_SERVICE.signup) as SignupMode;
	if (!SIGNUP_MODES.includes(signup)) {
		throw new ConfigError(`MODELHUB_SIGNUP must be one of ${SIGNUP_MODES.join(", ")}`);
	}
	const year = 365 * 24 * 3600;
	const session: SessionLifetime = {
		idleSeconds: integer(
			env,
			"MODELHUB_SESSION_IDLE_SECONDS",
			DEFAULT_SELF_SERVICE.session.idleSeconds,
			60,
			year,
		),
		maxSeconds: integer(
			env,
			"MODELHUB_SESSION_MAX_SECONDS",
			DEFAULT_SELF_SERVICE.session.maxSeconds,
			60,
			year,
		),
	};
	if (session.idleSeconds > session.maxSeconds) {
		throw new ConfigError("MODELHUB_SESSION_IDLE_SECONDS must not exceed MODELHUB_SESSION_MAX_SECONDS");
	}
	return {
		signup,
		session,
		passwordCost: {
			log2N: integer(
				env,
				"MODELHUB_PASSWORD_COST",
				DEFAULT_SELF_SERVICE.passwordCost.log2N,
				PASSWORD_COST_BOUNDS.min,
				PASSWORD_COST_BOUNDS.max,
			),
		},
		inviteSeconds: integer(
			env,
			"MODELHUB_INVITE_SECONDS",
			DEFAULT_SELF_SERVICE.inviteSeconds,
			60,
			30 * 24 * 3600,
		),
		signupsPerHour: integer(
			env,
			"MODELHUB_SIGNUPS_PER_HOUR",
			DEFAULT_SELF_SERVICE.signupsPerHour,
			1,
			1_000_000,
		),
	};
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);

/**
 * Single sign-on: MODELHUB_OIDC_ISSUER, _CLIENT_ID and _CLIENT_SECRET all, or none. The redirect URL is
 * derived from MODELHUB_PUBLIC_URL (required then: the provider only sends people back to a URL
 * registered with it, so it cannot follow whatever Host a request names).
 */
function oidcConfig(env: Env): OidcSettings | undefined {
	const issuerText = nonEmpty(env.MODELHUB_OIDC_ISSUER);
	const clientId = nonEmpty(env.MODELHUB_OIDC_CLIENT_ID);
	const clientSecret = nonEmpty(env.MODELHUB_OIDC_CLIENT_SECRET);
	if (issuerText === undefined && clientId === undefined && clientSecret === undefined) return undefined;
	if (issuerText === undefined || clientId === undefined || clientSecret === undefined) {
		throw new ConfigError(
			"single sign-on needs MODELHUB_OIDC_ISSUER, MODELHUB_OIDC_CLIENT_ID and MODELHUB_OIDC_CLIENT_SECRET together",
		);
	}
	let issuer: URL;
	try {
		issuer = new URL(issuerText);
	} catch {
		throw new ConfigError(`MODELHUB_OIDC_ISSUER must be an https:// URL, got ${JSON.stringify(issuerText)}`);
	}
	const loopback = LOOPBACK_HOSTS.has(issuer.hostname);
	if (issuer.protocol !== "https:" && !(issuer.protocol === "http:" && loopback)) {
		throw new ConfigError(
			"MODELHUB_OIDC_ISSUER must be an https:// URL (http:// only for a provider on 127.0.0.1, [::1] or localhost)",
		);
	}
	if (issuer.search || issuer.hash) {
		throw new ConfigError("MODELHUB_OIDC_ISSUER must have no query or fragment");
	}
	const publicUrl = url(env, "MODELHUB_PUBLIC_URL");
	if (publicUrl === undefined) {
		throw new ConfigError(
			`single sign-on needs MODELHUB_PUBLIC_URL: the redirect URL registered with the provider is {MODELHUB_PUBLIC_URL}${OIDC_CALLBACK_PATH}`,
		);
	}
	const scopes = (nonEmpty(env.MODELHUB_OIDC_SCOPES) ?? DEFAULT_OIDC_SCOPES).split(/\s+/).filter(Boolean);
	if (!scopes.includes("openid")) scopes.unshift("openid");
	if (scopes.length > 20 || scopes.some((scope) => !/^[\x21\x23-\x5b\x5d-\x7e]{1,100}$/.test(scope))) {
		throw new ConfigError("MODELHUB_OIDC_SCOPES must be at most 20 space-separated scope names");
	}
	const displayName = nonEmpty(env.MODELHUB_OIDC_NAME) ?? issuer.host;
	if (displayName.length > 60) throw new ConfigError("MODELHUB_OIDC_NAME must be at most 60 characters");
	return {
		// As configured (a trailing slash is part of an issuer identifier: it must match the provider's).
		issuer: issuerText,
		clientId,
		clientSecret,
		displayName,
		scopes: scopes.join(" "),
		redirectUri: `${publicUrl.origin}${OIDC_CALLBACK_PATH}`,
		flowSeconds: integer(env, "MODELHUB_OIDC_FLOW_SECONDS", DEFAULT_OIDC_FLOW_SECONDS, 60, 3600),
		allowHttp: issuer.protocol === "http:",
	};
}

/** An age in seconds (at most a year), as milliseconds. */
function seconds(env: Env, name: string, fallbackMs: number): number {
	return integer(env, name, fallbackMs / 1000, 0, 365 * 24 * 3600) * 1000;
}

/** Mirror mode: MODELHUB_UPSTREAM_URL and its settings, or undefined when it is not set. */
function upstreamConfig(env: Env): UpstreamSettings | undefined {
	const raw = nonEmpty(env.MODELHUB_UPSTREAM_URL);
	const token = nonEmpty(env.MODELHUB_UPSTREAM_TOKEN);
	if (raw === undefined) {
		if (token !== undefined)
			throw new ConfigError("MODELHUB_UPSTREAM_TOKEN is set but MODELHUB_UPSTREAM_URL is not");
		return undefined;
	}
	let parsed: URL;
	try {
		parsed = new URL(raw);
	} catch {
		throw new ConfigError(
			`MODELHUB_UPSTREAM_URL must be an http:// or https:// URL, got ${JSON.stringify(raw)}`,
		);
	}
	if ((parsed.protocol !== "http:" && parsed.protocol !== "https:") || parsed.search || parsed.hash) {
		throw new ConfigError("MODELHUB_UPSTREAM_URL must be an http:// or https:// URL without a query");
	}
	if (parsed.username || parsed.password) {
		throw new ConfigError("MODELHUB_UPSTREAM_URL must not carry credentials: use MODELHUB_UPSTREAM_TOKEN");
	}
	if (token !== undefined && /\s/.test(token))
		throw new ConfigError("MODELHUB_UPSTREAM_TOKEN must have no spaces");
	const list = (name: string): string[] =>
		(nonEmpty(env[name]) ?? "")
			.split(",")
			.map((item) => item.trim())
			.filter(Boolean);
	const host = parsed.hostname.toLowerCase();
	const publicHub = host === "huggingface.co" || host === "hf.co" || host.endsWith(".huggingface.co");
	const storageHosts =
		env.MODELHUB_UPSTREAM_STORAGE_HOSTS === undefined && publicHub
			? PUBLIC_HUB_STORAGE_HOSTS
			: list("MODELHUB_UPSTREAM_STORAGE_HOSTS");
	const defaults = DEFAULT_UPSTREAM_SETTINGS;
	return {
		url: `${parsed.origin}${parsed.pathname.replace(/\/+$/, "")}`,
		token,
		ttlMs: integer(env, "MODELHUB_UPSTREAM_TTL_S", defaults.ttlMs / 1000, 0, 30 * 24 * 3600) * 1000,
		storageHosts,
		maxAnswerBytes: integer(
			env,
			"MODELHUB_UPSTREAM_MAX_ANSWER_BYTES",
			defaults.maxAnswerBytes,
			1024,
			1024 * MIB,
		),
		allow: list("MODELHUB_UPSTREAM_ALLOW"),
		tokenForAnonymous: list("MODELHUB_UPSTREAM_TOKEN_ANONYMOUS"),
		cacheBytes: integer(env, "MODELHUB_MIRROR_CACHE_BYTES", defaults.cacheBytes, 0, 2 ** 50),
		pinned: list("MODELHUB_MIRROR_PINNED"),
		prefetchMaxBytes: integer(
			env,
			"MODELHUB_MIRROR_PREFETCH_MAX_BYTES",
			defaults.prefetchMaxBytes,
			1,
			2 ** 50,
		),
		outbound: {
			timeoutMs: integer(env, "MODELHUB_UPSTREAM_TIMEOUT_MS", defaults.outbound.timeoutMs, 100, 600_000),
			idleTimeoutMs: integer(
				env,
				"MODELHUB_UPSTREAM_IDLE_TIMEOUT_MS",
				defaults.outbound.idleTimeoutMs,
				100,
				600_000,
			),
			retries: integer(env, "MODELHUB_UPSTREAM_RETRIES", defaults.outbound.retries, 0, 10),
			retryBaseMs: defaults.outbound.retryBaseMs,
			maxRedirects: defaults.outbound.maxRedirects,
		},
	};
}

function url(env: Env, name: string, fallback?: string): URL | undefined {
	const raw = nonEmpty(env[name]) ?? fallback;
	if (raw === undefined) return undefined;
	let parsed: URL;
	try {
		parsed = new URL(raw);
	} catch {
		throw new ConfigError(`${name} must be an http:// or https:// URL, got ${JSON.stringify(raw)}`);
	}
	if (
		(parsed.protocol !== "http:" && parsed.protocol !== "https:") ||
		parsed.pathname.replace(/\/+$/, "") !== ""
	) {
		throw new ConfigError(
			`${name} must be an http:// or https:// URL without a path, got ${JSON.stringify(raw)}`,
		);
	}
	if (parsed.username || parsed.password) throw new ConfigError(`${name} must not carry credentials`);
	return parsed;
}

/**
 * S3-compatible storage when MODELHUB_S3_BUCKET is set (its credentials are then required), local disk
 * under the data folder otherwise.
 */
function storageConfig(env: Env, dataDir: string): StorageConfig {
	const bucket = nonEmpty(env.MODELHUB_S3_BUCKET);
	if (bucket === undefined) {
		for (const name of [
			"MODELHUB_S3_ENDPOINT",
			"MODELHUB_S3_ACCESS_KEY_ID",
			"MODELHUB_S3_SECRET_ACCESS_KEY",
		]) {
			if (nonEmpty(env[name]) !== undefined)
				throw new ConfigError(`${name} is set but MODELHUB_S3_BUCKET is not`);
		}
		return {
			kind: "disk",
			dir: dataDir === "memory://" ? undefined : join(dataDir, "files"),
			groupWrites: {
				files: integer(env, "MODELHUB_DISK_WRITES_IN_FLIGHT", DEFAULT_GROUP_WRITES.files, 1, 1024),
				bytes: integer(
					env,
					"MODELHUB_DISK_WRITE_BYTES_IN_FLIGHT",
					DEFAULT_GROUP_WRITES.bytes,
					MIB,
					4096 * MIB,
				),
			},
		};
	}
	if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
		throw new ConfigError(
			"MODELHUB_S3_BUCKET must be a bucket name: 3 to 63 lowercase letters, digits, '.' or '-'",
		);
	}
	const region = nonEmpty(env.MODELHUB_S3_REGION) ?? "us-east-1";
	if (!/^[a-z0-9-]{1,64}$/.test(region))
		throw new ConfigError("MODELHUB_S3_REGION must be a region name such as us-east-1");
	const accessKeyId = nonEmpty(env.MODELHUB_S3_ACCESS_KEY_ID);
	const secretAccessKey = nonEmpty(env.MODELHUB_S3_SECRET_ACCESS_KEY);
	if (accessKeyId === undefined || secretAccessKey === undefined) {
		throw new ConfigError(
			"MODELHUB_S3_ACCESS_KEY_ID and MODELHUB_S3_SECRET_ACCESS_KEY are required with MODELHUB_S3_BUCKET",
		);
	}
	const endpoint = url(env, "MODELHUB_S3_ENDPOINT", `https://s3.${region}.amazonaws.com`) as URL;
	const prefix = nonEmpty(env.MODELHUB_S3_PREFIX) ?? "";
	if (prefix !== "" && !/^[A-Za-z0-9!_.*'()/-]{1,200}\/$/.test(prefix)) {
		throw new ConfigError("MODELHUB_S3_PREFIX must be a key prefix ending with '/', e.g. modelhub/");
	}
	const presigned = boolean(env, "MODELHUB_S3_PRESIGNED_DOWNLOADS");
	return {
		kind: "s3",
		endpoint,
		bucket,
		region,
		accessKeyId,
		secretAccessKey,
		pathStyle: env.MODELHUB_S3_PATH_STYLE === undefined ? true : boolean(env, "MODELHUB_S3_PATH_STYLE"),
		prefix,
		partSize: integer(env, "MODELHUB_S3_PART_SIZE", 16 * MIB, 5 * MIB, 5 * 1024 * MIB),
		presignedDownloads: presigned ? (url(env, "MODELHUB_S3_PUBLIC_ENDPOINT") ?? endpoint) : undefined,
		spoolDir: dataDir === "memory://" ? join(tmpdir(), "modelhub-s3-spool") : join(dataDir, "s3-spool"),
	};
}

function isDirectory(path: string): boolean {
	return existsSync(path) && statSync(path).isDirectory();
}

/** MODELHUB_WEBHOOK_*: the allowed targets are parsed here too, so a bad list stops the start. */
function webhookConfig(env: Env): WebhookSettings {
	const allowedHosts = env.MODELHUB_WEBHOOK_ALLOWED_HOSTS ?? DEFAULT_WEBHOOK_SETTINGS.allowedHosts;
	try {
		parseAddressPolicy(allowedHosts);
	} catch (error) {
		throw new ConfigError((error as Error).message);
	}
	const d = DEFAULT_WEBHOOK_SETTINGS;
	return {
		allowedHosts,
		timeoutMs: integer(env, "MODELHUB_WEBHOOK_TIMEOUT_MS", d.timeoutMs, 100, 600_000),
		maxAttempts: integer(env, "MODELHUB_WEBHOOK_MAX_ATTEMPTS", d.maxAttempts, 1, 30),
		retryBaseMs: integer(env, "MODELHUB_WEBHOOK_RETRY_BASE_MS", d.retryBaseMs, 1, 3_600_000),
		queueLimit: integer(env, "MODELHUB_WEBHOOK_QUEUE_LIMIT", d.queueLimit, 0, 10_000_000),
		logEntries: integer(env, "MODELHUB_WEBHOOK_LOG_ENTRIES", d.logEntries, 1, 10_000),
		perAccount: integer(env, "MODELHUB_WEBHOOKS_PER_ACCOUNT", d.perAccount, 0, 10_000),
		concurrency: integer(env, "MODELHUB_WEBHOOK_CONCURRENCY", d.concurrency, 1, 256),
	};
}
