import { InferenceOutputError } from "../core/errors.js";
import { downloadBlob } from "../internal/http.js";
import { poll } from "../internal/poll.js";
import { isRecord, isString } from "./checks.js";
import { flatPromptBody } from "./openai-compatible.js";
import type { ProviderDefinition, TaskHelper } from "./types.js";

/**
 * A BFL key goes in the Authorization header with an "X-Key " prefix (not in an X-Key header), as
 * 3.12.1 sends it. Not served by the public router since 2026-07-01: use a BFL key.
 */
const blackForestLabs: ProviderDefinition = {
	id: "black-forest-labs",
	baseUrl: "https://api.us1.bfl.ai",
	keyScheme: "X-Key",
};

/** 5 polls, 1000 ms before each (3.12.1). */
const POLL_ATTEMPTS = 5;
const POLL_MS = 1000;
const POLL_FAILED = "Failed to fetch result from black forest labs API";

/**
 * Polls `polling_url` (with `attempt=0..4`) until the status is `Ready`. The polls carry no
 * credentials (as in 3.12.1: BFL's result URL needs none), so BFL may name any host for them.
 */
export const blackForestLabsTextToImage: TaskHelper<Blob | string> = {
	provider: blackForestLabs,
	task: "text-to-image",
	polls: true,
	makeRoute: ({ model }) => `/v1/${model}`,
	makeBody: (params) => flatPromptBody(params),
	getResponse: (raw, { ctx, outputType, request }) => {
		if (!isRecord(raw) || !isString(raw.polling_url)) throw new InferenceOutputError(POLL_FAILED);
		const pollingUrl = raw.polling_url;
		return poll({
			ctx,
			url: (attempt) => {
				const url = new URL(pollingUrl);
				url.searchParams.set("attempt", String(attempt));
				return url.toString();
			},
			headers: { "Content-Type": "application/json" },
			submitUrl: request.url,
			intervalMs: POLL_MS,
			maxAttempts: POLL_ATTEMPTS,
			read: async (response, attempt) => {
				console.debug(`Polling Black Forest Labs API for the result... ${attempt + 1}/${POLL_ATTEMPTS}`);
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
				return undefined;
			},
			exhausted: () => new InferenceOutputError(POLL_FAILED),
		});
	},
};
