/**
 * The task registry (src/tasks/registry.ts) is the one list of task functions: every other place that
 * names them is derived from it or checked against it here, so a task declared in one place and
 * missing in another fails.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import * as pkg from "../src/index.js";
import * as catalog from "../src/catalog.js";
import { InferenceClient } from "../src/InferenceClient.js";
import { prepareRequestSync } from "../src/tasks/custom/prepareRequest.js";
import { TASK_FUNCTIONS } from "../src/tasks/functions.js";
import * as specs from "../src/tasks/specs.js";
import { functionForPipeline, TASK_REGISTRY, type TaskFunctionName } from "../src/tasks/registry.js";
import { PIPELINE_KINDS } from "../src/snippets/kinds.js";

const tasksDir = join(dirname(fileURLToPath(import.meta.url)), "../src/tasks");
const NAMES = Object.keys(TASK_REGISTRY) as TaskFunctionName[];

describe("task registry", () => {
	it("names exactly the task functions, the client's methods and the package's task exports", () => {
		expect(Object.keys(TASK_FUNCTIONS).sort()).toEqual([...NAMES].sort());
		const client = new InferenceClient("");
		expect(
			Object.getOwnPropertyNames(client)
				.filter((name) => typeof (client as never)[name] === "function")
				.sort(),
		).toEqual([...NAMES].sort());
		for (const name of NAMES) expect((pkg as Record<string, unknown>)[name], name).toBe(TASK_FUNCTIONS[name]);
		expect(catalog.TASK_REGISTRY).toBe(TASK_REGISTRY);
	});

	it("has a declaration for every task module's function, and a module for every declaration", () => {
		const declared = new Set<string>(NAMES);
		const modules: string[] = [];
		for (const group of ["audio", "cv", "multimodal", "nlp", "tabular", "custom"]) {
			for (const file of readdirSync(join(tasksDir, group))) {
				if (!file.endsWith(".ts") || file.endsWith(".test.ts")) continue;
				const name = file.slice(0, -".ts".length);
				// The dry run and its helpers are no task of their own.
				if (name === "prepareRequest" || name === "dry-run") continue;
				modules.push(name);
				const text = readFileSync(join(tasksDir, group, file), "utf8");
				expect(text, file).toMatch(new RegExp(`export (async )?function\\*? ?${name}\\b`));
			}
		}
		expect(modules.filter((name) => !declared.has(name))).toEqual([]);
		expect(NAMES.filter((name) => !modules.includes(name))).toEqual([]);
		// tasks/index.ts re-exports each module (the package's surface).
		const index = readFileSync(join(tasksDir, "index.ts"), "utf8");
		for (const name of modules) expect(index, name).toMatch(new RegExp(`/${name}\\.js";`));
	});

	it("routes each function through a spec with the declared task and stream flag", () => {
		for (const name of NAMES) {
			const declaration = TASK_REGISTRY[name];
			if (declaration.answer === "raw") continue;
			const spec = (specs as Record<string, { task?: string; stream?: boolean } | undefined>)[`${name}Spec`];
			expect(spec, name).toBeDefined();
			expect(spec?.task, name).toBe(declaration.task);
			expect(spec?.stream === true, name).toBe("stream" in declaration && declaration.stream === true);
		}
		// A task id stands for the registry's function (here: textGeneration, its streaming form with `stream`).
		const args = { model: "m", provider: "hf-inference" as const, accessToken: "hf_x", inputs: "Hi" };
		const mapping = {
			providerId: "m",
			task: "text-generation" as const,
			status: "live" as const,
			hfModelId: "m",
		};
		expect(prepareRequestSync("text-generation", args, { inferenceProviderMapping: mapping }).json).toEqual({
			inputs: "Hi",
		});
		expect(
			prepareRequestSync("text-generation", args, { inferenceProviderMapping: mapping, stream: true }).json,
		).toEqual({ inputs: "Hi", stream: true });
	});

	it("gives every snippet pipeline its client method (huggingface.js snippets) from the registry", () => {
		const chatOnly = new Set(["image-text-to-text"]);
		for (const pipeline of Object.keys(PIPELINE_KINDS)) {
			if (chatOnly.has(pipeline)) continue;
			const name = functionForPipeline(pipeline);
			expect(name, pipeline).toBeDefined();
			expect(
				TASK_REGISTRY[name as TaskFunctionName].task === pipeline || pipeline === "text2text-generation",
			).toBe(true);
		}
		expect(functionForPipeline("text-to-audio")).toBe("textToAudio");
		expect(functionForPipeline("text2text-generation")).toBe("textGeneration");
		expect(functionForPipeline("conversational")).toBeUndefined();
	});
});
