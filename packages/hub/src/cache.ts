/**
 * Serialised responses of hot GET routes, keyed by a canonical request key. Every write clears it; so
 * does a change notification from another hub process sharing the database.
 *
 * A reader takes `version` before it queries the database and hands it to `set`: when a write cleared
 * the cache in between, the (possibly stale) answer is not stored.
 */
/** A cached answer: the serialised body, and the next-page cursor of a listing. */
export interface CachedResponse {
	body: Buffer;
	next?: string;
}

export class ResponseCache {
	private readonly entries = new Map<string, CachedResponse>();
	private generation = 0;
	private enabled = true;

	constructor(private readonly maxEntries = 4096) {}

	get version(): number {
		return this.generation;
	}

	get size(): number {
		return this.entries.size;
	}

	get(key: string): CachedResponse | undefined {
		return this.entries.get(key);
	}

	set(key: string, value: CachedResponse, version: number): void {
		if (!this.enabled || version !== this.generation) return;
		if (this.entries.size >= this.maxEntries) {
			// Drop the oldest entry (Map keeps insertion order).
			const oldest = this.entries.keys().next();
			if (!oldest.done) this.entries.delete(oldest.value);
		}
		this.entries.set(key, value);
	}

	clear(): void {
		this.generation++;
		this.entries.clear();
	}

	/** Turns caching off (and clears) while change notifications cannot be trusted, and back on. */
	setEnabled(enabled: boolean): void {
		this.clear();
		this.enabled = enabled;
	}
}
