/** js / huggingface.js: our own client, `@modelhub/inference` (same API as @huggingface/inference), for every pair. */
import * as literals from "@modelhub/tasks/literals";
import { PACKAGE_NAME } from "../../version.js";
import { jsToken } from "../auth.js";
import { FILE_BLOB, js } from "../code.js";
import { functionForPipeline, TASK_REGISTRY } from "../../tasks/registry.js";
import type { ClientTemplates, SnippetClient, SnippetContext, Template } from "../types.js";

function fileBlob(ctx: SnippetContext): string {
	const file = ctx.file;
	if (!file) return "undefined";
	return `new Blob([await readFile(${literals.jsString(file.name)})], { type: ${literals.jsString(file.contentType)} })`;
}

function setup(ctx: SnippetContext): string {
	return [
		...(ctx.file ? ['import { readFile } from "node:fs/promises";'] : []),
		`import { InferenceClient } from ${literals.jsString(PACKAGE_NAME)};`,
		"",
		`const client = new InferenceClient(${jsToken(ctx.token)});`,
	].join("\n");
}

/** `client.method({ provider, model, ...args }, { billTo })`. */
function call(ctx: SnippetContext, method: string): string {
	const args = js({ provider: ctx.provider, model: ctx.model.id, ...ctx.args }, "", {
		[FILE_BLOB]: fileBlob(ctx),
	});
	const options = ctx.billTo ? `, ${js({ billTo: ctx.billTo })}` : "";
	return `client.${method}(${args}${options})`;
}

/** Every non-chat kind: the pipeline's method, its answer printed (or, for a file, kept as a Blob). */
const task: Template = (ctx) => {
	const method = functionForPipeline(ctx.pipeline);
	if (!method) return "";
	// A file answer (the registry's image, audio or video) goes in a variable named after it.
	const answer = TASK_REGISTRY[method].answer;
	if (answer === "image" || answer === "audio" || answer === "video")
		return `const ${answer} = await ${call(ctx, method)};\n// ${answer} is a Blob holding the ${answer}`;
	return `const output = await ${call(ctx, method)};\n\nconsole.log(output);`;
};

const conversational: Template = (ctx) =>
	`const chatCompletion = await ${call(ctx, "chatCompletion")};\n\nconsole.log(chatCompletion.choices[0].message);`;

const conversationalStream: Template = (ctx) =>
	[
		`const stream = ${call(ctx, "chatCompletionStream")};`,
		"",
		"for await (const chunk of stream) {",
		"    if (chunk.choices && chunk.choices.length > 0) {",
		'        process.stdout.write(chunk.choices[0].delta.content ?? "");',
		"    }",
		"}",
	].join("\n");

const templates: ClientTemplates = {
	basic: task,
	basicAudio: task,
	basicImage: task,
	conversational,
	conversationalStream,
	documentQuestionAnswering: task,
	imageToImage: task,
	imageToVideo: task,
	tabular: task,
	textToAudio: task,
	textToImage: task,
	textToSpeech: task,
	textToVideo: task,
	zeroShotClassification: task,
	zeroShotImageClassification: task,
};

/** Every pair our client serves, except where the answer is not the file the task function returns. */
export const huggingfaceJs: SnippetClient = {
	language: "js",
	client: "huggingface.js",
	templates,
	setup,
	offers: (ctx) => ctx.answer !== "audio-array",
};
