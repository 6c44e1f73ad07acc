import { XetFormatError } from "./chunks.js";

/** Pulls exact byte counts from a stream, at most `maxBytes` in all. */
export class StreamReader {
	private buffered: Buffer[] = [];
	private available = 0;
	total = 0;
	private readonly iterator: AsyncIterator<Uint8Array>;

	constructor(
		source: AsyncIterable<Uint8Array>,
		private readonly maxBytes: number,
		private readonly what: string,
	) {
		this.iterator = source[Symbol.asyncIterator]();
	}

	async read(n: number): Promise<Buffer | undefined> {
		while (this.available < n) {
			const next = await this.iterator.next();
			if (next.done) {
				if (this.available === 0) return undefined;
				throw new XetFormatError(`${this.what} is truncated`);
			}
			// A view, not a copy: the source hands over its buffers.
			const chunk = Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength);
			this.total += chunk.length;
			if (this.total > this.maxBytes)
				throw new XetFormatError(`${this.what} is larger than ${this.maxBytes} bytes`);
			this.buffered.push(chunk);
			this.available += chunk.length;
		}
		const all = this.buffered.length === 1 ? (this.buffered[0] as Buffer) : Buffer.concat(this.buffered);
		const out = all.subarray(0, n);
		const rest = all.subarray(n);
		this.buffered = rest.length > 0 ? [rest] : [];
		this.available = rest.length;
		return out;
	}

	/** Reads the rest (counted against the limit), keeping nothing. */
	async drain(): Promise<void> {
		this.buffered = [];
		this.available = 0;
		for (;;) {
			const next = await this.iterator.next();
			if (next.done) return;
			this.total += next.value.length;
			if (this.total > this.maxBytes)
				throw new XetFormatError(`${this.what} is larger than ${this.maxBytes} bytes`);
		}
	}
}
