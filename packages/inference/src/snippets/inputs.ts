/**
 * The task's example (structured, from `@modelhub/tasks`) as call arguments. `args` is what a
 * high-level client call takes; `requestArgs` is what the client's request builder receives after
 * the task function's own input shaping (raw bytes, base64 image, fal.ai data URL) — the same shaping
 * as the client's task files, with file contents left as markers that each template fills with code.
 */
import type { ModelInputExample } from "@modelhub/tasks/inputs";
import { binaryInput } from "../lib/inputs.js";
import { falAudioLabel } from "../providers/fal-ai.js";
import type { TaskHelper } from "../providers/types.js";
import { FILE_BASE64, FILE_BLOB, FILE_DATA_URL } from "./code.js";
import { binaryPlaceholder, multipartPlaceholder } from "./request-preview.js";
import type { InferenceSnippetOptions, SnippetFile } from "./types.js";

/** Sample labels shown for zero-shot tasks. */
export const ZERO_SHOT_TEXT_LABELS: readonly string[] = ["refund", "legal", "faq"];
export const ZERO_SHOT_IMAGE_LABELS: readonly string[] = ["cat", "dog", "llama"];

export interface SnippetInputs {
	args: Record<string, unknown>;
	requestArgs: Record<string, unknown>;
	file?: SnippetFile;
}

const MEDIA_TYPES: Readonly<Record<string, string>> = {
	flac: "audio/flac",
	mp3: "audio/mpeg",
	wav: "audio/wav",
	ogg: "audio/ogg",
	jpg: "image/jpeg",
	jpeg: "image/jpeg",
	png: "image/png",
	webp: "image/webp",
};

function mediaTypeOf(fileName: string): string {
	const extension = fileName.slice(fileName.lastIndexOf(".") + 1).toLowerCase();
	return MEDIA_TYPES[extension] ?? "application/octet-stream";
}

function fileOf(name: string, encoding: SnippetFile["encoding"]): SnippetFile {
	return { name, contentType: mediaTypeOf(name), encoding };
}

/** Chat arguments: the caller's messages (else the example's) and the generation options that are set. */
export function chatInputs(example: ModelInputExample, opts: InferenceSnippetOptions): SnippetInputs {
	const args: Record<string, unknown> = {
		messages: opts.messages ?? (example.kind === "messages" ? example.messages : []),
	};
	// 0 is a meaningful temperature / top_p, so "set" means "not undefined" (3.12.1 drops 0).
	if (opts.temperature !== undefined) args.temperature = opts.temperature;
	if (opts.max_tokens !== undefined) args.max_tokens = opts.max_tokens;
	if (opts.top_p !== undefined) args.top_p = opts.top_p;
	return { args, requestArgs: args };
}

/**
 * Providers that take a file as a data: URL in JSON (`inputs` = the data URL, the helper puts it where the
 * provider reads it), and those that take an audio file as a multipart upload.
 */
const DATA_URL_INPUT: ReadonlySet<string> = /* @__PURE__ */ new Set([
	"replicate automatic-speech-recognition",
	"replicate image-to-image",
	"together image-to-image",
	"together image-to-video",
	"zai-org image-to-text",
]);
const MULTIPART_INPUT: ReadonlySet<string> = /* @__PURE__ */ new Set([
	"deepinfra automatic-speech-recognition",
	"together automatic-speech-recognition",
]);

function pairOf(helper: TaskHelper): string {
	return `${helper.provider.id} ${helper.task}`;
}

function fileInputs(pipeline: string, fileName: string, helper: TaskHelper): SnippetInputs {
	if (pipeline === "zero-shot-image-classification") {
		const parameters = { candidate_labels: [...ZERO_SHOT_IMAGE_LABELS] };
		return {
			args: { inputs: FILE_BLOB, parameters },
			requestArgs: { inputs: { image: FILE_BASE64 }, parameters },
			file: fileOf(fileName, "base64"),
		};
	}
	// fal.ai takes the audio as a data: URL in JSON, and no FLAC: the example file is a WAV of the same
	// name, labelled as the client labels it for fal's decoder (falAudioLabel).
	if (
		(pipeline === "automatic-speech-recognition" || pipeline === "audio-to-audio") &&
		helper.provider.id === "fal-ai"
	) {
		const file = fileOf(fileName.replace(/\.[^./]+$/, ".wav"), "data-url");
		return {
			args: { inputs: FILE_BLOB },
			requestArgs: { audio_url: FILE_DATA_URL },
			file: { ...file, contentType: falAudioLabel(file.contentType) },
		};
	}
	if (MULTIPART_INPUT.has(pairOf(helper))) {
		return {
			args: { inputs: FILE_BLOB },
			requestArgs: { file: multipartPlaceholder(mediaTypeOf(fileName)) },
			file: fileOf(fileName, "multipart"),
		};
	}
	if (DATA_URL_INPUT.has(pairOf(helper))) {
		return {
			args: { inputs: FILE_BLOB },
			requestArgs: { inputs: FILE_DATA_URL },
			file: fileOf(fileName, "data-url"),
		};
	}
	return {
		args: { inputs: FILE_BLOB },
		requestArgs: binaryInput({ inputs: binaryPlaceholder() }),
		file: fileOf(fileName, "binary"),
	};
}

function objectInputs(pipeline: string, value: Record<string, unknown>, helper: TaskHelper): SnippetInputs {
	if (pipeline === "document-question-answering" && typeof value.image === "string") {
		const { image, question } = value;
		return {
			args: { inputs: { image: FILE_BLOB, question } },
			requestArgs: { inputs: { question, image: FILE_BASE64 } },
			file: fileOf(image, "base64"),
		};
	}
	if ((pipeline === "image-to-image" || pipeline === "image-to-video") && typeof value.image === "string") {
		const { image, ...parameters } = value;
		const dataUrl = DATA_URL_INPUT.has(pairOf(helper));
		return {
			args: { inputs: FILE_BLOB, parameters },
			requestArgs: { inputs: dataUrl ? FILE_DATA_URL : FILE_BASE64, parameters },
			file: fileOf(image, dataUrl ? "data-url" : "base64"),
		};
	}
	return { args: { inputs: value }, requestArgs: { inputs: value } };
}

/**
 * Examples for pipelines the task catalogue has none for (image-to-video, new in today's clients): an
 * image to animate and what should happen in it.
 */
export function extraExample(pipeline: string): ModelInputExample | undefined {
	if (pipeline === "image-to-video") {
		return { kind: "object", value: { image: "cat.png", prompt: "The cat turns its head and blinks." } };
	}
	return undefined;
}

/** Inputs of a non-chat task. */
export function taskInputs(pipeline: string, example: ModelInputExample, helper: TaskHelper): SnippetInputs {
	switch (example.kind) {
		case "file":
			return fileInputs(pipeline, example.fileName, helper);
		case "object":
			return objectInputs(pipeline, example.value, helper);
		case "table": {
			const args = { inputs: { data: example.value } };
			return { args, requestArgs: args };
		}
		case "text": {
			const args: Record<string, unknown> =
				pipeline === "zero-shot-classification"
					? { inputs: example.text, parameters: { candidate_labels: [...ZERO_SHOT_TEXT_LABELS] } }
					: { inputs: example.text };
			return { args, requestArgs: args };
		}
		case "messages":
			return { args: { messages: example.messages }, requestArgs: { messages: example.messages } };
	}
}
