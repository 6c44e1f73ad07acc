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
 * the keys seen are kept in two generations of at most `maxDedupeKeys / 2` each (the older one dropped
 * whole when the newer fills: O(1) per request), so memory stays bounded and a client cycling through
 * more files than that only gets one extra count per `maxDedupeKeys / 2` requests. A request without a
 * file (`path` absent) stands for its whole repository: one count per client address and repository
 * within `repositoryWindowMs` instead (a dataset's files, datasets-download-stats.md), in the same keys.
 */
export interface DownloadCounterSettings {
	flushIntervalMs: number;
	/** Repository-days waiting that trigger a flush before the interval ends. */
	flushEntries: number;
	/** Repository-days kept in memory at most (while the database is unreachable); later ones are lost. */
	maxBufferedEntries: number;
	dedupeWindowMs: number;
	/** Client/repository/file keys remembered at most (in two generations). */
	maxDedupeKeys: number;
	/** The window of one count per client and repository, for requests counted repository-wide. */
	repositoryWindowMs: number;
}

export const DEFAULT_DOWNLOAD_COUNTER_SETTINGS: DownloadCounterSettings = {
	flushIntervalMs: 5_000,
	flushEntries: 1_000,
	maxBufferedEntries: 100_000,
	dedupeWindowMs: 60 * 60 * 1000,
	maxDedupeKeys: 100_000,
	// The public hub counts all of one dataset's files a client downloads within 5 minutes as one
	// download (huggingface/hub-docs docs/hub/datasets-download-stats.md).
	repositoryWindowMs: 5 * 60 * 1000,
};

/** A request of a counted file, by a client. */
export interface CountedRequest {
	type: RepoType;
	/** The repository's id as stored. */
	id: string;
	/** The file; absent: every file of the repository counts as one (within `repositoryWindowMs`). */
	path?: string | undefined;
	/** The client's address (the proxy's client when the hub trusts it). */
	client: string;
	/** A repository of the upstream hub served in mirror mode (counted apart: src/mirror/). */
	mirrored?: boolean;
}

export type FlushDownloads = (increments: DownloadIncrement[], today: string) => Promise<void>;

const DAY_MS = 86_400_000;
/** The last day utcDay formatted: every counted request asks, and formatting a date is not free. */
let formatted = { day: Number.NaN, text: "" };

/** The UTC day of a time, `YYYY-MM-DD` (a JavaScript time has no leap seconds: days are DAY_MS long). */
export function utcDay(time: number): string {
	const day = Math.floor(time / DAY_MS);
	if (day !== formatted.day) formatted = { day, text: new Date(time).toISOString().slice(0, 10) };
	return formatted.text;
}

/** Keys longer than this (long file paths) are kept as their digest, so each key's memory is bounded. */
const MAX_KEY_LENGTH = 256;

function dedupeKey(request: CountedRequest): string {
	// A repository-wide key ends in NUL, which no file path is (a git tree entry's name ends at a NUL).
	const key = `${request.client}\n${request.mirrored ? "mirror:" : ""}${request.type}\n${request.id}\n${request.path ?? "\0"}`;
	return key.length <= MAX_KEY_LENGTH ? key : createHash("sha256").update(key).digest("base64url");
}

export class DownloadCounter {
	private buffer = new Map<string, DownloadIncrement>();
	private recent = new Map<string, number>();
	private older = new Map<string, number>();
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

	/**
	 * Counts a request unless the same client fetched the same file (or, without a path, any file of the
	 * repository) within the window; true when counted.
	 */
	record(request: CountedRequest): boolean {
		if (this.closed) return false;
		const now = this.now();
		const key = dedupeKey(request);
		const last = this.recent.get(key) ?? this.older.get(key);
		const window =
			request.path === undefined ? this.settings.repositoryWindowMs : this.settings.dedupeWindowMs;
		if (last !== undefined && now - last < window) return false;
		this.recent.set(key, now);
		if (this.recent.size >= this.settings.maxDedupeKeys / 2) {
			this.older = this.recent;
			this.recent = new Map();
		}
		const day = utcDay(now);
		this.add({
			type: request.type,
			id: request.id,
			day,
			count: 1,
			...(request.mirrored ? { mirrored: true } : {}),
		});
		if (this.buffer.size >= this.settings.flushEntries) void this.flush();
		return true;
	}

	private add(increment: DownloadIncrement): void {
		const key = `${increment.mirrored ? "mirror:" : ""}${increment.type}\n${increment.id}\n${increment.day}`;
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
