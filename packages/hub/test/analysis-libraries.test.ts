// Repository analysis with the real model libraries: tiny random models published with transformers
// `push_to_hub`, peft, timm, gguf and sentence-transformers get the model_info the public hub would
// give the same files, and transformers' pipeline(model=id) without a task runs against this hub.
// The huggingface_hub 2.x runs are children of one forking runner (test-support/python-runner.ts), which
// imports torch once; the one huggingface_hub 1.x run is a process of its own (a runner would not save).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../src/db/open.js";
import type { Database } from "../src/db/types.js";
import { createUser, startHub, type RunningHub } from "./support/hub.js";
import { runHubClient } from "./support/python.js";
import { pythonEnv, type HubGeneration } from "../../../test-support/python-env.js";
import {
	MODEL_LIBRARY_PRELOAD,
	startPythonRunner,
	type PythonRunner,
} from "../../../test-support/python-runner.js";

const ADMIN = "analysis-libraries-admin-token-0123456789";
/** Analysis lands after the commit's answer, by design: polled for at most this long. */
const ANALYSIS_WAIT_MS = 30_000;

let db: Database;
let hub: RunningHub;
let dir: string;
let token: string;
let runner: PythonRunner;

type ModelAnswer = Record<string, unknown> & { tags: string[] };

async function publish(
	kind: string,
	repo: string,
	extra: Record<string, unknown> = {},
	generation: HubGeneration = "hub2",
): Promise<string[]> {
	const out = await runHubClient<{ files: string[] }>(
		kind,
		hub.url,
		mkdtempSync(join(dir, `${kind}-`)),
		{ repo, token, ...extra },
		{ HF_TOKEN: token },
		"hf_hub_libraries.py",
		generation,
		generation === "hub2" ? runner : undefined,
	);
	return out.files;
}

async function analysed(repo: string, done: (model: ModelAnswer) => boolean): Promise<ModelAnswer> {
	const until = Date.now() + ANALYSIS_WAIT_MS;
	for (;;) {
		const res = await fetch(`${hub.url}/api/models/${repo}`, {
			headers: { authorization: `Bearer ${token}` },
		});
		expect(res.status).toBe(200);
		const model = (await res.json()) as ModelAnswer;
		if (done(model)) return model;
		if (Date.now() > until) throw new Error(`analysis of ${repo} did not land: ${JSON.stringify(model)}`);
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}

beforeAll(async () => {
	dir = mkdtempSync(join(tmpdir(), "modelhub-analysis-libraries-"));
	const starting = startPythonRunner(pythonEnv("hub2").python, {
		preload: MODEL_LIBRARY_PRELOAD,
		env: { PATH: process.env.PATH ?? "", HOME: join(dir, "runner") },
	});
	// Awaited below: a failure to start is reported there, not as an unhandled rejection meanwhile.
	starting.catch(() => undefined);
	db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
	hub = await startHub({ db, seed: false, adminToken: ADMIN });
	token = await createUser(hub.url, ADMIN, "alice");
	runner = await starting;
}, 120_000);

afterAll(async () => {
	await runner?.close();
	await hub?.close();
	await db?.close();
	if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("models published with the real libraries", () => {
	it("transformers push_to_hub: text-classification, transformersInfo, safetensors; pipeline(model=id) needs no task", async () => {
		const files = await publish("bert", "alice/tiny-bert-cls");
		expect(files).toEqual(
			expect.arrayContaining(["config.json", "model.safetensors", "tokenizer_config.json"]),
		);
		const model = await analysed(
			"alice/tiny-bert-cls",
			(m) => m.safetensors !== undefined && m.pipeline_tag !== undefined,
		);
		expect(model.pipeline_tag).toBe("text-classification");
		expect(model.library_name).toBe("transformers");
		expect(model.transformersInfo).toEqual({
			auto_model: "AutoModelForSequenceClassification",
			pipeline_tag: "text-classification",
			processor: "AutoTokenizer",
		});
		expect(model.config).toMatchObject({
			architectures: ["BertForSequenceClassification"],
			model_type: "bert",
			tokenizer_config: { mask_token: "[MASK]", pad_token: "[PAD]" },
		});
		const safetensors = model.safetensors as { parameters: Record<string, number>; total: number };
		expect(Object.keys(safetensors.parameters)).toEqual(["F32"]);
		expect(safetensors.total).toBeGreaterThan(1000);
		expect(model.tags.slice(0, 4)).toEqual(["transformers", "safetensors", "bert", "text-classification"]);
		const run = await runHubClient<{ task: string; label: string }>(
			"pipeline",
			hub.url,
			mkdtempSync(join(dir, "pipeline-")),
			{ repo: "alice/tiny-bert-cls", token },
			{ HF_TOKEN: token },
			"hf_hub_libraries.py",
			"hub2",
			runner,
		);
		expect(run.task).toBe("text-classification");
		expect(["LABEL_0", "LABEL_1"]).toContain(run.label);
	}, 240_000);

	it("GPT-2: text-generation, AutoModelForCausalLM", async () => {
		await publish("gpt2", "alice/tiny-gpt2");
		const model = await analysed(
			"alice/tiny-gpt2",
			(m) => m.safetensors !== undefined && m.pipeline_tag !== undefined,
		);
		expect(model).toMatchObject({
			pipeline_tag: "text-generation",
			library_name: "transformers",
			transformersInfo: { auto_model: "AutoModelForCausalLM", pipeline_tag: "text-generation" },
			config: { architectures: ["GPT2LMHeadModel"], model_type: "gpt2" },
		});
	}, 240_000);

	it("peft: library peft, config.peft, the base model relation; no transformers filing", async () => {
		await publish("peft", "alice/tiny-bert-lora", { base: "alice/tiny-bert-cls" });
		const model = await analysed("alice/tiny-bert-lora", (m) => m.library_name !== undefined);
		expect(model.library_name).toBe("peft");
		expect(model.pipeline_tag).toBe("text-classification");
		expect(model.config).toMatchObject({
			peft: { base_model_name_or_path: "alice/tiny-bert-cls", task_type: "SEQ_CLS" },
		});
		expect(model).not.toHaveProperty("transformersInfo");
		expect(model.tags).toEqual(expect.arrayContaining(["peft", "base_model:adapter:alice/tiny-bert-cls"]));
	}, 240_000);

	it("timm: library timm, image-classification, its config", async () => {
		await publish("timm", "alice/tiny-timm");
		const model = await analysed(
			"alice/tiny-timm",
			(m) => m.safetensors !== undefined && m.library_name !== undefined,
		);
		expect(model).toMatchObject({
			library_name: "timm",
			pipeline_tag: "image-classification",
			config: { architecture: "resnet10t", num_classes: 3 },
		});
	}, 240_000);

	it("gguf: the header's facts, no library", async () => {
		await publish("gguf", "alice/tiny-gguf");
		const model = await analysed("alice/tiny-gguf", (m) => m.gguf !== undefined);
		expect(model).not.toHaveProperty("library_name");
		expect(model.gguf).toMatchObject({ total: 12, architecture: "llama", context_length: 128 });
		expect(model.tags).toEqual(["gguf", "llama", "conversational"]);
	}, 240_000);
	it("sentence-transformers (huggingface_hub 1.x, which it pins): sentence-similarity, transformersInfo AutoModel", async () => {
		await publish("sentence-transformers", "alice/tiny-st", {}, "hub1");
		const model = await analysed("alice/tiny-st", (m) => m.library_name !== undefined);
		expect(model).toMatchObject({
			library_name: "sentence-transformers",
			pipeline_tag: "sentence-similarity",
			transformersInfo: {
				auto_model: "AutoModel",
				pipeline_tag: "feature-extraction",
				processor: "AutoTokenizer",
			},
			config: { architectures: ["BertModel"], model_type: "bert" },
		});
	}, 240_000);
});
