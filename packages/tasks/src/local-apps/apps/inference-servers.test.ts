import { describe, expect, it } from "vitest";
import type { ModelData } from "../../libraries/types.js";
import { getLocalAppSnippets } from "../index.js";
import { inferenceServerApps } from "./inference-servers.js";

const chatModel: ModelData = {
	id: "acme/llm",
	library_name: "transformers",
	tags: ["transformers", "safetensors", "conversational"],
	pipeline_tag: "text-generation",
};
const ways = (key: keyof typeof inferenceServerApps, model: ModelData, filepath?: string) =>
	getLocalAppSnippets(inferenceServerApps[key], model, filepath);

describe("vLLM", () => {
	it("serves a checkpoint by id, with pip or Docker, and calls the chat route", () => {
		const [pip, docker] = ways("vllm", chatModel);
		expect(pip!.setup).toBe("pip install vllm");
		expect(pip!.content[0]).toBe(
			"# Start an OpenAI-compatible server on http://localhost:8000:\nvllm serve acme/llm",
		);
		expect(pip!.content[1]).toContain("curl http://localhost:8000/v1/chat/completions");
		expect(JSON.parse(/--data '([^']*)'/.exec(pip!.content[1]!)![1]!)).toEqual({
			model: "acme/llm",
			messages: [{ role: "user", content: "What is the capital of France?" }],
		});
		expect(docker!.content[0]).toContain("vllm/vllm-openai:latest acme/llm");
		expect(docker!.content[0]).toContain("--env HF_TOKEN");
	});

	it("uses the completion route for models without a chat template", () => {
		const [pip] = ways("vllm", { ...chatModel, tags: ["transformers"] });
		expect(pip!.content[1]).toContain("curl http://localhost:8000/v1/completions");
		expect(pip!.content[1]).toContain('"prompt": "Once upon a time,"');
	});

	it("loads Mistral-format checkpoints with Mistral's loaders", () => {
		const [pip, docker] = ways("vllm", { ...chatModel, tags: ["transformers", "mistral-common"] });
		expect(pip!.setup).toBe("pip install vllm\npip install --upgrade mistral-common");
		for (const block of [pip!.content[0], docker!.content[0]])
			expect(block).toContain(
				"--tokenizer-mode mistral \\\n\t--config-format mistral \\\n\t--load-format mistral",
			);
	});

	it("serves GGUF repositories through the GGUF plugin with the base model's tokenizer", () => {
		const gguf: ModelData = {
			id: "acme/llm-GGUF",
			tags: ["gguf", "conversational", "base_model:quantized:acme/llm"],
			pipeline_tag: "text-generation",
			gguf: { total: 1, context_length: 4096 },
		};
		const [pip, ...rest] = ways("vllm", gguf, "llm-Q5_K_M.gguf");
		expect(rest).toEqual([]);
		expect(pip!.setup).toBe("pip install vllm vllm-gguf-plugin");
		expect(pip!.content[0]).toContain(
			"vllm serve acme/llm-GGUF:Q5_K_M \\\n\t--tokenizer acme/llm \\\n\t--served-model-name acme/llm-GGUF",
		);
		expect(ways("vllm", { ...gguf, tags: ["gguf"] })[0]!.content[0]).toContain(
			"vllm serve acme/llm-GGUF:Q4_K_M \\\n\t--served-model-name acme/llm-GGUF",
		);
	});
});

describe("SGLang", () => {
	it("launches the server on port 30000, with pip or Docker", () => {
		const [pip, docker] = ways("sglang", chatModel);
		expect(pip!.setup).toBe("pip install sglang");
		expect(pip!.content[0]).toContain(
			"python3 -m sglang.launch_server \\\n\t--model-path acme/llm \\\n\t--port 30000",
		);
		expect(pip!.content[1]).toContain("curl http://localhost:30000/v1/chat/completions");
		expect(docker!.content[0]).toContain("lmsysorg/sglang:latest");
		expect(docker!.content[0]).toContain("--host 0.0.0.0 --port 30000");
	});
});

describe("TGI", () => {
	it("starts the container with --model-id and calls its Messages API", () => {
		const [docker] = ways("tgi", { ...chatModel, tags: ["text-generation-inference", "conversational"] });
		expect(docker!.content[0]).toContain(
			"ghcr.io/huggingface/text-generation-inference:latest --model-id acme/llm",
		);
		expect(docker!.content[1]).toContain("curl http://localhost:8080/v1/chat/completions");
		expect(docker!.content[1]).toContain('"model": "tgi"');
	});
});
