/**
 * MLX LM: `mlx_lm.generate`, `mlx_lm.chat` and `mlx_lm.server` load an MLX repository by id
 * (mlx-lm 0.32.0 console scripts; the server listens on 127.0.0.1:8080 by default).
 */
import type { ModelData } from "../../libraries/types.js";
import { shWord } from "../../literals/index.js";
import { block, openAiCurl } from "../commands.js";
import { isConversational, isMlxLmModel } from "../model-kinds.js";
import type { LocalApp, LocalAppSnippet } from "../types.js";

const INSTALL = block(
	"pip install mlx-lm",
	"# Apple silicon; on Linux install 'mlx-lm[cuda13]', 'mlx-lm[cuda12]' or 'mlx-lm[cpu]' instead",
);

function mlxLmSnippet(model: ModelData): LocalAppSnippet[] {
	const id = shWord(model.id);
	const local = isConversational(model)
		? { title: "Chat in the terminal", content: `mlx_lm.chat --model ${id}` }
		: { title: "Generate text", content: `mlx_lm.generate --model ${id} --prompt 'Once upon a time'` };
	return [
		{ ...local, setup: INSTALL },
		{
			title: "Start an OpenAI-compatible server",
			setup: INSTALL,
			content: [
				block("# Serves on http://localhost:8080:", `mlx_lm.server --model ${id}`),
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
