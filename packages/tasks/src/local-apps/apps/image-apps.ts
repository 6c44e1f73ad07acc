/**
 * Image-generation apps that import a diffusers (or Core ML) repository: Draw Things, DiffusionBee,
 * JoyFusion and Invoke. Each is handed only the id and downloads from the public hub (Invoke's server
 * with its own settings), so they are offered only for models it serves (`publicHubOnly`).
 */
import { hasTag } from "../../libraries/define.js";
import type { ModelData } from "../../libraries/types.js";
import { shQuote, urlQueryValue } from "../../literals/index.js";
import { block, multiline } from "../commands.js";
import { isDiffusersModel, isLora, isTextToImage } from "../model-kinds.js";
import type { LocalApp, LocalAppSnippet } from "../types.js";
import { publicHubOnly } from "../hub.js";

/** Draw Things imports a LoRA onto a pipeline, anything else as a whole pipeline. */
function drawThingsLink(model: ModelData): URL {
	const method = isLora(model) ? "pipeline.load_lora_weights" : "pipeline.from_pretrained";
	return new URL(`https://drawthings.ai/import/diffusers/${method}?repo_id=${urlQueryValue(model.id)}`);
}

/**
 * Invoke's hosted model pages (models.invoke.ai), the target of the incumbent's deep link, shut down
 * when the founding team joined Adobe, so that link is a 404. The open-source app installs a hub
 * repository through its model manager route `POST /api/v2/models/install?source=<repo_id>` with an
 * empty config body (invokeai/app/api/routers/model_manager.py); 9090 is Invoke's default port.
 */
function invokeSnippet(model: ModelData): LocalAppSnippet[] {
	const url = `http://127.0.0.1:9090/api/v2/models/install?source=${urlQueryValue(model.id)}`;
	return [
		{
			title: "Install into a running Invoke",
			setup: block("# Install and start Invoke first:", "# https://github.com/invoke-ai/InvokeAI"),
			content: block(
				"# Ask Invoke's model manager to download and install the repository:",
				multiline("curl -X POST", `-H "Content-Type: application/json"`, "--data '{}'", shQuote(url)),
			),
		},
	];
}

export const imageApps = {
	drawthings: {
		prettyLabel: "Draw Things",
		docsUrl: "https://drawthings.ai",
		mainTask: "text-to-image",
		macOSOnly: true,
		displayOnModelPage: publicHubOnly(
			(model: ModelData) => isDiffusersModel(model) && (isTextToImage(model) || isLora(model)),
		),
		deeplink: drawThingsLink,
	},
	diffusionbee: {
		prettyLabel: "DiffusionBee",
		docsUrl: "https://diffusionbee.com",
		mainTask: "text-to-image",
		macOSOnly: true,
		displayOnModelPage: publicHubOnly((model: ModelData) => isDiffusersModel(model) && isTextToImage(model)),
		deeplink: (model: ModelData) =>
			new URL(`https://diffusionbee.com/huggingface_import?model_id=${urlQueryValue(model.id)}`),
	},
	joyfusion: {
		prettyLabel: "JoyFusion",
		docsUrl: "https://joyfusion.app",
		mainTask: "text-to-image",
		macOSOnly: true,
		displayOnModelPage: publicHubOnly(
			(model: ModelData) => hasTag(model, "coreml") && hasTag(model, "joyfusion") && isTextToImage(model),
		),
		deeplink: (model: ModelData) =>
			new URL(`https://joyfusion.app/import_from_hf?repo_id=${urlQueryValue(model.id)}`),
	},
	invoke: {
		prettyLabel: "Invoke",
		docsUrl: "https://github.com/invoke-ai/InvokeAI",
		mainTask: "text-to-image",
		displayOnModelPage: publicHubOnly((model: ModelData) => isDiffusersModel(model) && isTextToImage(model)),
		snippet: invokeSnippet,
	},
} as const satisfies Record<string, LocalApp>;
