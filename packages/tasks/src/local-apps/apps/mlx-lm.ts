/**
 * MLX LM: `mlx_lm.generate`, `mlx_lm.chat` and `mlx_lm.server` load an MLX repository by id
 * (mlx-lm 0.32.0 console scripts; the server listens on 127.0.0.1:8080 by default). They download with
 * huggingface_hub's snapshot_download, so `HF_ENDPOINT` and `HF_TOKEN` point them at another hub.
 */
import type { ModelData } from "../../libraries/types.js";
import { shWord } from "../../literals/index.js";
import { block, openAiCurl } from "../commands.js";
import { isConversational, isMlxLmModel } from "../model-kinds.js";
import type { LocalApp, LocalAppSnippet } from "../types.js";
import { envPrefix, otherHubUrl, tokenNote, type SnippetOptions } from "../../snippets/hub-endpoint.js";

const INSTALL = block(
	"pip install mlx-lm",
	"# Apple silicon; on Linux install 'mlx-lm[cuda13]', 'mlx-lm[cuda12]' or 'mlx-lm[cpu]' instead",
);

function mlxLmSnippet(model: ModelData, _filepath?: string, options?: SnippetOptions): LocalAppSnippet[] {
	const hubUrl = otherHubUrl(options);
	const id = shWord(model.id);
	const env = envPrefix(hubUrl);
	const note = tokenNote(model, hubUrl);
	const local = isConversational(model)
		? { title: "Chat in the terminal", content: block(note, `${env}mlx_lm.chat --model ${id}`) }
		: {
				title: "Generate text",
				content: block(note, `${env}mlx_lm.generate --model ${id} --prompt 'Once upon a time'`),
			};
	return [
		{ ...local, setup: INSTALL },
		{
			title: "Start an OpenAI-compatible server",
			setup: INSTALL,
			content: [
				block("# Serves on http://localhost:8080:", note, `${env}mlx_lm.server --model ${id}`),
				openAiCurl(model, 8080, model.id),
			],
		},
	];
}

export const mlxLmApps = {
	"mlx-lm": {
		prettyLabel: "MLX LM",
		docsUrl: "https://github.com/ml-explore/mlx-lm",
		mainTask: "text-generation",
		displayOnModelPage: isMlxLmModel,
		snippet: mlxLmSnippet,
	},
} as const satisfies Record<string, LocalApp>;
