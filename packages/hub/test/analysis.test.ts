// Repository analysis after every commit, end to end: the real huggingface_hub uploads folders of
// files made here to a running hub, and the model answer (and listings) then show what the files say,
// as the public hub would; the card always wins; bad files leave the commit and the server intact.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pendingAnalyses, saveDerivation } from "../src/analysis/store.js";
import { openDatabase } from "../src/db/open.js";
import type { Database } from "../src/db/types.js";
import { parseModelList } from "../src/models/input.js";
import type { RepoKey } from "../src/repo-identity.js";
import { saveModels } from "../src/services/import.js";
import { createUser, startHub, type RunningHub } from "./support/hub.js";
import { runHubClient } from "./support/python.js";
import { GgufBytes, T } from "./support/weights-files.js";

const ADMIN = "analysis-admin-token-0123456789abcdef";
/** How long a test waits for an analysis to land (it runs after the commit answer, by design). */
const ANALYSIS_WAIT_MS = 30_000;

let db: Database;
let hub: RunningHub;
let dir: string;
let token: string;
const logLines: string[] = [];

type Files = Record<string, string | Buffer | object>;

/** A safetensors file: its header (tensor names, dtypes, shapes, offsets) and zeroed data. */
function safetensors(tensors: Record<string, { dtype: string; shape: number[] }>): Buffer {
	const sizes: Record<string, number> = { F32: 4, F16: 2, BF16: 2, I64: 8 };
	const header: Record<string, unknown> = {};
	let offset = 0;
	for (const [name, { dtype, shape }] of Object.entries(tensors)) {
		const length = shape.reduce((a, b) => a * b, 1) * (sizes[dtype] ?? 4);
		header[name] = { dtype, shape, data_offsets: [offset, offset + length] };
		offset += length;
	}
	const json = Buffer.from(JSON.stringify(header));
	const prefix = Buffer.alloc(8);
	prefix.writeBigUInt64LE(BigInt(json.length));
	return Buffer.concat([prefix, json, Buffer.alloc(offset)]);
}

function folderOf(files: Files): string {
	const folder = mkdtempSync(join(dir, "upload-"));
	for (const [path, content] of Object.entries(files)) {
		mkdirSync(dirname(join(folder, path)), { recursive: true });
		const bytes = typeof content === "string" || Buffer.isBuffer(content) ? content : JSON.stringify(content);
		writeFileSync(join(folder, path), bytes);
	}
	return folder;
}

async function upload(repo: string, files: Files): Promise<string> {
	const out = await runHubClient<{ commit: string }>(
		"upload",
		hub.url,
		dir,
		{ repo, folder: folderOf(files), token },
		{},
		"hf_hub_analysis.py",
	);
	return out.commit;
}

type ModelAnswer = Record<string, unknown> & { tags: string[]; sha: string };

async function modelInfo(repo: string, base = hub.url): Promise<ModelAnswer> {
	const res = await fetch(`${base}/api/models/${repo}`, { headers: { authorization: `Bearer ${token}` } });
	expect(res.status).toBe(200);
	return (await res.json()) as ModelAnswer;
}

/** Polls the model answer until `done` holds (bounded): analysis lands after the commit's answer. */
async function analysed(repo: string, done: (model: ModelAnswer) => boolean): Promise<ModelAnswer> {
	const until = Date.now() + ANALYSIS_WAIT_MS;
	for (;;) {
		const model = await modelInfo(repo);
		if (done(model)) return model;
		if (Date.now() > until) throw new Error(`analysis of ${repo} did not land: ${JSON.stringify(model)}`);
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}

async function analysedAt(commit: string): Promise<void> {
	const until = Date.now() + ANALYSIS_WAIT_MS;
	for (;;) {
		const rows = await db.query<{ n: number }>(
			"SELECT count(*)::int AS n FROM repo_analysis WHERE analysed_commit = $1",
			[commit],
		);
		if (Number(rows.rows[0]?.n) > 0) return;
		if (Date.now() > until) throw new Error(`commit ${commit} was not analysed`);
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}

const BERT_CONFIG = {
	architectures: ["BertForSequenceClassification"],
	model_type: "bert",
	hidden_size: 32,
	num_hidden_layers: 2,
	id2label: { 0: "NEGATIVE", 1: "POSITIVE" },
};
const BERT_TOKENIZER = {
	mask_token: "[MASK]",
	pad_token: "[PAD]",
	cls_token: "[CLS]",
	unk_token: "[UNK]",
	tokenizer_class: "BertTokenizer",
};

beforeAll(async () => {
	dir = mkdtempSync(join(tmpdir(), "modelhub-analysis-"));
	db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
	hub = await startHub({
		db,
		seed: false,
		adminToken: ADMIN,
		logStream: new Writable({
			write(chunk: Buffer, _encoding, callback) {
				logLines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
				callback();
			},
		}),
	});
	token = await createUser(hub.url, ADMIN, "alice");
}, 120_000);

afterAll(async () => {
	await hub?.close();
	await db?.close();
	if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("analysis after a commit", () => {
	it("gives a transformers classifier its task, auto classes, config and tags, as huggingface_hub reads them", async () => {
		const commit = await upload("alice/tiny-bert-cls", {
			"config.json": BERT_CONFIG,
			"tokenizer_config.json": BERT_TOKENIZER,
			"vocab.txt": "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nhello\n",
			"model.safetensors": safetensors({ "classifier.weight": { dtype: "F32", shape: [2, 32] } }),
			"README.md":
				"---\nlicense: mit\ndatasets: [glue]\nlanguage: en\n---\n# Tiny\nTrained as in https://arxiv.org/abs/1810.04805.\n",
		});
		const model = await analysed("alice/tiny-bert-cls", (m) => m.pipeline_tag !== undefined);
		expect(model.sha).toBe(commit);
		expect(model.pipeline_tag).toBe("text-classification");
		expect(model.library_name).toBe("transformers");
		expect(model.transformersInfo).toEqual({
			auto_model: "AutoModelForSequenceClassification",
			pipeline_tag: "text-classification",
			processor: "AutoTokenizer",
		});
		expect(model.config).toEqual({
			architectures: ["BertForSequenceClassification"],
			model_type: "bert",
			tokenizer_config: { mask_token: "[MASK]", pad_token: "[PAD]", cls_token: "[CLS]", unk_token: "[UNK]" },
		});
		expect(model.tags).toEqual([
			"transformers",
			"safetensors",
			"bert",
			"text-classification",
			"dataset:glue",
			"en",
			"arxiv:1810.04805",
			"license:mit",
		]);
		expect(model.safetensors).toEqual({ parameters: { F32: 64 }, total: 64, sharded: false });
		const client = await runHubClient<Record<string, unknown>>(
			"info",
			hub.url,
			dir,
			{ repo: "alice/tiny-bert-cls", token },
			{},
			"hf_hub_analysis.py",
		);
		expect(client.pipeline_tag).toBe("text-classification");
		expect(client.library_name).toBe("transformers");
		expect(client.transformers_info).toMatchObject({ auto_model: "AutoModelForSequenceClassification" });
		expect(client.widget_data).toEqual(model.widgetData);

		// Listings see the derived values through the same indexed columns.
		const listed = (await (
			await fetch(`${hub.url}/api/models?author=alice&pipeline_tag=text-classification&filter=transformers`, {
				headers: { authorization: `Bearer ${token}` },
			})
		).json()) as Array<{ id: string }>;
		expect(listed.map((m) => m.id)).toContain("alice/tiny-bert-cls");
	}, 120_000);

	it("lets the card win, and falls back to the derived value when the card drops it", async () => {
		const repo = "alice/card-wins";
		await upload(repo, {
			"config.json": { architectures: ["GPT2LMHeadModel"], model_type: "gpt2" },
			"README.md": "---\npipeline_tag: summarization\nlibrary_name: my-lib\n---\n",
		});
		const withCard = await analysed(repo, (m) => m.transformersInfo !== undefined);
		expect(withCard.pipeline_tag).toBe("summarization");
		expect(withCard.library_name).toBe("my-lib");
		expect(withCard.tags.slice(0, 3)).toEqual(["my-lib", "gpt2", "summarization"]);
		const commit = await upload(repo, { "README.md": "---\nlicense: mit\n---\n" });
		await analysedAt(commit);
		const fallback = await modelInfo(repo);
		expect(fallback.pipeline_tag).toBe("text-generation");
		expect(fallback.library_name).toBe("transformers");
		expect(fallback.cardData).toEqual({ license: "mit" });
		// Analysing the same commit again changes nothing: the stored derivation is for that commit.
		await db.query("UPDATE repo_analysis SET analysed_commit = NULL WHERE repo_id = $1", [repo]);
		hub.server.analysis.enqueue({ type: "model", id: repo });
		await analysedAt(commit);
		expect(await modelInfo(repo)).toEqual(fallback);
	}, 120_000);

	it("files peft, sentence-transformers, diffusers and timm layouts as the public hub does", async () => {
		await upload("alice/lora", {
			"adapter_config.json": {
				base_model_name_or_path: "alice/tiny-gpt2",
				task_type: "CAUSAL_LM",
				peft_type: "LORA",
				r: 4,
			},
			"adapter_model.safetensors": safetensors({
				"base_model.lora_A.weight": { dtype: "F32", shape: [4, 8] },
			}),
			"README.md": "---\nbase_model: alice/tiny-gpt2\nlibrary_name: peft\n---\n",
		});
		await upload("alice/embedder", {
			"config.json": { architectures: ["BertModel"], model_type: "bert" },
			"modules.json": [{ idx: 0, name: "0", path: "", type: "sentence_transformers.models.Transformer" }],
			"config_sentence_transformers.json": { similarity_fn_name: "cosine" },
			"tokenizer.json": { version: "1.0" },
		});
		await upload("alice/tiny-sd", {
			"model_index.json": {
				_class_name: "StableDiffusionPipeline",
				_diffusers_version: "0.30.0",
				unet: ["diffusers", "UNet2DConditionModel"],
			},
			"unet/config.json": { _class_name: "UNet2DConditionModel" },
		});
		await upload("alice/tiny-timm", {
			"config.json": {
				architecture: "resnet18",
				num_classes: 3,
				num_features: 512,
				pretrained_cfg: { input_size: [3, 32, 32] },
			},
			"model.safetensors": safetensors({ "fc.weight": { dtype: "F32", shape: [3, 512] } }),
		});
		const lora = await analysed("alice/lora", (m) => m.config !== undefined);
		expect(lora).toMatchObject({
			library_name: "peft",
			pipeline_tag: "text-generation",
			config: { peft: { base_model_name_or_path: "alice/tiny-gpt2", task_type: "CAUSAL_LM" } },
		});
		expect(lora.tags).toEqual(
			expect.arrayContaining(["peft", "base_model:alice/tiny-gpt2", "base_model:adapter:alice/tiny-gpt2"]),
		);
		expect(lora).not.toHaveProperty("transformersInfo");
		const embedder = await analysed("alice/embedder", (m) => m.library_name !== undefined);
		expect(embedder).toMatchObject({
			library_name: "sentence-transformers",
			pipeline_tag: "sentence-similarity",
			transformersInfo: {
				auto_model: "AutoModel",
				pipeline_tag: "feature-extraction",
				processor: "AutoTokenizer",
			},
		});
		const sd = await analysed("alice/tiny-sd", (m) => m.library_name !== undefined);
		expect(sd).toMatchObject({
			library_name: "diffusers",
			pipeline_tag: "text-to-image",
			config: { diffusers: { _class_name: "StableDiffusionPipeline" } },
		});
		expect(sd.tags).toContain("diffusers:StableDiffusionPipeline");
		const timm = await analysed("alice/tiny-timm", (m) => m.library_name !== undefined);
		expect(timm).toMatchObject({
			library_name: "timm",
			pipeline_tag: "image-classification",
			config: { architecture: "resnet18", num_classes: 3 },
		});
	}, 180_000);

	it("keeps the commit and the server whole when files are hostile, with one log line", async () => {
		const nested = `{"a": ${"[".repeat(50_000)}${"]".repeat(50_000)}}`;
		const commit = await upload("alice/hostile", {
			// Over the 1 MiB bound: skipped unread.
			"config.json": `{"model_type": "bert", "pad": "${"x".repeat(2 * 1024 * 1024)}"}`,
			"tokenizer_config.json": nested,
			"model_index.json": Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]),
			"adapter_config.json": '{"task_type": "CAUSAL_LM", "x": "\\u0000"}',
		});
		await analysedAt(commit);
		const model = await modelInfo("alice/hostile");
		expect(model.sha).toBe(commit);
		expect(model).not.toHaveProperty("config");
		expect(model).not.toHaveProperty("transformersInfo");
		// The files are there, whole.
		const res = await fetch(`${hub.url}/alice/hostile/resolve/main/tokenizer_config.json`, {
			headers: { authorization: `Bearer ${token}` },
		});
		expect(await res.text()).toBe(nested);
		const lines = logLines.filter((line) => line.includes("alice/hostile"));
		expect(lines).toHaveLength(1);
		const line = JSON.parse(lines[0] as string) as { skipped: string[] };
		expect([...line.skipped].sort()).toEqual([
			"adapter_config.json: unstorable JSON",
			"config.json: too large",
			"model_index.json: not UTF-8",
			"tokenizer_config.json: unstorable JSON",
		]);
		expect((await fetch(`${hub.url}/api/models/alice/tiny-bert-cls`)).status).toBe(200);
	}, 120_000);
	it("reads a GGUF header: no library, the gguf tag, architecture, context length and chat template", async () => {
		const gguf = new GgufBytes()
			.start(3, 1, 4)
			.kvString("general.architecture", "llama")
			.kvU32("llama.context_length", 2048)
			.kvString("tokenizer.chat_template", "{% for m in messages %}{{ m.content }}{% endfor %}")
			.string("general.alignment")
			.u32(T.UINT32)
			.u32(32)
			.tensor("token_embd.weight", [8, 4], 0, 0);
		const head = Buffer.from(gguf.bytes());
		const aligned = Math.ceil(head.length / 32) * 32;
		await upload("alice/tiny-gguf", {
			"tiny-f32.gguf": Buffer.concat([head, Buffer.alloc(aligned - head.length + 8 * 4 * 4)]),
			"README.md": "---\nbase_model: alice/tiny-llama\n---\n",
		});
		const model = await analysed("alice/tiny-gguf", (m) => m.gguf !== undefined);
		expect(model).not.toHaveProperty("library_name");
		expect(model.gguf).toMatchObject({ total: 32, architecture: "llama", context_length: 2048 });
		expect(model.config).toEqual({ model_type: "llama" });
		expect(model.tags).toEqual([
			"gguf",
			"llama",
			"base_model:alice/tiny-llama",
			"base_model:quantized:alice/tiny-llama",
			"conversational",
		]);
	}, 120_000);
});

describe("analysis state", () => {
	it("is caught up at start by a hub after one that stopped before analysing", async () => {
		const stalled = await startHub({
			db,
			storage: hub.storage,
			seed: false,
			adminToken: ADMIN,
			analysis: { concurrency: 0 },
		});
		const repo = "alice/caught-up";
		let commit: string;
		try {
			const out = await runHubClient<{ commit: string }>(
				"upload",
				stalled.url,
				dir,
				{
					repo,
					folder: folderOf({ "config.json": { architectures: ["BertForMaskedLM"], model_type: "bert" } }),
					token,
				},
				{},
				"hf_hub_analysis.py",
			);
			commit = out.commit;
			expect(await modelInfo(repo)).not.toHaveProperty("pipeline_tag");
		} finally {
			await stalled.close();
		}
		const next = await startHub({ db, storage: hub.storage, seed: false, adminToken: ADMIN });
		try {
			await analysedAt(commit);
			// Asked of the hub that analysed it (PGlite hubs in one process share no cache invalidation).
			expect((await modelInfo(repo, next.url)).pipeline_tag).toBe("fill-mask");
		} finally {
			await next.close();
		}
	}, 120_000);

	it("looks at start only at the repositories whose main moved past their analysis", async () => {
		// 300 catalogue entries, each with a generated main commit, marked analysed at it by the import.
		const records = Array.from({ length: 300 }, (_, i) => ({
			id: `alice/entry-${i}`,
			pipeline_tag: "fill-mask",
		}));
		await saveModels(db, hub.storage, parseModelList(records), { generateFiles: false });
		// One of them then gets a commit that no analysis sees (its hub analyses nothing).
		const stalled = await startHub({
			db,
			storage: hub.storage,
			seed: false,
			adminToken: ADMIN,
			analysis: { concurrency: 0 },
		});
		let commit: string;
		try {
			commit = await commitNdjson("alice/entry-7", { "notes.md": "moved" }, [], stalled.url);
		} finally {
			await stalled.close();
		}
		const behind = (): Promise<{ pending: RepoKey[]; rowsRead: number }> =>
			db.transaction(async (tx) => {
				// At scale the planner reaches these tables through their indexes; a table of a few hundred
				// rows would otherwise be read whole whatever the statement.
				await tx.query("SET LOCAL enable_seqscan = off");
				// The rows of repos, refs and repo_analysis the statement read, counted by the server (the
				// counters of the transaction, before and after: PGlite's also hold earlier ones).
				const rowsRead = async (): Promise<number> => {
					const read = await tx.query<{ n: number }>(
						`SELECT COALESCE(sum(seq_tup_read + COALESCE(idx_tup_fetch, 0)), 0)::int AS n
						FROM pg_stat_xact_user_tables WHERE relname IN ('repos', 'refs', 'repo_analysis')`,
					);
					return Number(read.rows[0]?.n);
				};
				const start = await rowsRead();
				const pending = await pendingAnalyses(tx, 500);
				return { pending, rowsRead: (await rowsRead()) - start };
			});
		const before = await behind();
		// The answer of a full comparison of every main branch with its analysis.
		const truth = await db.query<{ id: string }>(
			`SELECT r.repo_id AS id FROM refs r
			LEFT JOIN repo_analysis a ON a.repo_type = r.repo_type AND a.repo_id = r.repo_id
			WHERE r.kind = 'branch' AND r.name = 'main' AND a.analysed_commit IS DISTINCT FROM r.commit_id
			ORDER BY r.repo_type, r.repo_id`,
		);
		expect(truth.rows.map((row) => row.id)).toContain("alice/entry-7");
		expect(before.pending.map((repo) => repo.id)).toEqual(truth.rows.map((row) => row.id));
		// Before (issue 21) every main branch and its analysis were read (here 300 and more; at a million
		// models ~17 s at each start); now the rows of the repositories listed as behind.
		expect(before.rowsRead).toBeLessThan(2 * before.pending.length + 10);
		// Caught up by the next hub to start; then off the list.
		const next = await startHub({ db, storage: hub.storage, seed: false, adminToken: ADMIN });
		try {
			await analysedAt(commit);
			await next.server.analysis.idle();
		} finally {
			await next.close();
		}
		const after = await behind();
		expect(after.pending.map((repo) => repo.id)).not.toContain("alice/entry-7");
		const listed = await db.query("SELECT 1 FROM analysis_due WHERE repo_id = $1", ["alice/entry-7"]);
		expect(listed.rows).toHaveLength(0);
	}, 120_000);

	it("stores and announces nothing for a repository deleted while it was analysed", async () => {
		// The analysis reads a commit, then saves; a delete in between made the save's foreign key fail
		// and the hub log a "repository analysis failed" error (seen in CI with discussions.test.ts).
		const repo = "alice/deleted-midway";
		const created = await fetch(`${hub.url}/api/repos/create`, {
			method: "POST",
			headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
			body: JSON.stringify({ name: "deleted-midway", type: "model" }),
		});
		expect(created.status, await created.text()).toBe(200);
		const commit = await commitNdjson(repo, { "notes.md": "soon gone" });
		const deleted = await fetch(`${hub.url}/api/repos/delete`, {
			method: "DELETE",
			headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
			body: JSON.stringify({ name: "deleted-midway", type: "model" }),
		});
		expect(deleted.status, await deleted.text()).toBe(200);
		const saved = await db.transaction((tx) =>
			saveDerivation(tx, { type: "model", id: repo }, commit, { tags: [] }),
		);
		expect(saved).toBe(false);
		const rows = await db.query("SELECT 1 FROM repo_analysis WHERE repo_id = $1", [repo]);
		expect(rows.rows).toHaveLength(0);
	});

	it("keeps what a metadata-only record brought", async () => {
		const res = await fetch(`${hub.url}/api/models/alice/catalogue-entry`, {
			method: "PUT",
			headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
			body: JSON.stringify({
				pipeline_tag: "text-generation",
				library_name: "transformers",
				tags: ["transformers", "custom"],
				transformersInfo: { auto_model: "AutoModelForCausalLM" },
			}),
		});
		expect(res.status).toBeLessThan(300);
		const other = await startHub({ db, storage: hub.storage, seed: false, adminToken: ADMIN });
		try {
			await other.server.analysis.idle();
			await hub.server.analysis.idle();
		} finally {
			await other.close();
		}
		const model = await modelInfo("alice/catalogue-entry");
		expect(model).toMatchObject({
			pipeline_tag: "text-generation",
			library_name: "transformers",
			transformersInfo: { auto_model: "AutoModelForCausalLM" },
		});
		expect(model.tags).toEqual(["transformers", "custom"]);
	}, 60_000);
});

/** A commit over HTTP as huggingface_hub sends it (NDJSON, content inline); returns the commit id. */
async function commitNdjson(
	repo: string,
	files: Record<string, string>,
	deletedFolders: readonly string[] = [],
	base = hub.url,
): Promise<string> {
	const lines: object[] = [{ key: "header", value: { summary: "edit" } }];
	for (const [path, content] of Object.entries(files))
		lines.push({
			key: "file",
			value: { path, content: Buffer.from(content).toString("base64"), encoding: "base64" },
		});
	for (const path of deletedFolders) lines.push({ key: "deletedFolder", value: { path } });
	const res = await fetch(`${base}/api/models/${repo}/commit/main`, {
		method: "POST",
		headers: { authorization: `Bearer ${token}`, "content-type": "application/x-ndjson" },
		body: lines.map((line) => JSON.stringify(line)).join("\n"),
	});
	const text = await res.text();
	expect(res.status, text).toBe(200);
	return (JSON.parse(text) as { commitOid: string }).commitOid;
}

/** The stored derivation's tags (what analysis saved, before the card and records are merged in). */
async function derivedTags(repo: string): Promise<string[]> {
	const result = await db.query<{ derived: { tags: string[] } }>(
		"SELECT derived FROM repo_analysis WHERE repo_type = 'model' AND repo_id = $1",
		[repo],
	);
	return result.rows[0]?.derived.tags ?? [];
}

/** Marks the stored derivation, so that a recomputation (which would drop the mark) shows. */
async function markDerivation(repo: string): Promise<void> {
	await db.query(
		`UPDATE repo_analysis SET derived = jsonb_set(derived, '{tags}', (derived->'tags') || '["carried-mark"]'::jsonb)
		WHERE repo_type = 'model' AND repo_id = $1`,
		[repo],
	);
}

describe("analysis across commits", () => {
	it("is carried forward when a commit changes no file analysis looks at, and recomputed when one does", async () => {
		const repo = "alice/carried";
		const res = await fetch(`${hub.url}/api/repos/create`, {
			method: "POST",
			headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
			body: JSON.stringify({ name: "carried" }),
		});
		expect(res.status).toBe(200);
		// More files in data/ than one stored tree holds (CHUNKED_FROM): the comparison goes chunk by chunk.
		const data: Record<string, string> = {};
		for (let index = 0; index < 1500; index++)
			data[`data/row-${String(index).padStart(4, "0")}.txt`] = `${index}\n`;
		await analysedAt(await commitNdjson(repo, { "config.json": JSON.stringify(BERT_CONFIG), ...data }));
		expect(await derivedTags(repo)).toContain("transformers");
		await markDerivation(repo);

		// Files analysis does not look at, in the root and in the chunked folder: carried, not recomputed.
		const unrelated = await commitNdjson(repo, { "notes.txt": "hello\n", "data/row-0700.txt": "edited\n" });
		await analysedAt(unrelated);
		expect(await derivedTags(repo)).toContain("carried-mark");

		// A GGUF file added in the chunked folder: recomputed (the mark is gone, the format tag is there).
		await analysedAt(await commitNdjson(repo, { "data/extra.gguf": "not really gguf" }));
		let tags = await derivedTags(repo);
		expect(tags).not.toContain("carried-mark");
		expect(tags).toContain("gguf");

		// A folder removed whose files analysis looks at: recomputed, the ONNX tag comes and goes.
		await analysedAt(await commitNdjson(repo, { "onnx/model.onnx": "onnx bytes" }));
		expect(await derivedTags(repo)).toContain("onnx");
		await markDerivation(repo);
		await analysedAt(await commitNdjson(repo, {}, ["onnx"]));
		tags = await derivedTags(repo);
		expect(tags).not.toContain("carried-mark");
		expect(tags).not.toContain("onnx");

		// The config changed: recomputed, and the model answer shows it.
		await markDerivation(repo);
		await analysedAt(
			await commitNdjson(repo, {
				"config.json": JSON.stringify({ architectures: ["GPT2LMHeadModel"], model_type: "gpt2" }),
			}),
		);
		expect(await derivedTags(repo)).not.toContain("carried-mark");
		expect((await analysed(repo, (model) => model.pipeline_tag === "text-generation")).library_name).toBe(
			"transformers",
		);
	}, 120_000);
});
