/** js / openai: the OpenAI SDK pointed at the provider's OpenAI-compatible base URL. */
import * as literals from "@modelhub/tasks/literals";
import { jsToken } from "../auth.js";
import { INDENT, js } from "../code.js";
import { openaiBaseUrl } from "../python/openai.js";
import type { ClientTemplates, SnippetClient, SnippetContext, Template } from "../types.js";

function setup(ctx: SnippetContext): string {
	const lines = [
		'import { OpenAI } from "openai";',
		"",
		"const client = new OpenAI({",
		`${INDENT}baseURL: ${literals.jsString(openaiBaseUrl(ctx.request.url))},`,
		`${INDENT}apiKey: ${jsToken(ctx.token)},`,
	];
	if (ctx.billTo) lines.push(`${INDENT}defaultHeaders: ${js({ "X-HF-Bill-To": ctx.billTo }, INDENT)},`);
	lines.push("});");
	return lines.join("\n");
}

function chatArgs(ctx: SnippetContext, stream: boolean): string {
	return js({ model: ctx.providerModelId, ...ctx.args, ...(stream ? { stream: true } : {}) });
}

const conversational: Template = (ctx) =>
	[
		`const chatCompletion = await client.chat.completions.create(${chatArgs(ctx, false)});`,
		"",
		"console.log(chatCompletion.choices[0].message);",
	].join("\n");

const conversationalStream: Template = (ctx) =>
	[
		`const stream = await client.chat.completions.create(${chatArgs(ctx, true)});`,
		"",
		"for await (const chunk of stream) {",
		`${INDENT}process.stdout.write(chunk.choices[0]?.delta?.content ?? "");`,
		"}",
	].join("\n");

const templates: ClientTemplates = { conversational, conversationalStream };

export const openai: SnippetClient = { language: "js", client: "openai", templates, setup };
