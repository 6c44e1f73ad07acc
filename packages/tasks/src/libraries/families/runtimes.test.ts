import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkLibraryFamily } from "../../../../../test-support/library-checks.js";
import { pythonEnv } from "../../../../../test-support/python-env.js";
import { NO_INPUT_EXAMPLE_TEXT } from "../../snippets/inputs.js";
import type { ModelData } from "../types.js";
import { GGUF_FILE_PLACEHOLDER, runtimesLibraries } from "./runtimes.js";

describe("runtimes libraries", () => checkLibraryFamily(runtimesLibraries));

const model = (extra: Partial<ModelData> = {}): ModelData => ({
	id: "acme/demo-model",
	tags: [],
	inference: "",
	...extra,
});
const llama = (m: ModelData): string[] => runtimesLibraries["llama-cpp-python"].snippets?.(m) ?? [];

describe("llama-cpp-python", () => {
	it("keeps the GGUF placeholder as literal text inside a Python string", () => {
		const [load] = llama(model());
		expect(GGUF_FILE_PLACEHOLDER).toBe("{{GGUF_FILE}}");
		expect(load).toContain('filename="{{GGUF_FILE}}"');
		expect(load).toContain('repo_id="acme/demo-model"');
	});

	it("runs a completion without the conversational tag", () => {
		const blocks = llama(model({ pipeline_tag: "text-generation" }));
		expect(blocks).toHaveLength(2);
		expect(blocks[1]).toContain('"Once upon a time,"');
		expect(blocks[1]).toContain("max_tokens=512");
		expect(blocks[1]).toContain("echo=True");
		expect(blocks.join("\n")).not.toContain("create_chat_completion");
	});

	it("writes chat messages as a Python list of dicts", () => {
		const [, chat] = llama(model({ tags: ["conversational"], pipeline_tag: "text-generation" }));
		expect(chat).toContain(`messages=[
		{
			"role": "user",
			"content": "What is the capital of France?",
		},
	],`);
	});

	it("writes the image chat with a text part and an image_url part", () => {
		const [, chat] = llama(model({ tags: ["conversational"], pipeline_tag: "image-text-to-text" }));
		expect(chat).toContain('"type": "text"');
		expect(chat).toContain('"text": "Describe this image in one sentence."');
		expect(chat).toContain('"type": "image_url"');
		expect(chat).toContain(
			'"url": "https://cdn.britannica.com/61/93061-050-99147DCE/Statue-of-Liberty-Island-New-York-Bay.jpg"',
		);
	});

	it("falls back to a user turn with the verbatim text, never a bare string as messages", () => {
		const [, chat] = llama(model({ tags: ["conversational"] }));
		expect(chat).toContain(`"content": "${NO_INPUT_EXAMPLE_TEXT}"`);
		expect(chat).toContain("# Replace the message below with your own.");
		expect(chat).not.toMatch(/messages="/);
	});

	it("turns a text example of another task into a user turn", () => {
		const [, chat] = llama(model({ tags: ["conversational"], pipeline_tag: "summarization" }));
		expect(chat).toMatch(/"role": "user",\n\t\t\t"content": "The city council/);
		expect(chat).not.toContain(NO_INPUT_EXAMPLE_TEXT);
	});

	it("makes the second block runnable on its own", () => {
		const [load, use] = llama(model({ tags: ["conversational"], pipeline_tag: "text-generation" }));
		expect(use!.startsWith(load!)).toBe(true);
	});
});

/**
 * Runs a shell block with the real `hf` command of the test environment (huggingface_hub 2.0.0), all
 * but its `pip install` lines, offline: the CLI parses the arguments, then stops where it would reach
 * the network, naming the repository it was asked for.
 */
function runOffline(block: string): { status: number | null; stderr: string } {
	const { bin } = pythonEnv();
	const dir = mkdtempSync(join(tmpdir(), "modelhub-hf-cli-"));
	try {
		const script = block
			.split("\n")
			.filter((line) => !line.startsWith("pip "))
			.join("\n");
		const run = spawnSync("bash", ["-c", script], {
			cwd: dir,
			env: {
				PATH: `${bin}:${process.env.PATH ?? ""}`,
				HOME: dir,
				HF_HOME: join(dir, "hf"),
				HF_HUB_OFFLINE: "1",
				NO_COLOR: "1",
			},
			encoding: "utf8",
			timeout: 20_000,
		});
		return { status: run.status, stderr: run.stderr };
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

function expectHfDownloadOf(block: string, id: string): void {
	const { status, stderr } = runOffline(block);
	expect(stderr).not.toMatch(/No such option|Usage:/);
	expect(stderr).toContain(`/api/models/${id}/revision/main: offline mode is enabled`);
	expect(status).toBe(1);
}

describe("mlx", () => {
	const mlx = (id: string): string => runtimesLibraries.mlx.snippets?.(model({ id }))[0] ?? "";

	it("downloads with the hf command into a folder named after the repository", () => {
		expect(mlx("mlx-community/Llama-3-8B")).toContain(
			"hf download --local-dir Llama-3-8B mlx-community/Llama-3-8B",
		);
		expect(mlx("a/b/c")).toContain("--local-dir b a/b/c");
		expect(mlx("single")).toContain("--local-dir single single");
	});

	it("uses neither huggingface-cli nor hf_transfer, which huggingface_hub 1.0 dropped", () => {
		const text = mlx("mlx-community/Llama-3-8B");
		expect(text).toContain("pip install -U huggingface_hub\n");
		expect(text).toContain("export HF_XET_HIGH_PERFORMANCE=1\n");
		expect(text).not.toMatch(/huggingface-cli|hf_transfer|HF_HUB_ENABLE_HF_TRANSFER/);
	});

	it("never passes a folder that reads as an option or a parent directory", () => {
		expect(mlx("acme/-rf")).toContain("--local-dir ./-rf acme/-rf");
		expect(mlx("acme/..")).toContain("--local-dir model acme/..");
		expect(mlx("acme/it's")).toContain(`--local-dir 'it'\\''s' 'acme/it'\\''s'`);
	});

	it("is accepted by the hf CLI of huggingface_hub 2.0.0", () => {
		expectHfDownloadOf(mlx("mlx-community/Llama-3-8B"), "mlx-community/Llama-3-8B");
		expectHfDownloadOf(mlx("single-segment-model"), "single-segment-model");
	});
});

describe("unity-sentis", () => {
	const blocks = (id = "acme/demo-model") =>
		runtimesLibraries["unity-sentis"].codeBlocks?.(model({ id })) ?? [];

	it("downloads the repository's .sentis files into StreamingAssets, by id", () => {
		const [download] = blocks();
		expect(download!.language).toBe("shell");
		expect(download!.code).toContain(
			'hf download acme/demo-model --include "*.sentis" --local-dir Assets/StreamingAssets',
		);
		expectHfDownloadOf(download!.code, "acme/demo-model");
	});

	it("loads the file with the Sentis 2 API: Unity.InferenceEngine, new Worker, Tensor<float>", () => {
		const [, cs] = blocks();
		expect(cs!.language).toBe("csharp");
		const text = cs!.code;
		expect(text).toContain("using Unity.InferenceEngine;");
		expect(text).toContain('"[Your model name here].sentis"');
		expect(text).toContain('ModelLoader.Load(Application.streamingAssetsPath + "/" + modelName)');
		expect(text).toContain("new Worker(model, BackendType.GPUCompute)");
		expect(text).toContain("worker.Schedule(input);");
		expect(text).toContain("worker.PeekOutput() as Tensor<float>");
		expect(text).not.toMatch(/Unity\.Sentis|IWorker|WorkerFactory/);
		// Braces balance, so the class is complete.
		expect(text.split("{").length).toBe(text.split("}").length);
	});
});

describe("cartesia", () => {
	it("uses the documented constants", () => {
		const torch = runtimesLibraries.cartesia_pytorch.snippets?.(model())[0] ?? "";
		expect(torch).toContain("max_length=50, top_k=100, top_p=0.99");
		// Rene's layers need CUDA (flash-attn, mamba-ssm kernels), as in cartesia-pytorch's README.
		expect(torch).toContain('ReneLMHeadModel.from_pretrained("acme/demo-model").half().cuda()');
		expect(torch).toContain("model.generate(inputs.input_ids.cuda(),");
		expect(torch.trimEnd().endsWith(")")).toBe(true);
		expect(torch).not.toMatch(/^\)$/m);
		const mlxBlock = runtimesLibraries.cartesia_mlx.snippets?.(model())[0] ?? "";
		expect(mlxBlock).toContain("model.set_dtype(mx.float32)");
	});
});

describe("install commands", () => {
	it("follow the upstream READMEs", () => {
		expect(runtimesLibraries["mamba-ssm"].installCommand).toBe("pip install mamba-ssm --no-build-isolation");
		// SwarmFormer is not on PyPI.
		expect(runtimesLibraries.swarmformer.installCommand).toBe(
			"pip install git+https://github.com/takara-ai/SwarmFormer",
		);
	});
});
