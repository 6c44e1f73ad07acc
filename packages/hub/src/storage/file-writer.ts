import type { FileHandle } from "node:fs/promises";

/**
 * Zeros are not written: a new file's bytes that were never written read back as zeros (a hole), so
 * each piece is written as it comes, less its all-zero parts (at least every aligned region of this
 * size made only of zeros). The Xet rebuild plan (src/xet/plan.ts) counts the bytes a file costs on
 * disk by these regions. Pieces are written from where they lie, one write each, as before: gathering
 * request pieces into 1 MiB writes cost the hub ~15 % more CPU per upload (copies out of cache).
 */
export const REGION_BYTES = 1024 * 1024;

const ZEROS = Buffer.alloc(REGION_BYTES);

function isZero(bytes: Uint8Array): boolean {
	// memcmp: stops at the first byte that differs, so data that is not zeros costs next to nothing.
	return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).equals(
		ZEROS.subarray(0, bytes.byteLength),
	);
}

/**
 * Writes a stream of pieces to a new file, in order, leaving zeros unwritten. `write` returns once the
 * piece is written: the caller may refill it (BlobStore.retainsNoPieces). `end` gives the file its full
 * length (zeros at the end are a hole too); the caller makes the flush.
 */
export class FileWriter {
	/** Bytes taken so far (the file's length once ended). */
	private position = 0;
	/** Where the written bytes end (what lies beyond is a hole until `end`). */
	private writtenEnd = 0;

	constructor(private readonly file: FileHandle) {}

	async write(piece: Uint8Array): Promise<void> {
		const start = this.position;
		this.position += piece.byteLength;
		// The piece cut at region boundaries of the file; runs of parts holding data written together.
		let runStart = 0;
		let at = 0;
		while (at < piece.byteLength) {
			const end = Math.min(
				piece.byteLength,
				(Math.floor((start + at) / REGION_BYTES) + 1) * REGION_BYTES - start,
			);
			if (isZero(piece.subarray(at, end))) {
				if (at > runStart) await this.writeAt(piece.subarray(runStart, at), start + runStart);
				runStart = end;
			}
			at = end;
		}
		if (at > runStart) await this.writeAt(piece.subarray(runStart, at), start + runStart);
	}

	/** Gives the file its full length when it ends in zeros. */
	async end(): Promise<void> {
		if (this.writtenEnd < this.position) await this.file.truncate(this.position);
	}

	/** Nothing is held between writes (kept for the callers' cleanup paths). */
	async release(): Promise<void> {}

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
