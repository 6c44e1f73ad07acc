/**
 * llama.cpp and the tools built on its engine that fetch a GGUF repository by id: `llama-server` /
 * `llama-cli`, llama-cpp-python's server, node-llama-cpp's CLI.
 *
 * Another hub: llama.cpp and node-llama-cpp read `MODEL_ENDPOINT`, then `HF_ENDPOINT`
 * (common/common.cpp `common_get_model_endpoint`; node-llama-cpp 3.22.1
 * dist/utils/modelDownloadEndpoints.js), so `MODEL_ENDPOINT` wins over any other setting. llama.cpp
 * sends only `hf_…` tokens (common/hf-cache.cpp), so it is not offered for a private model there;
 * node-llama-cpp sends HF_TOKEN as it is, llama-cpp-python downloads through huggingface_hub. The
 * picked file is named (`--hf-file`, `hf:owner/name/file`) where known: node-llama-cpp resolves a
 * `:QUANT` tag through the public hub's `/v2/…/manifests/` route, which other hubs need not serve.
 */
import type { ModelData } from "../../libraries/types.js";
import { shComment, shWord } from "../../literals/index.js";
import { block, multiline, openAiCurl, otherQuantsComment, withQuant } from "../commands.js";
import { chooseGguf, DEFAULT_GGUF_QUANT, type GgufChoice } from "../gguf-choice.js";
import { isConversational, isGgufLlm } from "../model-kinds.js";
import type { LocalApp, LocalAppSnippet } from "../types.js";
import { envPrefix, otherHubUrl, tokenNote, type SnippetOptions } from "../../snippets/hub-endpoint.js";
import { dockerEnv, dockerLoopbackNote, publicModelsOnOtherHubs } from "../hub.js";

/**
 * The model arguments of llama.cpp's tools: `-hf owner/name:QUANT` (the tag matches a file name,
 * case-insensitively), or `-hf owner/name --hf-file FILE` for a picked file whose name has no
 * quantisation label (`--hf-file` overrides the tag; common/arg.cpp).
 */
function llamaCppModelArgs(id: string, choice: GgufChoice, byFile = false): string {
	if ((byFile || choice.quant === undefined) && choice.file !== undefined)
		return `-hf ${shWord(id)} --hf-file ${shWord(choice.file)}`;
	return `-hf ${shWord(withQuant(id, choice.quant))}`;
}

function llamaCppCommands(
	model: ModelData,
	choice: GgufChoice,
	binary: (name: string) => string,
	hubUrl: string | undefined,
): string[] {
	const args = llamaCppModelArgs(model.id, choice, hubUrl !== undefined);
	const run = (name: string) => `${envPrefix(hubUrl, "MODEL_ENDPOINT")}${binary(name)}`;
	const server = block(
		"# Start an OpenAI-compatible server with a web UI on http://localhost:8080:",
		`${run("llama-server")} ${args}`,
		otherQuantsComment(choice),
	);
	// llama-cli is the chat tool; raw completion moved to llama-completion (docs/docker.md).
	const terminal = isConversational(model)
		? block("# Chat in the terminal:", `${run("llama-cli")} ${args}`)
		: block(
				"# Continue a prompt in the terminal:",
				`${run("llama-completion")} ${args} -no-cnv -p 'Once upon a time,'`,
			);
	return [server, terminal];
}

function llamaCppSnippet(model: ModelData, filepath?: string, options?: SnippetOptions): LocalAppSnippet[] {
	const hubUrl = otherHubUrl(options);
	const choice = chooseGguf(model, filepath);
	const installed = (name: string) => name;
	const commands = (binary: (name: string) => string) => llamaCppCommands(model, choice, binary, hubUrl);
	return [
		{
			title: "Install with Homebrew (macOS, Linux)",
			setup: "brew install llama.cpp",
			content: commands(installed),
		},
		{
			title: "Install with WinGet (Windows)",
			setup: "winget install llama.cpp",
			content: commands(installed),
		},
		{
			title: "Use a pre-built binary",
			setup: block(
				"# Download and unpack the release for your system from",
				"# https://github.com/ggml-org/llama.cpp/releases",
			),
			content: commands((name) => `./${name}`),
		},
		{
			title: "Build from source",
			setup: block(
				"git clone https://github.com/ggml-org/llama.cpp.git",
				"cd llama.cpp",
				"cmake -B build",
				"cmake --build build --config Release -j --target llama-server llama-cli llama-completion",
			),
			content: commands((name) => `./build/bin/${name}`),
		},
		{
			title: "Use Docker",
			content: block(
				"# Start the server on http://localhost:8080; downloads are kept in the llama-models volume:",
				dockerLoopbackNote(hubUrl),
				multiline(
					"docker run -p 8080:8080",
					"-v llama-models:/models -e LLAMA_CACHE=/models",
					...dockerEnv(hubUrl, "MODEL_ENDPOINT"),
					`ghcr.io/ggml-org/llama.cpp:server ${llamaCppModelArgs(model.id, choice, hubUrl !== undefined)}`,
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
function llamaCppPythonSnippet(
	model: ModelData,
	filepath?: string,
	options?: SnippetOptions,
): LocalAppSnippet[] {
	const hubUrl = otherHubUrl(options);
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
					tokenNote(model, hubUrl),
					multiline(
						`${envPrefix(hubUrl)}python3 -m llama_cpp.server`,
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
function nodeLlamaCppSnippet(
	model: ModelData,
	filepath?: string,
	options?: SnippetOptions,
): LocalAppSnippet[] {
	const hubUrl = otherHubUrl(options);
	const choice = chooseGguf(model, filepath);
	const env = envPrefix(hubUrl, "MODEL_ENDPOINT");
	const note = tokenNote(model, hubUrl);
	const uri =
		(hubUrl !== undefined || choice.quant === undefined) && choice.file !== undefined
			? `hf:${model.id}/${choice.file}`
			: `hf:${withQuant(model.id, choice.quant)}`;
	return [
		{
			title: "Chat with the model",
			content: block(note, `${env}npx -y node-llama-cpp chat ${shWord(uri)}`, otherQuantsComment(choice)),
		},
		{
			title: "Estimate whether it fits your hardware",
			content: block(note, `${env}npx -y node-llama-cpp inspect estimate ${shWord(uri)}`),
		},
	];
}

export const llamaCppApps = {
	"llama.cpp": {
		prettyLabel: "llama.cpp",
		docsUrl: "https://github.com/ggerganov/llama.cpp",
		mainTask: "text-generation",
		displayOnModelPage: publicModelsOnOtherHubs(isGgufLlm),
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
