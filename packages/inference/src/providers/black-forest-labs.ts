import { InferenceOutputError } from "../core/errors.js";
import type { CallContext } from "../internal/context.js";
import { downloadBlob } from "../internal/http.js";
import { sleep } from "../internal/retry.js";
import { isRecord, isString } from "./checks.js";
import { flatPromptBody } from "./openai-compatible.js";
import type { ProviderDefinition, TaskHelper } from "./types.js";

/** A BFL key goes in the Authorization header with an "X-Key " prefix (not in an X-Key header). */
export const blackForestLabs: ProviderDefinition = {
	id: "black-forest-labs",
	baseUrl: "https://api.us1.bfl.ai",
	authHeader: (token, authMethod) => (authMethod === "provider-key" ? `X-Key ${token}` : `Bearer ${token}`),
};

const POLL_ATTEMPTS = 5;
const POLL_FAILED = "Failed to fetch result from black forest labs API";

/** Polls `polling_url` (attempt=0..4, a wait before each) until the status is `Ready`. */
async function pollForResult(pollingUrl: string, ctx: CallContext, outputType: "url" | "blob" | undefined) {
	for (let attempt = 0; attempt < POLL_ATTEMPTS; attempt++) {
		await sleep(ctx.timings.bflPollMs, ctx.signal);
		console.debug(`Polling Black Forest Labs API for the result... ${attempt + 1}/${POLL_ATTEMPTS}`);
		const url = new URL(pollingUrl);
		url.searchParams.set("attempt", String(attempt));
		const response = await ctx.fetch(url.toString(), {
			headers: { "Content-Type": "application/json" },
			signal: ctx.signal,
		});
		if (!response.ok) {
			await response.body?.cancel().catch(() => undefined);
			throw new InferenceOutputError(POLL_FAILED);
		}
		const payload = (await response.json()) as unknown;
		if (
			isRecord(payload) &&
			payload.status === "Ready" &&
			isRecord(payload.result) &&
			isString(payload.result.sample)
		) {
			const sample = payload.result.sample;
			return outputType === "url" ? sample : await downloadBlob(sample, ctx);
		}
	}
	throw new InferenceOutputError(POLL_FAILED);
}

export const blackForestLabsTextToImage: TaskHelper<Blob | string> = {
	provider: blackForestLabs,
	task: "text-to-image",
	makeRoute: ({ model }) => `/v1/${model}`,
	makeBody: (params) => flatPromptBody(params),
	getResponse: (raw, { ctx, outputType }) => {
		if (!isRecord(raw) || !isString(raw.polling_url)) throw new InferenceOutputError(POLL_FAILED);
		return pollForResult(raw.polling_url, ctx, outputType);
	},
};
