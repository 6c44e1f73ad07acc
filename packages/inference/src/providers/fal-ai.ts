/**
 * fal.ai: images, speech and speech recognition on its synchronous host (fal.run), everything else
 * through its queue (queue.fal.run; routed: `{router}/fal-ai/{id}?_subdomain=queue`): submit, poll
 * `…/status` until COMPLETED, fetch the result, download the file it names.
 */
import { InferenceInputError, InferenceOutputError } from "../core/errors.js";
import { DEFAULT_HUB_URL } from "../config.js";
import { bytesToBase64 } from "../internal/base64.js";
import { download, downloadBlob, downloadChecked } from "../internal/http.js";
import { assertCredentialTarget, onBase, poll } from "../internal/poll.js";
import { looksLikeUrl } from "../internal/url.js";
import type {
	AudioToAudioOutput,
	AutomaticSpeechRecognitionOutput,
	ImageSegmentationOutput,
} from "../task-io.js";
import type { BodyParams, InferenceTask, UrlParams } from "../types.js";
import { isRecord, isString } from "./checks.js";
import { fileArgument, fileDataUrl, fileType } from "./media.js";
import { flatPromptBody, modelRoute } from "./openai-compatible.js";
import type { CallArgs, ProviderDefinition, ResponseContext, TaskHelper } from "./types.js";

/** A fal key is sent as `Authorization: Key {key}`. */
const falAi: ProviderDefinition = { id: "fal-ai", baseUrl: "https://fal.run", keyScheme: "Key" };

const QUEUE_BASE_URL = "https://queue.fal.run";
/** fal's queue is polled every 500 ms (3.12.1 and huggingface.js 4.13.28). */
const QUEUE_POLL_MS = 500;

/**
 * The audio types fal takes as a data: URL, each with the label its decoder maps to a file extension: it
 * refuses audio/wav, audio/wave and audio/webm but decodes the same bytes labelled audio/x-wav or
 * video/webm (verified against fal-ai/whisper, huggingface.js 4.13.28 `fal-ai.ts`). Speech recognition,
 * audio-to-audio and their snippets all label through it.
 */
const FAL_AUDIO_LABELS: Readonly<Record<string, string>> = {
	"audio/mpeg": "audio/mpeg",
	"audio/mp3": "audio/mpeg",
	"audio/mp4": "audio/mp4",
	"audio/wav": "audio/x-wav",
	"audio/wave": "audio/x-wav",
	"audio/x-wav": "audio/x-wav",
	"audio/webm": "video/webm",
	"video/webm": "video/webm",
};

/** The data: URL label fal decodes for audio of `type` (case and parameters such as `;codecs=` ignored). */
export function falAudioLabel(type: string): string {
	const base = type.split(";")[0]?.trim().toLowerCase() ?? "";
	if (!Object.prototype.hasOwnProperty.call(FAL_AUDIO_LABELS, base)) {
		throw new InferenceInputError(
			`Provider fal-ai does not support blob type ${type || "(none)"} - supported content types are: ${Object.keys(FAL_AUDIO_LABELS).join(", ")}`,
		);
	}
	return FAL_AUDIO_LABELS[base]!;
}

function loraLayer(params: BodyParams, withSdxlBase: boolean): Record<string, unknown> {
	const { mapping } = params;
	if (mapping?.adapter !== "lora" || !mapping.adapterWeightsPath) return {};
	const layer: Record<string, unknown> = {
		loras: [
			{
				path: `${DEFAULT_HUB_URL}/${mapping.hfModelId}/resolve/main/${mapping.adapterWeightsPath}`,
				scale: 1,
			},
		],
	};
	if (withSdxlBase && mapping.providerId === "fal-ai/lora") {
		layer.model_name = "stabilityai/stable-diffusion-xl-base-1.0";
	}
	return layer;
}

// ---- Synchronous tasks (fal.run), as in 3.12.1 ----

/**
 * outputType "url" returns the image URL here (3.12.1 ignores it and always downloads). No
 * `sync_mode`: huggingface_hub 2.0.0 (same fal.run route) and huggingface.js 4.13.28 send none, so fal
 * answers a media URL that is downloaded (3.12.1 sent `sync_mode: true`, which inlines the image as a
 * data: URL — a URL huggingface_hub cannot download, so its snippet could not send the same request).
 */
export const falAiTextToImage: TaskHelper<Blob | string> = {
	provider: falAi,
	task: "text-to-image",
	makeRoute: modelRoute,
	makeBody: (params) => {
		const { prompt, ...flat } = flatPromptBody(params);
		return { ...flat, prompt, ...loraLayer(params, true) };
	},
	getResponse: async (raw, { ctx, outputType }) => {
		const first = isRecord(raw) && Array.isArray(raw.images) ? (raw.images[0] as unknown) : undefined;
		if (isRecord(first) && isString(first.url)) {
			return outputType === "url" ? first.url : await downloadBlob(first.url, ctx);
		}
		throw new InferenceOutputError("Expected Fal.ai text-to-image response format");
	},
};

export const falAiTextToSpeech: TaskHelper<Blob> = {
	provider: falAi,
	task: "text-to-speech",
	makeRoute: modelRoute,
	makeBody: (params) => flatPromptBody(params, "text"),
	getResponse: async (raw, { ctx }) => {
		const audio = isRecord(raw) ? raw.audio : undefined;
		if (!isRecord(audio) || !isString(audio.url)) {
			throw new InferenceOutputError(
				`Expected { audio: { url: string } } format from Fal.ai Text-to-Speech, got: ${JSON.stringify(raw)}`,
			);
		}
		const url = audio.url;
		try {
			const response = await download(url, ctx);
			if (!response.ok) throw new Error(`Failed to fetch audio from ${url}: ${response.statusText}`);
			return await response.blob();
		} catch (error) {
			if (ctx.signal?.aborted) throw error;
			const inner = error instanceof Error ? error.message : String(error);
			throw new InferenceOutputError(
				`Error fetching or processing audio from Fal.ai Text-to-Speech URL: ${url}. ${inner}`,
			);
		}
	},
};

/**
 * The audio goes as a data: URL in JSON. Its transcript is `text` (whisper) or `output` (other fal
 * apps), timestamps in `chunks` or `segments` (huggingface.js 4.13.28).
 */
export const falAiAutomaticSpeechRecognition: TaskHelper<AutomaticSpeechRecognitionOutput> = {
	provider: falAi,
	task: "automatic-speech-recognition",
	forceJsonContentType: true,
	prepare: async (args) => {
		const { data, inputs, ...rest } = args;
		const blob = "data" in args ? data : inputs;
		const type = blob instanceof Blob ? blob.type : undefined;
		if (!type) {
			throw new InferenceInputError(
				"Unable to determine the input's content-type. Make sure your are passing a Blob when using provider fal-ai.",
			);
		}
		return { ...rest, audio_url: await fileDataUrl(blob as Blob, type, falAudioLabel(type)) };
	},
	makeRoute: modelRoute,
	makeBody: ({ args }) => args,
	getResponse: (raw) => {
		const text = isRecord(raw) ? (isString(raw.text) ? raw.text : raw.output) : undefined;
		if (!isString(text)) throw new InferenceOutputError("Expected {text: string}");
		const output: AutomaticSpeechRecognitionOutput = { text };
		const record = raw as Record<string, unknown>;
		const chunks: Array<{ text: string; timestamp: number[] }> = [];
		if (Array.isArray(record.chunks)) {
			for (const chunk of record.chunks) {
				if (isRecord(chunk) && isString(chunk.text) && Array.isArray(chunk.timestamp)) {
					chunks.push({ text: chunk.text, timestamp: chunk.timestamp as number[] });
				}
			}
		} else if (Array.isArray(record.segments)) {
			for (const segment of record.segments) {
				if (isRecord(segment) && isString(segment.text)) {
					const start = typeof segment.start === "number" ? segment.start : 0;
					const end = typeof segment.end === "number" ? segment.end : 0;
					chunks.push({ text: segment.text, timestamp: [start, end] });
				}
			}
		}
		if (chunks.length > 0) output.chunks = chunks;
		return output;
	},
};

// ---- The queue ----

/** Direct: queue.fal.run/{id}. Routed: the router's fal-ai route with `?_subdomain=queue`. */
function queueUrl({ authMethod, baseUrl, model }: UrlParams): string {
	return authMethod === "provider-key" ? `${baseUrl}/${model}` : `${baseUrl}/${model}?_subdomain=queue`;
}

/**
 * Submit answer → status polls until COMPLETED → the result JSON. Status and result live under the
 * path of `response_url` (it may name another app than the one mapped) on the submit's own base (the
 * queue host, or the router's fal-ai route), with the submit's query and headers.
 */
async function queueResult(raw: unknown, { ctx, request }: ResponseContext): Promise<unknown> {
	if (!isRecord(raw) || !isString(raw.request_id)) {
		throw new InferenceOutputError("No request ID found in the response");
	}
	const submit = new URL(request.url);
	const routedBase = `${ctx.routerUrl}/fal-ai`;
	const base = request.url.startsWith(`${routedBase}/`) ? routedBase : submit.origin;
	const responseUrl = isString(raw.response_url) ? raw.response_url : request.url;
	const statusUrl = onBase(base, responseUrl, `/status${submit.search}`);
	const resultUrl = onBase(base, responseUrl, submit.search);
	const headers = request.init.headers;
	if (raw.status !== "COMPLETED") {
		await poll({
			ctx,
			url: statusUrl,
			headers,
			submitUrl: request.url,
			intervalMs: QUEUE_POLL_MS,
			read: async (response) => {
				if (!response.ok) {
					await response.body?.cancel().catch(() => undefined);
					throw new InferenceOutputError("Failed to fetch response status from fal-ai API");
				}
				let status: unknown;
				try {
					status = ((await response.json()) as { status?: unknown }).status;
				} catch (error) {
					if (ctx.signal?.aborted) throw error;
					throw new InferenceOutputError("Failed to parse status response from fal-ai API");
				}
				return status === "COMPLETED" ? true : undefined;
			},
		});
	}
	assertCredentialTarget(resultUrl, headers, request.url, ctx.routerUrl);
	const resultResponse = await ctx.fetch(resultUrl, { headers, signal: ctx.signal });
	try {
		return await resultResponse.json();
	} catch (error) {
		if (ctx.signal?.aborted) throw error;
		throw new InferenceOutputError("Failed to parse result response from fal-ai API");
	}
}

/** The URL of a file in a queue result (`images[0].url`, `video.url`, …), or undefined. */
function fileUrl(result: unknown, path: readonly (string | number)[]): string | undefined {
	let value = result;
	for (const key of path)
		value = isRecord(value) ? (value as Record<string | number, unknown>)[key] : undefined;
	return isString(value) && looksLikeUrl(value) ? value : undefined;
}

function resultFormatError(task: string, expected: string, result: unknown): InferenceOutputError {
	return new InferenceOutputError(
		`Expected ${expected} result format from Fal.ai ${task}, got instead: ${JSON.stringify(result)}`,
	);
}

/** A queue task whose result names one file to download. */
function queueFileHelper(
	task: InferenceTask,
	makeBody: (params: BodyParams) => unknown,
	path: readonly (string | number)[],
	expected: string,
	prepare?: TaskHelper["prepare"],
	textOnlyWithoutImage = false,
): TaskHelper<Blob> {
	return {
		provider: falAi,
		task,
		baseUrl: QUEUE_BASE_URL,
		polls: true,
		prepare,
		makeRoute: modelRoute,
		makeUrl: textOnlyWithoutImage ? textOnlyQueueUrl : queueUrl,
		makeBody,
		getResponse: async (raw, context) => {
			const result = await queueResult(raw, context);
			const url = fileUrl(result, path);
			if (!url) throw resultFormatError(task, expected, result);
			return await downloadChecked(url, context.ctx, task);
		},
	};
}

/**
 * fal apps expose their image+text variant one path segment below the text-only one
 * (`fal-ai/flux-2` and `fal-ai/flux-2/edit`); a call without an image goes to the text-only app.
 * Direct calls only: routed, the path is the provider id the router resolves the mapping from
 * (huggingface.js 4.13.28 `dropEndpointSegmentOnDirectCalls`).
 */
function textOnlyQueueUrl(params: UrlParams): string {
	const hasImage = params.args?.image_url !== undefined;
	if (hasImage || params.authMethod !== "provider-key") return queueUrl(params);
	return queueUrl({ ...params, model: params.model.split("/").slice(0, -1).join("/") });
}

/** The image as `image_url` (and `image_urls`, which some apps such as FLUX.2 read), parameters flat. */
async function imageUrlArgs(args: CallArgs, withList: boolean): Promise<CallArgs> {
	const { file, rest } = fileArgument(args, "image");
	const { parameters, ...others } = rest;
	const imageUrl = await fileDataUrl(file, "image/png");
	return {
		...others,
		...(isRecord(parameters) ? parameters : {}),
		image_url: imageUrl,
		...(withList ? { image_urls: [imageUrl] } : {}),
	};
}

/** Image+text tasks: with an image as image-to-image/video does it; without, the prompt from the parameters. */
function imageTextArgs(withList: boolean) {
	return async (args: CallArgs): Promise<CallArgs> => {
		if (args.inputs !== undefined && args.inputs !== null) return imageUrlArgs(args, withList);
		const { inputs: _inputs, parameters, ...rest } = args;
		const flat = isRecord(parameters) ? parameters : {};
		return { ...rest, ...flat, prompt: flat.prompt };
	};
}

const argsWithLora = (params: BodyParams) => ({ ...params.args, ...loraLayer(params, false) });
const promptWithLora = (params: BodyParams) => ({ ...flatPromptBody(params), ...loraLayer(params, false) });
const IMAGES_PATH = ["images", 0, "url"] as const;
const VIDEO_PATH = ["video", "url"] as const;

/** Videos go through fal's queue; LoRA adapters add `loras` (huggingface.js 4.13.28). */
export const falAiTextToVideo: TaskHelper<Blob> = {
	provider: falAi,
	task: "text-to-video",
	baseUrl: QUEUE_BASE_URL,
	polls: true,
	makeRoute: modelRoute,
	makeUrl: queueUrl,
	makeBody: promptWithLora,
	getResponse: async (raw, context) => {
		const result = await queueResult(raw, context);
		const url = fileUrl(result, VIDEO_PATH);
		if (url) return await downloadBlob(url, context.ctx);
		throw new InferenceOutputError(
			`Expected { video: { url: string } } result format, got instead: ${JSON.stringify(result)}`,
		);
	},
};

export const falAiImageToImage = /* @__PURE__ */ queueFileHelper(
	"image-to-image",
	argsWithLora,
	IMAGES_PATH,
	"{ images: Array<{ url: string }> }",
	(args) => imageUrlArgs(args, true),
);

export const falAiImageToVideo = /* @__PURE__ */ queueFileHelper(
	"image-to-video",
	argsWithLora,
	VIDEO_PATH,
	"{ video: { url: string } }",
	(args) => imageUrlArgs(args, false),
);

export const falAiImageTextToImage = /* @__PURE__ */ queueFileHelper(
	"image-text-to-image",
	argsWithLora,
	IMAGES_PATH,
	"{ images: Array<{ url: string }> }",
	/* @__PURE__ */ imageTextArgs(true),
	true,
);

export const falAiImageTextToVideo = /* @__PURE__ */ queueFileHelper(
	"image-text-to-video",
	argsWithLora,
	VIDEO_PATH,
	"{ video: { url: string } }",
	/* @__PURE__ */ imageTextArgs(false),
	true,
);

/** Music and sound: the file is `audio_file` (stable-audio) or `audio`. */
export const falAiTextToAudio: TaskHelper<Blob> = {
	provider: falAi,
	task: "text-to-audio",
	baseUrl: QUEUE_BASE_URL,
	polls: true,
	makeRoute: modelRoute,
	makeUrl: queueUrl,
	makeBody: (params) => flatPromptBody(params),
	getResponse: async (raw, context) => {
		const result = await queueResult(raw, context);
		const url = fileUrl(result, ["audio_file", "url"]) ?? fileUrl(result, ["audio", "url"]);
		if (!url) {
			throw resultFormatError(
				"text-to-audio",
				"{ audio_file: { url: string } } or { audio: { url: string } }",
				result,
			);
		}
		return await downloadChecked(url, context.ctx, "audio");
	},
};

/** A mask image (`image.url`, or a data: URL), returned as one "mask" segment as hf-inference returns them. */
export const falAiImageSegmentation: TaskHelper<ImageSegmentationOutput> = {
	provider: falAi,
	task: "image-segmentation",
	baseUrl: QUEUE_BASE_URL,
	polls: true,
	prepare: async (args) => ({ ...(await imageUrlArgs(args, false)), sync_mode: true }),
	makeRoute: modelRoute,
	makeUrl: queueUrl,
	makeBody: ({ args }) => args,
	getResponse: async (raw, context) => {
		const result = await queueResult(raw, context);
		const image = isRecord(result) ? result.image : undefined;
		const url = isRecord(image) && isString(image.url) ? image.url : undefined;
		if (!url) throw resultFormatError("image-segmentation", "{ image: { url: string } }", result);
		const mask = url.startsWith("data:")
			? url.slice(url.indexOf(",") + 1)
			: bytesToBase64(new Uint8Array(await (await downloadChecked(url, context.ctx, "mask")).arrayBuffer()));
		// fal gives no label or score for its mask: a fixed label and score 1, as huggingface.js 4.13.28 does.
		return [{ label: "mask", score: 1, mask }];
	},
};

/** The audio goes as a data: URL; the answer's audio comes back base64, as hf-inference returns it. */
export const falAiAudioToAudio: TaskHelper<AudioToAudioOutput> = {
	provider: falAi,
	task: "audio-to-audio",
	baseUrl: QUEUE_BASE_URL,
	polls: true,
	prepare: async (args) => {
		const { file, rest } = fileArgument(args, "audio");
		const { parameters, ...others } = rest;
		return {
			...others,
			...(isRecord(parameters) ? parameters : {}),
			audio_url: await fileDataUrl(file, "", falAudioLabel(fileType(file, ""))),
		};
	},
	makeRoute: modelRoute,
	makeUrl: queueUrl,
	makeBody: ({ args }) => args,
	getResponse: async (raw, context) => {
		const result = await queueResult(raw, context);
		const url = fileUrl(result, ["audio", "url"]);
		if (!url || !isRecord(result))
			throw resultFormatError("audio-to-audio", "{ audio: { url: string } }", result);
		const response = await download(url, context.ctx);
		if (!response.ok) {
			await response.body?.cancel().catch(() => undefined);
			throw new InferenceOutputError(`Failed to fetch audio from ${url}: ${response.status}`);
		}
		const bytes = new Uint8Array(await response.arrayBuffer());
		const audio = result.audio as Record<string, unknown>;
		const contentType = isString(audio.content_type)
			? audio.content_type
			: (response.headers.get("content-type") ?? "audio/wav");
		const label = isString(result.text) && result.text.length > 0 ? result.text : "speech";
		return [{ blob: bytesToBase64(bytes), "content-type": contentType, label }];
	},
};
