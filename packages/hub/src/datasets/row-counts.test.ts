import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { describe, expect, it } from "vitest";
import {
	csvRows,
	csvSample,
	jsonDocumentRows,
	jsonLinesRows,
	jsonSample,
	PARQUET_TAIL_BYTES,
	parquetFooterColumns,
	parquetFooterLength,
	parquetFooterRows,
	parquetRowGroupSpans,
} from "./row-counts.js";

/** Thrift compact protocol pieces (the Parquet footer's encoding). */
const varint = (value: bigint): number[] => {
	const bytes: number[] = [];
	let rest = value;
	do {
		const low = Number(rest & 0x7fn);
		rest >>= 7n;
		bytes.push(rest === 0n ? low : low | 0x80);
	} while (rest !== 0n);
	return bytes;
};
const zigzag = (value: bigint): number[] => varint(value >= 0n ? value << 1n : (-value << 1n) - 1n);
/** A field header with a short field-id delta. */
const field = (delta: number, type: number): number => (delta << 4) | type;
const I32 = 5;
const I64 = 6;
const BINARY = 8;
const LIST = 9;
const MAP = 11;
const STRUCT = 12;
const text = (value: string): number[] => [...varint(BigInt(value.length)), ...Buffer.from(value)];
/** A schema element with only its name (field 4). */
const schemaElement = (name: string): number[] => [field(4, BINARY), ...text(name), 0];
/** FileMetaData: version (1), `schema` (2) as given, num_rows (3), stop. */
const footer = (schema: number[], rows: bigint): Uint8Array =>
	new Uint8Array([field(1, I32), ...zigzag(2n), ...schema, field(1, I64), ...zigzag(rows), 0]);
/** A field 2 that is not a schema, for footers that need none. */
const noSchema = [field(1, I32), ...zigzag(0n)];
const twoColumns = [field(1, LIST), (2 << 4) | STRUCT, ...schemaElement("a"), ...schemaElement("b")];

describe("Parquet footers", () => {
	it("reads num_rows from a footer DuckDB wrote (nested columns, key-value metadata, many row groups)", async () => {
		const dir = await mkdtemp(join(tmpdir(), "row-counts-"));
		const path = join(dir, "x.parquet");
		const instance = await DuckDBInstance.create(":memory:");
		const connection = await instance.connect();
		try {
			await connection.run(
				`COPY (SELECT i, {'a': i, 'b': [i, i + 1]} AS s, map([i::VARCHAR], [i % 2 = 0]) AS m, i % 3 = 0 AS flag
				FROM range(12345) t(i)) TO '${path}' (FORMAT parquet, ROW_GROUP_SIZE 1000, KV_METADATA {huggingface: '{"info": {}}'})`,
			);
			const bytes = new Uint8Array(await readFile(path));
			const length = parquetFooterLength(bytes.subarray(bytes.length - PARQUET_TAIL_BYTES), bytes.length);
			const end = bytes.length - PARQUET_TAIL_BYTES;
			const parquetFooter = bytes.subarray(end - length, end);
			expect(parquetFooterRows(parquetFooter)).toBe(12345);
			// The same footer cut inside its schema (before num_rows) is refused, not misread.
			expect(() => parquetFooterRows(parquetFooter.subarray(0, 8))).toThrow(/ends early/);
		} finally {
			connection.closeSync();
			instance.closeSync();
			await rm(dir, { recursive: true, force: true });
		}
	});

	it("finds each row group's rows and bytes as DuckDB's parquet_metadata reports them", async () => {
		const dir = await mkdtemp(join(tmpdir(), "row-counts-"));
		const path = join(dir, "groups.parquet");
		const instance = await DuckDBInstance.create(":memory:");
		const connection = await instance.connect();
		try {
			// A dictionary-encoded text column and a plain one, 4 row groups (DuckDB's row groups are whole vectors of 2,048; the last one short).
			await connection.run(
				`COPY (SELECT i, 'label ' || (i % 7) AS label, md5(i::VARCHAR) AS hash FROM range(7000) t(i))
				TO '${path}' (FORMAT parquet, ROW_GROUP_SIZE 2048)`,
			);
			const bytes = new Uint8Array(await readFile(path));
			const end = bytes.length - PARQUET_TAIL_BYTES;
			const length = parquetFooterLength(bytes.subarray(end), bytes.length);
			const spans = parquetRowGroupSpans(bytes.subarray(end - length, end), bytes.length);
			const reader = await connection.runAndReadAll(
				`SELECT row_group_id::INTEGER AS g, any_value(row_group_num_rows)::INTEGER AS rows,
				min(coalesce(dictionary_page_offset, data_page_offset))::INTEGER AS start,
				max(coalesce(dictionary_page_offset, data_page_offset) + total_compressed_size)::INTEGER AS stop
				FROM parquet_metadata('${path}') GROUP BY g ORDER BY g`,
			);
			const expected = reader
				.getRowObjectsJS()
				.map((row) => ({ rows: row.rows, start: row.start, end: row.stop }));
			expect(expected).toHaveLength(4);
			expect(spans).toEqual(expected);
			expect(spans?.map((span) => span.rows)).toEqual([2048, 2048, 2048, 856]);
			// A size that does not hold the spans, or too small a decoding budget: no spans (read the whole file).
			expect(parquetRowGroupSpans(bytes.subarray(end - length, end), 100)).toBeUndefined();
			expect(parquetRowGroupSpans(bytes.subarray(end - length, end), bytes.length, 10)).toBeUndefined();
			// A cut footer is no footer.
			expect(parquetRowGroupSpans(bytes.subarray(end - length, end - 20), bytes.length)).toBeUndefined();
		} finally {
			connection.closeSync();
			instance.closeSync();
			await rm(dir, { recursive: true, force: true });
		}
	});

	it("checks the tail: magic and a length that fits the file", () => {
		const tail = (length: number, magic = "PAR1"): Uint8Array => {
			const bytes = Buffer.alloc(8);
			bytes.writeUInt32LE(length, 0);
			bytes.write(magic, 4, "latin1");
			return new Uint8Array(bytes);
		};
		expect(parquetFooterLength(tail(100), 1000)).toBe(100);
		expect(() => parquetFooterLength(tail(100, "PAR0"), 1000)).toThrow(/no PAR1 magic/);
		expect(() => parquetFooterLength(tail(0), 1000)).toThrow(/does not fit/);
		expect(() => parquetFooterLength(tail(989), 1000)).toThrow(/does not fit/);
		expect(() => parquetFooterLength(tail(100).subarray(1), 1000)).toThrow(/no PAR1 magic/);
	});

	it("walks fields before num_rows, in short and long field headers", () => {
		expect(parquetFooterRows(footer(twoColumns, 1234n))).toBe(1234);
		expect(parquetFooterRows(footer(noSchema, 0n))).toBe(0);
		// num_rows with a long-form header (type, then the field id as a zigzag varint).
		const long = new Uint8Array([I64, ...zigzag(3n), ...zigzag(77n), 0]);
		expect(parquetFooterRows(long)).toBe(77);
	});

	it("skips booleans inside maps and lists as a byte each", () => {
		// A map<bool, bool> of 3 entries before num_rows: each key and value is one byte (compact protocol).
		const map = [field(1, MAP), ...varint(3n), 0x11, 1, 2, 1, 1, 2, 2];
		expect(parquetFooterRows(footer(map, 4321n))).toBe(4321);
		const list = [field(1, LIST), (3 << 4) | 1, 1, 2, 1];
		expect(parquetFooterRows(footer(list, 99n))).toBe(99);
	});

	it("refuses hostile footers quickly: huge counts, deep nesting, bad types, lying numbers", () => {
		const huge = varint(1n << 60n);
		// Element counts far beyond the footer's bytes end at its end (every element costs a byte).
		for (const elementTypes of [0x11, 0xcc, 0x33]) {
			const map = [field(1, MAP), ...huge, elementTypes, 1, 1];
			expect(() => parquetFooterRows(footer(map, 1n))).toThrow(/ends early/);
		}
		expect(() => parquetFooterRows(footer([field(1, LIST), 0xf0 | 1, ...huge, 1], 1n))).toThrow(/ends early/);
		expect(() => parquetFooterRows(footer([field(1, BINARY), ...huge], 1n))).toThrow(/ends early/);
		// Structs in structs past the walk's depth bound.
		const deep = [
			field(1, STRUCT),
			...Array<number>(200).fill(field(1, STRUCT)),
			...Array<number>(201).fill(0),
		];
		expect(() => parquetFooterRows(footer(deep, 1n))).toThrow(/nests too deeply/);
		expect(() => parquetFooterRows(footer([field(1, 13)], 1n))).toThrow(/unknown Thrift type 13/);
		expect(() =>
			parquetFooterRows(new Uint8Array([field(3, I64), ...Array<number>(11).fill(0xff), 1])),
		).toThrow(/overlong integer/);
		expect(() => parquetFooterRows(footer(noSchema, -5n))).toThrow(/out of range/);
		expect(() => parquetFooterRows(footer(noSchema, 1n << 60n))).toThrow(/out of range/);
		// num_rows of another type than i64 is not a row count.
		expect(() => parquetFooterRows(new Uint8Array([field(3, I32), ...zigzag(5n), 0]))).toThrow(
			/no row count/,
		);
		expect(() => parquetFooterRows(new Uint8Array([]))).toThrow(/ends early/);
	});
});

const bytes = (value: string): Uint8Array => new Uint8Array(Buffer.from(value, "utf8"));

describe("CSV records (pandas read_csv's counts, as datasets reads CSV)", () => {
	it("counts records, not lines, and not the header", () => {
		const cases: Array<[string, number]> = [
			["a,b\n1,2\n3,4\n", 2],
			["a,b\n1,2\n3,4", 2],
			["a,b\r\n1,2\r\n3,4\r\n", 2],
			["a,b\r1,2\r3,4\r", 2],
			["a,b\n\n1,2\n  \n\t\n3,4\n\n", 2],
			["a,b\n", 0],
			["", 0],
			// Quoted fields hold line breaks, separators and doubled quotes.
			['a,b\n1,"x\ny"\n2,"he said ""hi,\n there"""\n', 2],
			// A quote inside an unquoted field is text (an inch mark), not the start of a quoted field.
			['a,b\n1,5" screen\n2,x\n3,y\n', 3],
			// Text after a quoted field's closing quote stays in that field.
			['a,b\n"x"y,1\n2,3\n', 2],
			// Separator-only lines are records of empty fields.
			["a,b\n,\n,\n", 2],
		];
		for (const [csv, records] of cases) expect([csv, csvRows(bytes(csv))]).toEqual([csv, records]);
	});

	it("reads TSV with tabs as the separator", () => {
		expect(csvRows(bytes('a\tb\n1\t"x\ny"\n2\t3\n'), "\t")).toBe(2);
		expect(csvRows(bytes('a\tb\n1\t5" x\n2\t3\n'), "\t")).toBe(2);
	});
});

describe("JSON records", () => {
	it("counts non-empty lines of JSON Lines", () => {
		expect(jsonLinesRows(bytes('{"a": 1}\n\n{"a": 2}\r\n  \n{"a": 3}'))).toBe(3);
		expect(jsonLinesRows(bytes(""))).toBe(0);
	});

	it("counts a .json file's records as datasets 5.0 reads it", () => {
		// A top-level array: its elements (objects, or strings that become a text column).
		expect(jsonDocumentRows(bytes('[{"a": 1, "b": "x"},\n {"a": 2, "b": "]"}, {"a": [3, 4]}]'))).toBe(3);
		expect(jsonDocumentRows(bytes('\ufeff  ["p", "q,r", "s\\"]"]'))).toBe(3);
		expect(jsonDocumentRows(bytes("[]"))).toBe(0);
		expect(jsonDocumentRows(bytes("[ ]\n"))).toBe(0);
		// JSON Lines in a .json file, and one document: each top-level value is a record.
		expect(jsonDocumentRows(bytes('{"a": 1}\n{"a": 2}\n\n{"a": "}\\n{"}\n'))).toBe(3);
		expect(jsonDocumentRows(bytes('{"data": [{"a": 1},\n {"a": 2}, {"a": 3}]}\n'))).toBe(1);
		expect(jsonDocumentRows(bytes("1 2\n3"))).toBe(3);
		expect(jsonDocumentRows(bytes(""))).toBe(0);
	});

	it("counts the array under a config's field", () => {
		const doc = '{"version": "1", "data": [{"a": 1}, {"a": [1, 2]}, {"a": {"data": [9, 9]}}], "other": [1]}';
		expect(jsonDocumentRows(bytes(doc), "data")).toBe(3);
		expect(jsonDocumentRows(bytes(doc), "other")).toBe(1);
		expect(jsonDocumentRows(bytes('{"d\\u0061ta": [1, 2]}'), "data")).toBe(2);
		expect(jsonDocumentRows(bytes('{"data": []}'), "data")).toBe(0);
		// A field that names no array: the count is unknown.
		expect(jsonDocumentRows(bytes(doc), "version")).toBeUndefined();
		expect(jsonDocumentRows(bytes(doc), "missing")).toBeUndefined();
		// A field does not apply to a top-level array.
		expect(jsonDocumentRows(bytes("[1, 2]"), "data")).toBe(2);
	});

	it("stays linear on hostile input: deep nesting, unclosed strings, stray closers", () => {
		const deep = "[".repeat(1_000_000) + "]".repeat(1_000_000);
		expect(jsonDocumentRows(bytes(deep))).toBe(1);
		expect(jsonDocumentRows(bytes('["never closed'))).toBe(1);
		expect(jsonDocumentRows(bytes("]]]}} 1"))).toBe(1);
	});
});

describe("columns of data files", () => {
	it("reads a Parquet schema's columns as datasets types them, or the features datasets wrote", async () => {
		const dir = await mkdtemp(join(tmpdir(), "row-columns-"));
		const instance = await DuckDBInstance.create(":memory:");
		const connection = await instance.connect();
		const footerOf = async (path: string): Promise<Uint8Array> => {
			const bytes = new Uint8Array(await readFile(path));
			const length = parquetFooterLength(bytes.subarray(bytes.length - PARQUET_TAIL_BYTES), bytes.length);
			const end = bytes.length - PARQUET_TAIL_BYTES;
			return bytes.subarray(end - length, end);
		};
		try {
			const select = `SELECT 1::BIGINT AS id, 2.5::DOUBLE AS score, 'x' AS text, true AS flag,
				[1.5::FLOAT, 2.5::FLOAT] AS series, {'a': 1, 'b': 'y'} AS meta, map(['k'], [1]) AS m,
				['p', 'q'] AS words, DATE '2024-01-02' AS day, 'z'::BLOB AS raw`;
			await connection.run(`COPY (${select}) TO '${join(dir, "plain.parquet")}' (FORMAT parquet)`);
			expect(parquetFooterColumns(await footerOf(join(dir, "plain.parquet")))).toEqual([
				{ name: "id", type: { kind: "value", dtype: "int64" } },
				{ name: "score", type: { kind: "value", dtype: "float64" } },
				{ name: "text", type: { kind: "value", dtype: "string" } },
				{ name: "flag", type: { kind: "value", dtype: "bool" } },
				{ name: "series", type: { kind: "list", of: { kind: "value", dtype: "float32" } } },
				{
					name: "meta",
					type: {
						kind: "struct",
						fields: [
							{ kind: "value", dtype: "int32" },
							{ kind: "value", dtype: "string" },
						],
					},
				},
				{ name: "m", type: { kind: "other" } },
				{ name: "words", type: { kind: "list", of: { kind: "value", dtype: "string" } } },
				{ name: "day", type: { kind: "value", dtype: "date32" } },
				{ name: "raw", type: { kind: "value", dtype: "binary" } },
			]);
			const features = JSON.stringify({
				info: {
					features: {
						image: { _type: "Image" },
						label: { names: ["a", "b"], _type: "ClassLabel" },
					},
				},
			}).replaceAll("'", "''");
			await connection.run(
				`COPY (SELECT {'bytes': 'x'::BLOB, 'path': 'a.png'} AS image, 0 AS label) TO '${join(dir, "hf.parquet")}'
				(FORMAT parquet, KV_METADATA {huggingface: '${features}'})`,
			);
			expect(parquetFooterColumns(await footerOf(join(dir, "hf.parquet")))).toEqual([
				{ name: "image", type: { kind: "image" } },
				{ name: "label", type: { kind: "class_label" } },
			]);
		} finally {
			connection.closeSync();
			instance.closeSync();
			await rm(dir, { recursive: true, force: true });
		}
	});

	it("refuses footers whose schema is not a tree or is past the decoding bound", () => {
		// A root that claims 5 children with none after it.
		const root = [
			field(1, LIST),
			(1 << 4) | STRUCT,
			field(4, BINARY),
			...text("schema"),
			field(1, I32),
			...zigzag(5n),
			0,
		];
		expect(() => parquetFooterColumns(footer(root, 1n))).toThrow(/not a tree/);
		const many = [field(1, LIST), 0xf0 | I32, ...varint(300_000n), ...Array<number>(300_000).fill(0)];
		expect(() => parquetFooterColumns(footer(many, 1n))).toThrow(/too large/);
	});

	it("samples CSV records and JSON records from a file's head", () => {
		expect(csvSample(bytes('a,b\n1,"x\ny"\n2,"he said ""hi"""\n3,cut'))).toEqual({
			header: ["a", "b"],
			records: [
				["1", "x\ny"],
				["2", 'he said "hi"'],
			],
		});
		expect(csvSample(bytes("a\tb\n1\t2"), "\t", true)).toEqual({ header: ["a", "b"], records: [["1", "2"]] });
		expect(csvSample(bytes(""))).toBeUndefined();
		expect(jsonSample(bytes('[{"a": 1}, {"a": "x,]"}, {"a": [1, 2]}, {"a": 4'))).toEqual([
			{ a: 1 },
			{ a: "x,]" },
			{ a: [1, 2] },
		]);
		expect(jsonSample(bytes('{"a": 1}\n{"a": 2}\nnot json\n{"a": 3'))).toEqual([{ a: 1 }, { a: 2 }]);
		expect(jsonSample(bytes('{"v": 1, "data": [{"a": 1}, {"a": 2}]}'), "data")).toEqual([{ a: 1 }, { a: 2 }]);
		expect(jsonSample(bytes('["p", "q"]'))).toEqual(["p", "q"]);
		expect(jsonSample(bytes("[1, 2, 3, 4]"), undefined, 2)).toEqual([1, 2]);
	});
});
