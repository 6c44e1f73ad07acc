// The weights readers of repository analysis (src/analysis/safetensors.ts and gguf.ts) on files built
// byte by byte here: what they count, which files they pick, and that hostile files end as a bounded,
// specific problem rather than a throw, a hang or gigabytes read.
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readGgufInfo } from "../src/analysis/gguf.js";
import { readSafetensorsInfo } from "../src/analysis/safetensors.js";
import type { ReadRange } from "../src/analysis/types.js";
import {
	GgufBytes,
	T,
	diskReader,
	memoryReader,
	rawSafetensors,
	safetensorsFile,
	textFile,
	type VirtualFile,
} from "./support/weights-files.js";
import { seededRandom } from "./support/random.mjs";

const GB = 1024 ** 3;

function problemsOf(result: { info: unknown; problems?: string[] }): string {
	expect(result.info).toBeUndefined();
	return (result.problems ?? []).join("\n");
}

async function safetensors(files: VirtualFile[], options?: Parameters<typeof readSafetensorsInfo>[2]) {
	const reader = memoryReader(files);
	const result = await readSafetensorsInfo(reader.files, reader.read, options);
	expect(result.bytesRead).toBe(reader.bytes());
	return { result, reader };
}

async function gguf(files: VirtualFile[], options?: Parameters<typeof readGgufInfo>[2]) {
	const reader = memoryReader(files);
	const result = await readGgufInfo(reader.files, reader.read, options);
	expect(result.bytesRead).toBe(reader.bytes());
	return { result, reader };
}

describe("safetensors parameter counts", () => {
	it("counts a single model.safetensors per dtype, without __metadata__, scalars or block scales", async () => {
		const { result } = await safetensors([
			safetensorsFile(
				"model.safetensors",
				[
					{ name: "embed.weight", dtype: "F32", shape: [1000, 64] },
					{ name: "layer.weight", dtype: "BF16", shape: [64, 64] },
					{ name: "position_ids", dtype: "I64", shape: [1, 512] },
					{ name: "logit_scale", dtype: "F32", shape: [] },
					{ name: "mlp.scales", dtype: "F8_E8M0", shape: [64, 2] },
					{ name: "empty", dtype: "F16", shape: [0, 8] },
				],
				{ format: "pt" },
			),
			safetensorsFile("adapter_model.safetensors", [{ name: "lora", dtype: "F32", shape: [8, 8] }]),
			textFile("config.json", "{}"),
		]);
		expect(result).toMatchObject({
			info: { parameters: { F32: 64_000, BF16: 4096, I64: 512, F16: 0 }, total: 68_608, sharded: false },
			files: ["model.safetensors"],
		});
		expect(Object.keys(result.info!.parameters)).toEqual(["F32", "BF16", "I64", "F16"]);
	});

	it("sums every shard an index names, and marks it sharded", async () => {
		const shard = (i: number, tensors: Parameters<typeof safetensorsFile>[1]) =>
			safetensorsFile(`model-0000${i}-of-00003.safetensors`, tensors);
		const weightMap = {
			a: "model-00001-of-00003.safetensors",
			b: "model-00002-of-00003.safetensors",
			c: "model-00002-of-00003.safetensors",
			d: "model-00003-of-00003.safetensors",
		};
		const { result, reader } = await safetensors([
			textFile(
				"model.safetensors.index.json",
				JSON.stringify({ metadata: { total_size: 1 }, weight_map: weightMap }),
			),
			shard(1, [{ name: "a", dtype: "BF16", shape: [300, 7] }]),
			shard(2, [
				{ name: "b", dtype: "BF16", shape: [11, 13] },
				{ name: "c", dtype: "F32", shape: [5] },
			]),
			shard(3, [{ name: "d", dtype: "BF16", shape: [2, 2, 2] }]),
		]);
		expect(result).toMatchObject({
			info: { parameters: { BF16: 2100 + 143 + 8, F32: 5 }, total: 2256, sharded: true },
			files: [
				"model.safetensors.index.json",
				"model-00001-of-00003.safetensors",
				"model-00002-of-00003.safetensors",
				"model-00003-of-00003.safetensors",
			],
		});
		for (let i = 1; i <= 3; i++)
			expect(reader.calls.some(([path]) => path.includes(`0000${i}-of`))).toBe(true);
	});

	it("prefers model.safetensors to an index, and shows a smaller declared total_parameters", async () => {
		const { result } = await safetensors([
			safetensorsFile("model.safetensors", [{ name: "w", dtype: "F32", shape: [10, 10] }], {
				total_parameters: "60",
			}),
			textFile("model.safetensors.index.json", "{not json"),
		]);
		expect(result.info).toEqual({ parameters: { F32: 100 }, total: 60, sharded: false });
		const larger = await safetensors([
			safetensorsFile("model.safetensors", [{ name: "w", dtype: "F32", shape: [10, 10] }], {
				total_parameters: "1000000",
			}),
		]);
		expect(larger.result.info?.total).toBe(100);
	});

	it("reads the diffusers main module (transformer/, unet/, root) when model_index.json is present", async () => {
		const files = [
			textFile("model_index.json", '{"_class_name": "StableDiffusionPipeline"}'),
			safetensorsFile("unet/diffusion_pytorch_model.safetensors", [
				{ name: "u", dtype: "F16", shape: [40, 10] },
			]),
			safetensorsFile("text_encoder/model.safetensors", [{ name: "t", dtype: "F32", shape: [99] }]),
			safetensorsFile("vae/diffusion_pytorch_model.safetensors", [{ name: "v", dtype: "F32", shape: [7] }]),
		];
		expect((await safetensors(files)).result.info).toEqual({
			parameters: { F16: 400 },
			total: 400,
			sharded: false,
		});
		// Without the diffusers layout (or library), those files are not the main weights.
		expect((await safetensors(files.slice(1))).result).toEqual({
			info: undefined,
			problems: [],
			bytesRead: 0,
		});
		expect((await safetensors(files.slice(1), { library: "diffusers" })).result.info?.total).toBe(400);
	});

	it("gives nothing (and reads nothing) for an adapter-only or weightless revision", async () => {
		const { result } = await safetensors([
			textFile("adapter_config.json", "{}"),
			safetensorsFile("adapter_model.safetensors", [{ name: "lora_A", dtype: "F32", shape: [8, 64] }]),
		]);
		expect(result).toEqual({ info: undefined, problems: [], bytesRead: 0 });
	});
});

describe("safetensors quantized weights (config.json's quantization_config)", () => {
	const quantized = (config: unknown, tensors: Parameters<typeof safetensorsFile>[1]) =>
		safetensors([
			textFile("config.json", JSON.stringify(config)),
			safetensorsFile("model.safetensors", tensors),
		]);

	it("GPTQ: packed qweight counts 32 / bits values per I32, its companions not at all", async () => {
		const { result } = await quantized({ quantization_config: { quant_method: "gptq", bits: 4 } }, [
			{ name: "layers.0.q.qweight", dtype: "I32", shape: [16, 64] },
			{ name: "layers.0.q.qzeros", dtype: "I32", shape: [1, 8] },
			{ name: "layers.0.q.scales", dtype: "F16", shape: [1, 64] },
			{ name: "layers.0.q.g_idx", dtype: "I32", shape: [128] },
			{ name: "lm_head.weight", dtype: "F16", shape: [10, 64] },
		]);
		expect(result.info).toEqual({ parameters: { I32: 8192, F16: 640 }, total: 8832, sharded: false });
	});

	it("bitsandbytes 4-bit and MXFP4: two values per U8, their quantization state not counted", async () => {
		const bnb = await quantized(
			{ quantization_config: { quant_method: "bitsandbytes", load_in_4bit: true } },
			[
				{ name: "layers.0.mlp.weight", dtype: "U8", shape: [100, 1] },
				{ name: "layers.0.mlp.weight.absmax", dtype: "F32", shape: [4] },
				{ name: "layers.0.mlp.weight.quant_map", dtype: "F32", shape: [16] },
				{ name: "layers.0.mlp.weight.quant_state.bitsandbytes__nf4", dtype: "U8", shape: [40] },
				{ name: "norm.weight", dtype: "F32", shape: [8] },
			],
		);
		expect(bnb.result.info).toEqual({ parameters: { U8: 200, F32: 8 }, total: 208, sharded: false });
		const mxfp4 = await quantized({ text_config: { quantization_config: { quant_method: "mxfp4" } } }, [
			{ name: "model.layers.0.mlp.experts.gate_up_proj_blocks", dtype: "U8", shape: [4, 16] },
			{ name: "model.layers.0.mlp.experts.gate_up_proj_scales", dtype: "U8", shape: [4, 1] },
			{ name: "model.layers.0.mlp.router.weight", dtype: "BF16", shape: [4, 8] },
		]);
		expect(mxfp4.result.info).toEqual({ parameters: { U8: 128, BF16: 32 }, total: 160, sharded: false });
	});

	it("compressed-tensors: packing by the matching group's bits, ignore targets left as stored, fractions rounded", async () => {
		const config = {
			quantization_config: {
				quant_method: "compressed-tensors",
				format: "pack-quantized",
				ignore: ["lm_head", "re:.*gate$"],
				config_groups: { g0: { targets: ["Linear"], weights: { num_bits: 4 } } },
			},
		};
		const { result } = await quantized(config, [
			{ name: "model.layers.0.mlp.up.weight_packed", dtype: "I32", shape: [4, 8] },
			{ name: "model.layers.0.mlp.up.weight_scale", dtype: "BF16", shape: [4, 2] },
			{ name: "model.layers.0.mlp.up.weight_shape", dtype: "I32", shape: [2] },
			{ name: "model.layers.0.mlp.gate.weight_packed", dtype: "I32", shape: [2, 2] },
			{ name: "lm_head.weight_packed", dtype: "I32", shape: [3] },
		]);
		expect(result.info).toEqual({ parameters: { I32: 256 + 4 + 3 }, total: 263, sharded: false });
		const threeBits = {
			quantization_config: {
				quant_method: "compressed-tensors",
				config_groups: {
					g0: { targets: ["re:.*mlp.*"], format: "pack-quantized", weights: { num_bits: 3 } },
				},
			},
		};
		const odd = await quantized(threeBits, [
			{ name: "model.mlp.weight_packed", dtype: "I32", shape: [2, 1] },
		]);
		expect(odd.result.info?.parameters).toEqual({ I32: Math.round((2 * 32) / 3) });
	});

	it("counts as stored when config.json is too large or not JSON", async () => {
		const tensors = [{ name: "w.qweight", dtype: "I32", shape: [4, 4] }];
		const notJson = await safetensors([
			textFile("config.json", "{quant"),
			safetensorsFile("model.safetensors", tensors),
		]);
		expect(notJson.result.info?.parameters).toEqual({ I32: 16 });
		const big = await safetensors([
			{ path: "config.json", head: new Uint8Array(0), size: 4 * 1024 ** 3 },
			safetensorsFile("model.safetensors", tensors),
		]);
		expect(big.result.info?.parameters).toEqual({ I32: 16 });
		expect(big.result.bytesRead).toBeLessThan(1000);
	});
});

describe("safetensors hostile files", () => {
	const single = (file: Omit<VirtualFile, "path">) => safetensors([{ path: "model.safetensors", ...file }]);

	it("refuses a header length claiming a terabyte after reading one small chunk", async () => {
		const head = new Uint8Array(16);
		new DataView(head.buffer).setBigUint64(0, 1n << 40n, true);
		const { result } = await single({ head, size: 2 * GB });
		expect(problemsOf(result)).toMatch(/header length 1099511627776 is more than the 25000000-byte limit/);
		expect(result.bytesRead).toBeLessThanOrEqual(65_536);
	});

	it("refuses headers that run past the file, truncated files and empty headers", async () => {
		const good = safetensorsFile("model.safetensors", [{ name: "w", dtype: "F32", shape: [4] }]);
		const truncated = await single({ head: good.head.subarray(0, 20), size: 20 });
		expect(problemsOf(truncated.result)).toMatch(/runs past the end of the 20-byte file/);
		expect(problemsOf((await single({ head: new Uint8Array(5), size: 5 })).result)).toMatch(/too small/);
		expect(problemsOf((await single({ head: new Uint8Array(8), size: 8 })).result)).toMatch(
			/header length is 0/,
		);
		// The stored bytes are shorter than the size the revision records.
		const shortRead: ReadRange = async () => new Uint8Array(3);
		const short = await readSafetensorsInfo([{ path: "model.safetensors", size: 100 }], shortRead);
		expect(problemsOf(short)).toMatch(/storage returned 3 bytes/);
	});

	it("counts 100,000 tensors in one header exactly", async () => {
		const tensors = Array.from({ length: 100_000 }, (_, i) => ({
			name: `layers.${i}.weight`,
			dtype: "BF16",
			shape: [3, 5],
		}));
		const { result } = await single(safetensorsFile("model.safetensors", tensors));
		expect(result.info).toEqual({ parameters: { BF16: 1_500_000 }, total: 1_500_000, sharded: false });
	});

	it("refuses deeply nested JSON before parsing it", async () => {
		const deep = `{"a":${"[".repeat(200_000)}${"]".repeat(200_000)}}`;
		const { result } = await single(rawSafetensors("model.safetensors", deep, 0));
		expect(problemsOf(result)).toMatch(/nested deeper than the format's 3 levels/);
		// Brackets inside strings are text, not nesting.
		const inName = safetensorsFile("model.safetensors", [{ name: "[[[[{{{{", dtype: "F32", shape: [2] }]);
		expect((await single(inName)).result.info?.total).toBe(2);
	});

	it("refuses invalid UTF-8, non-JSON and a header not starting with {", async () => {
		const bad = new Uint8Array([
			...new TextEncoder().encode('{"\u00e9'),
			0xff,
			0xfe,
			...new TextEncoder().encode('":1}'),
		]);
		expect(problemsOf((await single(rawSafetensors("model.safetensors", bad, 0))).result)).toMatch(
			/not valid UTF-8/,
		);
		expect(problemsOf((await single(rawSafetensors("model.safetensors", "{nope", 0))).result)).toMatch(
			/not valid JSON/,
		);
		expect(problemsOf((await single(rawSafetensors("model.safetensors", "[1]", 0))).result)).toMatch(
			/begin with "\{"/,
		);
	});

	it("refuses shapes that overflow, offsets outside the buffer, holes and bad entries", async () => {
		const header = (entries: Record<string, unknown>, buffer: number) =>
			single(rawSafetensors("model.safetensors", JSON.stringify(entries), buffer));
		const overflow = await header(
			{ w: { dtype: "F32", shape: [2 ** 52, 2 ** 52, 2 ** 52], data_offsets: [0, 16] } },
			16,
		);
		expect(problemsOf(overflow.result)).toMatch(/does not fit its 16 bytes/);
		const outside = await header({ w: { dtype: "F32", shape: [4], data_offsets: [0, 2 ** 50] } }, 16);
		expect(problemsOf(outside.result)).toMatch(/not within the 16-byte buffer/);
		const hole = await header(
			{
				a: { dtype: "F32", shape: [1], data_offsets: [0, 4] },
				b: { dtype: "F32", shape: [1], data_offsets: [8, 12] },
			},
			12,
		);
		expect(problemsOf(hole.result)).toMatch(/a tensor starts at 8, the previous tensors end at 4/);
		const tail = await header({ a: { dtype: "F32", shape: [1], data_offsets: [0, 4] } }, 40);
		expect(problemsOf(tail.result)).toMatch(/cover 4 of the buffer's 40 bytes/);
		const unsafeNumber = await header({ a: { dtype: "F32", shape: [1e300], data_offsets: [0, 4] } }, 4);
		expect(problemsOf(unsafeNumber.result)).toMatch(/no valid shape/);
		const badDtype = await header({ a: { dtype: "__proto__", shape: [1], data_offsets: [0, 4] } }, 4);
		expect(problemsOf(badDtype.result)).toMatch(/no valid dtype/);
		// __metadata__ is not a tensor, whatever it holds; a numeric total_parameters is read as huggingface.js does.
		const oddMetadata = await header(
			{
				__metadata__: { total_parameters: 3, nested: { x: 1 } },
				w: { dtype: "F32", shape: [4], data_offsets: [0, 16] },
			},
			16,
		);
		expect(oddMetadata.result.info).toEqual({ parameters: { F32: 4 }, total: 3, sharded: false });
	});

	it("refuses indexes naming missing, unsafe or too many shards", async () => {
		const index = (weightMap: unknown) =>
			textFile("model.safetensors.index.json", JSON.stringify({ weight_map: weightMap }));
		const missing = await safetensors([index({ a: "model-00001-of-00002.safetensors" })]);
		expect(problemsOf(missing.result)).toMatch(
			/shard "model-00001-of-00002.safetensors" is not in the revision/,
		);
		const unsafe = await safetensors([index({ a: "../../etc/passwd" })]);
		expect(problemsOf(unsafe.result)).toMatch(/unsafe shard name/);
		const many = Object.fromEntries(Array.from({ length: 10_001 }, (_, i) => [`t${i}`, `s${i}.safetensors`]));
		expect(problemsOf((await safetensors([index(many)])).result)).toMatch(/more than 10000 shards/);
		expect(problemsOf((await safetensors([index("x")])).result)).toMatch(/no "weight_map" object/);
	});

	it("ends with a problem when storage fails or hangs, and never throws", async () => {
		const files = [{ path: "model.safetensors", size: 1000 }];
		const failing = await readSafetensorsInfo(files, async () => {
			throw new Error("disk on fire");
		});
		expect(problemsOf(failing)).toMatch(/model.safetensors: Error: disk on fire/);
		const hanging = await readSafetensorsInfo(files, () => new Promise<Uint8Array>(() => {}), {
			limits: { readTimeoutMs: 50 },
		});
		expect(problemsOf(hanging)).toMatch(/reading model.safetensors took longer than 50 ms/);
	});

	it("stops at the per-analysis read budget", async () => {
		const shards = Array.from({ length: 20 }, (_, i) =>
			safetensorsFile(`s${i}.safetensors`, [{ name: `t${i}`, dtype: "F32", shape: [1024 * 1024] }]),
		);
		const weightMap = Object.fromEntries(shards.map((shard, i) => [`t${i}`, shard.path]));
		const { result } = await safetensors(
			[textFile("model.safetensors.index.json", JSON.stringify({ weight_map: weightMap })), ...shards],
			{ limits: { maxBytesRead: 200_000 } },
		);
		expect(problemsOf(result)).toMatch(/reached its limit of 200000 bytes read from storage/);
		expect(result.bytesRead).toBeLessThanOrEqual(200_000);
	});
});

describe("safetensors: a 10 GB sharded model on disk", () => {
	const folder = mkdtempSync(join(tmpdir(), "modelhub-weights-"));
	afterAll(() => rmSync(folder, { recursive: true, force: true }));

	it("reads only the headers of sparse shards (bytes counted)", async () => {
		const shardCount = 5;
		const weightMap: Record<string, string> = {};
		const files: Array<{ path: string; size: number }> = [];
		let expected = 0;
		for (let s = 1; s <= shardCount; s++) {
			const path = `model-0000${s}-of-0000${shardCount}.safetensors`;
			// 2 GB of BF16 per shard: 200 layers of [2560, 2048] elements, plus one odd tensor.
			const tensors = Array.from({ length: 200 }, (_, i) => ({
				name: `model.layers.${s * 1000 + i}.weight`,
				dtype: "BF16",
				shape: [2560, 2048],
			}));
			tensors.push({ name: `model.norm.${s}`, dtype: "BF16", shape: [2560] });
			const file = safetensorsFile(path, tensors);
			for (const tensor of tensors) weightMap[tensor.name] = path;
			expected += 200 * 2560 * 2048 + 2560;
			writeFileSync(join(folder, path), file.head);
			truncateSync(join(folder, path), file.size); // a hole: no data written
			files.push({ path, size: file.size });
		}
		const index = JSON.stringify({ metadata: { total_size: 0 }, weight_map: weightMap });
		writeFileSync(join(folder, "model.safetensors.index.json"), index);
		files.push({ path: "model.safetensors.index.json", size: Buffer.byteLength(index) });
		const totalSize = files.reduce((n, file) => n + file.size, 0);
		expect(totalSize).toBeGreaterThan(10 * 10 ** 9);

		const reader = diskReader(folder);
		const result = await readSafetensorsInfo(files, reader.read);
		expect(result.info).toEqual({ parameters: { BF16: expected }, total: expected, sharded: true });
		expect(reader.bytes()).toBe(result.bytesRead);
		expect(reader.bytes()).toBeLessThan(1024 * 1024);
		for (const [, start, end] of reader.calls) expect(end - start).toBeLessThanOrEqual(100_000);
	});
});

/** A small llama-like GGUF header: vocabulary, scores, special ids, a nested array, tensors. */
function llamaGguf(
	options: { littleEndian?: boolean; version?: number; idsFirst?: boolean } = {},
): GgufBytes {
	const tokens = ["<unk>", "<s>", "</s>", "hello", "wörld"];
	const g = new GgufBytes(options.littleEndian ?? true).start(options.version ?? 3, 3, 10);
	g.kvString("general.architecture", "llama").kvString("general.name", "tiny");
	if (options.idsFirst) g.kvU32("tokenizer.ggml.bos_token_id", 1).kvU32("tokenizer.ggml.eos_token_id", 2);
	g.kvU32("llama.context_length", 4096).kvU32("llama.embedding_length", 64);
	g.string("nested").u32(T.ARRAY).u32(T.ARRAY).u64(2);
	g.u32(T.UINT16).u64(3).raw([1, 0, 2, 0, 3, 0]).u32(T.STRING).u64(1).string("x");
	g.kvStrings("tokenizer.ggml.tokens", tokens).kvF32s("tokenizer.ggml.scores", [0, 0, 0, -1, -2]);
	if (!options.idsFirst) g.kvU32("tokenizer.ggml.bos_token_id", 1).kvU32("tokenizer.ggml.eos_token_id", 2);
	g.kvString("tokenizer.chat_template", "{% for m in messages %}{{ m.content }}{% endfor %}");
	return g
		.tensor("token_embd.weight", [64, 5])
		.tensor("blk.0.attn_q.weight", [64, 64], 1)
		.tensor("output_norm.weight", [64]);
}

const LLAMA_INFO = {
	total: 64 * 5 + 64 * 64 + 64,
	architecture: "llama",
	context_length: 4096,
	chat_template: "{% for m in messages %}{{ m.content }}{% endfor %}",
	bos_token: "<s>",
	eos_token: "</s>",
};

describe("GGUF facts", () => {
	it("reads architecture, context length, chat template, special tokens and parameter count", async () => {
		const { result } = await gguf([llamaGguf().file("tiny-Q8_0.gguf", 20_000)]);
		expect(result).toMatchObject({ info: LLAMA_INFO, files: ["tiny-Q8_0.gguf"] });
		expect(Object.keys(result.info!)).toEqual(Object.keys(LLAMA_INFO));
	});

	it("reads version 2, big-endian files and ids that come before the vocabulary", async () => {
		for (const options of [{ version: 2 }, { littleEndian: false }, { idsFirst: true }]) {
			const { result } = await gguf([llamaGguf(options).file("m.gguf", 20_000)]);
			expect(result.info, JSON.stringify(options)).toEqual(LLAMA_INFO);
		}
	});

	it("sums a split model's shards, with the metadata of the first", async () => {
		const shard = (n: number, tensors: number[][]) => {
			const g = new GgufBytes().start(3, tensors.length, n === 1 ? 2 : 1).kvU32("split.no", n - 1);
			if (n === 1) g.kvString("general.architecture", "qwen2");
			tensors.forEach((dims, i) => g.tensor(`t${n}.${i}`, dims));
			return g.file(`q/big-Q4_K_M-0000${n}-of-00003.gguf`, 10_000);
		};
		const { result } = await gguf([shard(2, [[100, 10]]), shard(1, [[7, 7], [3]]), shard(3, [[5, 5, 5, 5]])]);
		expect(result).toMatchObject({
			info: { total: 49 + 3 + 1000 + 625, architecture: "qwen2" },
			files: [
				"q/big-Q4_K_M-00001-of-00003.gguf",
				"q/big-Q4_K_M-00002-of-00003.gguf",
				"q/big-Q4_K_M-00003-of-00003.gguf",
			],
		});
		const incomplete = await gguf([shard(1, [[7, 7]]), shard(3, [[5]])]);
		expect(problemsOf(incomplete.result)).toMatch(
			/shard q\/big-Q4_K_M-00002-of-00003.gguf is not in the revision/,
		);
	});

	it("picks the first model file by path, not a projector, and tries the next when one is broken", async () => {
		const tiny = (arch: string) =>
			new GgufBytes().start(3, 1, 1).kvString("general.architecture", arch).tensor("w", [2, 2]);
		const files = [
			tiny("clip").file("mmproj-model-f16.gguf", 100),
			tiny("llama").file("model-Q8_0.gguf", 100),
			tiny("llama").file("model-Q4_K_M.gguf", 100),
		];
		expect((await gguf(files)).result).toMatchObject({
			info: { architecture: "llama" },
			files: ["model-Q4_K_M.gguf"],
		});
		expect((await gguf(files.slice(0, 1))).result.info?.architecture).toBe("clip");
		const broken = { path: "model-F16.gguf", head: new TextEncoder().encode("GGML...."), size: 100 };
		const { result } = await gguf([broken, ...files]);
		expect(result).toMatchObject({ info: { architecture: "llama" }, files: ["model-Q4_K_M.gguf"] });
		expect((await gguf([textFile("README.md", "hi")])).result).toEqual({
			info: undefined,
			problems: [],
			bytesRead: 0,
		});
	});

	it("skips a 150k-token vocabulary's scores without fetching them, within a bounded read", async () => {
		const tokens = Array.from({ length: 150_000 }, (_, i) => `tok${i}`);
		const g = new GgufBytes()
			.start(3, 1, 4)
			.kvString("general.architecture", "llama")
			.kvStrings("tokenizer.ggml.tokens", tokens);
		g.kvF32s("tokenizer.ggml.scores", new Array(1_500_000).fill(0)).kvU32(
			"tokenizer.ggml.eos_token_id",
			149_999,
		);
		const file = g.tensor("w", [10]).file("big.gguf", 1000);
		const { result } = await gguf([file]);
		expect(result.info).toEqual({ total: 10, architecture: "llama", eos_token: "tok149999" });
		expect(file.head.length).toBeGreaterThan(7_000_000);
		expect(result.bytesRead).toBeLessThan(4_000_000);
	});
});

describe("GGUF hostile files", () => {
	const one = async (g: GgufBytes, dataBytes = 1000) =>
		problemsOf((await gguf([g.file("m.gguf", dataBytes)])).result);

	it("refuses 2^60 tensors or key-values, and counts no file can hold", async () => {
		expect(await one(new GgufBytes().start(3, 2n ** 60n, 0))).toMatch(
			/declares 1152921504606846976 tensors \(at most 10000000/,
		);
		expect(await one(new GgufBytes().start(3, 0, 2n ** 60n))).toMatch(
			/declares 1152921504606846976 key-values \(at most 100000/,
		);
		expect(await one(new GgufBytes().start(3, 5_000_000, 0), 100)).toMatch(
			/more than its \d+ bytes can hold/,
		);
	});

	it("refuses strings and arrays claiming huge lengths without reading them", async () => {
		const longKey = new GgufBytes().start(3, 0, 1).u64(2n ** 62n);
		expect(await one(longKey)).toMatch(/key 0 is 4611686018427387904 bytes long/);
		const longValue = new GgufBytes()
			.start(3, 0, 1)
			.string("general.name")
			.u32(T.STRING)
			.u64(2n ** 62n);
		expect(await one(longValue)).toMatch(/truncated \(skips 4611686018427387904 bytes/);
		const longArray = new GgufBytes()
			.start(3, 0, 1)
			.string("a")
			.u32(T.ARRAY)
			.u32(T.UINT8)
			.u64(2n ** 40n);
		expect(await one(longArray)).toMatch(/truncated \(skips 1099511627776 bytes/);
		const manyStrings = new GgufBytes()
			.start(3, 0, 1)
			.string("a")
			.u32(T.ARRAY)
			.u32(T.STRING)
			.u64(2n ** 40n);
		expect(await one(manyStrings)).toMatch(/an array of 1099511627776 strings or arrays \(at most 1000000/);
		const fatArray = new GgufBytes().start(3, 0, 1).string("a").u32(T.ARRAY).u32(T.UINT64).u64(999_999);
		expect(await one(fatArray)).toMatch(/truncated/);
		const template = new GgufBytes().start(3, 0, 1).kvString("tokenizer.chat_template", "x".repeat(2000));
		const small = await gguf([template.file("m.gguf")], { limits: { maxKeptStringBytes: 1000 } });
		expect(problemsOf(small.result)).toMatch(/tokenizer.chat_template is 2000 bytes long \(at most 1000/);
	});

	it("refuses nested arrays, unknown types, too many dims and overflowing shapes", async () => {
		let nested = new GgufBytes().start(3, 0, 1).string("a").u32(T.ARRAY);
		for (let i = 0; i < 6; i++) nested = nested.u32(T.ARRAY).u64(1);
		expect(await one(nested)).toMatch(/arrays nested deeper than 4 levels/);
		expect(await one(new GgufBytes().start(3, 0, 1).string("a").u32(13).u32(0))).toMatch(
			/unknown value type 13/,
		);
		expect(await one(new GgufBytes().start(3, 1, 0).string("t").u32(100))).toMatch(/has 100 dimensions/);
		const huge = new GgufBytes().start(3, 1, 0).tensor("t", [2n ** 63n, 2n ** 63n, 2n ** 63n, 2n ** 63n]);
		expect(await one(huge)).toMatch(/more than a \d+-byte file can hold/);
	});

	it("refuses wrong magic, version 1, unknown versions, invalid UTF-8 and truncated headers", async () => {
		expect(await one(new GgufBytes().raw([0x47, 0x47, 0x4d, 0x4c]).u32(3).u64(0).u64(0))).toMatch(
			/not a GGUF file/,
		);
		expect(await one(new GgufBytes().start(1, 0, 0))).toMatch(/version 1 is not supported/);
		expect(await one(new GgufBytes().start(7, 0, 0))).toMatch(/unknown GGUF version 7/);
		const badKey = new GgufBytes()
			.start(3, 0, 1)
			.string(new Uint8Array([0x61, 0xff]))
			.u32(T.UINT8)
			.u8(1);
		expect(await one(badKey)).toMatch(/key 0 is not valid UTF-8/);
		const badArch = new GgufBytes()
			.start(3, 0, 1)
			.string("general.architecture")
			.u32(T.STRING)
			.string(new Uint8Array([0xc3]));
		expect(await one(badArch)).toMatch(/general.architecture is not valid UTF-8/);
		const whole = llamaGguf().bytes();
		const cut = { path: "m.gguf", head: whole.subarray(0, 200), size: 200 };
		expect(problemsOf((await gguf([cut])).result)).toMatch(/m.gguf: truncated/);
	});

	it("keeps to the per-file byte limit and the read timeout", async () => {
		const tokens = Array.from({ length: 50_000 }, (_, i) => `token-${i}`);
		const g = new GgufBytes().start(3, 0, 1).kvStrings("tokenizer.ggml.tokens", tokens);
		const { result } = await gguf([g.file("m.gguf")], {
			limits: { maxHeaderBytes: 100_000, chunkBytes: 16_384 },
		});
		expect(problemsOf(result)).toMatch(/header is larger than the 100000-byte limit per file/);
		expect(result.bytesRead).toBeLessThanOrEqual(100_000);
		const hanging = await readGgufInfo(
			[{ path: "m.gguf", size: 100 }],
			() => new Promise<Uint8Array>(() => {}),
			{
				limits: { readTimeoutMs: 50 },
			},
		);
		expect(problemsOf(hanging)).toMatch(/took longer than 50 ms/);
	});
});

describe("weights readers under random damage", () => {
	// Valid files with random bytes overwritten (in the headers, where parsing happens) or cut short: every
	// run resolves (never rejects, never hangs) with facts or problems, within the byte limits. FUZZ_SEED
	// replays another sequence.
	const seed = Number(process.env.FUZZ_SEED ?? 20);
	const damage = (file: VirtualFile, random: () => number): VirtualFile => {
		const head = file.head.slice();
		const flips = 1 + Math.floor(random() * 8);
		for (let i = 0; i < flips; i++) {
			const at = Math.floor(random() * head.length);
			head[at] = random() < 0.3 ? 0xff : Math.floor(random() * 256);
		}
		const cut = random() < 0.2 ? Math.floor(random() * head.length) : undefined;
		return cut === undefined
			? { ...file, head }
			: { path: file.path, head: head.subarray(0, cut), size: cut };
	};

	it("safetensors: 400 damaged headers", async () => {
		const random = seededRandom(seed);
		const original = safetensorsFile(
			"model.safetensors",
			[
				{ name: "embed.weight", dtype: "F32", shape: [100, 16] },
				{ name: "proj.weight", dtype: "BF16", shape: [16, 16] },
				{ name: "ids", dtype: "I64", shape: [1, 8] },
			],
			{ format: "pt" },
		);
		let counted = 0;
		for (let run = 0; run < 400; run++) {
			const { result } = await safetensors([damage(original, random)]);
			if (result.info) counted++;
			else {
				expect(result.problems.length, `run ${run}`).toBeGreaterThan(0);
				// Every problem is one the readers name, never a stray exception of their own code.
				for (const problem of result.problems)
					expect(problem, `run ${run}`).not.toMatch(/^(TypeError|RangeError|SyntaxError)/);
			}
			expect(result.bytesRead).toBeLessThanOrEqual(original.size);
		}
		// Most damage breaks the header; some lands in names or padding and leaves it valid.
		expect(counted).toBeLessThan(400);
	});

	it("GGUF: 400 damaged headers", async () => {
		const random = seededRandom(seed + 1);
		const original = llamaGguf().file("m.gguf", 20_000);
		let read = 0;
		for (let run = 0; run < 400; run++) {
			const { result } = await gguf([damage(original, random)]);
			if (result.info) read++;
			else {
				expect(result.problems.length, `run ${run}`).toBeGreaterThan(0);
				// Every problem is one the readers name, never a stray exception of their own code.
				for (const problem of result.problems)
					expect(problem, `run ${run}`).not.toMatch(/^(TypeError|RangeError|SyntaxError)/);
			}
			// The header once, and the two special tokens again.
			expect(result.bytesRead).toBeLessThanOrEqual(original.size + 64);
		}
		expect(read).toBeLessThan(400);
	});
});
