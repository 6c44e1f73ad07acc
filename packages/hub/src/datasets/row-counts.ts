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
				for (let index = 0; index < size; index++) this.skipElement(element, depth + 1);
				return;
			}
			case 11: {
				const size = Number(this.varint());
				if (size === 0) return;
				const types = this.byte();
				for (let index = 0; index < size; index++) {
					this.skipElement(types >> 4, depth + 1);
					this.skipElement(types & 0x0f, depth + 1);
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

	/**
	 * Skips one element of a list, set or map. Booleans there are a byte each (the compact protocol keeps
	 * a boolean in the field header only for struct fields), so every element consumes at least a byte and
	 * a hostile element count ends at the footer's end.
	 */
	private skipElement(type: number, depth: number): void {
		if (type === 1 || type === 2) this.skip(1);
		else this.skipValue(type, depth);
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
 * Records in a whole CSV or TSV file, as pandas' `read_csv` (which `datasets` reads CSV with) counts them:
 * a double quote opens a quoted field only at a field's start (`5" screen` is text), inside one `""` is a
 * quote and line breaks are data (RFC 4180); CR, LF and CRLF end a record; lines of only spaces and tabs
 * do not count; the header line is not a record.
 */
export function csvRows(bytes: Uint8Array, delimiter: "," | "\t" = ","): number {
	const separator = delimiter.charCodeAt(0);
	let records = 0;
	let content = false;
	// fieldStart: at a field's start; plain: in an unquoted field; quoted: in a quoted one; closing: just
	// after a quote inside a quoted field (a second quote makes it a literal one).
	let state: "fieldStart" | "plain" | "quoted" | "closing" = "fieldStart";
	for (const byte of bytes) {
		if (state === "quoted") {
			if (byte === QUOTE) state = "closing";
			continue;
		}
		if (state === "closing" && byte === QUOTE) {
			state = "quoted";
			continue;
		}
		if (byte === LF || byte === CR) {
			if (content) records++;
			content = false;
			state = "fieldStart";
		} else if (byte === separator) {
			content = true;
			state = "fieldStart";
		} else {
			if (byte !== SPACE && byte !== TAB) content = true;
			state = state === "fieldStart" && byte === QUOTE ? "quoted" : "plain";
		}
	}
	if (content) records++;
	return Math.max(0, records - 1);
}

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;

/** Records in a whole JSON Lines file: its non-empty lines. */
export function jsonLinesRows(bytes: Uint8Array): number {
	let lines = 0;
	let content = false;
	for (const byte of bytes) {
		if (byte === LF) {
			if (content) lines++;
			content = false;
		} else if (byte !== CR && byte !== SPACE && byte !== TAB) content = true;
	}
	return content ? lines + 1 : lines;
}

/** Longest object key compared with a config's `field` (bytes of its JSON text). */
const MAX_KEY_BYTES = 1024;

/**
 * Records in a whole `.json` file as `datasets` (5.0, its `json` builder) reads one: a file starting with
 * `[` is one array whose elements are the records (objects, or strings read as a `text` column); with a
 * config's `field`, a top-level object's array under that key; otherwise each top-level value is a record
 * (JSON Lines, or one document such as `{"data": [...]}`, which is one row of a `data` column). One pass
 * over the bytes, no parsing into values: memory stays constant whatever the file holds. Undefined when
 * the `field` names no array of the file (datasets fails to load it).
 */
export function jsonDocumentRows(bytes: Uint8Array, field?: string): number | undefined {
	let at = 0;
	// datasets strips a leading UTF-8 byte order mark.
	if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) at = 3;
	while (at < bytes.length && isSpace(bytes[at] as number)) at++;
	const first = bytes[at];
	// Where the records are: elements of the containers at `targetDepth` that are targets.
	const mode: "values" | "array" | "field" =
		first === OPEN_ARRAY ? "array" : first === OPEN_OBJECT && field !== undefined ? "field" : "values";
	let records = 0;
	let depth = 0;
	let inString = false;
	let escaped = false;
	let between = true; // at depth 0: the previous top-level value has ended
	let expectElement = false; // in the target array: the next value starts a record
	let found = mode !== "field";
	let targetOpen = false; // the target array is the container at depth 1 ("array") or 2 ("field")
	// "field": at depth 1 of the top-level object, whether a key is expected, the key's bytes, a match.
	let keyExpected = false;
	let keyStart = -1;
	let keyMatches = false;
	const targetDepth = mode === "array" ? 1 : 2;
	for (; at < bytes.length; at++) {
		const byte = bytes[at] as number;
		if (inString) {
			if (escaped) escaped = false;
			else if (byte === BACKSLASH) escaped = true;
			else if (byte === QUOTE) {
				inString = false;
				if (depth === 0) between = true;
				if (keyStart >= 0) {
					keyMatches = at - keyStart <= MAX_KEY_BYTES && decodedKey(bytes, keyStart, at + 1) === field;
					keyStart = -1;
				}
			}
			continue;
		}
		if (isSpace(byte)) {
			if (depth === 0) between = true;
			continue;
		}
		if (mode === "values" && depth === 0 && between && !isPunctuation(byte)) {
			records++;
			between = false;
		}
		if (targetOpen && depth === targetDepth && expectElement && byte !== CLOSE_ARRAY) {
			records++;
			expectElement = false;
		}
		if (byte === QUOTE) {
			inString = true;
			if (mode === "field" && depth === 1 && keyExpected) {
				keyStart = at;
				keyExpected = false;
			}
		} else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
			depth++;
			if (mode === "array" && depth === 1) {
				targetOpen = true;
				expectElement = true;
			} else if (mode === "field" && depth === 1) keyExpected = true;
			else if (mode === "field" && depth === 2 && byte === OPEN_ARRAY && keyMatches) {
				found = true;
				targetOpen = true;
				expectElement = true;
			}
		} else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) {
			if (depth === targetDepth) targetOpen = false;
			depth = Math.max(0, depth - 1);
			if (depth === 0) between = true;
		} else if (byte === COMMA) {
			if (targetOpen && depth === targetDepth) expectElement = true;
			if (mode === "field" && depth === 1) {
				keyExpected = true;
				keyMatches = false;
			}
		}
	}
	return found ? records : undefined;
}

const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const COMMA = 0x2c;
const BACKSLASH = 0x5c;
const COLON = 0x3a;

/** Bytes that end or separate values rather than start one. */
function isPunctuation(byte: number): boolean {
	return byte === CLOSE_ARRAY || byte === CLOSE_OBJECT || byte === COMMA || byte === COLON;
}

function isSpace(byte: number): boolean {
	return byte === SPACE || byte === TAB || byte === LF || byte === CR;
}

/** An object key's text from its quoted JSON bytes, or undefined when it is not valid JSON. */
function decodedKey(bytes: Uint8Array, start: number, end: number): string | undefined {
	try {
		const key: unknown = JSON.parse(Buffer.from(bytes.subarray(start, end)).toString("utf8"));
		return typeof key === "string" ? key : undefined;
	} catch {
		return undefined;
	}
}
