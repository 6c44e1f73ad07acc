import { describe, expect, it } from "vitest";
import type { ModelData } from "../../libraries/types.js";
import { getLocalAppSnippets } from "../index.js";
import { ggufModel } from "../test-models.js";
import { modelRunnerApps } from "./model-runners.js";

const gguf = ggufModel;
const withFiles = gguf({ siblings: [{ rfilename: "llm-Q4_K_M.gguf" }, { rfilename: "llm-Q6_K.gguf" }] });
const ways = (key: keyof typeof modelRunnerApps, model: ModelData, filepath?: string) =>
	getLocalAppSnippets(modelRunnerApps[key], model, filepath);

describe("Ollama", () => {
	it("runs hf.co/{id}:{quantisation}, or lets Ollama pick Q4_K_M", () => {
		expect(modelRunnerApps.ollama.snippet(withFiles)).toBe(
			"ollama run hf.co/acme/llm-GGUF:Q4_K_M\n# Other quantisations in this repository: Q6_K",
		);
		expect(modelRunnerApps.ollama.snippet(gguf(), "llm-Q6_K.gguf")).toBe(
			"ollama run hf.co/acme/llm-GGUF:Q6_K",
		);
		expect(modelRunnerApps.ollama.snippet(gguf())).toBe("ollama run hf.co/acme/llm-GGUF");
	});
});

describe("Docker Model Runner", () => {
	it("tags GGUF repositories with a quantisation and pulls others whole", () => {
		expect(modelRunnerApps["docker-model-runner"].snippet(withFiles, "llm-Q6_K.gguf")).toBe(
			"docker model run hf.co/acme/llm-GGUF:Q6_K\n# Other quantisations in this repository: Q4_K_M",
		);
		const checkpoint: ModelData = { id: "acme/llm", tags: ["transformers"], pipeline_tag: "text-generation" };
		expect(modelRunnerApps["docker-model-runner"].snippet(checkpoint, "x-Q4_K_M.gguf")).toBe(
			"docker model run hf.co/acme/llm",
		);
	});
});

describe("LocalAI", () => {
	it("loads huggingface://{id}/{file} with the binary or the container", () => {
		const [binary, docker] = ways("localai", withFiles);
		expect(binary!.setup).toBe("curl https://localai.io/install.sh | sh");
		expect(binary!.content[0]).toContain("local-ai run huggingface://acme/llm-GGUF/llm-Q4_K_M.gguf");
		expect(docker!.content[0]).toContain("-v localai-models:/models");
		expect(docker!.content[0]).toContain(
			"localai/localai:latest huggingface://acme/llm-GGUF/llm-Q4_K_M.gguf",
		);
	});

	it("asks for the file name when the repository's files are unknown", () => {
		const [binary] = ways("localai", gguf());
		expect(binary!.content[0]).toBe(
			[
				"# Set GGUF_FILE to one of the repository's .gguf files:",
				"GGUF_FILE=model-Q4_K_M.gguf",
				"# Load and run the model; the API and web UI are on http://localhost:8080:",
				'local-ai run huggingface://acme/llm-GGUF/"$GGUF_FILE"',
			].join("\n"),
		);
	});
});
