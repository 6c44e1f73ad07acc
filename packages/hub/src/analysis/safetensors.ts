/**
 * `model_info.safetensors` (`{ parameters: { <dtype>: count }, total, sharded }`) from the safetensors
 * headers of a revision, read with ranged reads: never the weights themselves.
 *
 * What the public hub counts, and how (huggingface.js `packages/hub/src/lib/parse-safetensors-metadata.ts`
 * at fe42e680, the hub's own parser, whose `parameterTotal` comment says "the Hub displays it verbatim";
 * huggingface_hub `get_safetensors_metadata` looks for the same two files):
 * - which files: `model.safetensors` at the root if present, else `model.safetensors.index.json` at the
 *   root and every distinct shard its `weight_map` names; for diffusers, else `transformer/`, `unet/`,
 *   then the root's `diffusion_pytorch_model.safetensors[.index.json]` (the main module, not the sum of
 *   VAE and text encoders). No other `*.safetensors` file is counted: a PEFT repo's
 *   `adapter_model.safetensors` alone gives no `safetensors` field.
 * - how: per dtype as the header spells it (`F32`, `BF16`, `I64`, `F8_E4M3`…), the product of each
 *   tensor's shape; `__metadata__` is not a tensor; 0-dimension (scalar) tensors are not counted; the
 *   exponent-only dtypes (`F8_E8M0`, `E8M0`, `UE8`) hold block scales, never parameters, and are not
 *   counted; `total` is the sum, or the header's (index's, when sharded) `__metadata__.total_parameters`
 *   when it is smaller; `sharded` says whether an index was read.
 * - quantized weights: with the root config.json's `quantization_config`, packed sub-byte weights count
 *   the values they hold and quantization bookkeeping is not counted (quantization.ts).
 *
 * The format (safetensors README, "Format"; safetensors/src/tensor.rs): 8 bytes N (u64 little-endian),
 * N bytes of UTF-8 JSON beginning with `{` (trailing spaces allowed), then the byte buffer;
 * `data_offsets` are [begin, end) within the buffer, which tensors must cover with no hole, and each
 * tensor's span is exactly its element count times its dtype's bit size / 8 (`Metadata::validate`).
 * Files the reference library would refuse are reported, not counted.
 */
import type { SafetensorsInfo } from "../api/models.js";
import {
	ReadBudget,
	WeightsProblem,
	decodeUtf8,
	exactNumber,
	problemText,
	readExactly,
} from "./bounded-read.js";
import { OPEN_OBJECT } from "./json-bytes.js";
import { jsonNestingDepth } from "./json-depth.js";
import {
	jsonObjectBatches,
	JsonTooDeepError,
	NOT_AN_OBJECT,
	parseJsonObjectSliced,
	TimeSlices,
} from "./sliced-json.js";
import {
	isBookkeeping,
	quantizationFacts,
	valuesPerElement,
	type QuantizationFacts,
} from "./quantization.js";
import type { WeightsResult } from "./results.js";
import type { ReadRange, RevisionFile } from "./types.js";

export type SafetensorsResult = WeightsResult<SafetensorsInfo>;

export interface SafetensorsLimits {
	/** Largest header N accepted: 25,000,000 is huggingface_hub's `SAFETENSORS_MAX_HEADER_LENGTH` and huggingface.js's `MAX_HEADER_LENGTH`. */
	maxHeaderBytes: number;
	/** Largest `*.safetensors.index.json` read. */
	maxIndexBytes: number;
	/** Bytes one analysis may read from storage, all files together. */
	maxBytesRead: number;
	/** Shards one index may name (huggingface.js `MAX_SHARD_COUNT`). */
	maxShards: number;
	/** Tensors counted over all headers of one analysis. */
	maxTensors: number;
	/** Largest config.json read for its quantization_config (a larger one is not a real config: counted as unquantized). */
	maxConfigBytes: number;
	/** Milliseconds one read may take. */
	readTimeoutMs: number;
}

export const SAFETENSORS_LIMITS: SafetensorsLimits = {
	maxHeaderBytes: 25_000_000,
	maxIndexBytes: 16 * 1024 * 1024,
	maxBytesRead: 64 * 1024 * 1024,
	maxShards: 10_000,
	maxTensors: 2_000_000,
	maxConfigBytes: 1024 * 1024,
	readTimeoutMs: 30_000,
};

export interface SafetensorsOptions {
	/** The repository's library; `diffusers` adds its weight locations (assumed when `model_index.json` is at the root). */
	library?: string;
	limits?: Partial<SafetensorsLimits>;
}

interface WeightLocation {
	single: string;
	index: string;
}

const ROOT_WEIGHTS: WeightLocation = { single: "model.safetensors", index: "model.safetensors.index.json" };

/** Where each library keeps its main weights, after the root's (huggingface.js `LIBRARY_WEIGHT_CANDIDATES`). */
const LIBRARY_WEIGHTS: Readonly<Record<string, readonly WeightLocation[]>> = {
	diffusers: [
		{
			single: "transformer/diffusion_pytorch_model.safetensors",
			index: "transformer/diffusion_pytorch_model.safetensors.index.json",
		},
		{
			single: "unet/diffusion_pytorch_model.safetensors",
			index: "unet/diffusion_pytorch_model.safetensors.index.json",
		},
		{
			single: "diffusion_pytorch_model.safetensors",
			index: "diffusion_pytorch_model.safetensors.index.json",
		},
	],
};

/** Bits per element of the dtypes of safetensors/src/tensor.rs (`Dtype::bitsize`). */
const DTYPE_BITS: Readonly<Record<string, number>> = {
	BOOL: 8,
	F4: 4,
	F6_E2M3: 6,
	F6_E3M2: 6,
	U8: 8,
	I8: 8,
	F8_E5M2: 8,
	F8_E4M3: 8,
	F8_E8M0: 8,
	F8_E4M3FNUZ: 8,
	F8_E5M2FNUZ: 8,
	I16: 16,
	U16: 16,
	F16: 16,
	BF16: 16,
	I32: 32,
	U32: 32,
	F32: 32,
	F64: 64,
	C64: 64,
	I64: 64,
	U64: 64,
};

/** A dtype name as the format spells them; anything else (lowercase, `__proto__`, megabytes) is refused. */
const DTYPE_NAME = /^[A-Z][A-Z0-9_]{0,31}$/;

/** A safetensors header nests an object of tensors, each with a `shape` array: 3 levels. */
const HEADER_MAX_DEPTH = 3;
/** config.json nests a few levels (text_config.quantization_config.config_groups…); far deeper is not a config. */
const CONFIG_MAX_DEPTH = 32;
/** Index files are shallow (`weight_map`, `metadata`); a little room for extra fields. */
const INDEX_MAX_DEPTH = 8;
/**
 * The first read of a header, which most headers fit in (huggingface_hub `parse_safetensors_file_metadata`
 * reads 100 kB: "97% of safetensors files have a metadata size < 100kb"); 64 KiB keeps a 1,000-shard
 * model within the default read budget.
 */
const FIRST_READ_BYTES = 65_536;
/** Headers read at the same time for a sharded model. */
const PARALLEL_READS = 8;

/** Longest the analysis holds the event loop at a time while parsing or counting a header. */
const SLICE_MS = 10;

/** The byte a safetensors header is padded with (the format pads the JSON with spaces to 8 bytes). */
const SPACE = 0x20;

interface HeaderCount {
	parameters: Map<string, bigint>;
	tensors: number;
	totalParameters: bigint | undefined;
}

interface Context {
	read: ReadRange;
	budget: ReadBudget;
	limits: SafetensorsLimits;
	tensorsSeen: number;
	quantization: QuantizationFacts | undefined;
}

export async function readSafetensorsInfo(
	files: readonly RevisionFile[],
	read: ReadRange,
	options: SafetensorsOptions = {},
): Promise<SafetensorsResult> {
	const limits = { ...SAFETENSORS_LIMITS, ...options.limits };
	const context: Context = {
		read,
		budget: new ReadBudget(limits.maxBytesRead),
		limits,
		tensorsSeen: 0,
		quantization: undefined,
	};
	const byPath = new Map(files.map((file) => [file.path, file]));
	const library = options.library ?? (byPath.has("model_index.json") ? "diffusers" : undefined);
	const locations = [ROOT_WEIGHTS, ...((library && LIBRARY_WEIGHTS[library]) || [])];
	try {
		for (const location of locations) {
			if (!byPath.has(location.single) && !byPath.has(location.index)) continue;
			context.quantization = await readQuantization(byPath.get("config.json"), context);
			const single = byPath.get(location.single);
			if (single) {
				const count = await countHeader(single, context);
				return success([single.path], [count], count.totalParameters, false, context);
			}
			const index = byPath.get(location.index);
			if (index) {
				const { shards, totalParameters } = await readIndex(index, byPath, context);
				const counts = await mapLimited(shards, PARALLEL_READS, (shard) => countHeader(shard, context));
				return success(
					[index.path, ...shards.map((shard) => shard.path)],
					counts,
					totalParameters,
					true,
					context,
				);
			}
		}
		return { info: undefined, problems: [], bytesRead: context.budget.used };
	} catch (error) {
		return { info: undefined, problems: [problemText(error)], bytesRead: context.budget.used };
	}
}

function success(
	paths: string[],
	counts: readonly HeaderCount[],
	declaredTotal: bigint | undefined,
	sharded: boolean,
	context: Context,
): SafetensorsResult {
	const byDtype = new Map<string, bigint>();
	for (const count of counts)
		for (const [dtype, parameters] of count.parameters)
			byDtype.set(dtype, (byDtype.get(dtype) ?? 0n) + parameters);
	let total = 0n;
	const parameters: Record<string, number> = {};
	for (const [dtype, count] of byDtype) {
		parameters[dtype] = exactNumber(count, `the ${dtype} parameter count`);
		total += count;
	}
	// huggingface.js `parseTotalParameters`: the declared total is shown, capped at the computed one.
	if (declaredTotal !== undefined && declaredTotal < total) total = declaredTotal;
	const info: SafetensorsInfo = { parameters, total: exactNumber(total, "the parameter total"), sharded };
	return { info, files: paths, bytesRead: context.budget.used };
}

/**
 * The quantization facts of the root config.json (huggingface.js reads the same file for the count); a
 * config that is missing, too large or not JSON leaves the weights counted as stored, as there.
 */
async function readQuantization(
	config: RevisionFile | undefined,
	context: Context,
): Promise<QuantizationFacts | undefined> {
	if (!config || config.size > context.limits.maxConfigBytes) return undefined;
	const bytes = await readExactly(context.read, config, 0, config.size, context.budget, fileOptions(context));
	if (jsonNestingDepth(bytes) > CONFIG_MAX_DEPTH) return undefined;
	try {
		return quantizationFacts(JSON.parse(decodeUtf8(bytes, config.path)));
	} catch {
		return undefined;
	}
}

/** The shards an index names (in the order they first appear), each a file of the revision. */
async function readIndex(
	index: RevisionFile,
	byPath: ReadonlyMap<string, RevisionFile>,
	context: Context,
): Promise<{ shards: RevisionFile[]; totalParameters: bigint | undefined }> {
	if (index.size > context.limits.maxIndexBytes)
		throw new WeightsProblem(
			`${index.path}: ${index.size} bytes, more than the ${context.limits.maxIndexBytes}-byte limit for an index`,
		);
	const bytes = await readExactly(context.read, index, 0, index.size, context.budget, fileOptions(context));
	const parsed = await parseSliced(bytes, INDEX_MAX_DEPTH, index.path, {
		tooDeep: `${index.path}: JSON nested deeper than ${INDEX_MAX_DEPTH} levels`,
		notObject: `${index.path}: no "weight_map" object`,
	});
	if (!isPlainObject(parsed["weight_map"])) throw new WeightsProblem(`${index.path}: no "weight_map" object`);
	const folder = index.path.slice(0, index.path.lastIndexOf("/") + 1);
	const names = new Set<string>();
	for (const [tensor, shard] of Object.entries(parsed["weight_map"])) {
		if (typeof shard !== "string")
			throw new WeightsProblem(`${index.path}: weight_map entry "${clip(tensor)}" is not a file name`);
		names.add(shard);
		if (names.size > context.limits.maxShards)
			throw new WeightsProblem(`${index.path}: names more than ${context.limits.maxShards} shards`);
	}
	if (names.size === 0) throw new WeightsProblem(`${index.path}: weight_map names no shard`);
	const shards = [...names].map((name) => {
		// Shard names are relative to the index's folder; anything that could leave it is refused.
		if (name.includes("..") || name.startsWith("/") || name.includes("\\") || name.includes("://"))
			throw new WeightsProblem(`${index.path}: unsafe shard name "${clip(name)}"`);
		const shard = byPath.get(folder + name);
		if (!shard) throw new WeightsProblem(`${index.path}: shard "${clip(name)}" is not in the revision`);
		return shard;
	});
	const metadata = parsed["metadata"];
	const totalParameters = isPlainObject(metadata) ? declaredCount(metadata["total_parameters"]) : undefined;
	return { shards, totalParameters };
}

/** One file's header: parameters by dtype, after checking it as the reference library does. */
async function countHeader(file: RevisionFile, context: Context): Promise<HeaderCount> {
	const where = file.path;
	if (file.size < 8)
		throw new WeightsProblem(`${where}: ${file.size} bytes, too small to be a safetensors file`);
	const options = fileOptions(context);
	const first = await readExactly(context.read, file, 0, FIRST_READ_BYTES, context.budget, options);
	const headerLength = new DataView(first.buffer, first.byteOffset, 8).getBigUint64(0, true);
	if (headerLength === 0n) throw new WeightsProblem(`${where}: header length is 0`);
	if (headerLength > BigInt(context.limits.maxHeaderBytes))
		throw new WeightsProblem(
			`${where}: header length ${headerLength} is more than the ${context.limits.maxHeaderBytes}-byte limit`,
		);
	const length = Number(headerLength);
	if (8 + length > file.size)
		throw new WeightsProblem(
			`${where}: header length ${length} runs past the end of the ${file.size}-byte file`,
		);
	let header: Uint8Array;
	if (8 + length <= first.length) header = first.subarray(8, 8 + length);
	else {
		const rest = await readExactly(
			context.read,
			file,
			first.length,
			8 + length,
			context.budget,
			options,
			first.length,
		);
		header = new Uint8Array(length);
		header.set(first.subarray(8), 0);
		header.set(rest, first.length - 8);
	}
	if (header[0] !== OPEN_OBJECT) throw new WeightsProblem(`${where}: header does not begin with "{"`);
	let end = header.length;
	while (end > 0 && header[end - 1] === SPACE) end--;
	const batches = jsonObjectBatches(header.subarray(0, end), {
		maxDepth: HEADER_MAX_DEPTH,
		sliceMs: SLICE_MS,
	});
	return countTensors(
		jsonProblems(batches, `${where}: header`, {
			tooDeep: `${where}: header JSON nested deeper than the format's ${HEADER_MAX_DEPTH} levels`,
			notObject: `${where}: header is not a JSON object`,
		}),
		file.size - 8 - length,
		where,
		context,
	);
}

/**
 * Counts a header's tensors a batch of entries at a time (the header object is never built whole: its
 * entries are garbage once counted). A name given twice is refused: JSON.parse kept the last entry,
 * which a batch at a time cannot know.
 */
async function countTensors(
	batches: AsyncIterable<Record<string, unknown>>,
	bufferLength: number,
	where: string,
	context: Context,
): Promise<HeaderCount> {
	const slices = new TimeSlices(SLICE_MS);
	const seen = new Set<string>();
	const begins: number[] = [];
	const ends: number[] = [];
	const sums = new Map<string, DtypeSum>();
	const validDtypes = new Set<string>();
	let tensors = 0;
	let totalParameters: bigint | undefined;
	for await (const header of batches)
		for (const name of Object.keys(header)) {
			if ((tensors & 1023) === 0) await slices.pause();
			if (seen.has(name)) throw new WeightsProblem(`${where}: "${clip(name)}" appears twice in the header`);
			seen.add(name);
			const entry = header[name];
			if (name === "__metadata__") {
				// A string-to-string map by the format (safetensors README), but huggingface.js reads a number
				// `total_parameters` too and ignores the rest: so does this count.
				if (isPlainObject(entry)) totalParameters = declaredCount(entry["total_parameters"]);
				continue;
			}
			if (++context.tensorsSeen > context.limits.maxTensors)
				throw new WeightsProblem(
					`${where}: more than ${context.limits.maxTensors} tensors in this revision's headers`,
				);
			const tensor = (): string => `${where}: tensor "${clip(name)}"`;
			if (!isPlainObject(entry)) throw new WeightsProblem(`${tensor()} is not an object`);
			const { dtype, shape, data_offsets: offsets } = entry;
			if (typeof dtype !== "string" || !(validDtypes.has(dtype) || DTYPE_NAME.test(dtype)))
				throw new WeightsProblem(`${tensor()} has no valid dtype`);
			validDtypes.add(dtype);
			if (!Array.isArray(shape) || !shape.every(isCount))
				throw new WeightsProblem(`${tensor()} has no valid shape (non-negative integers)`);
			if (!Array.isArray(offsets) || offsets.length !== 2 || !offsets.every(isCount))
				throw new WeightsProblem(`${tensor()} has no valid data_offsets`);
			const [begin, end] = offsets as [number, number];
			if (begin > end || end > bufferLength)
				throw new WeightsProblem(
					`${tensor()}: data_offsets [${begin}, ${end}] are not within the ${bufferLength}-byte buffer`,
				);
			const elements = elementsFitting(shape as number[], DTYPE_BITS[dtype], end - begin);
			if (elements === undefined)
				throw new WeightsProblem(
					`${tensor()}: ${dtype} shape [${(shape as number[]).join(", ")}] does not fit its ${end - begin} bytes`,
				);
			begins.push(begin);
			ends.push(end);
			tensors++;
			if (shape.length === 0 || isBookkeeping(name, dtype, context.quantization)) continue;
			const perElement = valuesPerElement(name, dtype, context.quantization);
			// Packed sub-byte weights count the values they hold, rounded per tensor (huggingface.js).
			const counted = perElement === 1 ? elements : Math.round(Number(elements) * perElement);
			let sum = sums.get(dtype);
			if (!sum) sums.set(dtype, (sum = { small: 0, big: 0n }));
			if (typeof counted === "bigint") sum.big += counted;
			else if ((sum.small += counted) > SMALL_SUM_LIMIT) {
				sum.big += BigInt(sum.small);
				sum.small = 0;
			}
		}
	checkCoverage(Float64Array.from(begins), Float64Array.from(ends), bufferLength, where);
	const parameters = new Map<string, bigint>();
	for (const [dtype, sum] of sums) parameters.set(dtype, sum.big + BigInt(sum.small));
	return { parameters, tensors, totalParameters };
}

/** A dtype's running count: a number while it is exact, moved into the bigint before it could stop being so. */
interface DtypeSum {
	small: number;
	big: bigint;
}

const SMALL_SUM_LIMIT = 2 ** 52;
/** Element counts at most this, times a dtype's at most 64 bits, stay exact as numbers. */
const EXACT_ELEMENTS = 2 ** 47;

/**
 * A tensor's element count when its span holds exactly that many elements of its dtype (tensor.rs
 * `validate`), or at least one bit per element for a dtype this table does not know; undefined when not.
 * Numbers while exact; a hostile shape's product, far beyond 2^53, is checked in bigints.
 */
function elementsFitting(
	shape: readonly number[],
	bits: number | undefined,
	spanBytes: number,
): number | bigint | undefined {
	let product = 1;
	for (const dim of shape) product *= dim;
	if (product <= EXACT_ELEMENTS) {
		const fits = bits !== undefined ? product * bits === spanBytes * 8 : product <= spanBytes * 8;
		return fits ? product : undefined;
	}
	let exact = 1n;
	for (const dim of shape) exact *= BigInt(dim);
	const spanBits = BigInt(spanBytes) * 8n;
	const fits = bits !== undefined ? exact * BigInt(bits) === spanBits : exact <= spanBits;
	return fits ? exact : undefined;
}

/** The tensors cover the byte buffer exactly, with no hole or overlap (safetensors README, "Notes"). */
function checkCoverage(begins: Float64Array, ends: Float64Array, bufferLength: number, where: string): void {
	let order: ArrayLike<number> | undefined;
	for (let i = 1; i < begins.length && !order; i++)
		if ((begins[i] as number) < (begins[i - 1] as number)) {
			// Writers lay tensors out in order; only other files pay for a sort.
			const indices = Array.from({ length: begins.length }, (_, j) => j);
			indices.sort(
				(x, y) => (begins[x] as number) - (begins[y] as number) || (ends[x] as number) - (ends[y] as number),
			);
			order = indices;
		}
	let covered = 0;
	for (let i = 0; i < begins.length; i++) {
		const at = order ? (order[i] as number) : i;
		if (begins[at] !== covered)
			throw new WeightsProblem(
				`${where}: a tensor starts at ${begins[at]}, the previous tensors end at ${covered} (hole or overlap)`,
			);
		covered = ends[at] as number;
	}
	if (covered !== bufferLength)
		throw new WeightsProblem(`${where}: the tensors cover ${covered} of the buffer's ${bufferLength} bytes`);
}

function fileOptions(context: Context): { fileLimit: number; readTimeoutMs: number } {
	return {
		fileLimit: Math.max(context.limits.maxHeaderBytes + 8, context.limits.maxIndexBytes),
		readTimeoutMs: context.limits.readTimeoutMs,
	};
}

/** The batches of a sliced parse, its errors turned into this reader's problems. */
async function* jsonProblems(
	batches: AsyncIterable<Record<string, unknown>>,
	where: string,
	problems: { tooDeep: string; notObject: string },
): AsyncGenerator<Record<string, unknown>> {
	try {
		yield* batches;
	} catch (error) {
		throw jsonProblem(error, where, problems);
	}
}

function jsonProblem(error: unknown, where: string, problems: { tooDeep: string; notObject: string }): Error {
	if (error instanceof JsonTooDeepError) return new WeightsProblem(problems.tooDeep);
	if (error instanceof SyntaxError && error.message === NOT_AN_OBJECT)
		return new WeightsProblem(problems.notObject);
	if (error instanceof TypeError) return new WeightsProblem(`${where} is not valid UTF-8`);
	return new WeightsProblem(`${where}: not valid JSON (${(error as Error).message.slice(0, 120)})`);
}

/**
 * A JSON object of a header or an index, parsed in slices of the event loop (src/analysis/sliced-json.ts:
 * one JSON.parse of a 100,000-tensor header held it for ~0.6 s), with this reader's problems.
 */
async function parseSliced(
	bytes: Uint8Array,
	maxDepth: number,
	where: string,
	problems: { tooDeep: string; notObject: string },
): Promise<Record<string, unknown>> {
	try {
		return await parseJsonObjectSliced(bytes, { maxDepth, sliceMs: SLICE_MS });
	} catch (error) {
		throw jsonProblem(error, where, problems);
	}
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): value is number {
	return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

/** A `total_parameters` as huggingface.js reads it: a positive whole number, as a number or a decimal string. */
function declaredCount(value: unknown): bigint | undefined {
	if (typeof value === "number" && Number.isSafeInteger(value) && value > 0) return BigInt(value);
	if (typeof value === "string" && /^[0-9]{1,20}$/.test(value) && BigInt(value) > 0n) return BigInt(value);
	return undefined;
}

/** Names from a hostile file can be megabytes long: problems quote at most 80 characters. */
function clip(text: string): string {
	return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

async function mapLimited<T, R>(
	items: readonly T[],
	parallel: number,
	task: (item: T) => Promise<R>,
): Promise<R[]> {
	const results = new Array<R>(items.length);
	let next = 0;
	let failure: unknown;
	async function worker(): Promise<void> {
		while (failure === undefined && next < items.length) {
			const index = next++;
			try {
				results[index] = await task(items[index] as T);
			} catch (error) {
				failure ??= error;
			}
		}
	}
	await Promise.all(Array.from({ length: Math.min(parallel, items.length) }, worker));
	if (failure !== undefined) throw failure;
	return results;
}
