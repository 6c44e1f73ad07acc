/** Realistic answers shared by the providers: OpenAI-style documents, event streams, media files. */
import { FLAC, MP4, PNG, WAV } from "./media.js";
import type { MediaFile, Reply } from "./types.js";

const CREATED = 1_767_225_600;
let counter = 0;

/** A fresh id with the provider's prefix (`chatcmpl-`, `cmpl-`…). */
function newId(prefix: string): string {
	counter += 1;
	return `${prefix}${counter.toString(36).padStart(8, "0")}`;
}

export function json(value: unknown, status = 200): Reply {
	return { status, json: value };
}

/** An event stream: each payload as one `data:` frame, then `data: [DONE]`. */
function eventStream(payloads: unknown[]): Reply {
	return {
		headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
		sse: [...payloads.map((payload) => `data: ${JSON.stringify(payload)}\n\n`), "data: [DONE]\n\n"],
	};
}

export const CHAT_ANSWER = "The capital of France is Paris.";
export const COMPLETION_ANSWER = " the river carried the news down to the sea.";

/** `/chat/completions`: one document, or chunks ending with a finish reason and usage. */
export function chatCompletion(model: string, stream: boolean): Reply {
	const id = newId("chatcmpl-");
	const usage = { prompt_tokens: 14, completion_tokens: 8, total_tokens: 22 };
	if (!stream) {
		return json({
			id,
			object: "chat.completion",
			created: CREATED,
			model,
			system_fingerprint: "fp_modelhub",
			choices: [
				{
					index: 0,
					message: { role: "assistant", content: CHAT_ANSWER },
					logprobs: null,
					finish_reason: "stop",
				},
			],
			usage,
		});
	}
	const chunk = (delta: Record<string, unknown>, finish: string | null) => ({
		id,
		object: "chat.completion.chunk",
		created: CREATED,
		model,
		system_fingerprint: "fp_modelhub",
		choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
	});
	return eventStream([
		chunk({ role: "assistant", content: "" }, null),
		chunk({ content: "The capital of France" }, null),
		chunk({ content: " is Paris." }, null),
		{ ...chunk({}, "stop"), usage },
	]);
}

/** `/completions`: one document, or text chunks. */
export function textCompletion(model: string, stream: boolean): Reply {
	const id = newId("cmpl-");
	const usage = { prompt_tokens: 9, completion_tokens: 10, total_tokens: 19 };
	const doc = (text: string, finish: string | null) => ({
		id,
		object: "text_completion",
		created: CREATED,
		model,
		choices: [{ index: 0, text, logprobs: null, finish_reason: finish }],
	});
	if (!stream) return json({ ...doc(COMPLETION_ANSWER, "stop"), usage });
	return eventStream([doc(" the river carried", null), doc(" the news down to the sea.", "stop")]);
}

/** `/embeddings`: one vector per input. */
export function embeddings(model: string, inputs: unknown): Reply {
	const count = Array.isArray(inputs) ? inputs.length : 1;
	return json({
		object: "list",
		data: Array.from({ length: count }, (_, index) => ({
			object: "embedding",
			index,
			embedding: [0.0123, -0.0456, 0.0789, 0.0012],
		})),
		model,
		usage: { prompt_tokens: 12, total_tokens: 12 },
	});
}

/** OpenAI-style image generation answer with the image inline. */
export function b64Images(): Reply {
	return json({ created: CREATED, data: [{ b64_json: PNG.toString("base64"), revised_prompt: null }] });
}

export const MEDIA: Record<MediaFile, { type: string; bytes: Buffer }> = {
	"image.png": { type: "image/png", bytes: PNG },
	"audio.wav": { type: "audio/wav", bytes: WAV },
	"audio.flac": { type: "audio/flac", bytes: FLAC },
	"video.mp4": { type: "video/mp4", bytes: MP4 },
};

export function mediaReply(file: MediaFile): Reply {
	const media = MEDIA[file];
	return { headers: { "content-type": media.type }, body: media.bytes };
}
