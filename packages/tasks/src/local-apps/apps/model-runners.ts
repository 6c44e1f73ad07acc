/**
 * Model runners that pull a repository from the hub by reference: Ollama, Docker Model Runner and
 * LocalAI. Ollama and Docker Model Runner pull `hf.co/…` references from the public hub only, so they
 * are not offered for models another hub serves; LocalAI follows `HF_ENDPOINT` (pkg/downloader/uri.go,
 * after `HF_MIRROR`), but sends it no token of ours, so it is offered there for public models only.
 */
import type { ModelData } from "../../libraries/types.js";
import { shWord } from "../../literals/index.js";
import { block, multiline, otherQuantsComment, withQuant } from "../commands.js";
import { chooseGguf, DEFAULT_GGUF_QUANT } from "../gguf-choice.js";
import { isGgufLlm, isMlxLmModel, isServableCheckpoint } from "../model-kinds.js";
import type { LocalApp, LocalAppSnippet } from "../types.js";
import { envPrefix, otherHubUrl, type SnippetOptions } from "../../snippets/hub-endpoint.js";
import { dockerEnv, dockerLoopbackNote, publicHubOnly, publicModelsOnOtherHubs } from "../hub.js";

/** `ollama run hf.co/{owner}/{name}:{quantisation}`; without a tag Ollama takes Q4_K_M (hub docs, "Use Ollama with any GGUF Model"). */
function ollamaSnippet(model: ModelData, filepath?: string): string {
	const choice = chooseGguf(model, filepath);
	return block(
		`ollama run ${shWord(`hf.co/${withQuant(model.id, choice.quant)}`)}`,
		otherQuantsComment(choice),
	);
}

/**
 * `docker model run hf.co/{owner}/{name}[:{quantisation}]`: GGUF repositories take a quantisation
 * tag (default Q4_K_M, docs/reference/model_pull.md); safetensors repositories are pulled whole
 * and served by the vLLM or MLX backend (pkg/distribution: native Hugging Face pull).
 */
function dockerModelRunnerSnippet(model: ModelData, filepath?: string): string {
	if (!isGgufLlm(model)) return `docker model run ${shWord(`hf.co/${model.id}`)}`;
	const choice = chooseGguf(model, filepath);
	return block(
		`docker model run ${shWord(`hf.co/${withQuant(model.id, choice.quant)}`)}`,
		otherQuantsComment(choice),
	);
}

/**
 * LocalAI loads `huggingface://{owner}/{name}/{file}` and needs the exact file. When the
 * repository's files are unknown, the command reads it from a variable the user sets.
 */
function localAiSnippet(model: ModelData, filepath?: string, options?: SnippetOptions): LocalAppSnippet[] {
	const hubUrl = otherHubUrl(options);
	const choice = chooseGguf(model, filepath);
	const known = choice.file !== undefined;
	const uri = known
		? shWord(`huggingface://${model.id}/${choice.file}`)
		: `${shWord(`huggingface://${model.id}/`)}"$GGUF_FILE"`;
	const chooseFile = known
		? undefined
		: block(
				"# Set GGUF_FILE to one of the repository's .gguf files:",
				`GGUF_FILE=${shWord(`model-${DEFAULT_GGUF_QUANT}.gguf`)}`,
			);
	const run = (command: string) =>
		block(
			chooseFile,
			"# Load and run the model; the API and web UI are on http://localhost:8080:",
			command,
			otherQuantsComment(choice),
		);
	return [
		{
			title: "Install the binary (Linux)",
			setup: "curl https://localai.io/install.sh | sh",
			content: run(`${envPrefix(hubUrl)}local-ai run ${uri}`),
		},
		{
			title: "Use Docker",
			content: block(
				dockerLoopbackNote(hubUrl),
				run(
					multiline(
						"docker run -ti --name local-ai -p 8080:8080",
						"-v localai-models:/models",
						...dockerEnv(hubUrl),
						`localai/localai:latest ${uri}`,
					),
				),
			),
		},
	];
}

export const modelRunnerApps = {
	localai: {
		prettyLabel: "LocalAI",
		docsUrl: "https://github.com/mudler/LocalAI",
		mainTask: "text-generation",
		displayOnModelPage: publicModelsOnOtherHubs(isGgufLlm),
		snippet: localAiSnippet,
	},
	ollama: {
		prettyLabel: "Ollama",
		docsUrl: "https://ollama.com",
		mainTask: "text-generation",
		displayOnModelPage: publicHubOnly(isGgufLlm),
		snippet: ollamaSnippet,
	},
	"docker-model-runner": {
		prettyLabel: "Docker Model Runner",
		docsUrl: "https://docs.docker.com/ai/model-runner/",
		mainTask: "text-generation",
		displayOnModelPage: publicHubOnly(
			(model: ModelData) => isGgufLlm(model) || isServableCheckpoint(model) || isMlxLmModel(model),
		),
		snippet: dockerModelRunnerSnippet,
	},
} as const satisfies Record<string, LocalApp>;
