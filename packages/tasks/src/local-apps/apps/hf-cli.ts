/**
 * The `hf` command of huggingface_hub: it downloads any repository, so every model has at least one
 * way to be used locally, whatever its library or task.
 */
import type { ModelData } from "../../libraries/types.js";
import { shWord } from "../../literals/index.js";
import { block } from "../commands.js";
import { chooseGguf } from "../gguf-choice.js";
import { isGgufLlm } from "../model-kinds.js";
import type { LocalApp, LocalAppSnippet } from "../types.js";

/**
 * `hf download REPO_ID [FILENAMES]...` (huggingface_hub 2.0.0) fetches into the local hub cache and
 * prints the path. For a GGUF repository only the chosen file is fetched, not every quantisation.
 */
function hfCliSnippet(model: ModelData, filepath?: string): LocalAppSnippet[] {
	const file = isGgufLlm(model) || filepath ? chooseGguf(model, filepath).file : undefined;
	return [
		{
			title: "Download the model files",
			setup: block(
				"pip install -U huggingface_hub",
				"# For a self-hosted ModelHub, point the CLI at it: export HF_ENDPOINT=<its URL>",
			),
			content: block(
				"# Downloads into the local Hugging Face cache and prints the folder:",
				`hf download ${shWord(model.id)}${file === undefined ? "" : ` ${shWord(file)}`}`,
			),
		},
	];
}

export const hfCliApps = {
	"hf-cli": {
		prettyLabel: "hf CLI",
		docsUrl: "https://huggingface.co/docs/huggingface_hub/guides/cli",
		mainTask: "other",
		displayOnModelPage: () => true,
		snippet: hfCliSnippet,
	},
} as const satisfies Record<string, LocalApp>;
