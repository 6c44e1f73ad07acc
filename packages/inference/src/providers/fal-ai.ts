import { InferenceOutputError } from "../core/errors.js";
import { DEFAULT_HUB_URL } from "../config.js";
import { download, downloadBlob } from "../internal/http.js";
import { sleep } from "../internal/retry.js";
import { looksLikeUrl } from "../internal/url.js";
import type { BodyParams } from "../types.js";
import { checkTranscription, isRecord, isString } from "./checks.js";
import { flatPromptBody } from "./openai-compatible.js";
import type { ProviderDefinition, ResponseContext, TaskHelper } from "./types.js";

/** A fal key is sent as `Authorization: Key {key}`. */
export const falAi: ProviderDefinition = {
	id: "fal-ai",
	baseUrl: "https://fal.run",
	authHeader: (token, authMethod) => (authMethod === "provider-key" ? `Key ${token}` : `Bearer ${token}`),
};

/** The speech-recognition input types fal accepts (sent as a data: URL). */
export const FAL_AI_AUDIO_TYPES = ["audio/mpeg", "audio/mp4", "audio/wav", "audio/x-wav"];

const modelRoute = ({ model }: { model: string }) => `/${model}`;

function loraLayer(params: BodyParams): Record<string, unknown> {
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
	if (mapping.providerId === "fal-ai/lora") layer.model_name = "stabilityai/stable-diffusion-xl-base-1.0";
	return layer;
}

/** outputType "url" returns the image URL here (3.12.1 ignores it and always downloads). */
export const falAiTextToImage: TaskHelper<Blob | string> = {
	provider: falAi,
	task: "text-to-image",
	makeRoute: modelRoute,
	makeBody: (params) => {
		const { prompt, ...flat } = flatPromptBody(params);
		return { ...flat, sync_mode: true, prompt, ...loraLayer(params) };
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

/** Queue polling: status every falPollMs (3.12.1: 500 ms) until COMPLETED, then the result, then the video. */
async function pollQueue(raw: Record<string, unknown>, { ctx, request }: ResponseContext): Promise<Blob> {
	const requestUrl = new URL(request.url);
	const routedBase = `${ctx.routerUrl}/fal-ai`;
	const base = request.url.startsWith(routedBase) ? routedBase : `${requestUrl.protocol}//${requestUrl.host}`;
	const path = new URL(String(raw.response_url)).pathname;
	const query = requestUrl.search;
	const headers = request.init.headers;
	let status = raw.status;
	while (status !== "COMPLETED") {
		await sleep(ctx.timings.falPollMs, ctx.signal);
		const response = await ctx.fetch(`${base}${path}/status${query}`, { headers, signal: ctx.signal });
		if (!response.ok) {
			await response.body?.cancel().catch(() => undefined);
			throw new InferenceOutputError("Failed to fetch response status from fal-ai API");
		}
		try {
			status = ((await response.json()) as { status?: unknown }).status;
		} catch (error) {
			if (ctx.signal?.aborted) throw error;
			throw new InferenceOutputError("Failed to parse status response from fal-ai API");
		}
	}
	const resultResponse = await ctx.fetch(`${base}${path}${query}`, { headers, signal: ctx.signal });
	let result: unknown;
	try {
		result = await resultResponse.json();
	} catch (error) {
		if (ctx.signal?.aborted) throw error;
		throw new InferenceOutputError("Failed to parse result response from fal-ai API");
	}
	const video = isRecord(result) ? result.video : undefined;
	if (isRecord(video) && isString(video.url) && looksLikeUrl(video.url))
		return await downloadBlob(video.url, ctx);
	throw new InferenceOutputError(
		`Expected { video: { url: string } } result format, got instead: ${JSON.stringify(result)}`,
	);
}

/** Videos go through fal's queue: queue.fal.run directly, or the router with `?_subdomain=queue`. */
export const falAiTextToVideo: TaskHelper<Blob> = {
	provider: falAi,
	task: "text-to-video",
	baseUrl: "https://queue.fal.run",
	makeRoute: modelRoute,
	makeUrl: ({ authMethod, baseUrl, model }) =>
		authMethod === "provider-key" ? `${baseUrl}/${model}` : `${baseUrl}/${model}?_subdomain=queue`,
	makeBody: (params) => flatPromptBody(params),
	getResponse: async (raw, context) => {
		if (!isRecord(raw) || !isString(raw.request_id)) {
			throw new InferenceOutputError("No request ID found in the response");
		}
		return await pollQueue(raw, context);
	},
};

/** The body ({audio_url: data URL, ...}) is built by the task function; JSON even though it started as a Blob. */
export const falAiAutomaticSpeechRecognition: TaskHelper<{ text: string }> = {
	provider: falAi,
	task: "automatic-speech-recognition",
	forceJsonContentType: true,
	makeRoute: modelRoute,
	makeBody: ({ args }) => args,
	getResponse: (raw) => {
		checkTranscription(raw);
		return { text: raw.text };
	},
};
