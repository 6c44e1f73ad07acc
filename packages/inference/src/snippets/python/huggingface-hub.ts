/** python / huggingface_hub: `InferenceClient(provider=..., api_key=...)`, one method per task. */
import * as literals from "@modelhub/tasks/literals";
import { pyToken, readsEnv } from "../auth.js";
import { INDENT, py, pyKwargs } from "../code.js";
import { HF_PYTHON_METHODS, hasOwn } from "../kinds.js";
import { HUGGINGFACE_HUB_NOT_OFFERED } from "../offers.js";
import { pythonChat } from "../python-chat.js";
import type { ClientTemplates, SnippetClient, SnippetContext, Template } from "../types.js";
import { HUGGINGFACE_HUB_PAIRS } from "./huggingface-hub-pairs.js";

/** huggingface_hub parameter names where they differ from the example's keys. */
const KWARG_NAMES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
	"sentence-similarity": { source_sentence: "sentence", sentences: "other_sentences" },
};

/**
 * Pipelines whose model is given to `InferenceClient(model=...)` rather than to the method:
 * huggingface_hub 2.0.0's `table_question_answering` also puts a `model=` given to it inside the body's
 * `parameters`, which our client does not send.
 */
const MODEL_ON_CLIENT: ReadonlySet<string> = /* @__PURE__ */ new Set(["table-question-answering"]);

function setup(ctx: SnippetContext): string {
	const lines = [
		...(readsEnv(ctx.token) ? ["import os", ""] : []),
		"from huggingface_hub import InferenceClient",
		"",
		"client = InferenceClient(",
		...(MODEL_ON_CLIENT.has(ctx.pipeline)
			? [`${INDENT}model=${literals.pyString(libraryModelId(ctx))},`]
			: []),
		`${INDENT}provider=${literals.pyString(ctx.provider)},`,
		`${INDENT}api_key=${pyToken(ctx.token)},`,
	];
	if (ctx.billTo) lines.push(`${INDENT}bill_to=${literals.pyString(ctx.billTo)},`);
	lines.push(")");
	return lines.join("\n");
}

/**
 * The model id huggingface_hub 2.0.0 wants: the hub id, except for openai, whose provider takes the
 * OpenAI model id as it is (`gpt-4o-mini`, not `openai/gpt-4o-mini`).
 */
function libraryModelId(ctx: SnippetContext): string {
	return ctx.provider === "openai" ? ctx.providerModelId : ctx.model.id;
}

/** `name = client.method(positional, key=value, model="...")`, one argument per line. */
function call(
	ctx: SnippetContext,
	name: string,
	method: string,
	positional: unknown[],
	kwargs: Record<string, unknown>,
): string {
	const lines = [`${name} = client.${method}(`];
	for (const value of positional) lines.push(`${INDENT}${py(value, INDENT)},`);
	const model = MODEL_ON_CLIENT.has(ctx.pipeline) ? {} : { model: libraryModelId(ctx) };
	lines.push(...pyKwargs({ ...kwargs, ...model }, INDENT));
	lines.push(")");
	return lines.join("\n");
}

function method(ctx: SnippetContext): string | undefined {
	return hasOwn(HF_PYTHON_METHODS, ctx.pipeline) ? HF_PYTHON_METHODS[ctx.pipeline] : undefined;
}

const basic: Template = (ctx) => {
	const name = method(ctx);
	if (!name) return "";
	const example = ctx.example;
	if (example.kind === "object") {
		const renames = hasOwn(KWARG_NAMES, ctx.pipeline) ? KWARG_NAMES[ctx.pipeline] : undefined;
		const kwargs: Record<string, unknown> = {};
		for (const [key, value] of Object.entries(example.value)) {
			kwargs[renames && hasOwn(renames, key) ? (renames[key] as string) : key] = value;
		}
		return `${call(ctx, "result", name, [], kwargs)}\n\nprint(result)`;
	}
	// A file is the one the client reads (ctx.file: fal.ai speech recognition reads a WAV, not the FLAC example).
	const input =
		example.kind === "text"
			? example.text
			: example.kind === "file"
				? (ctx.file?.name ?? example.fileName)
				: undefined;
	return `${call(ctx, "result", name, [input], {})}\n\nprint(result)`;
};

/** huggingface_hub sends the hub model id (the OpenAI id for openai). */
const conversational: Template = (ctx) => pythonChat(ctx, libraryModelId(ctx), false);
const conversationalStream: Template = (ctx) => pythonChat(ctx, libraryModelId(ctx), true);

const documentQuestionAnswering: Template = (ctx) => {
	if (ctx.example.kind !== "object") return "";
	const { image, ...rest } = ctx.example.value;
	return `${call(ctx, "answer", "document_question_answering", [image], rest)}\n\nprint(answer)`;
};

const imageToImage: Template = (ctx) => {
	if (ctx.example.kind !== "object") return "";
	const { image, ...rest } = ctx.example.value;
	return `${call(ctx, "image", "image_to_image", [image], rest)}\n\n# image is a PIL.Image object\nimage.save("output.png")`;
};

const imageToVideo: Template = (ctx) => {
	if (ctx.example.kind !== "object") return "";
	const { image, ...rest } = ctx.example.value;
	return [
		call(ctx, "video", "image_to_video", [image], rest),
		"",
		"# video holds the bytes of a video file",
		'with open("video.mp4", "wb") as f:',
		`${INDENT}f.write(video)`,
	].join("\n");
};

function textInput(ctx: SnippetContext): string | undefined {
	return ctx.example.kind === "text" ? ctx.example.text : undefined;
}

const textToImage: Template = (ctx) =>
	`${call(ctx, "image", "text_to_image", [textInput(ctx)], {})}\n\n# image is a PIL.Image object\nimage.save("image.png")`;

/**
 * A `voice` our client puts in the body (Together requires one; Kokoro models get a default) goes through
 * `extra_body`: huggingface_hub 2.0.0's Together helper sets no default and sends what it is given.
 */
function speechExtras(ctx: SnippetContext): Record<string, unknown> {
	const body = ctx.request.body;
	const voice =
		typeof body === "object" && body !== null ? (body as Record<string, unknown>).voice : undefined;
	return voice === undefined ? {} : { extra_body: { voice } };
}

const textToSpeech: Template = (ctx) =>
	[
		call(ctx, "audio", "text_to_speech", [textInput(ctx)], speechExtras(ctx)),
		"",
		"# audio holds the bytes of an audio file",
		'with open("speech.flac", "wb") as f:',
		`${INDENT}f.write(audio)`,
	].join("\n");

const textToVideo: Template = (ctx) =>
	[
		call(ctx, "video", "text_to_video", [textInput(ctx)], {}),
		"",
		"# video holds the bytes of a video file",
		'with open("video.mp4", "wb") as f:',
		`${INDENT}f.write(video)`,
	].join("\n");

const templates: ClientTemplates = {
	basic,
	basicAudio: basic,
	basicImage: basic,
	conversational,
	conversationalStream,
	documentQuestionAnswering,
	imageToImage,
	imageToVideo,
	textToImage,
	textToSpeech,
	textToVideo,
};

/**
 * Only for the pairs huggingface_hub 2.0.0 serves (it refuses the others), less those where it sends
 * another request than our client (offers.ts), and not where hf-inference answers JSON samples instead of
 * the audio file the method returns.
 */
function offers(ctx: SnippetContext): boolean {
	const tasks = hasOwn(HUGGINGFACE_HUB_PAIRS, ctx.provider) ? HUGGINGFACE_HUB_PAIRS[ctx.provider] : undefined;
	if (tasks?.includes(ctx.task) !== true) return false;
	return !hasOwn(HUGGINGFACE_HUB_NOT_OFFERED, `${ctx.provider} ${ctx.task}`) && ctx.answer !== "audio-array";
}

export const huggingfaceHub: SnippetClient = {
	language: "python",
	client: "huggingface_hub",
	templates,
	setup,
	offers,
};
