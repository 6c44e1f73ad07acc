/**
 * A least-recently-used map within a byte budget. Keys come from client input (repository ids,
 * revisions, paths), so each entry is charged its key as well as its value, the oldest entries are
 * evicted first, and no entry over an eighth of the budget is stored: no sequence of requests grows
 * it past the budget. A budget of 0 stores nothing.
 */

/** Bookkeeping bytes charged per entry besides its key and value (Map slot, wrapper object). */
const ENTRY_OVERHEAD = 96;

export class ByteBudgetLru<V> {
	private readonly entries = new Map<string, { value: V; bytes: number }>();
	private used = 0;

	/** `sizeOf` is what an entry's value costs, in bytes. */
	constructor(
		readonly budgetBytes: number,
		private readonly sizeOf: (value: V) => number,
	) {}

	get size(): number {
		return this.entries.size;
	}

	/** Bytes charged to the budget right now. */
	get bytes(): number {
		return this.used;
	}

	get(key: string): V | undefined {
		const entry = this.entries.get(key);
		if (entry === undefined) return undefined;
		// Most recently used last (a Map keeps insertion order).
		this.entries.delete(key);
		this.entries.set(key, entry);
		return entry.value;
	}

	set(key: string, value: V): void {
		const bytes = ENTRY_OVERHEAD + key.length * 2 + this.sizeOf(value);
		if (bytes > this.budgetBytes / 8) return;
		this.delete(key);
		while (this.used + bytes > this.budgetBytes) {
			const oldest = this.entries.keys().next();
			if (oldest.done) break;
			this.delete(oldest.value);
		}
		this.entries.set(key, { value, bytes });
		this.used += bytes;
	}

	delete(key: string): void {
		const entry = this.entries.get(key);
		if (entry === undefined) return;
		this.entries.delete(key);
		this.used -= entry.bytes;
	}

	clear(): void {
		this.entries.clear();
		this.used = 0;
	}
}
