/**
 * The Python environments hold the pinned real client libraries, importable at those versions, and each
 * library works offline on tiny random models made in the test (nothing is downloaded).
 */
import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
	HUB_GENERATIONS,
	type HubGeneration,
	makeVenv,
	PYTHON_MISSING,
	pythonEnv,
	unexpectedPipProblems,
	VENV_MISSING,
} from "./python-env.js";

const SMOKE_SCRIPT = join(import.meta.dirname, "python", "smoke_libraries.py");

/** What each generation must hold: hub2 lacks datasets and sentence-transformers (they pin huggingface-hub<2.0). */
const LIBRARIES: Readonly<Record<HubGeneration, readonly string[]>> = {
	hub2: ["huggingface_hub", "torch", "torchvision", "safetensors", "transformers", "peft", "timm", "gguf"],
	hub1: [
		"huggingface_hub",
		"torch",
		"torchvision",
		"safetensors",
		"transformers",
		"peft",
		"timm",
		"gguf",
		"datasets",
		"sentence_transformers",
	],
};

const workDirs: string[] = [];
afterAll(() => {
	for (const dir of workDirs) rmSync(dir, { recursive: true, force: true });
});

describe("python test environment", () => {
	it("imports huggingface_hub, openai and requests at the pinned versions", () => {
		const env = pythonEnv();
		const out = execFileSync(
			env.python,
			[
				"-c",
				"import json, huggingface_hub, openai, requests; print(json.dumps([huggingface_hub.__version__, openai.__version__, requests.__version__]))",
			],
			{ encoding: "utf8" },
		);
		expect(JSON.parse(out)).toEqual([
			env.versions["huggingface-hub"],
			env.versions.openai,
			env.versions.requests,
		]);
		expect(env.versions["huggingface-hub"]).toMatch(/^2\./);
	});

	it("has one environment per huggingface_hub generation, sharing one torch", () => {
		const [hub2, hub1] = HUB_GENERATIONS.map((generation) => pythonEnv(generation));
		expect(hub2?.versions["huggingface-hub"]).toBe("2.0.0");
		expect(hub1?.versions["huggingface-hub"]).toBe("1.33.0");
		// Where torch would be imported from, without importing it (slow).
		const torchFile = (python: string): string =>
			execFileSync(python, ["-c", "import importlib.util; print(importlib.util.find_spec('torch').origin)"], {
				encoding: "utf8",
			}).trim();
		expect(torchFile(hub1?.python ?? "")).toBe(torchFile(hub2?.python ?? ""));
		expect(torchFile(hub2?.python ?? "")).toContain("modelhub-python-torch-");
	});
});

describe.each(HUB_GENERATIONS)("python test environment %s", (generation) => {
	it("passes pip check but for the conflicts its requirements file documents", () => {
		expect(unexpectedPipProblems(generation, pythonEnv(generation).python)).toEqual([]);
	});

	it("runs each library offline on tiny random models", { timeout: 240_000 }, () => {
		const env = pythonEnv(generation);
		const work = mkdtempSync(join(tmpdir(), `modelhub-smoke-${generation}-`));
		workDirs.push(work);
		const out = execFileSync(env.python, [SMOKE_SCRIPT, work, ...LIBRARIES[generation]], {
			encoding: "utf8",
			maxBuffer: 16 * 1024 * 1024,
			timeout: 230_000,
			env: {
				PATH: process.env.PATH ?? "",
				HOME: work,
				HF_HOME: join(work, "hf-home"),
				HF_HUB_OFFLINE: "1",
				HF_HUB_DISABLE_TELEMETRY: "1",
				HF_HUB_DISABLE_PROGRESS_BARS: "1",
				TRANSFORMERS_VERBOSITY: "error",
			},
		});
		const facts = JSON.parse(out.trim().split("\n").pop() ?? "") as Record<string, Record<string, unknown>>;
		expect(Object.keys(facts).sort()).toEqual([...LIBRARIES[generation]].sort());
		const v = env.versions;

		expect(facts.huggingface_hub).toEqual({ version: v["huggingface-hub"], offline: true });
		expect(facts.torch).toEqual({ version: v.torch, cuda: false, sum: 83 }); // [[0,1,2],[3,4,5]] times its transpose: 5+14+14+50
		expect(facts.torchvision).toMatchObject({ resized: [3, 4, 4] });
		expect(String(facts.torchvision?.version)).toMatch(
			new RegExp(`^${(v.torchvision ?? "").replace(/\./g, "\\.")}\\b`),
		);
		expect(facts.safetensors).toEqual({
			header: { __metadata__: { format: "pt" }, w: { dtype: "F16", shape: [2, 3], data_offsets: [0, 12] } },
			loaded: [2, 3],
		});
		expect(facts.transformers).toMatchObject({
			version: v.transformers,
			class: "BertForSequenceClassification",
			logits_shape: [1, 2],
		});
		expect(facts.transformers?.files).toEqual(
			expect.arrayContaining(["config.json", "model.safetensors", "tokenizer.json"]),
		);
		expect(["LABEL_0", "LABEL_1"]).toContain(facts.transformers?.pipeline_label);
		expect(facts.peft).toEqual({
			version: v.peft,
			files: ["README.md", "adapter_config.json", "adapter_model.safetensors"],
			peft_type: "LORA",
			trainable_less_than_total: true,
			reloaded: "PeftModelForSequenceClassification",
		});
		expect(facts.timm).toEqual({
			version: v.timm,
			files: ["config.json", "model.safetensors"],
			architecture: "resnet10t",
			num_classes: 3,
			reloaded_same_output: true,
		});
		expect(facts.gguf).toEqual({
			architecture: "llama",
			context_length: 128,
			chat_template: "{{ messages }}",
			tensor: ["token_embd.weight", 12, 66], // 0 + 1 + … + 11
		});
		if (generation === "hub1") {
			expect(facts.datasets).toEqual({
				version: v.datasets,
				json_rows: 5,
				json_labels: 2,
				parquet_rows: 3,
				parquet_columns: ["label", "text"],
			});
			expect(facts.sentence_transformers).toMatchObject({
				version: v["sentence-transformers"],
				shape: [2, 16],
				reloaded_same: true,
			});
			expect(facts.sentence_transformers?.files).toEqual(
				expect.arrayContaining(["modules.json", "config_sentence_transformers.json"]),
			);
		}
	});
});

// `npm test` on a fresh Debian machine (issue 21): without python3-venv, Debian's python3 cannot make a
// venv with pip, and the Python-using tests must fail with one line saying what to install, as the
// browser suites do without Chromium (apps/web/e2e/support/browser.ts).
describe("making a Python environment on a machine without what it needs", () => {
	function failure(python: string): Error | undefined {
		const work = mkdtempSync(join(tmpdir(), "modelhub-venv-missing-"));
		workDirs.push(work);
		try {
			makeVenv(join(work, "venv"), python);
			return undefined;
		} catch (error) {
			return error as Error;
		}
	}

	it("says in one line to install python3-venv when ensurepip is not available", () => {
		// Debian's python3 without the python3-venv package: its venv module prints this (Debian's patch to
		// Lib/venv/__init__.py, python3.11 3.11.2-6+deb12u6) on stdout and exits 1.
		const dir = mkdtempSync(join(tmpdir(), "modelhub-debian-python-"));
		workDirs.push(dir);
		const python = join(dir, "python3");
		writeFileSync(
			python,
			`#!/bin/sh
cat <<'TEXT'
The virtual environment was not created successfully because ensurepip is not
available.  On Debian/Ubuntu systems, you need to install the python3-venv
package using the following command.

    apt install python3.11-venv

You may need to use sudo with that command.  After installing the python3-venv
package, recreate your virtual environment.

Failing command: $3/bin/python3
TEXT
exit 1
`,
		);
		chmodSync(python, 0o755);
		const error = failure(python);
		expect(error?.message).toBe(VENV_MISSING);
		expect(error?.message).toBe(
			"python3 cannot make virtual environments with pip (ensurepip is not available): install it with `apt-get install python3-venv`",
		);
	});

	it("says in one line to install python3 when there is none", () => {
		const error = failure("/nonexistent/python3");
		expect(error?.message).toBe(PYTHON_MISSING);
		expect(error?.message.split("\n")).toHaveLength(1);
	});
});
