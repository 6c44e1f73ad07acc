/** python / openai: the OpenAI SDK pointed at the provider's OpenAI-compatible base URL. */
import * as literals from "@modelhub/tasks/literals";
import { pyToken, readsEnv } from "../auth.js";
import { INDENT, py, pyKwargs } from "../code.js";
import type { ClientTemplates, SnippetClient, SnippetContext, Template } from "../types.js";

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

function chatCall(ctx: SnippetContext, stream: boolean): string {
	const lines = [`${stream ? "stream" : "completion"} = client.chat.completions.create(`];
	lines.push(...pyKwargs({ model: ctx.providerModelId, ...ctx.args }, INDENT));
	if (stream) lines.push(`${INDENT}stream=True,`);
	lines.push(")");
	return lines.join("\n");
}

const conversational: Template = (ctx) => `${chatCall(ctx, false)}\n\nprint(completion.choices[0].message)`;

const conversationalStream: Template = (ctx) =>
	[
		chatCall(ctx, true),
		"",
		"for chunk in stream:",
		`${INDENT}if chunk.choices:`,
		`${INDENT}${INDENT}print(chunk.choices[0].delta.content or "", end="")`,
	].join("\n");

const templates: ClientTemplates = { conversational, conversationalStream };

export const openai: SnippetClient = { language: "python", client: "openai", templates, setup };
