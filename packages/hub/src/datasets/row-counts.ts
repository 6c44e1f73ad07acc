/**
 * Row counts of data files read from bounded parts of them, for a dataset whose card gives none (the public
 * hub's `size_categories:` tag then comes from the data itself): a Parquet file's footer (its Thrift
 * `FileMetaData.num_rows`, field 3, in the compact protocol), a CSV or JSON Lines file's record count. Pure.
 */

import { featuresJsonColumns, MAX_COLUMNS, type ColumnType, type DataColumn } from "./columns.js";

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

/** A decoded compact-Thrift value: structs by field id; maps are not decoded (null). */
type ThriftValue = boolean | number | bigint | Uint8Array | ThriftValue[] | Map<number, ThriftValue> | null;

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

	/**
	 * One value decoded (structs as maps by field id, lists as arrays, binaries as bytes); maps are
	 * skipped (null). `budget.values` bounds how many values one footer may decode.
	 */
	readValue(type: number, depth: number, budget: { values: number }): ThriftValue {
		if (depth > MAX_DEPTH) throw new Error("the Parquet footer nests too deeply");
		if (--budget.values < 0) throw new Error("the Parquet footer's schema is too large to read");
		switch (type) {
			case 1:
				return true;
			case 2:
				return false;
			case 3:
				return this.byte();
			case 4:
			case 5:
			case 6:
				return this.zigzag();
			case 8: {
				const length = Number(this.varint());
				const start = this.at;
				this.skip(length);
				return this.bytes.subarray(start, start + length);
			}
			case 9:
			case 10: {
				const header = this.byte();
				const size = header >> 4 === 15 ? Number(this.varint()) : header >> 4;
				const element = header & 0x0f;
				const items: ThriftValue[] = [];
				for (let index = 0; index < size; index++) {
					if (element === 1 || element === 2) items.push(this.byte() === 1);
					else items.push(this.readValue(element, depth + 1, budget));
				}
				return items;
			}
			case 12: {
				const fields = new Map<number, ThriftValue>();
				for (let field = 0; ;) {
					const header = this.byte();
					if (header === 0) return fields;
					field = header >> 4 === 0 ? Number(this.zigzag()) : field + (header >> 4);
					fields.set(field, this.readValue(header & 0x0f, depth + 1, budget));
				}
			}
			default:
				this.skipValue(type, depth);
				return null;
		}
	}

	/** The fields `wanted` of the struct at the cursor (top level), decoded; the others skipped. */
	fields(wanted: readonly number[], budget: { values: number }): Map<number, ThriftValue> {
		const found = new Map<number, ThriftValue>();
		for (let field = 0; ;) {
			const header = this.byte();
			if (header === 0) return found;
			field = header >> 4 === 0 ? Number(this.zigzag()) : field + (header >> 4);
			const type = header & 0x0f;
			if (wanted.includes(field)) found.set(field, this.readValue(type, 1, budget));
			else this.skipValue(type, 1);
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

/** Values one footer's schema and key-value metadata may decode to (a column is a few). */
const MAX_FOOTER_VALUES = 200_000;

/** Where one row group's bytes lie in its file (`start` inclusive, `end` exclusive) and its rows. */
export interface RowGroupSpan {
	rows: number;
	start: number;
	end: number;
}

/** An i64 footer value as a safe, non-negative number, or undefined. */
function offsetOf(value: ThriftValue | undefined): number | undefined {
	if (typeof value !== "bigint" || value < 0n || value > BigInt(Number.MAX_SAFE_INTEGER)) return undefined;
	return Number(value);
}

/**
 * The row groups of a Parquet footer (`FileMetaData.row_groups`, field 4), in order: each one's rows
 * (`RowGroup.num_rows`) and the bytes its column chunks take, from each chunk's `ColumnMetaData`: its
 * dictionary page (field 11) when it has one before its first data page (field 9), for
 * `total_compressed_size` (field 7) bytes. Undefined when the footer does not say where every chunk is
 * within this file (a chunk in another file, a missing offset, a span outside `fileSize`), or when it is
 * larger than `maxValues` values to decode: the caller then reads the whole file.
 */
export function parquetRowGroupSpans(
	footer: Uint8Array,
	fileSize: number,
	maxValues = MAX_FOOTER_VALUES,
): RowGroupSpan[] | undefined {
	let groups: ThriftValue | undefined;
	try {
		groups = new CompactReader(footer).fields([4], { values: maxValues }).get(4);
	} catch {
		return undefined;
	}
	if (!Array.isArray(groups)) return undefined;
	const spans: RowGroupSpan[] = [];
	for (const group of groups) {
		if (!(group instanceof Map)) return undefined;
		const rows = offsetOf(group.get(3));
		const chunks = group.get(1);
		if (rows === undefined || !Array.isArray(chunks) || chunks.length === 0) return undefined;
		let start = Number.POSITIVE_INFINITY;
		let end = 0;
		for (const chunk of chunks) {
			if (!(chunk instanceof Map) || chunk.has(1)) return undefined; // field 1: the chunk's own file
			const meta = chunk.get(3);
			if (!(meta instanceof Map)) return undefined;
			const data = offsetOf(meta.get(9));
			const size = offsetOf(meta.get(7));
			if (data === undefined || size === undefined) return undefined;
			const dictionary = offsetOf(meta.get(11));
			const first = dictionary !== undefined && dictionary > 0 && dictionary < data ? dictionary : data;
			start = Math.min(start, first);
			end = Math.max(end, first + size);
		}
		if (end > fileSize) return undefined;
		spans.push({ rows, start, end });
	}
	return spans;
}

/** Parquet physical types (`Type`) and the Arrow dtype `datasets` shows for each, unannotated. */
const PHYSICAL_DTYPES: Readonly<Record<number, string>> = {
	0: "bool",
	1: "int32",
	2: "int64",
	3: "timestamp[ns]",
	4: "float32",
	5: "float64",
	6: "binary",
	7: "binary",
};

/** ConvertedType values that change a leaf's dtype. */
const CONVERTED_DTYPES: Readonly<Record<number, string>> = {
	0: "string", // UTF8
	4: "string", // ENUM
	5: "decimal", // DECIMAL
	6: "date32", // DATE
	7: "time32[ms]", // TIME_MILLIS
	8: "time64[us]", // TIME_MICROS
	9: "timestamp[ms]", // TIMESTAMP_MILLIS
	10: "timestamp[us]", // TIMESTAMP_MICROS
	11: "uint8",
	12: "uint16",
	13: "uint32",
	14: "uint64",
	15: "int8",
	16: "int16",
	17: "int32",
	18: "int64",
	19: "string", // JSON
};

/** LogicalType union members (by field id) that change a leaf's dtype. */
const LOGICAL_DTYPES: Readonly<Record<number, string>> = {
	1: "string", // STRING
	4: "string", // ENUM
	5: "decimal",
	6: "date32",
	7: "time64[us]",
	8: "timestamp[us]",
	12: "string", // JSON
	14: "binary", // UUID
	15: "float16",
};

interface SchemaElement {
	name: string;
	type?: number;
	repetition?: number;
	children: number;
	converted?: number;
	logical?: number;
}

function schemaElement(value: ThriftValue): SchemaElement {
	const fields = value instanceof Map ? value : new Map<number, ThriftValue>();
	const num = (id: number): number | undefined => {
		const item = fields.get(id);
		return typeof item === "bigint" ? Number(item) : undefined;
	};
	const name = fields.get(4);
	const logical = fields.get(10);
	return {
		name: name instanceof Uint8Array ? Buffer.from(name).toString("utf8") : "",
		type: num(1),
		repetition: num(3),
		children: Math.max(0, num(5) ?? 0),
		converted: num(6),
		logical: logical instanceof Map ? [...logical.keys()][0] : undefined,
	};
}

/**
 * The columns of a flattened Parquet schema (depth first, `num_children` per group) as `datasets` types
 * them: leaves by physical type and annotation, LIST groups as lists of their element, MAP groups as
 * `other`, other groups as structs, repeated fields as lists.
 */
function schemaColumns(elements: readonly SchemaElement[]): DataColumn[] {
	let at = 1;
	const read = (depth: number): ColumnType => {
		const element = elements[at++];
		if (!element || depth > 32) throw new Error("the Parquet schema is not a tree");
		const children: ColumnType[] = [];
		const childElements: SchemaElement[] = [];
		for (let index = 0; index < element.children; index++) {
			childElements.push(elements[at] as SchemaElement);
			children.push(read(depth + 1));
		}
		let type: ColumnType;
		if (element.children === 0) {
			const dtype =
				(element.logical !== undefined ? LOGICAL_DTYPES[element.logical] : undefined) ??
				(element.converted !== undefined ? CONVERTED_DTYPES[element.converted] : undefined) ??
				PHYSICAL_DTYPES[element.type ?? -1] ??
				"binary";
			type = { kind: "value", dtype };
		} else if (element.converted === 3 || element.logical === 3) {
			// LIST: a repeated group of one element (or, in older writers, the repeated field itself).
			const repeated = children[0] ?? OTHER_TYPE;
			const inner = childElements[0];
			type =
				repeated.kind === "list" && inner?.children === 1 && repeated.of.kind === "struct"
					? { kind: "list", of: repeated.of.fields[0] ?? OTHER_TYPE }
					: repeated;
		} else if (element.converted === 1 || element.converted === 2 || element.logical === 2) {
			type = OTHER_TYPE;
		} else type = { kind: "struct", fields: children };
		return element.repetition === 2 ? { kind: "list", of: type } : type;
	};
	const root = elements[0];
	const columns: DataColumn[] = [];
	for (let index = 0; index < (root?.children ?? 0) && index < MAX_COLUMNS; index++) {
		const name = elements[at]?.name ?? "";
		columns.push({ name, type: read(1) });
	}
	return columns;
}

const OTHER_TYPE: ColumnType = { kind: "other" };

/**
 * The columns of a Parquet footer: the features `datasets` wrote in its `huggingface` key-value metadata
 * when it names them, else its schema's. An error for a footer that is not one or is past the bounds.
 */
export function parquetFooterColumns(footer: Uint8Array): DataColumn[] {
	const fields = new CompactReader(footer).fields([2, 5], { values: MAX_FOOTER_VALUES });
	const metadata = fields.get(5);
	if (Array.isArray(metadata)) {
		for (const pair of metadata) {
			if (!(pair instanceof Map)) continue;
			const key = pair.get(1);
			const value = pair.get(2);
			if (!(key instanceof Uint8Array) || !(value instanceof Uint8Array)) continue;
			if (Buffer.from(key).toString("utf8") !== "huggingface") continue;
			try {
				const parsed: unknown = JSON.parse(Buffer.from(value).toString("utf8"));
				const features = (parsed as { info?: { features?: unknown } } | null)?.info?.features;
				const columns = featuresJsonColumns(features);
				if (columns) return columns;
			} catch {
				// Not JSON: the schema says what the columns are.
			}
		}
	}
	const schema = fields.get(2);
	if (!Array.isArray(schema)) throw new Error("the Parquet footer has no schema");
	return schemaColumns(schema.map(schemaElement));
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
export function jsonDocumentRows(
	bytes: Uint8Array,
	field?: string,
	onRecord?: (start: number, end: number) => boolean,
): number | undefined {
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
	// The open record's first byte (-1: none); each whole record is handed to onRecord, which may stop.
	let recordStart = -1;
	const emit = (end: number): boolean => {
		const start = recordStart;
		recordStart = -1;
		return start < 0 || onRecord === undefined || onRecord(start, end);
	};
	for (; at < bytes.length; at++) {
		const byte = bytes[at] as number;
		if (inString) {
			if (escaped) escaped = false;
			else if (byte === BACKSLASH) escaped = true;
			else if (byte === QUOTE) {
				inString = false;
				if (depth === 0) {
					between = true;
					if (!emit(at + 1)) return records;
				}
				if (keyStart >= 0) {
					keyMatches = at - keyStart <= MAX_KEY_BYTES && decodedKey(bytes, keyStart, at + 1) === field;
					keyStart = -1;
				}
			}
			continue;
		}
		if (isSpace(byte)) {
			if (depth === 0) {
				between = true;
				if (mode === "values" && !emit(at)) return records;
			}
			continue;
		}
		if (mode === "values" && depth === 0 && between && !isPunctuation(byte)) {
			records++;
			recordStart = at;
			between = false;
		}
		if (targetOpen && depth === targetDepth && expectElement && byte !== CLOSE_ARRAY) {
			records++;
			recordStart = at;
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
			if (depth === targetDepth && targetOpen) {
				targetOpen = false;
				if (!emit(at)) return records;
			}
			depth = Math.max(0, depth - 1);
			if (depth === 0) {
				between = true;
				if (mode === "values" && !emit(at + 1)) return records;
			}
		} else if (byte === COMMA) {
			if (targetOpen && depth === targetDepth) {
				expectElement = true;
				if (!emit(at)) return records;
			}
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

/** Records sampled from a data file's head to type its columns. */
export const SAMPLE_RECORDS = 100;

/**
 * The first whole records of a `.json` or JSON Lines file's head (parsed; a record cut by the head's end,
 * or one that is not JSON, is left out), as `jsonDocumentRows` finds them.
 */
export function jsonSample(head: Uint8Array, field?: string, max = SAMPLE_RECORDS): unknown[] {
	const records: unknown[] = [];
	jsonDocumentRows(head, field, (start, end) => {
		try {
			records.push(JSON.parse(Buffer.from(head.subarray(start, end)).toString("utf8")));
		} catch {
			// A record that is not JSON (or cut short) says nothing of the columns.
		}
		return records.length < max;
	});
	return records;
}

/**
 * The header and first records of a CSV file's head, split into fields as csvRows reads them (a record
 * cut by the head's end is left out unless the head is the whole file).
 */
export function csvSample(
	head: Uint8Array,
	delimiter: "," | "\t" = ",",
	whole = false,
	max = SAMPLE_RECORDS,
): { header: string[]; records: string[][] } | undefined {
	const text = Buffer.from(head).toString("utf8");
	const rows: string[][] = [];
	let fields: string[] = [];
	let field = "";
	let state: "fieldStart" | "plain" | "quoted" | "closing" = "fieldStart";
	let content = false;
	const endRecord = (): void => {
		fields.push(field);
		if (content) rows.push(fields);
		fields = [];
		field = "";
		content = false;
		state = "fieldStart";
	};
	for (const char of text) {
		if (rows.length > max) break;
		if (state === "quoted") {
			if (char === '"') state = "closing";
			else field += char;
			continue;
		}
		if (state === "closing" && char === '"') {
			field += '"';
			state = "quoted";
			continue;
		}
		if (char === "\n" || char === "\r") endRecord();
		else if (char === delimiter) {
			fields.push(field);
			field = "";
			content = true;
			state = "fieldStart";
		} else {
			if (char !== " " && char !== "\t") content = true;
			if (state === "fieldStart" && char === '"') state = "quoted";
			else {
				field += char;
				state = "plain";
			}
		}
	}
	if (whole && rows.length <= max && (content || field !== "")) endRecord();
	const [header, ...records] = rows;
	return header ? { header, records: records.slice(0, max) } : undefined;
}
