import { createHash } from "node:crypto";
import type { RepoType } from "../repo-identity.js";
import type { DownloadIncrement } from "./store.js";

/**
 * One hub process's download counter: counted requests are added up in memory, per repository and UTC
 * day, and written in batches (every `flushIntervalMs`, as soon as `flushEntries` repository-days are
 * waiting, and when the hub stops), so that serving a file never waits for the database.
 *
 * Inflation bound: one count per client address, repository and file within `dedupeWindowMs` (a
 * client fetching the same file again, a HEAD then a GET, or ranged requests of one file count once);
 * the addresses seen are kept in a bounded map (oldest forgotten first), so memory stays bounded and a
 * client cycling through more files than it holds only gets one extra count per `maxDedupeKeys`
 * requests.
 */
export interface DownloadCounterSettings {
	flushIntervalMs: number;
	/** Repository-days waiting that trigger a flush before the interval ends. */
	flushEntries: number;
	/** Repository-days kept in memory at most (while the database is unreachable); later ones are lost. */
	maxBufferedEntries: number;
	dedupeWindowMs: number;
	/** Client/repository/file keys remembered at most. */
	maxDedupeKeys: number;
}

export const DEFAULT_DOWNLOAD_COUNTER_SETTINGS: DownloadCounterSettings = {
	flushIntervalMs: 5_000,
	flushEntries: 1_000,
	maxBufferedEntries: 100_000,
	dedupeWindowMs: 60 * 60 * 1000,
	maxDedupeKeys: 100_000,
};

/** A request of a counted file, by a client. */
export interface CountedRequest {
	type: RepoType;
	/** The repository's id as stored. */
	id: string;
	path: string;
	/** The client's address (the proxy's client when the hub trusts it). */
	client: string;
}

export type FlushDownloads = (increments: DownloadIncrement[], today: string) => Promise<void>;

/** The UTC day of a time, `YYYY-MM-DD`. */
export function utcDay(time: number): string {
	return new Date(time).toISOString().slice(0, 10);
}

export class DownloadCounter {
	private buffer = new Map<string, DownloadIncrement>();
	private readonly seen = new Map<string, number>();
	private timer: ReturnType<typeof setInterval> | undefined;
	private flushing: Promise<void> = Promise.resolve();
	private flushedDay: string | undefined;
	private dropped = 0;
	private closed = false;

	constructor(
		private readonly flushTo: FlushDownloads,
		private readonly settings: DownloadCounterSettings = DEFAULT_DOWNLOAD_COUNTER_SETTINGS,
		private readonly onError: (error: unknown, lost: number) => void = () => {},
		private readonly now: () => number = Date.now,
	) {}

	/** Starts the periodic flush (which also moves the 30-day window at midnight UTC). */
	start(): void {
		if (this.timer || this.closed) return;
		this.timer = setInterval(() => {
			if (this.buffer.size > 0 || this.flushedDay !== utcDay(this.now())) void this.flush();
		}, this.settings.flushIntervalMs);
		this.timer.unref();
	}

	/** Downloads waiting to be written. */
	get pending(): number {
		let total = 0;
		for (const increment of this.buffer.values()) total += increment.count;
		return total;
	}

	/** Counts a request unless the same client fetched the same file within the window; true when counted. */
	record(request: CountedRequest): boolean {
		if (this.closed) return false;
		const now = this.now();
		const key = createHash("sha256")
			.update(`${request.client}\n${request.type}\n${request.id}\n${request.path}`)
			.digest("base64url")
			.slice(0, 22);
		const last = this.seen.get(key);
		if (last !== undefined && now - last < this.settings.dedupeWindowMs) return false;
		// Most recent last (Map keeps insertion order), so the oldest is forgotten first.
		this.seen.delete(key);
		this.seen.set(key, now);
		if (this.seen.size > this.settings.maxDedupeKeys) {
			const oldest = this.seen.keys().next().value;
			if (oldest !== undefined) this.seen.delete(oldest);
		}
		const day = utcDay(now);
		this.add({ type: request.type, id: request.id, day, count: 1 });
		if (this.buffer.size >= this.settings.flushEntries) void this.flush();
		return true;
	}

	private add(increment: DownloadIncrement): void {
		const key = `${increment.type}\n${increment.id}\n${increment.day}`;
		const entry = this.buffer.get(key);
		if (entry) entry.count += increment.count;
		else if (this.buffer.size < this.settings.maxBufferedEntries) this.buffer.set(key, { ...increment });
		else this.dropped += increment.count;
	}

	/** Writes what is waiting (one flush at a time; a failed one keeps its increments for the next). */
	flush(): Promise<void> {
		this.flushing = this.flushing.then(async () => {
			const batch = [...this.buffer.values()];
			this.buffer = new Map();
			const today = utcDay(this.now());
			try {
				await this.flushTo(batch, today);
				this.flushedDay = today;
			} catch (error) {
				for (const increment of batch) this.add(increment);
				this.onError(error, 0);
			}
			if (this.dropped > 0) {
				this.onError(new Error("the download counter's buffer is full"), this.dropped);
				this.dropped = 0;
			}
		});
		return this.flushing;
	}

	/** Stops counting and writes what is waiting. */
	async close(): Promise<void> {
		this.closed = true;
		if (this.timer) clearInterval(this.timer);
		this.timer = undefined;
		await this.flush();
	}
}
