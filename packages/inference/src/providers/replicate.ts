import { InferenceOutputError } from "../core/errors.js";
import { downloadBlob } from "../internal/http.js";
import { sleep } from "../internal/retry.js";
import { looksLikeUrl } from "../internal/url.js";
import type { BodyParams, UrlParams } from "../types.js";
import { isRecord, isString } from "./checks.js";
import type { ProviderDefinition, ResponseContext, TaskHelper } from "./types.js";

/** `Prefer: wait` asks Replicate to hold the response until the prediction is done (up to its limit). */
export const replicate: ProviderDefinition = {
	id: "replicate",
	baseUrl: "https://api.replicate.com",
	extraHeaders: { Prefer: "wait" },
};

/** "owner/name:version" ids use the versioned endpoint; others the model's own predictions endpoint. */
function predictionsRoute({ model }: UrlParams): string {
	return model.includes(":") ? "v1/predictions" : `v1/models/${model}/predictions`;
}

function predictionBody(params: BodyParams, input: Record<string, unknown>): Record<string, unknown> {
	const body: Record<string, unknown> = { input };
	if (params.model.includes(":")) body.version = params.model.split(":")[1];
	return body;
}

function inputLayers(params: BodyParams): Record<string, unknown> {
	const { inputs, parameters, ...rest } = params.args;
	return { ...rest, ...(isRecord(parameters) ? parameters : {}), prompt: inputs };
}

const PENDING = new Set(["starting", "processing"]);

/**
 * When `Prefer: wait` gave up before the prediction finished, the answer is still `starting` or
 * `processing` with a `urls.get` to poll. 3.12.1 fails there; we poll until it settles.
 */
async function settle(raw: unknown, { ctx, request }: ResponseContext): Promise<unknown> {
	let prediction = raw;
	while (
		isRecord(prediction) &&
		PENDING.has(String(prediction.status)) &&
		prediction.output == null &&
		isRecord(prediction.urls) &&
		isString(prediction.urls.get)
	) {
		await sleep(ctx.timings.replicatePollMs, ctx.signal);
		const { "Content-Type": _json, ...headers } = request.init.headers;
		const response = await ctx.fetch(prediction.urls.get, { headers, signal: ctx.signal });
		if (!response.ok) {
			await response.body?.cancel().catch(() => undefined);
			break;
		}
		prediction = await response.json();
	}
	return prediction;
}

export const replicateTextToImage: TaskHelper<Blob | string> = {
	provider: replicate,
	task: "text-to-image",
	makeRoute: predictionsRoute,
	makeBody: (params) => {
		const input = inputLayers(params);
		const { mapping } = params;
		if (mapping?.adapter === "lora" && mapping.adapterWeightsPath) {
			input.lora_weights = `https://huggingface.co/${mapping.hfModelId}`;
		}
		return predictionBody(params, input);
	},
	getResponse: async (raw, context) => {
		const prediction = await settle(raw, context);
		const output = isRecord(prediction) ? prediction.output : undefined;
		if (Array.isArray(output) && output.length > 0 && isString(output[0])) {
			return context.outputType === "url" ? output[0] : await downloadBlob(output[0], context.ctx);
		}
		throw new InferenceOutputError("Expected Replicate text-to-image response format");
	},
};

export const replicateTextToSpeech: TaskHelper<Blob> = {
	provider: replicate,
	task: "text-to-speech",
	makeRoute: predictionsRoute,
	makeBody: (params) => {
		const { prompt: _prompt, ...input } = inputLayers(params);
		return predictionBody(params, { ...input, text: params.args.inputs });
	},
	getResponse: async (raw, context) => {
		if (raw instanceof Blob) return raw;
		const prediction = await settle(raw, context);
		if (isRecord(prediction)) {
			const output = prediction.output;
			if (isString(output)) return await downloadBlob(output, context.ctx);
			if (Array.isArray(output) && isString(output[0])) return await downloadBlob(output[0], context.ctx);
		}
		throw new InferenceOutputError("Expected Blob or object with output");
	},
};

export const replicateTextToVideo: TaskHelper<Blob> = {
	provider: replicate,
	task: "text-to-video",
	makeRoute: predictionsRoute,
	makeBody: (params) => predictionBody(params, inputLayers(params)),
	getResponse: async (raw, context) => {
		const prediction = await settle(raw, context);
		const output = isRecord(prediction) ? prediction.output : undefined;
		if (isString(output) && looksLikeUrl(output)) return await downloadBlob(output, context.ctx);
		throw new InferenceOutputError("Expected { output: string }");
	},
};
