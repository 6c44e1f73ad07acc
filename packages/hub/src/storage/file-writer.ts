import type { FileHandle } from "node:fs/promises";

/**
 * Bytes are written by aligned regions of this size: pieces smaller than a region are gathered
 * (copied) into one, and a region that is all zeros is not written (the file keeps a hole there, read
 * back as zeros). An upload's request body arrives in pieces of 16-64 KiB: written one by one, a 1 GiB
 * upload was 16,000+ writes, each a trip through the thread pool the request waited on. The Xet
 * rebuild plan (src/xet/plan.ts) counts the bytes a file costs on disk by these same regions.
 */
export const REGION_BYTES = 1024 * 1024;

const ZEROS = Buffer.alloc(REGION_BYTES);

/** Gathering buffers no writer holds, kept for the next one (fresh ones are external memory to V8). */
const spare: Buffer[] = [];
const MAX_SPARE = 16;

function isZero(bytes: Uint8Array): boolean {
	// memcmp: stops at the first byte that differs, so data that is not zeros costs next to nothing.
	return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).equals(
		ZEROS.subarray(0, bytes.byteLength),
	);
}

/**
 * Writes a stream of pieces to a new file, in order, by aligned REGION_BYTES regions (all-zero ones
 * skipped): a region's pieces gathered (one gathered write in flight while the next is gathered),
 * whole regions of a large piece written from it. `write` returns once the writer is done with the piece (copied, or written):
 * the caller may refill it (BlobStore.retainsNoPieces). `end` writes what is left, gives the file its
 * full length (a hole at the end) and waits for every write; the caller makes the flush.
 */
export class FileWriter {
	/** Bytes taken so far (the file's length once written). */
	private position = 0;
	private gathered: Buffer | undefined;
	/** The gathered write in flight. */
	private writing: Promise<void> | undefined;
	/** Where the written bytes end (what lies beyond is a hole until `end`). */
	private writtenEnd = 0;

	constructor(private readonly file: FileHandle) {}

	async write(piece: Uint8Array): Promise<void> {
		let at = 0;
		while (at < piece.byteLength) {
			const inRegion = this.position % REGION_BYTES;
			const left = piece.byteLength - at;
			if (inRegion === 0 && left >= REGION_BYTES) {
				const whole = left - (left % REGION_BYTES);
				await this.writeRegions(piece.subarray(at, at + whole), this.position);
				this.position += whole;
				at += whole;
				continue;
			}
			this.gathered ??= spare.pop() ?? Buffer.allocUnsafeSlow(REGION_BYTES);
			const take = Math.min(REGION_BYTES - inRegion, left);
			this.gathered.set(piece.subarray(at, at + take), inRegion);
			this.position += take;
			at += take;
			if (this.position % REGION_BYTES === 0) await this.writeGathered(REGION_BYTES);
		}
	}

	/** Writes what is gathered, sets the file's length, waits for every write; throws their failure. */
	async end(): Promise<void> {
		const tail = this.position % REGION_BYTES;
		if (tail > 0 && this.gathered) await this.writeGathered(tail);
		await this.settle();
		if (this.writtenEnd < this.position) await this.file.truncate(this.position);
	}

	/** Waits for the writes in flight and gives the gathering buffer back (after a failure too). */
	async release(): Promise<void> {
		await this.settle().catch(() => {});
		if (this.gathered && spare.length < MAX_SPARE) spare.push(this.gathered);
		this.gathered = undefined;
	}

	/** Starts writing the gathered region (`length` bytes of it), after the previous gathered write. */
	private async writeGathered(length: number): Promise<void> {
		await this.settle();
		const buffer = this.gathered as Buffer;
		this.gathered = undefined;
		const start = this.position - length;
		this.writing = this.writeRegions(buffer.subarray(0, length), start).finally(() => {
			if (spare.length < MAX_SPARE) spare.push(buffer);
		});
	}

	private async settle(): Promise<void> {
		const writing = this.writing;
		this.writing = undefined;
		await writing;
	}

	/** Writes `bytes` at `position` (a region boundary), runs of non-zero regions in one write each. */
	private async writeRegions(bytes: Uint8Array, position: number): Promise<void> {
		let runStart = 0;
		let at = 0;
		for (;;) {
			const done = at >= bytes.byteLength;
			const end = Math.min(at + REGION_BYTES, bytes.byteLength);
			if (!done && !isZero(bytes.subarray(at, end))) {
				at = end;
				continue;
			}
			if (at > runStart) await this.writeAt(bytes.subarray(runStart, at), position + runStart);
			if (done) return;
			at = end;
			runStart = end;
		}
	}

	private async writeAt(bytes: Uint8Array, position: number): Promise<void> {
		let offset = 0;
		while (offset < bytes.byteLength) {
			const { bytesWritten } = await this.file.write(
				bytes,
				offset,
				bytes.byteLength - offset,
				position + offset,
			);
			offset += bytesWritten;
		}
		this.writtenEnd = Math.max(this.writtenEnd, position + bytes.byteLength);
	}
}
