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
import { envPrefix, otherHubUrl, tokenNote, type SnippetOptions } from "../../snippets/hub-endpoint.js";

/**
 * `hf download REPO_ID [FILENAMES]...` (huggingface_hub 2.0.0) fetches into the local hub cache and
 * prints the path. For a GGUF repository only the chosen file is fetched, not every quantisation.
 *
 * For a model another hub serves, `HF_ENDPOINT=<hub> hf download …` (huggingface_hub reads the variable
 * at import, constants.py) fetches from it; the token comes from HF_TOKEN or `hf auth login`.
 */
function hfCliSnippet(model: ModelData, filepath?: string, options?: SnippetOptions): LocalAppSnippet[] {
	const hubUrl = otherHubUrl(options);
	const file = isGgufLlm(model) || filepath ? chooseGguf(model, filepath).file : undefined;
	return [
		{
			title: "Download the model files",
			setup: "pip install -U huggingface_hub",
			content: block(
				"# Downloads into the local Hugging Face cache and prints the folder:",
				tokenNote(model, hubUrl),
				`${envPrefix(hubUrl)}hf download ${shWord(model.id)}${file === undefined ? "" : ` ${shWord(file)}`}`,
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
