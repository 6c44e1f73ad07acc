import { ServerResponse } from "node:http";
import { Readable } from "node:stream";
import type { BlobReader, BlobStore } from "../storage/types.js";
import { CHUNK_HEADER_BYTES, decodeChunkInto, parseChunkHeader, XetFormatError } from "./chunks.js";
import type { RecipeTerm, XorbLayouts } from "./files.js";

/**
 * A download reads its xorbs a group of whole chunks at a time: at most this many stored bytes, and at
 * most this many bytes once decoded (a chunk larger than that is a group by itself). Chunks are never cut
 * by a read, so no chunk is gathered from two reads, and a compressible run cannot make a group that
 * decodes to more than this. Each group is one positioned read and one write to the response.
 */
export const SERVE_READ_BYTES = 1024 * 1024;

/**
 * Buffers of SERVE_READ_BYTES a download writing straight to an HTTP response keeps (RecipeStream): the
 * group being read, the one being decoded when it is compressed and the one the socket is sending.
 */
export const SERVE_POOL_BUFFERS = 3;

/** A run of whole chunks of one xorb to read and decode: chunks `first` ≤ index < `last`. */
interface ChunkGroup {
	xorbSha256: string;
	layout: { chunkOffsets: number[]; chunkSizes: number[] };
	first: number;
	last: number;
}

/**
 * The groups of a term's chunks `first` ≤ index < `last`, each at most SERVE_READ_BYTES stored bytes
 * and SERVE_READ_BYTES decoded bytes.
 */
function* groupsOf(
	xorbSha256: string,
	layout: ChunkGroup["layout"],
	first: number,
	last: number,
): Iterable<ChunkGroup> {
	const { chunkOffsets: offsets, chunkSizes: sizes } = layout;
	for (let start = first; start < last;) {
		let end = start + 1;
		let decoded = sizes[start] as number;
		while (
			end < last &&
			(offsets[end + 1] as number) - (offsets[start] as number) <= SERVE_READ_BYTES &&
			decoded + (sizes[end] as number) <= SERVE_READ_BYTES
		) {
			decoded += sizes[end] as number;
			end++;
		}
		yield { xorbSha256, layout, first: start, last: end };
		start = end;
	}
}

/** The stored bytes of a group, from `offsets[first]` to `offsets[last]` of its xorb. */
function storedSpan(group: ChunkGroup): { start: number; end: number } {
	return {
		start: group.layout.chunkOffsets[group.first] as number,
		end: group.layout.chunkOffsets[group.last] as number,
	};
}

/**
 * The chunk groups that hold the bytes `start` ≤ byte < `end` of a file, given the terms that cover
 * them (recipeTerms), from the chunk that holds `start` (a range read seeks, it does not decode what
 * comes before) to the one that holds `end - 1`; `skip`, the bytes of the first group before `start`.
 */
function rangeGroups(
	terms: readonly RecipeTerm[],
	layouts: XorbLayouts,
	start: number,
	end: number,
): { skip: number; groups: Iterable<ChunkGroup> } {
	const layoutOf = (term: RecipeTerm): ChunkGroup["layout"] => {
		const layout = layouts.get(term.xorbSha256);
		if (!layout || term.chunkEnd > layout.chunkSizes.length)
			throw new XetFormatError(`the layout of xorb ${term.xorbSha256} is not recorded`);
		return layout;
	};
	const first = terms[0] as RecipeTerm;
	const firstLayout = layoutOf(first);
	// Seeks to the chunk holding `start`.
	let firstChunk = first.chunkStart;
	let firstPosition = first.fileOffset;
	while (
		firstChunk < first.chunkEnd - 1 &&
		firstPosition + (firstLayout.chunkSizes[firstChunk] as number) <= start
	) {
		firstPosition += firstLayout.chunkSizes[firstChunk] as number;
		firstChunk++;
	}
	function* groups(): Iterable<ChunkGroup> {
		for (const [index, term] of terms.entries()) {
			const layout = index === 0 ? firstLayout : layoutOf(term);
			const chunkStart = index === 0 ? firstChunk : term.chunkStart;
			let position = index === 0 ? firstPosition : term.fileOffset;
			let chunkEnd = chunkStart;
			// Stops after the chunk holding `end - 1`.
			while (chunkEnd < term.chunkEnd && position < end) {
				position += layout.chunkSizes[chunkEnd] as number;
				chunkEnd++;
			}
			yield* groupsOf(term.xorbSha256, layout, chunkStart, chunkEnd);
			if (position >= end) return;
		}
	}
	return { skip: Math.max(0, start - firstPosition), groups: groups() };
}

/**
 * Each group's stored bytes, in a buffer of its own (handed on, never refilled). With positioned reads
 * (the disk store) the next group's read is in flight while the caller decodes and sends this one; one
 * reader stays open while consecutive groups come from the same xorb. Otherwise (S3) each term's chunk
 * range is one ranged read, cut into the groups as it streams.
 */
async function* groupBytes(
	storage: BlobStore,
	groups: Iterable<ChunkGroup>,
): AsyncIterable<{ group: ChunkGroup; bytes: Buffer }> {
	if (!storage.openReader) {
		yield* streamedGroupBytes(storage, groups);
		return;
	}
	const openReader = storage.openReader.bind(storage);
	let open: { sha256: string; reader: BlobReader } | undefined;
	const readGroup = async (group: ChunkGroup): Promise<{ group: ChunkGroup; bytes: Buffer }> => {
		if (open?.sha256 !== group.xorbSha256) {
			// The previous group's read has finished: only one read is in flight at a time.
			const previous = open;
			open = undefined;
			await previous?.reader.close();
			open = { sha256: group.xorbSha256, reader: await openReader(group.xorbSha256) };
		}
		const { start, end } = storedSpan(group);
		const bytes = Buffer.allocUnsafe(end - start);
		const count = await open.reader.read(bytes, start);
		if (count !== bytes.length) throw new XetFormatError(`xorb ${group.xorbSha256} is truncated`);
		return { group, bytes };
	};
	const iterator = groups[Symbol.iterator]();
	let pending: Promise<{ group: ChunkGroup; bytes: Buffer }> | undefined;
	const next = (): Promise<{ group: ChunkGroup; bytes: Buffer }> | undefined => {
		const step = iterator.next();
		if (step.done) return undefined;
		const read = readGroup(step.value);
		// Awaited below or in `finally`; never an unhandled rejection meanwhile.
		read.catch(() => undefined);
		return read;
	};
	try {
		pending = next();
		while (pending) {
			const current = await pending;
			pending = next();
			yield current;
		}
	} finally {
		// A read still in flight (the response stopped early) finishes before its file is closed.
		if (pending) await pending.catch(() => undefined);
		await open?.reader.close();
	}
}

/** groupBytes for stores without positioned reads: a term's groups cut from one ranged read. */
async function* streamedGroupBytes(
	storage: BlobStore,
	groups: Iterable<ChunkGroup>,
): AsyncIterable<{ group: ChunkGroup; bytes: Buffer }> {
	/** Groups of the same xorb whose stored bytes follow each other, read as one range. */
	let run: ChunkGroup[] = [];
	async function* readRun(): AsyncIterable<{ group: ChunkGroup; bytes: Buffer }> {
		const first = run[0] as ChunkGroup;
		const last = run[run.length - 1] as ChunkGroup;
		const range = { start: storedSpan(first).start, end: storedSpan(last).end };
		let index = 0;
		let span = storedSpan(first);
		let bytes = Buffer.allocUnsafe(span.end - span.start);
		let filled = 0;
		for await (const piece of await storage.read(first.xorbSha256, range)) {
			let data = piece as Buffer;
			while (data.length > 0) {
				if (index >= run.length) throw new XetFormatError(`xorb ${first.xorbSha256} is longer than recorded`);
				const take = Math.min(bytes.length - filled, data.length);
				data.copy(bytes, filled, 0, take);
				filled += take;
				data = data.subarray(take);
				if (filled === bytes.length) {
					yield { group: run[index] as ChunkGroup, bytes };
					index++;
					if (index < run.length) {
						span = storedSpan(run[index] as ChunkGroup);
						bytes = Buffer.allocUnsafe(span.end - span.start);
						filled = 0;
					}
				}
			}
		}
		if (index < run.length) throw new XetFormatError(`xorb ${first.xorbSha256} is truncated`);
	}
	for (const group of groups) {
		const previous = run[run.length - 1];
		if (previous && (previous.xorbSha256 !== group.xorbSha256 || previous.last !== group.first)) {
			yield* readRun();
			run = [];
		}
		run.push(group);
	}
	if (run.length > 0) yield* readRun();
}

/**
 * Checks a group's stored chunks against the xorb's recorded layout (each header's sizes): its decoded
 * size, and whether any of its chunks is compressed.
 */
function checkGroup(group: ChunkGroup, bytes: Uint8Array): { size: number; compressed: boolean } {
	const { chunkOffsets, chunkSizes } = group.layout;
	const base = chunkOffsets[group.first] as number;
	let size = 0;
	let compressed = false;
	for (let index = group.first; index < group.last; index++) {
		const at = (chunkOffsets[index] as number) - base;
		const header = parseChunkHeader(bytes, at);
		if (
			header.size !== chunkSizes[index] ||
			CHUNK_HEADER_BYTES + header.compressedSize !== (chunkOffsets[index + 1] as number) - base - at
		)
			throw new XetFormatError(`a chunk of xorb ${group.xorbSha256} changed size`);
		size += header.size;
		if (header.scheme !== 0) compressed = true;
	}
	return { size, compressed };
}

/** Byte-grouped chunks between LZ4 and regrouping (decodeChunkInto), grown when a larger one is met. */
interface Scratch {
	bytes: Uint8Array;
}

/**
 * A checked group's chunks decoded (checkGroup): all uncompressed (what hf_xet stores for incompressible
 * data such as most weights), moved together in place over their headers, with no second buffer; else
 * decoded into `out` (at least the group's decoded size). The bytes written, from the start of the buffer
 * they are in.
 */
function decodeGroup(
	group: ChunkGroup,
	bytes: Buffer,
	checked: { size: number; compressed: boolean },
	out: Buffer | undefined,
	scratch: Scratch,
): Buffer {
	const { chunkOffsets } = group.layout;
	const base = chunkOffsets[group.first] as number;
	const target = checked.compressed ? (out as Buffer) : bytes;
	let written = 0;
	for (let index = group.first; index < group.last; index++) {
		const header = parseChunkHeader(bytes, (chunkOffsets[index] as number) - base);
		const at = (chunkOffsets[index] as number) - base + CHUNK_HEADER_BYTES;
		if (header.scheme === 0) {
			// In place, over the headers before it, when the whole group is uncompressed.
			if (checked.compressed) bytes.copy(target, written, at, at + header.size);
			else bytes.copyWithin(written, at, at + header.size);
		} else {
			if (header.scheme === 2 && scratch.bytes.length < header.size)
				scratch.bytes = new Uint8Array(header.size);
			decodeChunkInto(header, bytes.subarray(at, at + header.compressedSize), target, written, scratch.bytes);
		}
		written += header.size;
	}
	return target.subarray(0, written);
}

/**
 * The bytes `start` ≤ byte < `end` of a file kept as its recipe (src/xet/files.ts), given the terms that
 * cover them (recipeTerms): the chunks are read from their xorbs a group at a time (SERVE_READ_BYTES)
 * and decoded, starting at the chunk that holds `start` and ending with the one that holds `end - 1`.
 * Each piece handed on is a buffer of its own: the consumer may keep it. (RecipeStream writes to an HTTP
 * response from buffers it reuses instead.)
 */
export async function* recipeBytes(
	storage: BlobStore,
	terms: readonly RecipeTerm[],
	layouts: XorbLayouts,
	start: number,
	end: number,
): AsyncIterable<Uint8Array> {
	if (end <= start || terms.length === 0) return;
	const range = rangeGroups(terms, layouts, start, end);
	const scratch: Scratch = { bytes: new Uint8Array(0) };
	let skip = range.skip;
	let left = end - start;
	for await (const { group, bytes } of groupBytes(storage, range.groups)) {
		const checked = checkGroup(group, bytes);
		const out = checked.compressed ? Buffer.allocUnsafe(checked.size) : undefined;
		let piece = decodeGroup(group, bytes, checked, out, scratch);
		if (skip > 0) {
			const dropped = Math.min(skip, piece.length);
			piece = piece.subarray(dropped);
			skip -= dropped;
		}
		if (piece.length > left) piece = piece.subarray(0, left);
		if (piece.length > 0) {
			left -= piece.length;
			yield piece;
		}
		if (left === 0) return;
	}
	if (left > 0) throw new XetFormatError("a file's recipe holds fewer bytes than its size");
}

/**
 * Buffers of one size, lent and given back (a download's groups): at most `most` are made. A fresh buffer
 * per group is new memory every time (page faults as the kernel fills it, external memory that sets off
 * garbage collections, unmapped again when collected): reading 512 MiB into fresh 512 KiB buffers cost
 * three times the CPU of reading into the same one.
 */
class BufferPool {
	readonly #free: Buffer[] = [];
	#made = 0;

	constructor(
		readonly size: number,
		private readonly most: number,
	) {}

	/**
	 * A buffer of at least `size` bytes: a free one of the pool, a new one while fewer than `most` were
	 * made, one of its own (not pooled) when `size` exceeds the pool's; undefined while all are lent.
	 */
	take(size: number): Buffer | undefined {
		if (size > this.size) return Buffer.allocUnsafeSlow(size);
		const free = this.#free.pop();
		if (free) return free;
		if (this.#made >= this.most) return undefined;
		this.#made++;
		return Buffer.allocUnsafeSlow(this.size);
	}

	give(buffer: Buffer): void {
		if (buffer.length === this.size) this.#free.push(buffer);
	}
}

/**
 * A file kept as its recipe, as a stream (recipeBytes). Read as any stream, it hands on a buffer of its
 * own per group. Piped to an HTTP response (what Fastify does with a stream it sends), it writes to the
 * response itself, from SERVE_POOL_BUFFERS buffers it reuses (stores with positioned reads: the disk
 * store): a buffer is read into again only once the response's write callback has said its bytes are
 * flushed to the socket, and the next group is read while the socket sends the previous one; it writes
 * only when the response has drained. Its `end` (then the response's end) comes after the last write.
 */
export class RecipeStream extends Readable {
	readonly #storage: BlobStore;
	readonly #terms: readonly RecipeTerm[];
	readonly #layouts: XorbLayouts;
	readonly #start: number;
	readonly #end: number;
	/** The pieces read as a stream (recipeBytes), once read so. */
	#pieces: AsyncIterator<Uint8Array> | undefined;
	#pulling = false;
	#wanted = false;
	/** Piped to a response, which it writes to itself: _read has nothing to do. */
	#piped = false;
	/** That writing: settles when it has stopped. */
	#writing: Promise<void> | undefined;
	/** Wakes the writing when something it may wait for happened (a write flushed, a drain, a close). */
	#wake: () => void = () => {};

	constructor(
		storage: BlobStore,
		terms: readonly RecipeTerm[],
		layouts: XorbLayouts,
		start: number,
		end: number,
	) {
		super();
		this.#storage = storage;
		this.#terms = terms;
		this.#layouts = layouts;
		this.#start = start;
		this.#end = end;
	}

	override _read(): void {
		if (this.#piped) return;
		this.#wanted = true;
		if (!this.#pulling) void this.#pull();
	}

	async #pull(): Promise<void> {
		this.#pulling = true;
		try {
			this.#pieces ??= recipeBytes(this.#storage, this.#terms, this.#layouts, this.#start, this.#end)[
				Symbol.asyncIterator
			]();
			while (this.#wanted && !this.destroyed) {
				this.#wanted = false;
				const step = await this.#pieces.next();
				if (this.destroyed) return;
				if (step.done) {
					this.push(null);
					return;
				}
				// More is wanted when the buffer has room, or when _read was called meanwhile.
				if (this.push(step.value)) this.#wanted = true;
			}
		} catch (error) {
			this.destroy(error as Error);
		} finally {
			this.#pulling = false;
		}
	}

	override pipe<T extends NodeJS.WritableStream>(destination: T, options?: { end?: boolean }): T {
		if (
			!(destination instanceof ServerResponse) ||
			this.#storage.openReader === undefined ||
			this.#pieces !== undefined ||
			this.#piped ||
			this.readableFlowing !== null ||
			this.destroyed
		)
			return super.pipe(destination, options);
		this.#piped = true;
		this.#writing = this.#writeTo(destination, options?.end !== false);
		return destination;
	}

	override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
		this.#wake();
		// The file a read is using is closed before the stream says it is.
		const stopped = [this.#writing, this.#pieces?.return?.(undefined)];
		Promise.all(stopped.map((step) => step?.catch(() => undefined))).then(
			() => callback(error),
			() => callback(error),
		);
	}

	/** Until the writing is woken (#wake). */
	#change(): Promise<void> {
		return new Promise<void>((resolve) => {
			this.#wake = resolve;
		});
	}

	async #writeTo(response: ServerResponse, end: boolean): Promise<void> {
		let drained = true;
		const onDrain = (): void => {
			drained = true;
			this.#wake();
		};
		const onClose = (): void => this.#wake();
		response.on("drain", onDrain);
		response.on("close", onClose);
		// Flowing: the stream's `end` follows push(null) with no reader; _read does nothing meanwhile.
		this.resume();
		let failure: Error | undefined;
		let done = false;
		try {
			done = await this.#writeGroups(response, {
				drained: () => drained,
				wrote: (flushed) => (drained = flushed),
			});
		} catch (error) {
			failure = error as Error;
		} finally {
			response.off("drain", onDrain);
			response.off("close", onClose);
		}
		if (failure) this.destroy(failure);
		else if (!done) this.destroy();
		else {
			if (end) this.once("end", () => response.end());
			this.push(null);
		}
	}

	/** Writes the range's bytes to the response; false when it stopped first (closed, destroyed). */
	async #writeGroups(
		response: ServerResponse,
		drain: { drained: () => boolean; wrote: (flushed: boolean) => void },
	): Promise<boolean> {
		if (this.#end <= this.#start || this.#terms.length === 0) return true;
		const openReader = (this.#storage.openReader as NonNullable<BlobStore["openReader"]>).bind(this.#storage);
		const stopped = (): boolean => this.destroyed || response.destroyed;
		const pool = new BufferPool(SERVE_READ_BYTES, SERVE_POOL_BUFFERS);
		const take = async (size: number): Promise<Buffer | undefined> => {
			for (;;) {
				const buffer = pool.take(size);
				if (buffer || stopped()) return buffer;
				await this.#change();
			}
		};
		const range = rangeGroups(this.#terms, this.#layouts, this.#start, this.#end);
		const scratch: Scratch = { bytes: new Uint8Array(0) };
		let skip = range.skip;
		let left = this.#end - this.#start;
		let open: { sha256: string; reader: BlobReader } | undefined;
		try {
			for (const group of range.groups) {
				const span = storedSpan(group);
				const stored = await take(span.end - span.start);
				if (!stored) return false;
				if (open?.sha256 !== group.xorbSha256) {
					const previous = open;
					open = undefined;
					await previous?.reader.close();
					open = { sha256: group.xorbSha256, reader: await openReader(group.xorbSha256) };
				}
				const bytes = stored.subarray(0, span.end - span.start);
				if ((await open.reader.read(bytes, span.start)) !== bytes.length)
					throw new XetFormatError(`xorb ${group.xorbSha256} is truncated`);
				const checked = checkGroup(group, bytes);
				let holder = stored;
				if (checked.compressed) {
					const out = await take(checked.size);
					if (!out) return false;
					decodeGroup(group, bytes, checked, out, scratch);
					pool.give(stored);
					holder = out;
				} else decodeGroup(group, bytes, checked, undefined, scratch);
				let from = 0;
				let to = checked.size;
				if (skip > 0) {
					from = Math.min(skip, to);
					skip -= from;
				}
				to = Math.min(to, from + left);
				if (to > from) {
					while (!drain.drained() && !stopped()) await this.#change();
					if (stopped()) return false;
					left -= to - from;
					const lent = holder;
					drain.wrote(
						response.write(lent.subarray(from, to), () => {
							pool.give(lent);
							this.#wake();
						}),
					);
				} else pool.give(holder);
				if (left === 0) return true;
			}
			if (left > 0) throw new XetFormatError("a file's recipe holds fewer bytes than its size");
			return true;
		} finally {
			await open?.reader.close();
		}
	}
}
