#!/usr/bin/env node
// Repository analysis of weights headers (src/analysis/safetensors.ts, gguf.ts) through a disk-backed
// ReadRange, counting the bytes it reads:
//  - a 10 GB sharded safetensors model (BF16, llama-like shapes, 5 shards and their index): sparse files,
//    the headers written and the data left as holes, so nothing near 10 GB is written or read;
//  - a GGUF file with a ~4 MB header (a 150k-token vocabulary, token types, 100k merges, 291 tensors),
//    its data a hole too;
//  - a hostile safetensors header of 100,000 tensors (a valid file: every tensor checked and counted).
// Each case runs 3 times to warm up, then BENCH_ROUNDS times (default 20); prints one JSON line per case
// (median and slowest time, bytes read per analysis, the longest the event loop was held, the result).
//
//   node packages/hub/bench/analysis.bench.mjs
//
// The analysis modules are built from the current sources (test/support/build-cli.mjs).
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { setImmediate } from "node:timers";
import { pathToFileURL } from "node:url";
import { buildSources } from "../test/support/build-cli.mjs";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);

async function buildAnalysis() {
	const files = await buildSources("analysis-bench", {
		safetensors: join("src", "analysis", "safetensors.ts"),
		gguf: join("src", "analysis", "gguf.ts"),
	});
	const load = (name) => import(pathToFileURL(files[name]).href);
	return { ...(await load("safetensors")), ...(await load("gguf")) };
}

/** A ReadRange over a folder ([start, end), as BlobStore.read's ByteRange), counting bytes and reads. */
function diskReader(folder) {
	const counter = { bytes: 0, reads: 0 };
	const read = async (path, start, end) => {
		const handle = await open(join(folder, path), "r");
		try {
			const out = new Uint8Array(end - start);
			let filled = 0;
			while (filled < out.length) {
				const { bytesRead } = await handle.read(out, filled, out.length - filled, start + filled);
				if (bytesRead === 0) break;
				filled += bytesRead;
			}
			counter.bytes += filled;
			counter.reads += 1;
			return out.subarray(0, filled);
		} finally {
			await handle.close();
		}
	};
	return { read, counter };
}

/** Writes `head` and extends the file to `size` with a hole (no data blocks). */
function sparseFile(folder, path, head, size) {
	writeFileSync(join(folder, path), head);
	truncateSync(join(folder, path), size);
	return { path, size };
}

function safetensorsHead(tensors) {
	const header = {};
	let offset = 0;
	for (const { name, shape } of tensors) {
		const bytes = shape.reduce((a, b) => a * b, 1) * 2; // BF16
		header[name] = { dtype: "BF16", shape, data_offsets: [offset, offset + bytes] };
		offset += bytes;
	}
	const json = Buffer.from(JSON.stringify(header));
	const head = Buffer.alloc(8 + json.length);
	head.writeBigUInt64LE(BigInt(json.length), 0);
	json.copy(head, 8);
	return { head, size: head.length + offset };
}

/** A 10 GB llama-like BF16 model in 5 shards (~2 GB each), with its index. */
function shardedModel(folder) {
	const hidden = 4096;
	const intermediate = 14336;
	const vocab = 64000;
	const tensors = [{ name: "model.embed_tokens.weight", shape: [vocab, hidden] }];
	for (let layer = 0; layer < 22; layer++) {
		const p = `model.layers.${layer}`;
		tensors.push(
			{ name: `${p}.self_attn.q_proj.weight`, shape: [hidden, hidden] },
			{ name: `${p}.self_attn.k_proj.weight`, shape: [1024, hidden] },
			{ name: `${p}.self_attn.v_proj.weight`, shape: [1024, hidden] },
			{ name: `${p}.self_attn.o_proj.weight`, shape: [hidden, hidden] },
			{ name: `${p}.mlp.gate_proj.weight`, shape: [intermediate, hidden] },
			{ name: `${p}.mlp.up_proj.weight`, shape: [intermediate, hidden] },
			{ name: `${p}.mlp.down_proj.weight`, shape: [hidden, intermediate] },
			{ name: `${p}.input_layernorm.weight`, shape: [hidden] },
			{ name: `${p}.post_attention_layernorm.weight`, shape: [hidden] },
		);
	}
	tensors.push(
		{ name: "model.norm.weight", shape: [hidden] },
		{ name: "lm_head.weight", shape: [vocab, hidden] },
	);
	const shardCount = 5;
	const perShard = Math.ceil(tensors.length / shardCount);
	const files = [];
	const weightMap = {};
	let parameters = 0;
	for (let s = 0; s < shardCount; s++) {
		const path = `model-${String(s + 1).padStart(5, "0")}-of-${String(shardCount).padStart(5, "0")}.safetensors`;
		const shard = tensors.slice(s * perShard, (s + 1) * perShard);
		for (const { name, shape } of shard) {
			weightMap[name] = path;
			parameters += shape.reduce((a, b) => a * b, 1);
		}
		const { head, size } = safetensorsHead(shard);
		files.push(sparseFile(folder, path, head, size));
	}
	const index = Buffer.from(
		JSON.stringify({ metadata: { total_size: parameters * 2 }, weight_map: weightMap }),
	);
	files.push(sparseFile(folder, "model.safetensors.index.json", index, index.length));
	return { files, parameters };
}

/** GGUF v3 little-endian bytes, written field by field (ggml docs/gguf.md). */
class GgufWriter {
	parts = [];
	u32(value) {
		const b = Buffer.alloc(4);
		b.writeUInt32LE(value);
		this.parts.push(b);
		return this;
	}
	u64(value) {
		const b = Buffer.alloc(8);
		b.writeBigUInt64LE(BigInt(value));
		this.parts.push(b);
		return this;
	}
	string(value) {
		const bytes = Buffer.from(value);
		return this.u64(bytes.length).raw(bytes);
	}
	raw(bytes) {
		this.parts.push(bytes);
		return this;
	}
	strings(key, values) {
		this.string(key).u32(9).u32(8).u64(values.length);
		const encoded = values.map((v) => Buffer.from(v));
		const out = Buffer.alloc(encoded.reduce((n, v) => n + 8 + v.length, 0));
		let at = 0;
		for (const v of encoded) {
			out.writeBigUInt64LE(BigInt(v.length), at);
			v.copy(out, at + 8);
			at += 8 + v.length;
		}
		return this.raw(out);
	}
	bytes() {
		return Buffer.concat(this.parts);
	}
}

/** A GGUF with a ~4 MB header: 150k tokens, token types, 100k merges, 291 tensors; the data a hole. */
function ggufModel(folder) {
	const vocab = 150_000;
	const tokens = Array.from({ length: vocab }, (_, i) =>
		i === 1 ? "<|im_start|>" : `ĠTok${i.toString(36)}`,
	);
	const merges = Array.from({ length: 100_000 }, (_, i) => `Ġt${i.toString(36)} ok`);
	const template =
		"{% for message in messages %}<|im_start|>{{ message.role }}\n{{ message.content }}<|im_end|>\n{% endfor %}";
	const tensors = [["token_embd.weight", [2048, vocab]]];
	for (let layer = 0; layer < 29; layer++)
		for (const name of [
			"attn_q",
			"attn_k",
			"attn_v",
			"attn_output",
			"ffn_gate",
			"ffn_up",
			"ffn_down",
			"attn_norm",
			"ffn_norm",
			"attn_q_norm",
		])
			tensors.push([`blk.${layer}.${name}.weight`, name.endsWith("norm") ? [2048] : [2048, 2048]]);
	tensors.push(["output_norm.weight", [2048]]);
	const g = new GgufWriter().raw(Buffer.from("GGUF")).u32(3).u64(tensors.length).u64(8);
	g.string("general.architecture").u32(8).string("qwen2");
	g.string("qwen2.context_length").u32(4).u32(32768);
	g.string("tokenizer.ggml.model").u32(8).string("gpt2");
	g.strings("tokenizer.ggml.tokens", tokens);
	g.string("tokenizer.ggml.token_type")
		.u32(9)
		.u32(5)
		.u64(vocab)
		.raw(Buffer.alloc(vocab * 4, 1));
	g.strings("tokenizer.ggml.merges", merges);
	g.string("tokenizer.ggml.bos_token_id").u32(4).u32(1);
	g.string("tokenizer.chat_template").u32(8).string(template);
	let parameters = 0;
	let offset = 0;
	for (const [name, dims] of tensors) {
		g.string(name).u32(dims.length);
		for (const dim of dims) g.u64(dim);
		g.u32(30).u64(offset); // BF16
		const count = dims.reduce((a, b) => a * b, 1);
		parameters += count;
		offset += count * 2;
	}
	const head = g.bytes();
	const size = Math.ceil(head.length / 32) * 32 + offset;
	return { files: [sparseFile(folder, "model-BF16.gguf", head, size)], parameters, headerBytes: head.length };
}

/** A valid single-file safetensors header of 100,000 tensors. */
function manyTensors(folder) {
	const tensors = Array.from({ length: 100_000 }, (_, i) => ({
		name: `blocks.${i}.adapter.weight`,
		shape: [16, 8],
	}));
	const { head, size } = safetensorsHead(tensors);
	return {
		files: [sparseFile(folder, "model.safetensors", head, size)],
		parameters: 100_000 * 128,
		headerBytes: head.length,
	};
}

/**
 * Watches the event loop while work runs: the longest time between two of its turns (how long the hub
 * could answer nothing, /healthz included) and the longest delay monitorEventLoopDelay saw.
 */
function watchEventLoop() {
	const delay = monitorEventLoopDelay({ resolution: 10 });
	delay.enable();
	let longest = 0;
	let last = performance.now();
	let running = true;
	const tick = () => {
		const now = performance.now();
		longest = Math.max(longest, now - last);
		last = now;
		if (running) setImmediate(tick);
	};
	setImmediate(tick);
	return () => {
		running = false;
		// The stretch since the last turn counts too (work that ends the analysis without a turn after it).
		longest = Math.max(longest, performance.now() - last);
		delay.disable();
		return { heldMs: longest, delayMaxMs: delay.max / 1e6 };
	};
}

async function measure(name, folder, files, analyse, check) {
	const times = [];
	const held = [];
	const delays = [];
	let last;
	let bytes = 0;
	let reads = 0;
	for (let round = 0; round < 3 + ROUNDS; round++) {
		const { read, counter } = diskReader(folder);
		const stop = watchEventLoop();
		const start = performance.now();
		last = await analyse(files, read);
		const ms = performance.now() - start;
		const loop = stop();
		if (round >= 3) {
			times.push(ms);
			held.push(loop.heldMs);
			delays.push(loop.delayMaxMs);
		}
		bytes = counter.bytes;
		reads = counter.reads;
	}
	check(last);
	times.sort((a, b) => a - b);
	held.sort((a, b) => a - b);
	delays.sort((a, b) => a - b);
	const totalBytes = files.reduce((n, file) => n + file.size, 0);
	return {
		bench: "analysis",
		case: name,
		files: files.length,
		fileBytes: totalBytes,
		bytesRead: bytes,
		reads,
		msMedian: Number(times[Math.floor(times.length / 2)].toFixed(2)),
		msMax: Number(times[times.length - 1].toFixed(2)),
		// The event loop during the analysis: the longest it was held (median over the rounds, and the
		// smallest, which load on the machine cannot inflate), and the largest delay seen.
		loopHeldMsMedian: Number(held[Math.floor(held.length / 2)].toFixed(1)),
		loopHeldMsMin: Number(held[0].toFixed(1)),
		loopDelayMaxMsMedian: Number(delays[Math.floor(delays.length / 2)].toFixed(1)),
		rounds: ROUNDS,
		info: last.info,
	};
}

function expectTotal(expected) {
	return (result) => {
		if (result.info?.total !== expected)
			throw new Error(`expected a total of ${expected}, got ${JSON.stringify(result).slice(0, 500)}`);
	};
}

const { readSafetensorsInfo, readGgufInfo } = await buildAnalysis();
const root = mkdtempSync(join(tmpdir(), "modelhub-analysis-bench-"));
try {
	const sharded = join(root, "sharded");
	mkdirSync(sharded);
	const model = shardedModel(sharded);
	console.log(
		JSON.stringify(
			await measure(
				"safetensors, 10 GB in 5 shards + index",
				sharded,
				model.files,
				readSafetensorsInfo,
				expectTotal(model.parameters),
			),
		),
	);
	const ggufFolder = join(root, "gguf");
	mkdirSync(ggufFolder);
	const gguf = ggufModel(ggufFolder);
	const ggufLine = await measure(
		"gguf, 4 MB header",
		ggufFolder,
		gguf.files,
		readGgufInfo,
		expectTotal(gguf.parameters),
	);
	console.log(
		JSON.stringify({
			...ggufLine,
			headerBytes: gguf.headerBytes,
			info: { ...ggufLine.info, chat_template: "…" },
		}),
	);
	const many = join(root, "many");
	mkdirSync(many);
	const hostile = manyTensors(many);
	const manyLine = await measure(
		"safetensors, 100,000 tensors in one header",
		many,
		hostile.files,
		readSafetensorsInfo,
		expectTotal(hostile.parameters),
	);
	console.log(JSON.stringify({ ...manyLine, headerBytes: hostile.headerBytes }));
} finally {
	rmSync(root, { recursive: true, force: true });
}
