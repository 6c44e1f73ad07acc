/** Together AI: OpenAI-style chat, completions, images, embeddings, speech and transcriptions; async videos. */
import { InferenceOutputError } from "../core/errors.js";
import { base64ToJpegBlob } from "../internal/base64.js";
import { downloadChecked, pollError } from "../internal/http.js";
import { poll } from "../internal/poll.js";
import type { BodyParams } from "../types.js";
import { isRecord, isString } from "./checks.js";
import { fileArgument, fileDataUrl } from "./media.js";
import {
	b64ImageResponse,
	chatHelper,
	completionsHelper,
	embeddingsHelper,
	speechHelper,
	transcriptionHelper,
} from "./openai-compatible.js";
import type { CallArgs, ProviderDefinition, TaskHelper } from "./types.js";

const together: ProviderDefinition = { id: "together", baseUrl: "https://api.together.xyz" };

/** Together names the step count `steps` and the size `width`/`height` (huggingface.js 4.13.28, huggingface_hub 2.0.0). */
function togetherParameters(parameters: unknown): Record<string, unknown> {
	const { num_inference_steps, target_size, ...rest } = isRecord(parameters) ? parameters : {};
	const out: Record<string, unknown> = { ...rest };
	if (num_inference_steps !== undefined) out.steps = num_inference_steps;
	if (isRecord(target_size)) {
		if (target_size.width !== undefined) out.width = target_size.width;
		if (target_size.height !== undefined) out.height = target_size.height;
	}
	return out;
}

/** outputType "url" asks Together for a hosted URL and returns it; otherwise base64 → JPEG Blob. */
export const togetherTextToImage: TaskHelper<Blob | string> = {
	provider: together,
	task: "text-to-image",
	makeRoute: () => "v1/images/generations",
	makeBody: ({ args, model, outputType }) => {
		const { inputs, parameters, ...rest } = args;
		return {
			...rest,
			...togetherParameters(parameters),
			prompt: inputs,
			response_format: outputType === "url" ? "url" : "base64",
			model,
		};
	},
	getResponse: (raw, context) => {
		const first = isRecord(raw) && Array.isArray(raw.data) ? (raw.data[0] as unknown) : undefined;
		if (context.outputType === "url" && isRecord(first) && isString(first.url)) return first.url;
		return b64ImageResponse(raw, context, "Expected Together text-to-image response format");
	},
};

/**
 * FLUX.1 Kontext takes the image as `image_url`; every other Together image model (FLUX.2, Gemini
 * images) as `reference_images` (docs.together.ai/docs/image-to-image, huggingface.js 4.13.28).
 */
export const togetherImageToImage: TaskHelper<Blob> = {
	provider: together,
	task: "image-to-image",
	prepare: async (args) => {
		const { file, rest } = fileArgument(args, "image");
		return { ...rest, inputs: await fileDataUrl(file, "image/jpeg") } as CallArgs;
	},
	makeRoute: () => "v1/images/generations",
	makeBody: ({ args, model }) => {
		const { inputs, parameters, ...rest } = args;
		const { prompt, ...others } = togetherParameters(parameters);
		const lowered = model.toLowerCase();
		const image =
			lowered.includes("kontext") && lowered.includes("flux.1")
				? { image_url: inputs }
				: { reference_images: [inputs] };
		return { ...rest, prompt: prompt ?? "", ...image, ...others, response_format: "base64", model };
	},
	getResponse: (raw) => {
		const first = isRecord(raw) && Array.isArray(raw.data) ? (raw.data[0] as unknown) : undefined;
		if (isRecord(first) && isString(first.b64_json)) return base64ToJpegBlob(first.b64_json);
		throw new InferenceOutputError("Expected Together image-to-image response format");
	},
};

export const togetherConversational = /* @__PURE__ */ chatHelper(
	together,
	"v1/chat/completions",
	jsonSchemaFormat,
);

/**
 * Together reads a JSON schema at `response_format.schema`, not OpenAI's
 * `response_format.json_schema.schema` (huggingface.js 4.13.28 and huggingface_hub 2.0.0 rewrite it).
 */
function jsonSchemaFormat(body: Record<string, unknown>): Record<string, unknown> {
	const format = body.response_format;
	if (
		isRecord(format) &&
		format.type === "json_schema" &&
		isRecord(format.json_schema) &&
		format.json_schema.schema
	) {
		return { ...body, response_format: { type: "json_schema", schema: format.json_schema.schema } };
	}
	return body;
}

/** Completions (`prompt`); the answer's finish reason and seed come back as `details`. */
export const togetherTextGeneration = /* @__PURE__ */ completionsHelper(
	together,
	"v1/completions",
	"Expected Together text generation response format",
	true,
);

export const togetherFeatureExtraction = /* @__PURE__ */ embeddingsHelper(
	together,
	"v1/embeddings",
	"Expected Together feature-extraction (embeddings) response format",
);

/** Together requires a `voice`; Kokoro models get "af_alloy" when none is given (huggingface.js 4.13.28). */
export const togetherTextToSpeech = /* @__PURE__ */ speechHelper(together, "v1/audio/speech", withVoice);

function withVoice(body: Record<string, unknown>, params: BodyParams): Record<string, unknown> {
	if (body.voice !== undefined || !params.model.toLowerCase().includes("kokoro")) return body;
	return { ...body, voice: "af_alloy" };
}

/** Multipart upload of the audio file, or (as Together also accepts) an http(s) URL in the `file` field. */
export const togetherAutomaticSpeechRecognition = /* @__PURE__ */ transcriptionHelper(
	together,
	"v1/audio/transcriptions",
	"Together",
	true,
);

/** Together's video jobs: polled every 2 s, at most 150 times (~5 minutes; huggingface.js 4.13.28). */
const VIDEO_POLL_MS = 2000;
const VIDEO_POLL_ATTEMPTS = 150;
/** `queued` then `in_progress` (or no status yet) mean "keep polling". */
const VIDEO_PENDING = new Set(["queued", "in_progress"]);

/** POST `/v2/videos` → `{id}`; GET `/v2/videos/{id}` until completed; then `outputs.video_url`. */
function videoHelper(
	task: "text-to-video" | "image-to-video",
	makeBody: (params: BodyParams) => Record<string, unknown>,
	prepare?: TaskHelper["prepare"],
): TaskHelper<Blob> {
	return {
		provider: together,
		task,
		polls: true,
		prepare,
		makeRoute: () => "v2/videos",
		makeBody,
		getResponse: async (raw, { ctx, request }) => {
			if (!isRecord(raw) || !isString(raw.id)) {
				throw new InferenceOutputError("Expected { id: string } from Together video generation");
			}
			const url = `${request.url}/${encodeURIComponent(raw.id)}`;
			const headers = request.init.headers;
			const isPending = (job: Record<string, unknown>) =>
				job.status === undefined || VIDEO_PENDING.has(String(job.status));
			const job = isPending(raw)
				? await poll({
						ctx,
						url,
						headers,
						submitUrl: request.url,
						intervalMs: VIDEO_POLL_MS,
						maxAttempts: VIDEO_POLL_ATTEMPTS,
						read: async (response) => {
							if (!response.ok) {
								throw await pollError("Failed to fetch Together video job result", response, url, headers);
							}
							const body = (await response.json()) as unknown;
							if (!isRecord(body)) throw new InferenceOutputError("Expected a Together video job");
							return isPending(body) ? undefined : body;
						},
						exhausted: () =>
							new InferenceOutputError(
								`Timed out while waiting for Together video generation - aborting after ${VIDEO_POLL_ATTEMPTS} status polls`,
							),
					})
				: raw;
			if (job.status === "failed") {
				const message =
					isRecord(job.error) && isString(job.error.message) ? job.error.message : "Unknown error";
				throw new InferenceOutputError(`Together video generation failed: ${message}`);
			}
			if (job.status !== "completed") {
				throw new InferenceOutputError(`Unexpected Together video job status: ${JSON.stringify(job.status)}`);
			}
			const videoUrl = isRecord(job.outputs) ? job.outputs.video_url : undefined;
			if (!isString(videoUrl))
				throw new InferenceOutputError("No video URL found in completed Together video job");
			return await downloadChecked(videoUrl, ctx, "video");
		},
	};
}

export const togetherTextToVideo = /* @__PURE__ */ videoHelper("text-to-video", ({ args, model }) => {
	const { inputs, parameters, ...rest } = args;
	return { ...rest, ...togetherParameters(parameters), prompt: inputs, model };
});

/** The image as the first keyframe (a data: URL; Together caps the field near 60 KB). */
export const togetherImageToVideo = /* @__PURE__ */ videoHelper(
	"image-to-video",
	({ args, model }) => {
		const { inputs, parameters, ...rest } = args;
		const { prompt, ...others } = togetherParameters(parameters);
		return {
			...rest,
			...others,
			frame_images: [{ input_image: inputs, frame: "first" }],
			model,
			...(isString(prompt) ? { prompt } : {}),
		};
	},
	async (args) => {
		const { file, rest } = fileArgument(args, "image");
		return { ...rest, inputs: await fileDataUrl(file, "image/png") } as CallArgs;
	},
);
