import type { SessionLifetime } from "../accounts/sessions.js";
import {
	DEFAULT_TOKEN_CACHE_SETTINGS,
	TokenViewerCache,
	type TokenCacheSettings,
} from "../accounts/token-cache.js";
import type { AccountLimits, DiscussionLimits, GcSettings, UploadSettings } from "../config.js";
import type { Database } from "../db/types.js";
import type { BlobStore } from "../storage/types.js";
import { adminTokenFingerprint, loadSigningKey } from "../uploads/signing.js";
import type { DownloadCounter, DownloadCounterSettings } from "../downloads/counter.js";
import { ParsePool, type ParseSettings } from "../parsing/pool.js";
import { DEFAULT_SERVING_CACHE_SETTINGS, ServingCache, type ServingCacheSettings } from "../serving/cache.js";
import type { ChangeEvents } from "./changes.js";
import { createDownloadCounter } from "./downloads.js";
import type { RepoContext } from "./repos.js";

/** The limits the upload services enforce. */
export interface ServiceSettings {
	/** Largest file an upload may store (MODELHUB_MAX_FILE_BYTES). */
	maxFileBytes: number;
	uploads: UploadSettings;
	/** Storage quotas and the repository creation rate (the defaults: unlimited, 30 a minute). */
	accountLimits?: AccountLimits | undefined;
	/** The garbage collector's ages (its defaults when absent). */
	gc?: GcSettings | undefined;
	/** Bounds of discussions and pull requests (services/discussions.ts; its defaults when absent). */
	discussions?: DiscussionLimits | undefined;
	/** Browser sessions' lifetimes: an upload URL issued to a session works while the session lives. */
	sessions?: SessionLifetime | undefined;
}

/**
 * What the services work with, made once per hub process (server.ts) and passed to every route family:
 * the database, file storage, the change bus, the settings, and the key that signs upload URLs. Routes
 * reach the database and storage only through services given this.
 */
export interface ServiceContext extends RepoContext {
	settings: ServiceSettings;
	/** Key of the signatures in the upload URLs the hub hands out (shared by hubs on one database). */
	signingKey: Buffer;
	/**
	 * The admin token's fingerprint (uploads/signing.ts), which the upload grants it is given carry and
	 * are checked against at use; undefined without an admin token.
	 */
	adminGrantIssuer: string | undefined;
	/** This process's download counter (closed, and so flushed, when the server closes). */
	downloads: DownloadCounter;
	/** What serving files remembers: revisions, file entries, small files' bytes (services/serving.ts). */
	serving: ServingCache;
	/** Who recently used access tokens are (accounts/token-cache.ts), cleared by account changes. */
	tokenViewers: TokenViewerCache;
	/** The worker threads that parse cards and weights' headers off the event loop (closed with the server). */
	parsing: ParsePool;
}

export async function createServiceContext(parts: {
	db: Database;
	storage: BlobStore;
	changes: ChangeEvents;
	settings: ServiceSettings;
	downloads?: Partial<DownloadCounterSettings>;
	serving?: Partial<ServingCacheSettings> | undefined;
	tokenCache?: Partial<TokenCacheSettings> | undefined;
	parsing?: Partial<ParseSettings> | undefined;
	/** MODELHUB_ADMIN_TOKEN: only its fingerprint is kept. */
	adminToken?: string | undefined;
	onDownloadsError?: (error: unknown, lost: number) => void;
}): Promise<ServiceContext> {
	const { downloads, serving, tokenCache, parsing, adminToken, onDownloadsError, ...context } = parts;
	const signingKey = await loadSigningKey(parts.db);
	return {
		...context,
		signingKey,
		adminGrantIssuer: adminToken === undefined ? undefined : adminTokenFingerprint(signingKey, adminToken),
		downloads: createDownloadCounter(context, downloads, onDownloadsError),
		serving: new ServingCache({ ...DEFAULT_SERVING_CACHE_SETTINGS, ...serving }),
		tokenViewers: new TokenViewerCache({ ...DEFAULT_TOKEN_CACHE_SETTINGS, ...tokenCache }),
		parsing: new ParsePool(parsing),
	};
}
