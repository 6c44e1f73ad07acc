/** Z.ai: chat, async image generation and layout parsing (huggingface.js 4.13.28, huggingface_hub 2.0.0). */
import { InferenceInputError, InferenceOutputError } from "../core/errors.js";
import { download, downloadChecked, pollError } from "../internal/http.js";
import { poll } from "../internal/poll.js";
import { looksLikeUrl } from "../internal/url.js";
import type { ImageToTextOutput } from "../task-io.js";
import { isRecord, isString } from "./checks.js";
import { fileDataUrl, isFileInput } from "./media.js";
import { chatHelper } from "./openai-compatible.js";
import type { ProviderDefinition, TaskHelper } from "./types.js";

/** Z.ai wants to know the calls come from Hugging Face clients, in English. */
const zaiOrg: ProviderDefinition = {
	id: "zai-org",
	baseUrl: "https://api.z.ai",
	extraHeaders: { "x-source-channel": "hugging_face", "accept-language": "en-US,en" },
};

export const zaiOrgConversational = /* @__PURE__ */ chatHelper(zaiOrg, "/api/paas/v4/chat/completions");

/** Image results are polled every 5 s, at most 60 times (huggingface.js 4.13.28). */
const IMAGE_POLL_MS = 5000;
const IMAGE_POLL_ATTEMPTS = 60;

/**
 * Async generation: POST → `{id, task_status}`; GET `/api/paas/v4/async-result/{id}` until SUCCESS;
 * then `image_result[0].url`. Width and height go as Z.ai's `size` ("{w}x{h}", as huggingface_hub 2.0.0 sends them).
 */
export const zaiOrgTextToImage: TaskHelper<Blob | string> = {
	provider: zaiOrg,
	task: "text-to-image",
	polls: true,
	makeRoute: () => "/api/paas/v4/async/images/generations",
	makeBody: ({ args, model }) => {
		const { inputs, parameters, ...rest } = args;
		const { width, height, ...others } = isRecord(parameters) ? parameters : {};
		const size =
			width !== undefined && height !== undefined ? { size: `${width}x${height}` } : { width, height };
		return { ...rest, ...others, ...size, model, prompt: inputs };
	},
	getResponse: async (raw, { ctx, request, outputType }) => {
		if (!isRecord(raw) || !isString(raw.id) || !("task_status" in raw)) {
			throw new InferenceOutputError(
				`Expected { id: string, task_status: string } from Z.ai text-to-image, got: ${JSON.stringify(raw)}`,
			);
		}
		if (raw.task_status === "FAIL") throw new InferenceOutputError("Z.ai text-to-image task failed");
		const routedBase = `${ctx.routerUrl}/zai-org`;
		const base = request.url.startsWith(`${routedBase}/`) ? routedBase : new URL(request.url).origin;
		const url = `${base}/api/paas/v4/async-result/${encodeURIComponent(raw.id)}`;
		const headers = request.init.headers;
		const imageUrl = await poll({
			ctx,
			url,
			headers,
			submitUrl: request.url,
			intervalMs: IMAGE_POLL_MS,
			maxAttempts: IMAGE_POLL_ATTEMPTS,
			read: async (response) => {
				if (!response.ok) {
					throw await pollError(
						`Failed to fetch result from Z.ai text-to-image API: ${response.status}`,
						response,
						url,
						headers,
					);
				}
				const result = (await response.json()) as unknown;
				if (!isRecord(result)) throw new InferenceOutputError("Expected a Z.ai async result");
				if (result.task_status === "FAIL") throw new InferenceOutputError("Z.ai text-to-image task failed");
				if (result.task_status !== "SUCCESS") return undefined;
				const first = Array.isArray(result.image_result) ? (result.image_result[0] as unknown) : undefined;
				if (isRecord(first) && isString(first.url) && looksLikeUrl(first.url)) return first.url;
				throw new InferenceOutputError(
					`Expected { image_result: Array<{ url: string }> } from Z.ai text-to-image, got: ${JSON.stringify(result)}`,
				);
			},
			exhausted: () =>
				new InferenceOutputError(
					`Timed out while waiting for the result from Z.ai - aborting after ${IMAGE_POLL_ATTEMPTS} attempts`,
				),
		});
		return outputType === "url" ? imageUrl : await downloadChecked(imageUrl, ctx, "image");
	},
};

/**
 * Layout parsing: the image as a data: URL in `file` (an http(s) URL input is downloaded first,
 * without credentials); the Markdown it reads is the generated text.
 */
export const zaiOrgImageToText: TaskHelper<ImageToTextOutput> = {
	provider: zaiOrg,
	task: "image-to-text",
	prepare: async (args, ctx) => {
		const { data, inputs, ...rest } = args;
		let image = "data" in args ? data : inputs;
		if (typeof image === "string" && /^https?:\/\//.test(image))
			image = await (await download(image, ctx)).blob();
		if (!isFileInput(image)) {
			throw new InferenceInputError("Z.ai image-to-text requires a URL string or Blob as inputs");
		}
		return { ...rest, inputs: await fileDataUrl(image, "image/png") };
	},
	makeRoute: () => "/api/paas/v4/layout_parsing",
	makeBody: ({ args, model }) => ({ model, file: args.inputs }),
	getResponse: (raw) => {
		const markdown = isRecord(raw) ? raw.md_results : undefined;
		if (isString(markdown)) return { generated_text: markdown };
		throw new InferenceOutputError(
			`Expected { md_results: string } from Z.ai layout parsing, got: ${JSON.stringify(raw)}`,
		);
	},
};
