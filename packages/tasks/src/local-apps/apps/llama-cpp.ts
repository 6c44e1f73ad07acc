/**
 * llama.cpp and the tools built on its engine that fetch a GGUF repository by id: `llama-server` /
 * `llama-cli`, llama-cpp-python's server, node-llama-cpp's CLI.
 */
import type { ModelData } from "../../libraries/types.js";
import { shComment, shWord } from "../../literals/index.js";
import { block, multiline, openAiCurl, otherQuantsComment, withQuant } from "../commands.js";
import { chooseGguf, DEFAULT_GGUF_QUANT, type GgufChoice } from "../gguf-choice.js";
import { isConversational, isGgufLlm } from "../model-kinds.js";
import type { LocalApp, LocalAppSnippet } from "../types.js";

/**
 * The model arguments of llama.cpp's tools: `-hf owner/name:QUANT` (the tag matches a file name,
 * case-insensitively), or `-hf owner/name --hf-file FILE` for a picked file whose name has no
 * quantisation label (`--hf-file` overrides the tag; common/arg.cpp).
 */
function llamaCppModelArgs(id: string, choice: GgufChoice): string {
	if (choice.quant === undefined && choice.file !== undefined)
		return `-hf ${shWord(id)} --hf-file ${shWord(choice.file)}`;
	return `-hf ${shWord(withQuant(id, choice.quant))}`;
}

function llamaCppCommands(model: ModelData, choice: GgufChoice, binary: (name: string) => string): string[] {
	const args = llamaCppModelArgs(model.id, choice);
	const server = block(
		"# Start an OpenAI-compatible server with a web UI on http://localhost:8080:",
		`${binary("llama-server")} ${args}`,
		otherQuantsComment(choice),
	);
	// llama-cli is the chat tool; raw completion moved to llama-completion (docs/docker.md).
	const terminal = isConversational(model)
		? block("# Chat in the terminal:", `${binary("llama-cli")} ${args}`)
		: block(
				"# Continue a prompt in the terminal:",
				`${binary("llama-completion")} ${args} -no-cnv -p 'Once upon a time,'`,
			);
	return [server, terminal];
}

function llamaCppSnippet(model: ModelData, filepath?: string): LocalAppSnippet[] {
	const choice = chooseGguf(model, filepath);
	const installed = (name: string) => name;
	return [
		{
			title: "Install with Homebrew (macOS, Linux)",
			setup: "brew install llama.cpp",
			content: llamaCppCommands(model, choice, installed),
		},
		{
			title: "Install with WinGet (Windows)",
			setup: "winget install llama.cpp",
			content: llamaCppCommands(model, choice, installed),
		},
		{
			title: "Use a pre-built binary",
			setup: block(
				"# Download and unpack the release for your system from",
				"# https://github.com/ggml-org/llama.cpp/releases",
			),
			content: llamaCppCommands(model, choice, (name) => `./${name}`),
		},
		{
			title: "Build from source",
			setup: block(
				"git clone https://github.com/ggml-org/llama.cpp.git",
				"cd llama.cpp",
				"cmake -B build",
				"cmake --build build --config Release -j --target llama-server llama-cli llama-completion",
			),
			content: llamaCppCommands(model, choice, (name) => `./build/bin/${name}`),
		},
		{
			title: "Use Docker",
			content: block(
				"# Start the server on http://localhost:8080; downloads are kept in the llama-models volume:",
				multiline(
					"docker run -p 8080:8080",
					"-v llama-models:/models -e LLAMA_CACHE=/models",
					`ghcr.io/ggml-org/llama.cpp:server ${llamaCppModelArgs(model.id, choice)}`,
					"--host 0.0.0.0 --port 8080",
				),
			),
		},
	];
}

/** A shell-safe fnmatch pattern for a quantisation in any letter case: `Q4_K_M` → `*[Qq]4_[Kk]_[Mm].gguf`. */
function caseInsensitiveQuantPattern(quant: string): string {
	return `*${quant.replace(/[A-Za-z]/g, (letter) => `[${letter.toUpperCase()}${letter.toLowerCase()}]`)}.gguf`;
}

/**
 * llama-cpp-python's server takes the repository in `--hf_model_repo_id` and the file in `--model`,
 * where `Llama.from_pretrained` accepts a file name or an fnmatch pattern matching exactly one file
 * (llama_cpp/server/settings.py, llama_cpp/llama.py, 0.3.35).
 */
function llamaCppPythonSnippet(model: ModelData, filepath?: string): LocalAppSnippet[] {
	const choice = chooseGguf(model, filepath);
	const file = choice.file ?? caseInsensitiveQuantPattern(choice.quant ?? DEFAULT_GGUF_QUANT);
	const fileNote =
		choice.file === undefined
			? shComment("--model is a file of the repository, or a pattern that matches exactly one")
			: undefined;
	return [
		{
			title: "Start an OpenAI-compatible server",
			setup: "pip install 'llama-cpp-python[server]'",
			content: [
				block(
					"# Serves on http://localhost:8000:",
					fileNote,
					multiline(
						"python3 -m llama_cpp.server",
						`--hf_model_repo_id ${shWord(model.id)}`,
						`--model ${shWord(file)}`,
					),
					otherQuantsComment(choice),
				),
				openAiCurl(model, 8000, model.id),
			],
		},
	];
}

/**
 * node-llama-cpp resolves `hf:owner/name:QUANT` through the hub (default tag: Q4_K_M) and
 * `hf:owner/name/path/file.gguf` to that exact file (dist/utils/parseModelUri.js, 3.22.1).
 */
function nodeLlamaCppSnippet(model: ModelData, filepath?: string): LocalAppSnippet[] {
	const choice = chooseGguf(model, filepath);
	const uri =
		choice.quant === undefined && choice.file !== undefined
			? `hf:${model.id}/${choice.file}`
			: `hf:${withQuant(model.id, choice.quant)}`;
	return [
		{
			title: "Chat with the model",
			content: block(`npx -y node-llama-cpp chat ${shWord(uri)}`, otherQuantsComment(choice)),
		},
		{
			title: "Estimate whether it fits your hardware",
			content: `npx -y node-llama-cpp inspect estimate ${shWord(uri)}`,
		},
	];
}

export const llamaCppApps = {
	"llama.cpp": {
		prettyLabel: "llama.cpp",
		docsUrl: "https://github.com/ggerganov/llama.cpp",
		mainTask: "text-generation",
		displayOnModelPage: isGgufLlm,
		snippet: llamaCppSnippet,
	},
	"node-llama-cpp": {
		prettyLabel: "node-llama-cpp",
		docsUrl: "https://node-llama-cpp.withcat.ai",
		mainTask: "text-generation",
		displayOnModelPage: isGgufLlm,
		snippet: nodeLlamaCppSnippet,
	},
	"llama-cpp-python": {
		prettyLabel: "llama-cpp-python",
		docsUrl: "https://github.com/abetlen/llama-cpp-python",
		mainTask: "text-generation",
		displayOnModelPage: isGgufLlm,
		snippet: llamaCppPythonSnippet,
	},
} as const satisfies Record<string, LocalApp>;
