/**
 * `model_info.gguf` (`{ total, architecture, context_length, chat_template, bos_token, eos_token }`)
 * from the header of a revision's GGUF file, read in bounded chunks: arrays and strings that are not
 * needed (a 150k-entry vocabulary, its scores) are skipped by their declared sizes, never fetched whole.
 *
 * The format (ggml `docs/gguf.md`, gguf-py `gguf/gguf_reader.py`): magic `GGUF`, u32 version, u64 tensor
 * count, u64 key-value count, the key-values (key: u64-length string; u32 value type 0–12; value),
 * then per tensor: name string, u32 n_dims, n_dims × u64 dims, u32 ggml type, u64 offset. Versions 2 and
 * 3 share this layout (3 adds big-endian files, detected as huggingface.js does: a version whose low
 * 16 bits are zero was written big-endian); version 1 (u32 sizes) is refused, as llama.cpp does.
 * Keys are at most 65535 bytes (docs/gguf.md); ggml tensors have at most 4 dims (`GGML_MAX_DIMS`).
 *
 * The fields, as the public hub fills them (huggingface.js `packages/gguf`: `gguf()` with
 * `computeParametersCount`, `ggufAllShards`; `packages/tasks/src/model-data.ts` names `total`,
 * `architecture`, `context_length`, `chat_template`): `total` is the sum over tensors of the product of
 * their dims, summed over all shards of a split model (`<prefix>-0000k-of-0000n.gguf`), and refused
 * when it exceeds 8 × the file size (no quantization stores under 1 bit per weight);
 * `architecture` = `general.architecture`; `context_length` = `<architecture>.context_length`;
 * `chat_template` = `tokenizer.chat_template`; `bos_token`/`eos_token` = the entries of
 * `tokenizer.ggml.tokens` at `tokenizer.ggml.bos_token_id`/`eos_token_id`. Metadata comes from the
 * first shard (llama.cpp's gguf-split writes the model's keys there).
 *
 * Which file, when a repository holds several: the public hub does not document its choice, and the
 * quantizations of one model share every field above. Ours: sidecar files (`mmproj…`, `mtp-…`, the
 * naming convention of docs/gguf.md) only when there is nothing else; a split model by its first
 * shard; then the first path in code-point order; the next candidate when one is unreadable.
 */
import type { GgufInfo } from "../api/models.js";
import {
	FileCursor,
	ReadBudget,
	WeightsProblem,
	decodeUtf8,
	exactNumber,
	problemText,
	readExactly,
} from "./bounded-read.js";
import type { WeightsResult } from "./results.js";
import type { ReadRange, RevisionFile } from "./types.js";

export type GgufResult = WeightsResult<GgufInfo>;

export interface GgufLimits {
	/** Bytes read from one file (its header and the two special tokens). */
	maxHeaderBytes: number;
	/** Bytes one analysis may read from storage, all files together. */
	maxBytesRead: number;
	/** Key-values one header may declare (huggingface.js `MAX_KV_COUNT`). */
	maxKeyValues: number;
	/** Tensors one header may declare (huggingface.js `MAX_TENSOR_COUNT`). */
	maxTensors: number;
	/** Elements of one metadata array (huggingface.js `MAX_METADATA_ARRAY_LENGTH`). */
	maxArrayLength: number;
	/** Longest string kept (the chat template); longer ones are a problem. */
	maxKeptStringBytes: number;
	/** Shards of one split model. */
	maxShards: number;
	/** Files tried before giving up. */
	maxCandidates: number;
	/** Bytes fetched per read. */
	chunkBytes: number;
	/** Milliseconds one read may take. */
	readTimeoutMs: number;
}

export const GGUF_LIMITS: GgufLimits = {
	maxHeaderBytes: 32 * 1024 * 1024,
	maxBytesRead: 64 * 1024 * 1024,
	maxKeyValues: 100_000,
	maxTensors: 10_000_000,
	maxArrayLength: 1_000_000,
	maxKeptStringBytes: 1024 * 1024,
	maxShards: 1_000,
	maxCandidates: 3,
	chunkBytes: 1024 * 1024,
	readTimeoutMs: 30_000,
};

export interface GgufOptions {
	limits?: Partial<GgufLimits>;
}

/** `gguf_metadata_value_type` (docs/gguf.md). */
const enum ValueType {
	UINT8 = 0,
	INT8 = 1,
	UINT16 = 2,
	INT16 = 3,
	UINT32 = 4,
	INT32 = 5,
	FLOAT32 = 6,
	BOOL = 7,
	STRING = 8,
	ARRAY = 9,
	UINT64 = 10,
	INT64 = 11,
	FLOAT64 = 12,
}

/** Bytes of each fixed-size value type. */
const FIXED_SIZE: Readonly<Partial<Record<ValueType, 1 | 2 | 4 | 8>>> = {
	[ValueType.UINT8]: 1,
	[ValueType.INT8]: 1,
	[ValueType.BOOL]: 1,
	[ValueType.UINT16]: 2,
	[ValueType.INT16]: 2,
	[ValueType.UINT32]: 4,
	[ValueType.INT32]: 4,
	[ValueType.FLOAT32]: 4,
	[ValueType.UINT64]: 8,
	[ValueType.INT64]: 8,
	[ValueType.FLOAT64]: 8,
};

const INTEGER_TYPES: ReadonlySet<ValueType> = new Set([
	ValueType.UINT8,
	ValueType.INT8,
	ValueType.UINT16,
	ValueType.INT16,
	ValueType.UINT32,
	ValueType.INT32,
	ValueType.UINT64,
	ValueType.INT64,
]);

const SIGNED_TYPES: ReadonlySet<ValueType> = new Set([
	ValueType.INT8,
	ValueType.INT16,
	ValueType.INT32,
	ValueType.INT64,
]);

const MAGIC = [0x47, 0x47, 0x55, 0x46]; // "GGUF"
const MAX_KEY_BYTES = 65_535;
const GGML_MAX_DIMS = 4;
/** Nested ARRAY-of-ARRAY levels (huggingface.js `MAX_ARRAY_RECURSION_DEPTH`). */
const MAX_ARRAY_DEPTH = 4;
/** The fewest bytes a key-value takes (8-byte key length, u32 type, a 1-byte value). */
const MIN_KV_BYTES = 13;
/** The fewest bytes a tensor info takes (8-byte name length, u32 n_dims, u32 type, u64 offset). */
const MIN_TENSOR_INFO_BYTES = 24;
/** Longest token resolved for bos/eos. */
const MAX_TOKEN_BYTES = 65_536;
const SHARD_NAME = /^(?<prefix>.*)-(?<shard>\d{5})-of-(?<total>\d{5})\.gguf$/;

const KEY_ARCHITECTURE = "general.architecture";
const KEY_CHAT_TEMPLATE = "tokenizer.chat_template";
const KEY_TOKENS = "tokenizer.ggml.tokens";
const KEY_BOS = "tokenizer.ggml.bos_token_id";
const KEY_EOS = "tokenizer.ggml.eos_token_id";
const CONTEXT_LENGTH_SUFFIX = ".context_length";
/** `<arch>.context_length` keys kept until the architecture is known (a file has one). */
const MAX_CONTEXT_LENGTH_KEYS = 16;

interface Context {
	read: ReadRange;
	budget: ReadBudget;
	limits: GgufLimits;
}

interface ParsedHeader {
	parameters: bigint;
	strings: Map<string, string>;
	integers: Map<string, bigint>;
	/** Where each vocabulary entry's bytes are (absolute offset, length). */
	tokenOffsets: number[];
	tokenLengths: number[];
	cursor: FileCursor;
}

export async function readGgufInfo(
	files: readonly RevisionFile[],
	read: ReadRange,
	options: GgufOptions = {},
): Promise<GgufResult> {
	const limits = { ...GGUF_LIMITS, ...options.limits };
	const context: Context = { read, budget: new ReadBudget(limits.maxBytesRead), limits };
	const byPath = new Map(files.map((file) => [file.path, file]));
	const problems: string[] = [];
	for (const candidate of candidates(files).slice(0, limits.maxCandidates)) {
		try {
			const shards = shardsOf(candidate, byPath, limits);
			const first = await parseHeader(shards[0] as RevisionFile, context);
			let total = first.parameters;
			for (const shard of shards.slice(1)) total += (await parseHeader(shard, context)).parameters;
			const info = await infoOf(first, total, context);
			return { info, files: shards.map((shard) => shard.path), bytesRead: context.budget.used };
		} catch (error) {
			problems.push(problemText(error));
		}
	}
	return { info: undefined, problems, bytesRead: context.budget.used };
}

/** The GGUF files worth trying, best first (see the module comment). */
function candidates(files: readonly RevisionFile[]): RevisionFile[] {
	const ggufs = files
		.filter((file) => file.path.endsWith(".gguf"))
		.filter((file) => {
			const shard = SHARD_NAME.exec(file.path);
			return !shard || Number(shard.groups?.["shard"]) === 1;
		})
		.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
	const isSidecar = (file: RevisionFile): boolean => {
		const name = (file.path.split("/").pop() ?? "").toLowerCase();
		return name.includes("mmproj") || name.startsWith("mtp-");
	};
	const models = ggufs.filter((file) => !isSidecar(file));
	return models.length > 0 ? models : ggufs;
}

/** The file itself, or every shard of the split model it starts, each a file of the revision. */
function shardsOf(
	file: RevisionFile,
	byPath: ReadonlyMap<string, RevisionFile>,
	limits: GgufLimits,
): RevisionFile[] {
	const match = SHARD_NAME.exec(file.path);
	if (!match?.groups) return [file];
	const { prefix, total } = match.groups as { prefix: string; total: string };
	const count = Number(total);
	if (count < 1 || count > limits.maxShards)
		throw new WeightsProblem(
			`${file.path}: a split into ${count} shards (at most ${limits.maxShards} are read)`,
		);
	const shards: RevisionFile[] = [];
	for (let shard = 1; shard <= count; shard++) {
		const path = `${prefix}-${String(shard).padStart(5, "0")}-of-${total}.gguf`;
		const found = byPath.get(path);
		if (!found) throw new WeightsProblem(`${file.path}: shard ${path} is not in the revision`);
		shards.push(found);
	}
	return shards;
}

async function infoOf(header: ParsedHeader, total: bigint, context: Context): Promise<GgufInfo> {
	const info: GgufInfo = { total: exactNumber(total, `${header.cursor.file.path}: the parameter count`) };
	const architecture = header.strings.get(KEY_ARCHITECTURE);
	if (architecture !== undefined) {
		info.architecture = architecture;
		const contextLength = header.integers.get(architecture + CONTEXT_LENGTH_SUFFIX);
		if (
			contextLength !== undefined &&
			contextLength >= 0n &&
			contextLength <= BigInt(Number.MAX_SAFE_INTEGER)
		)
			info.context_length = Number(contextLength);
	}
	const chatTemplate = header.strings.get(KEY_CHAT_TEMPLATE);
	if (chatTemplate !== undefined) info.chat_template = chatTemplate;
	for (const [key, field] of [
		[KEY_BOS, "bos_token"],
		[KEY_EOS, "eos_token"],
	] as const) {
		const id = header.integers.get(key);
		if (id === undefined || id < 0n || id >= BigInt(header.tokenOffsets.length)) continue;
		info[field] = await tokenText(header, Number(id), context);
	}
	return info;
}

async function tokenText(header: ParsedHeader, id: number, context: Context): Promise<string> {
	const { file } = header.cursor;
	const offset = header.tokenOffsets[id] as number;
	const length = header.tokenLengths[id] as number;
	if (length > MAX_TOKEN_BYTES) throw new WeightsProblem(`${file.path}: token ${id} is ${length} bytes long`);
	const bytes = await readExactly(
		context.read,
		file,
		offset,
		offset + length,
		context.budget,
		{
			fileLimit: context.limits.maxHeaderBytes,
			readTimeoutMs: context.limits.readTimeoutMs,
		},
		header.cursor.fetched,
	);
	header.cursor.fetched += bytes.length;
	return decodeUtf8(bytes, `${file.path}: token ${id}`);
}

/** Reads one header: the kept metadata, the vocabulary's positions and the parameter count. */
async function parseHeader(file: RevisionFile, context: Context): Promise<ParsedHeader> {
	const where = file.path;
	const cursor = new FileCursor(file, context.read, context.budget, {
		fileLimit: context.limits.maxHeaderBytes,
		readTimeoutMs: context.limits.readTimeoutMs,
		chunkBytes: context.limits.chunkBytes,
	});
	const magic = await cursor.bytes(4);
	if (!MAGIC.every((byte, i) => magic[i] === byte))
		throw new WeightsProblem(`${where}: not a GGUF file (no magic)`);
	let version = await cursor.u32(true);
	const littleEndian = (version & 0xffff) !== 0;
	if (!littleEndian) version = ((version >>> 24) | ((version >>> 8) & 0xff00)) >>> 0;
	if (version === 1) throw new WeightsProblem(`${where}: GGUF version 1 is not supported (nor by llama.cpp)`);
	if (version !== 2 && version !== 3) throw new WeightsProblem(`${where}: unknown GGUF version ${version}`);
	const tensorCount = await cursor.u64(littleEndian);
	const kvCount = await cursor.u64(littleEndian);
	checkCount(kvCount, context.limits.maxKeyValues, MIN_KV_BYTES, cursor, "key-values");
	checkCount(tensorCount, context.limits.maxTensors, MIN_TENSOR_INFO_BYTES, cursor, "tensors");

	const header: ParsedHeader = {
		parameters: 0n,
		strings: new Map(),
		integers: new Map(),
		tokenOffsets: [],
		tokenLengths: [],
		cursor,
	};
	const reader = new ValueReader(cursor, littleEndian, context.limits);
	for (let i = 0n; i < kvCount; i++) {
		const keyLength = await reader.size();
		if (keyLength > BigInt(MAX_KEY_BYTES))
			throw new WeightsProblem(`${where}: key ${i} is ${keyLength} bytes long (at most ${MAX_KEY_BYTES})`);
		const key = decodeUtf8(await cursor.bytes(Number(keyLength)), `${where}: key ${i}`);
		const type = (await cursor.u32(littleEndian)) as ValueType;
		await readKeyValue(key, type, header, reader);
	}

	const maxParameters = BigInt(file.size) * 8n;
	for (let i = 0n; i < tensorCount; i++) {
		await reader.skipString();
		const dims = await cursor.u32(littleEndian);
		if (dims > GGML_MAX_DIMS)
			throw new WeightsProblem(
				`${where}: tensor ${i} has ${dims} dimensions (ggml has at most ${GGML_MAX_DIMS})`,
			);
		let elements = 1n;
		for (let d = 0; d < dims; d++) elements *= await cursor.u64(littleEndian);
		cursor.skip(4 + 8); // ggml type, data offset
		header.parameters += elements;
		if (header.parameters > maxParameters)
			throw new WeightsProblem(
				`${where}: tensor shapes declare more than ${maxParameters} parameters, more than a ${file.size}-byte file can hold`,
			);
	}
	return header;
}

/** A declared count the remaining bytes could hold at all, and within the limit. */
function checkCount(count: bigint, limit: number, minBytes: number, cursor: FileCursor, what: string): void {
	if (count > BigInt(limit))
		throw new WeightsProblem(`${cursor.file.path}: declares ${count} ${what} (at most ${limit} are read)`);
	if (count * BigInt(minBytes) > BigInt(cursor.remaining))
		throw new WeightsProblem(
			`${cursor.file.path}: declares ${count} ${what}, more than its ${cursor.file.size} bytes can hold`,
		);
}

async function readKeyValue(
	key: string,
	type: ValueType,
	header: ParsedHeader,
	reader: ValueReader,
): Promise<void> {
	const where = reader.cursor.file.path;
	const keepsString = key === KEY_ARCHITECTURE || key === KEY_CHAT_TEMPLATE;
	const keepsInteger =
		key === KEY_BOS ||
		key === KEY_EOS ||
		(key.endsWith(CONTEXT_LENGTH_SUFFIX) && header.integers.size < MAX_CONTEXT_LENGTH_KEYS + 2);
	if (keepsString && type === ValueType.STRING) {
		header.strings.set(key, await reader.keptString(key));
		return;
	}
	if (keepsInteger && INTEGER_TYPES.has(type)) {
		header.integers.set(key, await reader.integer(type));
		return;
	}
	if (key === KEY_TOKENS && type === ValueType.ARRAY) {
		const elementType = (await reader.cursor.u32(reader.littleEndian)) as ValueType;
		const length = await reader.arrayLength();
		if (elementType !== ValueType.STRING) {
			await reader.skipElements(elementType, length, 1);
			return;
		}
		reader.checkIterated(length);
		const cursor = reader.cursor;
		for (let i = 0; i < length; i++) {
			const size = cursor.lengthNow(reader.littleEndian) ?? (await reader.length());
			if (size > cursor.remaining)
				throw new WeightsProblem(`${where}: token ${i} runs past the end of the file`);
			header.tokenOffsets.push(cursor.position);
			header.tokenLengths.push(size);
			cursor.skip(size);
		}
		return;
	}
	await reader.skipValue(type, 0);
}

/** GGUF values at a cursor: sizes, kept strings and integers, and skipping by declared size. */
class ValueReader {
	constructor(
		readonly cursor: FileCursor,
		readonly littleEndian: boolean,
		private readonly limits: GgufLimits,
	) {}

	/** A u64 length or count (versions 2 and 3). */
	size(): Promise<bigint> {
		return this.cursor.u64(this.littleEndian);
	}

	/** A u64 length as a number (see FileCursor.lengthNow), without waiting when it is already fetched. */
	async length(): Promise<number> {
		return this.cursor.lengthNow(this.littleEndian) ?? Number(await this.size());
	}

	/** An array's length; elements of fixed size are skipped by arithmetic, so only the file's size bounds it. */
	arrayLength(): Promise<bigint> {
		return this.size();
	}

	/** Arrays whose elements are visited one by one (strings, arrays) are bounded in count too. */
	checkIterated(length: bigint): void {
		if (length > BigInt(this.limits.maxArrayLength))
			throw new WeightsProblem(
				`${this.cursor.file.path}: an array of ${length} strings or arrays (at most ${this.limits.maxArrayLength} are read)`,
			);
	}

	async keptString(key: string): Promise<string> {
		const where = `${this.cursor.file.path}: ${key}`;
		const length = await this.size();
		if (length > BigInt(this.cursor.remaining))
			throw new WeightsProblem(`${where} runs past the end of the file`);
		if (length > BigInt(this.limits.maxKeptStringBytes))
			throw new WeightsProblem(
				`${where} is ${length} bytes long (at most ${this.limits.maxKeptStringBytes} are kept)`,
			);
		return decodeUtf8(await this.cursor.bytes(Number(length)), where);
	}

	async skipString(): Promise<void> {
		this.cursor.skip(await this.size());
	}

	async integer(type: ValueType): Promise<bigint> {
		return this.cursor.integer(FIXED_SIZE[type] as 1 | 2 | 4 | 8, SIGNED_TYPES.has(type), this.littleEndian);
	}

	async skipValue(type: ValueType, depth: number): Promise<void> {
		const fixed = FIXED_SIZE[type];
		if (fixed !== undefined) return this.cursor.skip(fixed);
		if (type === ValueType.STRING) return this.skipString();
		if (type !== ValueType.ARRAY)
			throw new WeightsProblem(`${this.cursor.file.path}: unknown value type ${type}`);
		if (depth >= MAX_ARRAY_DEPTH)
			throw new WeightsProblem(
				`${this.cursor.file.path}: arrays nested deeper than ${MAX_ARRAY_DEPTH} levels`,
			);
		const elementType = (await this.cursor.u32(this.littleEndian)) as ValueType;
		const length = await this.arrayLength();
		await this.skipElements(elementType, length, depth + 1);
	}

	async skipElements(elementType: ValueType, length: bigint, depth: number): Promise<void> {
		const fixed = FIXED_SIZE[elementType];
		if (fixed !== undefined) return this.cursor.skip(length * BigInt(fixed));
		this.checkIterated(length);
		if (elementType === ValueType.STRING) {
			for (let i = 0; i < length; i++)
				this.cursor.skip(this.cursor.lengthNow(this.littleEndian) ?? (await this.length()));
			return;
		}
		for (let i = 0n; i < length; i++) await this.skipValue(elementType, depth);
	}
}
