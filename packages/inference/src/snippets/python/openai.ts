/** python / openai: the OpenAI SDK pointed at the provider's OpenAI-compatible base URL. */
import * as literals from "@modelhub/tasks/literals";
import { pyToken, readsEnv } from "../auth.js";
import { INDENT, py } from "../code.js";
import { pythonChat } from "../python-chat.js";
import type { ClientTemplates, SnippetClient, SnippetContext } from "../types.js";

/** The URL without its `/chat/completions` tail: what OpenAI clients take as `base_url`. */
export function openaiBaseUrl(url: string): string {
	return url.replace(/\/chat\/completions$/, "");
}

function setup(ctx: SnippetContext): string {
	const lines = [
		...(readsEnv(ctx.token) ? ["import os", ""] : []),
		"from openai import OpenAI",
		"",
		"client = OpenAI(",
		`${INDENT}base_url=${literals.pyString(openaiBaseUrl(ctx.request.url))},`,
		`${INDENT}api_key=${pyToken(ctx.token)},`,
	];
	if (ctx.billTo) lines.push(`${INDENT}default_headers=${py({ "X-HF-Bill-To": ctx.billTo }, INDENT)},`);
	lines.push(")");
	return lines.join("\n");
}

/** The OpenAI client sends the provider's model id. */
const templates: ClientTemplates = {
	conversational: (ctx) => pythonChat(ctx, ctx.providerModelId, false),
	conversationalStream: (ctx) => pythonChat(ctx, ctx.providerModelId, true),
};

export const openai: SnippetClient = { language: "python", client: "openai", templates, setup };
