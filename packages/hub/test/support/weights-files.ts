/**
 * Weights files built byte by byte for the analysis tests (safetensors and GGUF headers, laid out as
 * their formats specify), and readers over them: in memory, where a file may be "virtual" (its header
 * written, the rest zeros that are never stored), and on disk.
 */
import { open } from "node:fs/promises";
import { join } from "node:path";
import type { ReadRange, RevisionFile } from "../../src/analysis/types.js";

/** A file whose bytes are `head` followed by zeros up to `size`. */
export interface VirtualFile {
	path: string;
	head: Uint8Array;
	size: number;
}

const utf8 = new TextEncoder();

export const BITS: Record<string, number> = {
	F32: 32,
	BF16: 16,
	F16: 16,
	I64: 64,
	I32: 32,
	U8: 8,
	F8_E8M0: 8,
	BOOL: 8,
};

export interface TensorSpec {
	name: string;
	dtype: string;
	shape: number[];
}

/**
 * A safetensors file: u64 little-endian header length, the JSON header, the (zero) buffer. Tensors are
 * laid out in order with no hole, each taking elements × bits / 8 bytes.
 */
export function safetensorsFile(
	path: string,
	tensors: readonly TensorSpec[],
	metadata?: Record<string, string>,
	padTo = 8,
): VirtualFile {
	const header: Record<string, unknown> = {};
	if (metadata) header["__metadata__"] = metadata;
	let offset = 0;
	for (const tensor of tensors) {
		const bits = BITS[tensor.dtype];
		if (bits === undefined) throw new Error(`no bit size for ${tensor.dtype}`);
		const bytes = (tensor.shape.reduce((a, b) => a * b, 1) * bits) / 8;
		header[tensor.name] = {
			dtype: tensor.dtype,
			shape: tensor.shape,
			data_offsets: [offset, offset + bytes],
		};
		offset += bytes;
	}
	return rawSafetensors(path, JSON.stringify(header), offset, padTo);
}

/** A safetensors file with the given header text (spaces pad it to a multiple of `padTo`) and buffer size. */
export function rawSafetensors(
	path: string,
	headerText: string | Uint8Array,
	bufferBytes: number,
	padTo = 8,
): VirtualFile {
	let json = typeof headerText === "string" ? utf8.encode(headerText) : headerText;
	const padded = Math.ceil(json.length / padTo) * padTo;
	if (padded !== json.length) {
		const withSpaces = new Uint8Array(padded).fill(0x20);
		withSpaces.set(json);
		json = withSpaces;
	}
	const head = new Uint8Array(8 + json.length);
	new DataView(head.buffer).setBigUint64(0, BigInt(json.length), true);
	head.set(json, 8);
	return { path, head, size: head.length + bufferBytes };
}

export function textFile(path: string, text: string): VirtualFile {
	const head = utf8.encode(text);
	return { path, head, size: head.length };
}

/** GGUF value types (ggml docs/gguf.md). */
export const T = {
	UINT8: 0,
	INT8: 1,
	UINT16: 2,
	INT16: 3,
	UINT32: 4,
	INT32: 5,
	FLOAT32: 6,
	BOOL: 7,
	STRING: 8,
	ARRAY: 9,
	UINT64: 10,
	INT64: 11,
	FLOAT64: 12,
} as const;

/** Writes GGUF fields in one byte order. */
export class GgufBytes {
	private parts: Uint8Array[] = [];
	constructor(readonly littleEndian = true) {}

	raw(bytes: Uint8Array | number[]): this {
		this.parts.push(bytes instanceof Uint8Array ? bytes : Uint8Array.from(bytes));
		return this;
	}
	private fixed(width: number, set: (view: DataView) => void): this {
		const bytes = new Uint8Array(width);
		set(new DataView(bytes.buffer));
		return this.raw(bytes);
	}
	u8(value: number): this {
		return this.fixed(1, (v) => v.setUint8(0, value));
	}
	u32(value: number): this {
		return this.fixed(4, (v) => v.setUint32(0, value, this.littleEndian));
	}
	i32(value: number): this {
		return this.fixed(4, (v) => v.setInt32(0, value, this.littleEndian));
	}
	f32(value: number): this {
		return this.fixed(4, (v) => v.setFloat32(0, value, this.littleEndian));
	}
	u64(value: number | bigint): this {
		return this.fixed(8, (v) => v.setBigUint64(0, BigInt(value), this.littleEndian));
	}
	string(value: string | Uint8Array): this {
		const bytes = typeof value === "string" ? utf8.encode(value) : value;
		return this.u64(bytes.length).raw(bytes);
	}
	/** A header start: magic, version, tensor count, key-value count. */
	start(version: number, tensors: number | bigint, kvs: number | bigint): this {
		return this.raw([0x47, 0x47, 0x55, 0x46]).u32(version).u64(tensors).u64(kvs);
	}
	kvString(key: string, value: string): this {
		return this.string(key).u32(T.STRING).string(value);
	}
	kvU32(key: string, value: number): this {
		return this.string(key).u32(T.UINT32).u32(value);
	}
	kvStrings(key: string, values: readonly string[]): this {
		this.string(key).u32(T.ARRAY).u32(T.STRING).u64(values.length);
		for (const value of values) this.string(value);
		return this;
	}
	kvF32s(key: string, values: readonly number[]): this {
		this.string(key).u32(T.ARRAY).u32(T.FLOAT32).u64(values.length);
		for (const value of values) this.f32(value);
		return this;
	}
	tensor(name: string, dims: readonly (number | bigint)[], ggmlType = 0, offset = 0): this {
		this.string(name).u32(dims.length);
		for (const dim of dims) this.u64(dim);
		return this.u32(ggmlType).u64(offset);
	}
	bytes(): Uint8Array {
		const total = this.parts.reduce((n, part) => n + part.length, 0);
		const out = new Uint8Array(total);
		let at = 0;
		for (const part of this.parts) {
			out.set(part, at);
			at += part.length;
		}
		return out;
	}
	file(path: string, dataBytes = 0): VirtualFile {
		const head = this.bytes();
		return { path, head, size: head.length + dataBytes };
	}
}

export interface CountingReader {
	read: ReadRange;
	/** Bytes returned, in all. */
	bytes: () => number;
	calls: Array<[string, number, number]>;
}

/** A ReadRange over virtual files (zeros past each head), counting what it returns. */
export function memoryReader(files: readonly VirtualFile[]): CountingReader & { files: RevisionFile[] } {
	const byPath = new Map(files.map((file) => [file.path, file]));
	let total = 0;
	const calls: Array<[string, number, number]> = [];
	const read: ReadRange = async (path, start, end) => {
		const file = byPath.get(path);
		if (!file) throw new Error(`${path} is not in the revision`);
		if (start < 0 || end > file.size || end < start)
			throw new Error(`bad range [${start}, ${end}) of ${path}`);
		calls.push([path, start, end]);
		const out = new Uint8Array(end - start);
		if (start < file.head.length) out.set(file.head.subarray(start, Math.min(end, file.head.length)));
		total += out.length;
		return out;
	};
	return {
		read,
		bytes: () => total,
		calls,
		files: files.map(({ path, size }) => ({ path, size })),
	};
}

/** A ReadRange over files of a folder on disk (`end` exclusive), counting what it returns. */
export function diskReader(folder: string): CountingReader {
	let total = 0;
	const calls: Array<[string, number, number]> = [];
	const read: ReadRange = async (path, start, end) => {
		calls.push([path, start, end]);
		const handle = await open(join(folder, path), "r");
		try {
			const out = new Uint8Array(end - start);
			let filled = 0;
			while (filled < out.length) {
				const { bytesRead } = await handle.read(out, filled, out.length - filled, start + filled);
				if (bytesRead === 0) break;
				filled += bytesRead;
			}
			total += filled;
			return out.subarray(0, filled);
		} finally {
			await handle.close();
		}
	};
	return { read, bytes: () => total, calls };
}
