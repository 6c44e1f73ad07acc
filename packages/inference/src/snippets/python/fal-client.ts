/** python / fal_client (fal.ai text-to-image only): fal's own SDK, which talks to fal.ai directly. */
import * as literals from "@modelhub/tasks/literals";
import { pyEnv, pyToken } from "../auth.js";
import { INDENT, py } from "../code.js";
import { providerKeyEnvName, type TokenSource } from "../request-preview.js";
import type { ClientTemplates, SnippetClient, Template } from "../types.js";

/** fal_client needs a fal key: a hub token cannot be used there, so it then reads the key from the environment. */
function falKey(token: TokenSource): { code: string; env: boolean } {
	if (token.kind === "literal" && !token.value.startsWith("hf_")) return { code: pyToken(token), env: false };
	return { code: pyEnv(providerKeyEnvName("fal-ai")), env: true };
}

const textToImage: Template = (ctx) => {
	if (ctx.provider !== "fal-ai") return "";
	const key = falKey(ctx.token);
	// The client's own body (prompt, parameters, LoRA): fal_client.subscribe sends it through fal's queue.
	const args = (ctx.request.body ?? {}) as Record<string, unknown>;
	return [
		...(key.env ? ["import os", ""] : []),
		"import fal_client",
		"",
		`client = fal_client.SyncClient(key=${key.code})`,
		"",
		"result = client.subscribe(",
		`${INDENT}${literals.pyString(ctx.providerModelId)},`,
		`${INDENT}arguments=${py(args, INDENT)},`,
		")",
		"",
		'print(result["images"][0]["url"])',
	].join("\n");
};

const templates: ClientTemplates = { textToImage };

export const falClient: SnippetClient = { language: "python", client: "fal_client", templates };
