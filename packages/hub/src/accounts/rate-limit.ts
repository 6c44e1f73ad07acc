/**
 * Counts authentication failures per client address in fixed windows, and blocks an address that
 * failed too often until its window ends. Memory is bounded: at most `maxEntries` addresses are
 * tracked (the oldest windows are dropped first), so a flood from many addresses cannot grow it.
 */
export interface FailureLimiterOptions {
	/** Failures allowed per address and window. */
	maxFailures: number;
	windowMs: number;
	maxEntries?: number;
	now?: () => number;
}

interface Entry {
	windowStart: number;
	failures: number;
}

export class FailureLimiter {
	private readonly entries = new Map<string, Entry>();
	private readonly maxEntries: number;
	private readonly now: () => number;

	constructor(private readonly options: FailureLimiterOptions) {
		this.maxEntries = options.maxEntries ?? 10_000;
		this.now = options.now ?? Date.now;
	}

	/** Seconds until the address may try again, or 0 when it is not blocked. */
	blockedFor(address: string): number {
		const entry = this.current(address);
		if (!entry || entry.failures < this.options.maxFailures) return 0;
		return Math.max(1, Math.ceil((entry.windowStart + this.options.windowMs - this.now()) / 1000));
	}

	/** Records one failure; returns the seconds the address is now blocked for (0 when it is not). */
	fail(address: string): number {
		let entry = this.current(address);
		if (!entry) {
			entry = { windowStart: this.now(), failures: 0 };
			// Insertion order is window-start order: the first entries are the oldest.
			while (this.entries.size >= this.maxEntries) {
				const oldest = this.entries.keys().next();
				if (oldest.done) break;
				this.entries.delete(oldest.value);
			}
			this.entries.set(address, entry);
		}
		entry.failures++;
		return this.blockedFor(address);
	}

	get size(): number {
		return this.entries.size;
	}

	private current(address: string): Entry | undefined {
		const entry = this.entries.get(address);
		if (entry && this.now() - entry.windowStart >= this.options.windowMs) {
			this.entries.delete(address);
			return undefined;
		}
		return entry;
	}
}
