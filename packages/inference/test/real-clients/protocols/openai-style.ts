/**
 * The OpenAI-compatible routes most providers expose under their own paths: chat completions (which
 * need `messages`), completions (which need `prompt`), embeddings (`input`), image generations
 * (`prompt`), speech (`input`) and transcriptions (a multipart `file`). `model` must be the provider's
 * own id for a model it serves.
 */
import { field, knownModel, mediaBytes, onlyKeys, optionalField, stringField } from "./checks.js";
import { postJson } from "./endpoints.js";
import { b64Images, chatCompletion, embeddings, json, mediaReply, textCompletion } from "./replies.js";
import { Refusal, type Endpoint, type ProviderRequest, type Reply } from "./types.js";

/** Every argument of OpenAI's chat completions API; OpenAI itself refuses any other. */
const OPENAI_CHAT_ARGUMENTS = [
	"model",
	"messages",
	"stream",
	"stream_options",
	"temperature",
	"top_p",
	"max_tokens",
	"max_completion_tokens",
	"n",
	"stop",
	"presence_penalty",
	"frequency_penalty",
	"logit_bias",
	"logprobs",
	"top_logprobs",
	"seed",
	"tools",
	"tool_choice",
	"parallel_tool_calls",
	"response_format",
	"user",
	"store",
	"metadata",
	"reasoning_effort",
	"modalities",
	"audio",
	"prediction",
	"service_tier",
	"web_search_options",
	"verbosity",
	"prompt_cache_key",
	"safety_identifier",
] as const;

export function checkMessages(messages: unknown): void {
	if (!Array.isArray(messages) || messages.length === 0) {
		throw new Refusal(400, "'messages' must be a non-empty array");
	}
	for (const [index, message] of messages.entries()) {
		const ok =
			message &&
			typeof message === "object" &&
			typeof (message as { role?: unknown }).role === "string" &&
			(typeof (message as { content?: unknown }).content === "string" ||
				Array.isArray((message as { content?: unknown }).content));
		if (!ok) throw new Refusal(400, `messages[${index}] must have a string 'role' and a 'content'`);
	}
}

function streamFlag(body: Record<string, unknown>): boolean {
	return optionalField(body, "stream", "boolean") === true;
}

export interface ChatOptions {
	/** Refuse arguments OpenAI does not define (OpenAI's own API; compatible servers ignore extras). */
	strictArguments?: boolean;
}

/** POST chat completions: `model` + `messages` required. */
export function chatCompletions(provider: string, path: string, options: ChatOptions = {}): Endpoint {
	return postJson("chat completions", path, ({ body, state }) => {
		if (options.strictArguments) onlyKeys(body, OPENAI_CHAT_ARGUMENTS);
		field(body, "messages", "array");
		checkMessages(body.messages);
		return chatCompletion(knownModel(state, provider, body.model), streamFlag(body));
	});
}

/** POST completions: `model` + `prompt` required (a chat-style body is refused). */
export function completions(provider: string, path: string): Endpoint {
	return postJson("completions", path, ({ body, state }) => {
		if (typeof body.prompt !== "string" && !Array.isArray(body.prompt)) {
			throw new Refusal(400, "'prompt' is a required property");
		}
		return textCompletion(knownModel(state, provider, body.model), streamFlag(body));
	});
}

/** POST embeddings: `model` + `input` (a string or a list of strings). */
export function embeddingsEndpoint(provider: string, path: string): Endpoint {
	return postJson("embeddings", path, ({ body, state }) => {
		const input = body.input;
		if (
			typeof input !== "string" &&
			!(Array.isArray(input) && input.every((item) => typeof item === "string"))
		) {
			throw new Refusal(400, "'input' must be a string or an array of strings");
		}
		return embeddings(knownModel(state, provider, body.model), input);
	});
}

export interface ImageOptions {
	/** The body key that names the model (`model`; hyperbolic: `model_name`). */
	modelKey?: string;
	/** The answer, default `{data: [{b64_json}]}`. */
	reply?: () => Reply;
}

/** POST image generations: the model + `prompt`. */
export function imageGenerations(provider: string, path: string, options: ImageOptions = {}): Endpoint {
	return postJson("image generations", path, ({ body, state }) => {
		stringField(body, "prompt");
		knownModel(state, provider, body[options.modelKey ?? "model"]);
		return (options.reply ?? b64Images)();
	});
}

/** POST audio/speech: `model` + `input` text; answers the audio file itself. */
export function audioSpeech(
	provider: string,
	path: string,
	options: { voiceRequired?: boolean } = {},
): Endpoint {
	return postJson("speech", path, ({ body, state }) => {
		stringField(body, "input");
		if (options.voiceRequired) stringField(body, "voice");
		knownModel(state, provider, body.model);
		return mediaReply("audio.wav");
	});
}

/** The parts of a multipart/form-data body: name → {filename?, bytes}. */
function multipartParts(request: ProviderRequest): Map<string, { filename?: string; bytes: Buffer }> {
	const type = String(request.headers["content-type"] ?? "");
	const boundary = /boundary="?([^";]+)"?/.exec(type)?.[1];
	if (!type.startsWith("multipart/form-data") || !boundary) {
		throw new Refusal(415, `Expected multipart/form-data, got ${type || "no Content-Type"}`);
	}
	const parts = new Map<string, { filename?: string; bytes: Buffer }>();
	const delimiter = Buffer.from(`--${boundary}`);
	let at = request.body.indexOf(delimiter);
	while (at >= 0) {
		const start = at + delimiter.length;
		const next = request.body.indexOf(delimiter, start);
		if (next < 0) break;
		const part = request.body.subarray(start, next);
		const split = part.indexOf("\r\n\r\n");
		if (split >= 0) {
			const head = part.subarray(0, split).toString("utf8");
			const name = /name="([^"]*)"/.exec(head)?.[1];
			const filename = /filename="([^"]*)"/.exec(head)?.[1];
			// The part ends with the CRLF that precedes the next delimiter.
			if (name !== undefined) parts.set(name, { filename, bytes: part.subarray(split + 4, part.length - 2) });
		}
		at = next;
	}
	return parts;
}

/** POST audio/transcriptions (multipart): a `file` part of a readable audio format, and `model`. */
export function audioTranscriptions(provider: string, path: string): Endpoint {
	return {
		name: "transcriptions",
		method: "POST",
		path,
		role: "inference",
		handle(request, _params, state) {
			const parts = multipartParts(request);
			const file = parts.get("file");
			if (!file) throw new Refusal(400, "'file' is a required part");
			mediaBytes(file.bytes, "file", ["wav", "mp3", "flac", "mp4", "webm", "ogg"]);
			knownModel(state, provider, parts.get("model")?.bytes.toString("utf8"));
			return json({
				text: "Hello from the harbour.",
				segments: [{ start: 0, end: 1.2, text: "Hello from the harbour." }],
			});
		},
	};
}
