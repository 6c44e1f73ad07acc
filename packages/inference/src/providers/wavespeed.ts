/**
 * WaveSpeedAI: every task is `POST /api/v3/{providerId}`, answered with a task whose `data.urls.get`
 * is polled until `data.status` is completed; then `data.outputs[0]` is the file.
 */
import { InferenceInputError, InferenceOutputError } from "../core/errors.js";
import { downloadChecked, pollError } from "../internal/http.js";
import { onBase, poll } from "../internal/poll.js";
import type { BodyParams, InferenceTask } from "../types.js";
import { isRecord, isString } from "./checks.js";
import { fileBase64, type FileInput, isFileInput } from "./media.js";
import type { CallArgs, ProviderDefinition, TaskHelper } from "./types.js";

const wavespeed: ProviderDefinition = { id: "wavespeed", baseUrl: "https://api.wavespeed.ai" };

/** Results are polled every 500 ms (huggingface.js 4.13.28, huggingface_hub 2.0.0). */
const RESULT_POLL_MS = 500;
const PENDING = new Set(["created", "processing"]);

/** A 1×1 transparent PNG: the image of image+text tasks called without one (huggingface.js 4.13.28). */
const BLANK_PNG =
	"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

/** Other arguments, parameters flat (but `images`), `prompt` = inputs, and a LoRA for LoRA adapters. */
function taskBody({ args, mapping }: BodyParams): Record<string, unknown> {
	const { inputs, parameters, ...rest } = args;
	const { images: _images, ...flat } = isRecord(parameters) ? parameters : {};
	const body: Record<string, unknown> = { ...rest, ...flat, prompt: inputs };
	if (mapping?.adapter === "lora") body.loras = [{ path: mapping.hfModelId, scale: 1 }];
	return body;
}

/**
 * The image as bare base64 in `image` (no data: prefix) and in `images` unless the caller gives
 * their own list; the prompt comes from the parameters.
 */
async function imageArgs(args: CallArgs, optional: boolean): Promise<CallArgs> {
	const { inputs, data, ...rest } = args;
	const given = "data" in args ? data : inputs;
	if (!isFileInput(given) && !(optional && (given === undefined || given === null))) {
		throw new InferenceInputError(`Expected a Blob or ArrayBuffer as the image input, got ${typeof given}.`);
	}
	const image = isFileInput(given) ? await fileBase64(given as FileInput) : BLANK_PNG;
	const parameters = isRecord(rest.parameters) ? rest.parameters : {};
	const callerImages = rest.images ?? parameters.images;
	const images = Array.isArray(callerImages) && callerImages.every(isString) ? callerImages : [image];
	return { ...rest, inputs: parameters.prompt, image, images };
}

function wavespeedHelper(task: InferenceTask, prepare?: TaskHelper["prepare"]): TaskHelper<Blob | string> {
	return {
		provider: wavespeed,
		task,
		polls: true,
		prepare,
		makeRoute: ({ model }) => `/api/v3/${model}`,
		makeBody: taskBody,
		getResponse: async (raw, { ctx, request, outputType }) => {
			const submitted = isRecord(raw) && isRecord(raw.data) ? raw.data : undefined;
			const getUrl = isRecord(submitted?.urls) ? submitted.urls.get : undefined;
			if (!isString(getUrl)) {
				throw new InferenceOutputError("Expected { data: { urls: { get: string } } } from WaveSpeed AI");
			}
			const routedBase = `${ctx.routerUrl}/wavespeed`;
			const base = request.url.startsWith(`${routedBase}/`) ? routedBase : new URL(request.url).origin;
			const url = onBase(base, getUrl);
			const headers = request.init.headers;
			const output = await poll({
				ctx,
				url,
				headers,
				submitUrl: request.url,
				intervalMs: RESULT_POLL_MS,
				waitFirst: false,
				read: async (response) => {
					if (!response.ok) {
						throw await pollError(
							"Failed to fetch response status from WaveSpeed AI API",
							response,
							url,
							headers,
						);
					}
					const body = (await response.json()) as unknown;
					const result = isRecord(body) && isRecord(body.data) ? body.data : undefined;
					const status = result?.status;
					if (status === "completed") {
						const first = Array.isArray(result?.outputs) ? (result.outputs[0] as unknown) : undefined;
						if (!isString(first))
							throw new InferenceOutputError("No output URL in the completed WaveSpeed AI task");
						return first;
					}
					if (status === "failed") {
						throw new InferenceOutputError(
							isString(result?.error) && result.error ? result.error : "Task failed",
						);
					}
					if (PENDING.has(String(status))) return undefined;
					throw new InferenceOutputError(`Unexpected WaveSpeed AI task status: ${JSON.stringify(status)}`);
				},
			});
			return outputType === "url" ? output : await downloadChecked(output, ctx, "generation output");
		},
	};
}

export const wavespeedTextToImage = /* @__PURE__ */ wavespeedHelper("text-to-image");
export const wavespeedTextToVideo = /* @__PURE__ */ wavespeedHelper("text-to-video");
export const wavespeedImageToImage = /* @__PURE__ */ wavespeedHelper("image-to-image", (args) =>
	imageArgs(args, false),
);
export const wavespeedImageToVideo = /* @__PURE__ */ wavespeedHelper("image-to-video", (args) =>
	imageArgs(args, false),
);
export const wavespeedImageTextToImage = /* @__PURE__ */ wavespeedHelper("image-text-to-image", (args) =>
	imageArgs(args, true),
);
export const wavespeedImageTextToVideo = /* @__PURE__ */ wavespeedHelper("image-text-to-video", (args) =>
	imageArgs(args, true),
);
