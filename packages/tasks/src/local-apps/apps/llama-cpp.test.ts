import { describe, expect, it } from "vitest";
import type { ModelData } from "../../libraries/types.js";
import { getLocalAppSnippets } from "../index.js";
import { ggufModel } from "../test-models.js";
import { llamaCppApps } from "./llama-cpp.js";

const gguf = ggufModel;
const withFiles = gguf({
	siblings: ["llm-Q2_K.gguf", "llm-Q4_K_M.gguf", "llm-Q8_0.gguf"].map((rfilename) => ({ rfilename })),
});
const ways = (key: keyof typeof llamaCppApps, model: ModelData, filepath?: string) =>
	getLocalAppSnippets(llamaCppApps[key], model, filepath);

describe("llama.cpp", () => {
	it("serves and chats with the repository's Q4_K_M, naming the other quantisations", () => {
		const [brew, winget, binary, source, docker] = ways("llama.cpp", withFiles);
		expect(brew!.setup).toBe("brew install llama.cpp");
		expect(brew!.content).toEqual([
			"# Start an OpenAI-compatible server with a web UI on http://localhost:8080:\n" +
				"llama-server -hf acme/llm-GGUF:Q4_K_M\n" +
				"# Other quantisations in this repository: Q2_K, Q8_0",
			"# Chat in the terminal:\nllama-cli -hf acme/llm-GGUF:Q4_K_M",
		]);
		expect(winget!.setup).toBe("winget install llama.cpp");
		expect(binary!.content[0]).toContain("./llama-server -hf acme/llm-GGUF:Q4_K_M");
		expect(source!.setup).toContain(
			"cmake --build build --config Release -j --target llama-server llama-cli",
		);
		expect(source!.content[1]).toContain("./build/bin/llama-cli -hf acme/llm-GGUF:Q4_K_M");
		expect(docker!.content[0]).toContain("ghcr.io/ggml-org/llama.cpp:server -hf acme/llm-GGUF:Q4_K_M");
		expect(docker!.content[0]).toContain("--host 0.0.0.0 --port 8080");
	});

	it("leaves the quantisation to llama.cpp (Q4_K_M, else the first file) when the files are unknown", () => {
		const [brew] = ways("llama.cpp", gguf());
		expect(brew!.content[0]).toMatch(/^llama-server -hf acme\/llm-GGUF$/m);
		expect(brew!.content[0]).not.toContain("Other quantisations");
	});

	it("uses the picked file: as a tag when its name has a label, else with --hf-file", () => {
		expect(ways("llama.cpp", withFiles, "llm-Q8_0.gguf")[0]!.content[0]).toMatch(
			/^llama-server -hf acme\/llm-GGUF:Q8_0$/m,
		);
		expect(ways("llama.cpp", gguf(), "weights/model.gguf")[0]!.content[0]).toContain(
			"llama-server -hf acme/llm-GGUF --hf-file weights/model.gguf",
		);
	});

	it("continues a prompt with llama-completion for models without a chat template", () => {
		const [brew] = ways("llama.cpp", gguf({ tags: ["gguf"] }));
		expect(brew!.content[1]).toBe(
			"# Continue a prompt in the terminal:\nllama-completion -hf acme/llm-GGUF -no-cnv -p 'Once upon a time,'",
		);
	});
});

describe("llama-cpp-python", () => {
	it("serves the chosen file from the repository and calls it", () => {
		const [server] = ways("llama-cpp-python", withFiles);
		expect(server!.setup).toBe("pip install 'llama-cpp-python[server]'");
		expect(server!.content[0]).toContain(
			"python3 -m llama_cpp.server \\\n\t--hf_model_repo_id acme/llm-GGUF \\\n\t--model llm-Q4_K_M.gguf",
		);
		expect(server!.content[1]).toContain("curl http://localhost:8000/v1/chat/completions");
	});

	it("matches the quantisation in any letter case when the files are unknown", () => {
		const [server] = ways("llama-cpp-python", gguf());
		expect(server!.content[0]).toContain("--model '*[Qq]4_[Kk]_[Mm].gguf'");
		expect(server!.content[0]).toContain("# --model is a file of the repository");
	});
});

describe("node-llama-cpp", () => {
	it("chats with hf:owner/name:quant and estimates the fit", () => {
		expect(ways("node-llama-cpp", withFiles)).toEqual([
			{
				title: "Chat with the model",
				content: [
					"npx -y node-llama-cpp chat hf:acme/llm-GGUF:Q4_K_M\n# Other quantisations in this repository: Q2_K, Q8_0",
				],
			},
			{
				title: "Estimate whether it fits your hardware",
				content: ["npx -y node-llama-cpp inspect estimate hf:acme/llm-GGUF:Q4_K_M"],
			},
		]);
	});

	it("names a picked file without a label by its path", () => {
		expect(ways("node-llama-cpp", gguf(), "dir/model.gguf")[0]!.content[0]).toBe(
			"npx -y node-llama-cpp chat hf:acme/llm-GGUF/dir/model.gguf",
		);
	});
});
