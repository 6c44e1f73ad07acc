import { InferenceOutputError } from "../core/errors.js";
import { downloadChecked, pollError } from "../internal/http.js";
import { poll } from "../internal/poll.js";
import { looksLikeUrl } from "../internal/url.js";
import { isRecord, isString } from "./checks.js";
import { chatHelper, completionsHelper } from "./openai-compatible.js";
import type { ProviderDefinition, TaskHelper } from "./types.js";

const novita: ProviderDefinition = { id: "novita", baseUrl: "https://api.novita.ai" };

export const novitaConversational = /* @__PURE__ */ chatHelper(novita, "/v3/openai/chat/completions");

/**
 * Novita's OpenAI-compatible completions route with `prompt`, as huggingface_hub 2.0.0 calls it, with
 * its finish reason and seed as details. 3.12.1 posted `{inputs, parameters}` to the chat route,
 * which refuses a body without `messages`.
 */
export const novitaTextGeneration = /* @__PURE__ */ completionsHelper(
	novita,
	"/v3/openai/completions",
	"Expected Array<{generated_text: string}>",
	true,
);

/** Novita's async task API: the result is polled every 500 ms (huggingface.js 4.13.28). */
const TASK_POLL_MS = 500;
const SUCCEEDED = "TASK_STATUS_SUCCEED";
const FAILED = "TASK_STATUS_FAILED";

/**
 * Videos through the async API: POST `/v3/async/{id}` → `{task_id}`; GET
 * `/v3/async/task-result?task_id=…` until the task succeeds or fails; then `videos[0].video_url`.
 */
export const novitaTextToVideo: TaskHelper<Blob> = {
	provider: novita,
	task: "text-to-video",
	polls: true,
	makeRoute: ({ model }) => `/v3/async/${model}`,
	makeBody: ({ args }) => {
		const { inputs, parameters, ...rest } = args;
		const { num_inference_steps, ...others } = isRecord(parameters) ? parameters : {};
		return { ...rest, ...others, steps: num_inference_steps, prompt: inputs };
	},
	getResponse: async (raw, { ctx, request }) => {
		if (!isRecord(raw) || !isString(raw.task_id)) {
			throw new InferenceOutputError("Expected { task_id: string } from Novita text-to-video");
		}
		const routedBase = `${ctx.routerUrl}/novita`;
		const base = request.url.startsWith(`${routedBase}/`) ? routedBase : new URL(request.url).origin;
		const url = `${base}/v3/async/task-result?task_id=${encodeURIComponent(raw.task_id)}`;
		const headers = request.init.headers;
		const result = await poll({
			ctx,
			url,
			headers,
			submitUrl: request.url,
			intervalMs: TASK_POLL_MS,
			read: async (response) => {
				if (!response.ok) throw await pollError("Failed to fetch task result", response, url, headers);
				const body = (await response.json()) as unknown;
				const status = isRecord(body) && isRecord(body.task) ? body.task.status : undefined;
				if (!isString(status)) {
					throw new InferenceOutputError("Expected { task: { status: string } } from Novita text-to-video");
				}
				if (status === FAILED) throw new InferenceOutputError("Novita text-to-video task failed");
				return status === SUCCEEDED ? body : undefined;
			},
		});
		const videos = isRecord(result) ? result.videos : undefined;
		const first = Array.isArray(videos) ? (videos[0] as unknown) : undefined;
		if (isRecord(first) && isString(first.video_url) && looksLikeUrl(first.video_url)) {
			return await downloadChecked(first.video_url, ctx, "video");
		}
		throw new InferenceOutputError(
			`Expected { videos: [{ video_url: string }] } format from Novita text-to-video, got instead: ${JSON.stringify(result)}`,
		);
	},
};
