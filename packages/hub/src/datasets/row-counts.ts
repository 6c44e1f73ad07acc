/**
 * Row counts of data files read from bounded parts of them, for a dataset whose card gives none (the public
 * hub's `size_categories:` tag then comes from the data itself): a Parquet file's footer (its Thrift
 * `FileMetaData.num_rows`, field 3, in the compact protocol), a CSV or JSON Lines file's record count. Pure.
 */

/** A Parquet file ends with the footer, its 4-byte little-endian length and the magic `PAR1`. */
export const PARQUET_TAIL_BYTES = 8;
const MAGIC = "PAR1";
/** Nesting the footer walk accepts before calling the footer hostile (real schemas nest a few levels). */
const MAX_DEPTH = 64;

/** The footer's length from a file's last 8 bytes, or an error naming what is wrong. */
export function parquetFooterLength(tail: Uint8Array, fileSize: number): number {
	if (tail.length !== PARQUET_TAIL_BYTES || Buffer.from(tail.subarray(4)).toString("latin1") !== MAGIC)
		throw new Error("not a Parquet file (no PAR1 magic at its end)");
	const length = Buffer.from(tail).readUInt32LE(0);
	if (length === 0 || length > fileSize - PARQUET_TAIL_BYTES - MAGIC.length)
		throw new Error(`the Parquet footer's length ${length} does not fit the file`);
	return length;
}

class CompactReader {
	private at = 0;
	constructor(private readonly bytes: Uint8Array) {}

	byte(): number {
		if (this.at >= this.bytes.length) throw new Error("the Parquet footer ends early");
		return this.bytes[this.at++] as number;
	}

	varint(): bigint {
		let value = 0n;
		for (let shift = 0n; shift < 70n; shift += 7n) {
			const byte = this.byte();
			value |= BigInt(byte & 0x7f) << shift;
			if ((byte & 0x80) === 0) return value;
		}
		throw new Error("the Parquet footer has an overlong integer");
	}

	zigzag(): bigint {
		const raw = this.varint();
		return (raw >> 1n) ^ -(raw & 1n);
	}

	skip(count: number): void {
		if (count < 0 || this.at + count > this.bytes.length) throw new Error("the Parquet footer ends early");
		this.at += count;
	}

	/** Skips one value of a compact-protocol type. */
	skipValue(type: number, depth: number): void {
		if (depth > MAX_DEPTH) throw new Error("the Parquet footer nests too deeply");
		switch (type) {
			case 1:
			case 2:
				return; // booleans live in the field header
			case 3:
				this.skip(1);
				return;
			case 4:
			case 5:
			case 6:
				this.varint();
				return;
			case 7:
				this.skip(8);
				return;
			case 8:
				this.skip(Number(this.varint()));
				return;
			case 9:
			case 10: {
				const header = this.byte();
				const size = header >> 4 === 15 ? Number(this.varint()) : header >> 4;
				const element = header & 0x0f;
				for (let index = 0; index < size; index++) {
					if (element === 1 || element === 2) this.skip(1);
					else this.skipValue(element, depth + 1);
				}
				return;
			}
			case 11: {
				const size = Number(this.varint());
				if (size === 0) return;
				const types = this.byte();
				for (let index = 0; index < size; index++) {
					this.skipValue(types >> 4, depth + 1);
					this.skipValue(types & 0x0f, depth + 1);
				}
				return;
			}
			case 12:
				this.skipStruct(depth + 1);
				return;
			default:
				throw new Error(`the Parquet footer has an unknown Thrift type ${type}`);
		}
	}

	skipStruct(depth: number): void {
		for (let field = 0; ;) {
			const header = this.byte();
			if (header === 0) return;
			field = header >> 4 === 0 ? Number(this.zigzag()) : field + (header >> 4);
			this.skipValue(header & 0x0f, depth);
		}
	}

	/** The i64 field `wanted` of the struct at the cursor (the struct's top level only). */
	i64Field(wanted: number): bigint | undefined {
		for (let field = 0; ;) {
			const header = this.byte();
			if (header === 0) return undefined;
			field = header >> 4 === 0 ? Number(this.zigzag()) : field + (header >> 4);
			const type = header & 0x0f;
			if (field === wanted && type === 6) return this.zigzag();
			this.skipValue(type, 1);
		}
	}
}

/** `FileMetaData.num_rows` (field 3) of a Parquet footer, or an error for a footer that is not one. */
export function parquetFooterRows(footer: Uint8Array): number {
	const rows = new CompactReader(footer).i64Field(3);
	if (rows === undefined) throw new Error("the Parquet footer has no row count");
	if (rows < 0n || rows > BigInt(Number.MAX_SAFE_INTEGER))
		throw new Error(`the Parquet footer's row count ${rows} is out of range`);
	return Number(rows);
}

/**
 * Records in a whole CSV or TSV file: its lines outside double quotes (a quoted field may hold line breaks,
 * RFC 4180), less the header line; empty lines do not count.
 */
export function csvRows(bytes: Uint8Array): number {
	return Math.max(0, recordLines(bytes, true) - 1);
}

/** Records in a whole JSON Lines file: its non-empty lines. */
export function jsonLinesRows(bytes: Uint8Array): number {
	return recordLines(bytes, false);
}

function recordLines(bytes: Uint8Array, quotes: boolean): number {
	let lines = 0;
	let quoted = false;
	let content = false;
	for (const byte of bytes) {
		if (quotes && byte === 0x22) quoted = !quoted;
		if (byte === 0x0a && !quoted) {
			if (content) lines++;
			content = false;
		} else if (byte !== 0x0d && byte !== 0x20 && byte !== 0x09) content = true;
	}
	return content ? lines + 1 : lines;
}
