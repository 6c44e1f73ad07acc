import { describe, expect, it } from "vitest";
import {
	ALL_MODEL_LIBRARY_KEYS,
	MODEL_LIBRARIES_UI_ELEMENTS,
	TASKS_DATA,
	getLibraryCodeBlocks,
	type LibraryUiElement,
	type ModelData,
} from "@modelhub/tasks";
import { loadFacts } from "../../../test-support/facts.js";
import type { ModelRecord } from "../src/models/input.js";
import { loadSeedModels } from "../src/seed.js";

// The curated seed: enough real models, covering every task page and every snippet generator, with the
// fields the snippet generators read and provider mappings the inference client can route.

interface ProvidersFacts {
	providers: Record<string, { tasks?: Record<string, unknown> }>;
}

function asModelData(model: ModelRecord): ModelData {
	return {
		id: model.id,
		pipeline_tag: model.pipelineTag as ModelData["pipeline_tag"],
		library_name: model.libraryName,
		tags: model.tags,
		mask_token: model.maskToken,
		config: model.config as ModelData["config"],
		cardData: model.cardData as ModelData["cardData"],
		widgetData: model.widgetData as ModelData["widgetData"],
		transformersInfo: model.transformersInfo as unknown as ModelData["transformersInfo"],
	};
}

describe("the seed models", async () => {
	const models = await loadSeedModels();
	const byId = new Map(models.map((model) => [model.id, model]));

	it("hold at least 220 real models with unique ids", () => {
		expect(models.length).toBeGreaterThanOrEqual(220);
		expect(new Set(models.map((m) => m.id.toLowerCase())).size).toBe(models.length);
	});

	it("include every model the task pages recommend", () => {
		const missing: string[] = [];
		for (const [task, data] of Object.entries(TASKS_DATA)) {
			for (const recommended of data?.models ?? [])
				if (!byId.has(recommended.id)) missing.push(`${task}: ${recommended.id}`);
		}
		expect(missing).toEqual([]);
	});

	it("cover every library that has a snippet generator, and each one yields code", () => {
		const withSnippets = ALL_MODEL_LIBRARY_KEYS.filter((key) => {
			const entry = MODEL_LIBRARIES_UI_ELEMENTS[key] as LibraryUiElement;
			return typeof entry.codeBlocks === "function" || typeof entry.snippets === "function";
		});
		expect(withSnippets.length).toBeGreaterThanOrEqual(80);
		const covered = new Set(models.map((m) => m.libraryName));
		expect(withSnippets.filter((key) => !covered.has(key))).toEqual([]);

		const silent: string[] = [];
		for (const model of models) {
			if (!model.libraryName || !withSnippets.includes(model.libraryName as never)) continue;
			const blocks = getLibraryCodeBlocks(model.libraryName, asModelData(model));
			// OuteTTS mirrors in GGUF or ONNX have no Python snippet, by design.
			const mirror = model.libraryName === "outetts" && model.tags.some((t) => t === "gguf" || t === "onnx");
			if (blocks.length === 0 && !mirror) silent.push(model.id);
		}
		expect(silent).toEqual([]);
	});

	it("carry the config fields the snippet generators read", () => {
		const problems: string[] = [];
		for (const model of models) {
			const config = (model.config ?? {}) as Record<string, Record<string, unknown> | undefined>;
			const chat = model.tags.includes("conversational");
			if (
				model.libraryName === "transformers" &&
				chat &&
				model.transformersInfo &&
				!config.tokenizer_config?.chat_template
			) {
				problems.push(`${model.id}: conversational without chat_template`);
			}
			if (model.pipelineTag === "fill-mask" && model.libraryName === "transformers" && !model.maskToken) {
				problems.push(`${model.id}: fill-mask without mask_token`);
			}
			if (model.transformersInfo && !Array.isArray(config.architectures))
				problems.push(`${model.id}: no architectures`);
			if (
				model.libraryName === "transformers" &&
				model.tags.includes("custom_code") !== (config.auto_map !== undefined)
			) {
				problems.push(`${model.id}: custom_code tag and auto_map disagree`);
			}
			if (model.tags.includes("lora") && !model.cardData?.base_model)
				problems.push(`${model.id}: LoRA without base_model`);
			if (model.libraryName === "peft" && !(config.peft?.base_model_name_or_path && config.peft?.task_type)) {
				problems.push(`${model.id}: peft config incomplete`);
			}
			if (model.libraryName === "speechbrain" && !config.speechbrain?.speechbrain_interface) {
				problems.push(`${model.id}: speechbrain interface missing`);
			}
			if (model.libraryName === "keras-hub" && !Array.isArray(config.keras_hub?.tasks))
				problems.push(`${model.id}: keras_hub tasks missing`);
			if (model.libraryName === "adapter-transformers" && !config.adapter_transformers?.model_name) {
				problems.push(`${model.id}: adapter_transformers.model_name missing`);
			}
			if (
				model.libraryName === "sklearn" &&
				model.tags.includes("skops") &&
				!(config.sklearn?.model as { file?: string })?.file
			) {
				problems.push(`${model.id}: skops model without a file`);
			}
		}
		expect(problems).toEqual([]);
	});

	it("map providers the inference client can route, with live, staging and LoRA mappings", () => {
		const { providers } = loadFacts<ProvidersFacts>("providers.json");
		const problems: string[] = [];
		const statuses = new Set<string>();
		let lora = 0;
		let mapped = 0;
		for (const model of models) {
			if (model.mappings.length > 0) mapped++;
			for (const mapping of model.mappings) {
				statuses.add(mapping.status);
				const tasks = Object.keys(providers[mapping.provider]?.tasks ?? {});
				if (!tasks.includes(mapping.task))
					problems.push(`${model.id}: ${mapping.provider} does not serve ${mapping.task}`);
				if (mapping.adapter === "lora") {
					lora++;
					if (!mapping.adapterWeightsPath?.endsWith(".safetensors"))
						problems.push(`${model.id}: LoRA without weights`);
				}
			}
		}
		expect(problems).toEqual([]);
		expect([...statuses].sort()).toEqual(["live", "staging"]);
		expect(lora).toBeGreaterThanOrEqual(1);
		expect(mapped).toBeGreaterThanOrEqual(80);
		const chat = byId.get("meta-llama/Llama-3.3-70B-Instruct");
		expect(chat?.mappings.find((m) => m.provider === "together")?.providerId).toBe(
			"meta-llama/Llama-3.3-70B-Instruct-Turbo",
		);
		const flux = byId.get("black-forest-labs/FLUX.1-dev");
		expect(flux?.mappings.find((m) => m.provider === "fal-ai")?.providerId).toBe("fal-ai/flux/dev");
	});
});
