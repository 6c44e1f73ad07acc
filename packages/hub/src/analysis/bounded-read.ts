/**
 * Reading weights headers through a ReadRange without trusting the file: every read is clamped to the
 * file's size, counted against a per-file and a per-analysis byte budget, and given a deadline, so a
 * hostile or broken file costs a bounded number of bytes and time and ends as a reason, never a throw.
 */
import type { ReadRange, RevisionFile } from "./types.js";

/** A file is not what its format says (or cannot be read within the bounds): the reason, for the log. */
export class WeightsProblem extends Error {
	override name = "WeightsProblem";
}

/** Bytes read so far against a limit, shared by all files of one analysis. */
export class ReadBudget {
	used = 0;
	constructor(readonly limit: number) {}
}

export interface BoundedReadOptions {
	/** Bytes one file may cost. */
	fileLimit: number;
	/** Milliseconds one read may take before the analysis gives up on the file. */
	readTimeoutMs: number;
}

/** The reason a caught value gives, for the problems list. */
export function problemText(error: unknown): string {
	if (error instanceof WeightsProblem) return error.message;
	if (error instanceof Error) return `${error.name}: ${error.message}`;
	return String(error);
}

function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
	let timer: NodeJS.Timeout | undefined;
	const deadline = new Promise<never>((_, reject) => {
		timer = setTimeout(() => reject(new WeightsProblem(`${what} took longer than ${ms} ms`)), ms);
	});
	return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/**
 * Sequential access to one file's bytes by position, fetching a chunk at a time and keeping only the
 * window still in use, so a multi-megabyte header is never held whole and skipped regions (arrays and
 * strings the caller does not need) are never fetched.
 */
export class FileCursor {
	/** Bytes this cursor has fetched. */
	fetched = 0;
	private window = new Uint8Array(0);
	private windowStart = 0;
	private view = new DataView(this.window.buffer);
	/** The next byte to consume. */
	position = 0;

	constructor(
		readonly file: RevisionFile,
		private readonly read: ReadRange,
		private readonly budget: ReadBudget,
		private readonly options: BoundedReadOptions & { chunkBytes: number },
	) {}

	get remaining(): number {
		return this.file.size - this.position;
	}

	/** Makes bytes [position, position + count) available, or says why they cannot be. */
	async ensure(count: number): Promise<void> {
		if (count > this.remaining)
			throw new WeightsProblem(
				`${this.file.path}: truncated (needs ${count} bytes at offset ${this.position}, the file has ${this.file.size})`,
			);
		const windowEnd = this.windowStart + this.window.length;
		if (this.position >= this.windowStart && this.position + count <= windowEnd) return;
		const keepFrom =
			this.position >= this.windowStart && this.position < windowEnd ? this.position : windowEnd;
		const kept = keepFrom < windowEnd ? this.window.subarray(keepFrom - this.windowStart) : new Uint8Array(0);
		const fetchStart = this.position + kept.length;
		const fetchEnd = Math.min(this.file.size, this.position + Math.max(count, this.options.chunkBytes));
		const bytes = await readExactly(
			this.read,
			this.file,
			fetchStart,
			fetchEnd,
			this.budget,
			this.options,
			this.fetched,
		);
		this.fetched += bytes.length;
		const next = new Uint8Array(kept.length + bytes.length);
		next.set(kept, 0);
		next.set(bytes, kept.length);
		this.window = next;
		this.windowStart = this.position;
		this.view = new DataView(next.buffer, next.byteOffset, next.byteLength);
	}

	/** Moves past `count` bytes without fetching them. */
	skip(count: number | bigint): void {
		if (typeof count === "number" ? count > this.remaining : count > BigInt(this.remaining))
			throw new WeightsProblem(
				`${this.file.path}: truncated (skips ${count} bytes at offset ${this.position}, the file has ${this.file.size})`,
			);
		this.position += Number(count);
	}

	private at(count: number): number {
		const offset = this.position - this.windowStart;
		this.position += count;
		return offset;
	}

	/**
	 * A u64 length as a number, without waiting, when its 8 bytes are already fetched (undefined
	 * otherwise): the hot path of skipping a vocabulary. Lengths past 2^53 come out approximate, which
	 * is still far beyond any file's end, so the caller's bounds check refuses them.
	 */
	lengthNow(littleEndian: boolean): number | undefined {
		const offset = this.position - this.windowStart;
		if (offset < 0 || offset + 8 > this.window.length) return undefined;
		this.position += 8;
		const low = this.view.getUint32(offset + (littleEndian ? 0 : 4), littleEndian);
		const high = this.view.getUint32(offset + (littleEndian ? 4 : 0), littleEndian);
		return high * 2 ** 32 + low;
	}

	async u8(): Promise<number> {
		await this.ensure(1);
		return this.view.getUint8(this.at(1));
	}

	async u32(littleEndian: boolean): Promise<number> {
		await this.ensure(4);
		return this.view.getUint32(this.at(4), littleEndian);
	}

	async u64(littleEndian: boolean): Promise<bigint> {
		await this.ensure(8);
		return this.view.getBigUint64(this.at(8), littleEndian);
	}

	/** A value of `width` bytes (1, 2, 4 or 8), signed or not, as a bigint (exact for every width). */
	async integer(width: 1 | 2 | 4 | 8, signed: boolean, littleEndian: boolean): Promise<bigint> {
		await this.ensure(width);
		const offset = this.at(width);
		const view = this.view;
		switch (width) {
			case 1:
				return BigInt(signed ? view.getInt8(offset) : view.getUint8(offset));
			case 2:
				return BigInt(signed ? view.getInt16(offset, littleEndian) : view.getUint16(offset, littleEndian));
			case 4:
				return BigInt(signed ? view.getInt32(offset, littleEndian) : view.getUint32(offset, littleEndian));
			case 8:
				return signed ? view.getBigInt64(offset, littleEndian) : view.getBigUint64(offset, littleEndian);
		}
	}

	/** The next `count` bytes (a copy-free view, valid until the next call). */
	async bytes(count: number): Promise<Uint8Array> {
		await this.ensure(count);
		const offset = this.at(count);
		return this.window.subarray(offset, offset + count);
	}
}

/**
 * Bytes [start, end) of a file, clamped to its size, charged to the budgets; a short answer means the
 * stored bytes are not the size the revision records.
 */
export async function readExactly(
	read: ReadRange,
	file: RevisionFile,
	start: number,
	end: number,
	budget: ReadBudget,
	options: BoundedReadOptions,
	alreadyFromFile = 0,
): Promise<Uint8Array> {
	const clampedEnd = Math.min(end, file.size);
	const count = Math.max(0, clampedEnd - start);
	if (alreadyFromFile + count > options.fileLimit)
		throw new WeightsProblem(
			`${file.path}: header is larger than the ${options.fileLimit}-byte limit per file`,
		);
	if (budget.used + count > budget.limit)
		throw new WeightsProblem(
			`${file.path}: not read, the analysis reached its limit of ${budget.limit} bytes read from storage`,
		);
	budget.used += count;
	if (count === 0) return new Uint8Array(0);
	let bytes: Uint8Array;
	try {
		bytes = await withDeadline(
			read(file.path, start, clampedEnd),
			options.readTimeoutMs,
			`reading ${file.path}`,
		);
	} catch (error) {
		throw error instanceof WeightsProblem ? error : new WeightsProblem(`${file.path}: ${problemText(error)}`);
	}
	if (bytes.length !== count)
		throw new WeightsProblem(
			`${file.path}: storage returned ${bytes.length} bytes for [${start}, ${clampedEnd}) of a ${file.size}-byte file`,
		);
	return bytes;
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** UTF-8 text, or a problem naming where it is not UTF-8. */
export function decodeUtf8(bytes: Uint8Array, what: string): string {
	try {
		return strictUtf8.decode(bytes);
	} catch {
		throw new WeightsProblem(`${what} is not valid UTF-8`);
	}
}

/** A bigint as a number when it is exactly representable (every count the hub reports must be). */
export function exactNumber(value: bigint, what: string): number {
	if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < -BigInt(Number.MAX_SAFE_INTEGER))
		throw new WeightsProblem(`${what} (${value}) is larger than 2^53`);
	return Number(value);
}
