import { describe, expect, it } from "vitest";
import { checkLibraryFamily } from "../../../../../test-support/library-checks.js";
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

describe("mlx", () => {
	const mlx = (id: string): string => runtimesLibraries.mlx.snippets?.(model({ id }))[0] ?? "";

	it("downloads into a folder named after the repository", () => {
		expect(mlx("mlx-community/Llama-3-8B")).toContain(
			"huggingface-cli download --local-dir Llama-3-8B mlx-community/Llama-3-8B",
		);
		expect(mlx("a/b/c")).toContain("--local-dir b a/b/c");
		expect(mlx("single")).toContain("--local-dir single single");
	});

	it("never passes a folder that reads as an option or a parent directory", () => {
		expect(mlx("acme/-rf")).toContain("--local-dir ./-rf acme/-rf");
		expect(mlx("acme/..")).toContain("--local-dir model acme/..");
		expect(mlx("acme/it's")).toContain(`--local-dir 'it'\\''s' 'acme/it'\\''s'`);
	});
});

describe("unity-sentis", () => {
	it("is C# with the model name placeholder and the Sentis 1 worker API", () => {
		const blocks = runtimesLibraries["unity-sentis"].codeBlocks?.(model()) ?? [];
		expect(blocks.map((b) => b.language)).toEqual(["csharp"]);
		const text = blocks[0]!.code;
		expect(text).toContain('"[Your model name here].sentis"');
		expect(text).toContain("WorkerFactory.CreateWorker(BackendType.GPUCompute, model)");
		// Braces balance, so the class is complete.
		expect(text.split("{").length).toBe(text.split("}").length);
	});
});

describe("cartesia", () => {
	it("uses the documented constants", () => {
		const torch = runtimesLibraries.cartesia_pytorch.snippets?.(model())[0] ?? "";
		expect(torch).toContain("max_length=50, top_k=100, top_p=0.99");
		expect(torch.trimEnd().endsWith(")")).toBe(true);
		expect(torch).not.toMatch(/^\)$/m);
		const mlxBlock = runtimesLibraries.cartesia_mlx.snippets?.(model())[0] ?? "";
		expect(mlxBlock).toContain("model.set_dtype(mx.float32)");
	});
});
