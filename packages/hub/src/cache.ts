/**
 * Serialised responses of hot GET routes, keyed by a canonical request key, within a byte budget.
 * Every write clears it; so does a change notification from another hub process sharing the database.
 *
 * A reader takes `version` before it queries the database and hands it to `set`: when a write cleared
 * the cache in between, the (possibly stale) answer is not stored.
 *
 * Keys come from client input (a listing's filters and cursor), so the budget counts keys as well as
 * bodies, evicts least recently used entries first, and never stores an entry larger than an eighth
 * of the budget: no sequence of requests (forged cursors included) grows it past the budget.
 */

/** A cached answer: the serialised body, and the path (and cursor) of the next page of a listing. */
export interface CachedResponse {
	body: Buffer;
	next?: string;
	cursor?: string;
}

/** Bookkeeping bytes charged per entry besides its key and body (Map slot, object, Buffer header). */
const ENTRY_OVERHEAD = 160;

export class ResponseCache {
	private readonly entries = new Map<string, { value: CachedResponse; bytes: number }>();
	private generation = 0;
	private enabled = true;
	private used = 0;

	constructor(private readonly budgetBytes = 64 * 1024 * 1024) {}

	get version(): number {
		return this.generation;
	}

	get size(): number {
		return this.entries.size;
	}

	/** Bytes charged to the budget right now. */
	get bytes(): number {
		return this.used;
	}

	get budget(): number {
		return this.budgetBytes;
	}

	get(key: string): CachedResponse | undefined {
		const entry = this.entries.get(key);
		if (!entry) return undefined;
		// Most recently used last (Map keeps insertion order).
		this.entries.delete(key);
		this.entries.set(key, entry);
		return entry.value;
	}

	set(key: string, value: CachedResponse, version: number): void {
		if (!this.enabled || version !== this.generation) return;
		const bytes =
			ENTRY_OVERHEAD +
			key.length * 2 +
			value.body.byteLength +
			((value.next?.length ?? 0) + (value.cursor?.length ?? 0)) * 2;
		if (bytes > this.budgetBytes / 8) return;
		const previous = this.entries.get(key);
		if (previous) {
			this.entries.delete(key);
			this.used -= previous.bytes;
		}
		while (this.used + bytes > this.budgetBytes) {
			const oldest = this.entries.entries().next();
			if (oldest.done) break;
			this.entries.delete(oldest.value[0]);
			this.used -= oldest.value[1].bytes;
		}
		this.entries.set(key, { value, bytes });
		this.used += bytes;
	}

	clear(): void {
		this.generation++;
		this.entries.clear();
		this.used = 0;
	}

	/** Turns caching off (and clears) while change notifications cannot be trusted, and back on. */
	setEnabled(enabled: boolean): void {
		this.clear();
		this.enabled = enabled;
	}
}
