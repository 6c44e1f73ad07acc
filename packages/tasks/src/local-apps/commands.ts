/**
 * Building blocks of the apps' shell snippets. Model-derived text (ids, file names, labels, example
 * messages) enters only through the literal builders: `shWord` / `shQuote` for words, `shComment`
 * for comments, `jsonText` for request bodies.
 */
import type { ModelData } from "../libraries/types.js";
import { jsonText, shComment, shQuote } from "../literals/index.js";
import {
	CONVERSATIONAL_TEXT_EXAMPLE,
	getModelInputExample,
	type ChatCompletionInputMessage,
} from "../snippets/inputs.js";
import type { GgufChoice } from "./gguf-choice.js";
import { isConversational } from "./model-kinds.js";

/** One shell block from its lines; empty entries (optional lines that do not apply) are dropped. */
export function block(...lines: Array<string | undefined>): string {
	return lines.filter((line): line is string => line !== undefined && line !== "").join("\n");
}

/** One command spread over several lines with `\` continuations, arguments indented. */
export function multiline(command: string, ...args: string[]): string {
	return [command, ...args].join(" \\\n\t");
}

/** `owner/name:Q4_K_M`, or the bare id when no quantisation is known (the tool then picks Q4_K_M). */
export function withQuant(id: string, quant: string | undefined): string {
	return quant === undefined ? id : `${id}:${quant}`;
}

/** Enough labels to pick from; a repository with more still gets a bounded line. */
const MAX_LISTED_QUANTS = 40;

/** A comment naming the repository's other quantisations, when it has more than one. */
export function otherQuantsComment(choice: GgufChoice): string | undefined {
	const others = choice.quants.filter((quant) => quant !== choice.quant);
	if (choice.quants.length < 2 || others.length === 0) return undefined;
	const listed = others.slice(0, MAX_LISTED_QUANTS).join(", ");
	const more = others.length > MAX_LISTED_QUANTS ? ", ..." : "";
	return shComment(`Other quantisations in this repository: ${listed}${more}`);
}

/** The chat the example requests send: the task's own example, else one plain question. */
function chatMessages(model: ModelData): ChatCompletionInputMessage[] {
	const example = getModelInputExample(model);
	if (example?.kind === "messages") return example.messages;
	return [{ role: "user", content: CONVERSATIONAL_TEXT_EXAMPLE }];
}

/**
 * A `curl` request to a local OpenAI-compatible server: a chat for conversational models, a plain
 * completion otherwise. `servedName` is the `model` value the server expects.
 */
export function openAiCurl(model: ModelData, port: number, servedName: string): string {
	const chat = isConversational(model);
	const body = chat
		? { model: servedName, messages: chatMessages(model) }
		: { model: servedName, prompt: "Once upon a time,", max_tokens: 128 };
	return block(
		"# Call the server (OpenAI-compatible API):",
		multiline(
			`curl http://localhost:${port}/v1/${chat ? "chat/completions" : "completions"}`,
			`-H "Content-Type: application/json"`,
			`--data ${shQuote(jsonText(body, 2))}`,
		),
	);
}
