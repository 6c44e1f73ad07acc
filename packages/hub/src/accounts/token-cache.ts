import { tokenHash } from "./tokens.js";
import type { Viewer } from "./viewer.js";

/**
 * Who each recently used access token is, so that a request carrying a token does not cost a database
 * query every time (one query per request before: every `from_pretrained` HEADs each file with the
 * user's token). Keyed by the token's SHA-256 (what the database keeps too), never the token.
 *
 * Staleness: every change that can alter a token's viewer (a token revoked, a membership or role
 * changed, an account created, changed or disabled: the `account.changed` events, and whatever change
 * the caller does not know) clears it, in this process before the write answers. Other hub processes on
 * the same PostgreSQL hear of those changes by LISTEN/NOTIFY (the channel the response cache already
 * trusts: NOTIFY is sent at commit and arrives within milliseconds), and the caller turns this cache off
 * while that connection is down. NOTIFY rather than a short TTL alone: a revoked token must stop working
 * at once, and a TTL short enough for that would bring the query back. The TTL
 * (MODELHUB_TOKEN_CACHE_TTL_MS) bounds the rest: a notification lost before the listener sees its
 * connection die.
 *
 * A lookup that started before a change and ends after it is not stored (the `version` handshake, as in
 * the response cache). Only tokens found are kept: an unknown token is looked up every time, so each
 * failure is counted by the authentication limits (auth-limits.ts) and no guess fills the cache.
 */
export interface TokenCacheSettings {
	/** Tokens remembered at most, least recently used dropped first (MODELHUB_TOKEN_CACHE_ENTRIES; 0: off). */
	maxEntries: number;
	/** How long a token's viewer is remembered at most (MODELHUB_TOKEN_CACHE_TTL_MS; 0: off). */
	ttlMs: number;
}

export const DEFAULT_TOKEN_CACHE_SETTINGS: Readonly<TokenCacheSettings> = Object.freeze({
	maxEntries: 10_000,
	ttlMs: 30_000,
});

interface Entry {
	viewer: Viewer;
	expires: number;
}

/** A viewer frozen to its leaves: one cached object is handed to many requests. */
function frozen(viewer: Viewer): Viewer {
	if (viewer.kind !== "user") return viewer;
	for (const org of viewer.orgs) Object.freeze(org);
	Object.freeze(viewer.orgs);
	Object.freeze(viewer.account);
	Object.freeze(viewer.token);
	return Object.freeze(viewer);
}

export class TokenViewerCache {
	private readonly entries = new Map<string, Entry>();
	private generation = 0;
	private enabled = true;

	constructor(
		private readonly settings: TokenCacheSettings = DEFAULT_TOKEN_CACHE_SETTINGS,
		private readonly now: () => number = Date.now,
	) {}

	/** The key of a token: its SHA-256, as the database keeps it. */
	static keyOf(token: string): string {
		return tokenHash(token);
	}

	/** Taken before a lookup and given back to `set`: a change in between keeps the result out. */
	get version(): number {
		return this.generation;
	}

	get size(): number {
		return this.entries.size;
	}

	get(key: string): Viewer | undefined {
		const entry = this.entries.get(key);
		if (!entry) return undefined;
		if (entry.expires <= this.now()) {
			this.entries.delete(key);
			return undefined;
		}
		// Most recently used last (a Map keeps insertion order).
		this.entries.delete(key);
		this.entries.set(key, entry);
		return entry.viewer;
	}

	set(key: string, viewer: Viewer, version: number): void {
		if (!this.enabled || version !== this.generation) return;
		if (this.settings.maxEntries <= 0 || this.settings.ttlMs <= 0) return;
		this.entries.delete(key);
		while (this.entries.size >= this.settings.maxEntries) {
			const oldest = this.entries.keys().next();
			if (oldest.done) break;
			this.entries.delete(oldest.value);
		}
		this.entries.set(key, { viewer: frozen(viewer), expires: this.now() + this.settings.ttlMs });
	}

	clear(): void {
		this.generation++;
		this.entries.clear();
	}

	/** Off (and cleared) while other processes' changes cannot be heard, and back on. */
	setEnabled(enabled: boolean): void {
		this.clear();
		this.enabled = enabled;
	}
}
