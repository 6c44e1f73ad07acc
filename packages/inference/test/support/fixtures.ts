import type { Options } from "../../src/types.js";
import type { Route } from "./servers.js";

export const HF_TOKEN = "hf_test_token_0123456789";
export const PROVIDER_KEY = "sk-provider-key-0123456789";
/** Our name/version, then the runtime's navigator.userAgent where there is one (Node ≥ 21). */
const runtimeAgent = (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent;
export const USER_AGENT = runtimeAgent
	? `@modelhub/inference/0.1.0 ${runtimeAgent}`
	: "@modelhub/inference/0.1.0";

/** Internal option that shrinks every wait (backoff, polling) for tests. */
export const FAST = {
	[Symbol.for("modelhub.inference.timings")]: {
		backoff: { baseMs: 1, capMs: 4, floorMs: 1 },
		pollIntervalMs: 1,
	},
} as Options;

export interface MappingEntry {
	providerId: string;
	status: "live" | "staging";
	task: string;
	adapter?: string;
	adapterWeightsPath?: string;
}

/** GET {hub}/api/models/{id}?expand[]=inferenceProviderMapping answering the given mapping. */
export function hubModel(
	modelId: string,
	mapping: Record<string, MappingEntry>,
	host = "huggingface.co",
): Route {
	return {
		method: "GET",
		path: `/${host}/api/models/${modelId}?expand[]=inferenceProviderMapping`,
		respond: { json: { _id: "x", id: modelId, inferenceProviderMapping: mapping } },
	};
}

export const CHAT_OUTPUT = {
	id: "chatcmpl-1",
	object: "chat.completion",
	created: 1700000000,
	model: "provider-model",
	system_fingerprint: "fp_1",
	choices: [{ index: 0, message: { role: "assistant", content: "Paris." }, finish_reason: "stop" }],
	usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
};

export const MESSAGES = [{ role: "user", content: "What is the capital of France?" }];

export function chatChunk(content: string, index = 0) {
	return {
		id: "chatcmpl-1",
		object: "chat.completion.chunk",
		created: 1700000000,
		model: "provider-model",
		system_fingerprint: "fp_1",
		choices: [{ index, delta: { role: "assistant", content }, finish_reason: null }],
	};
}

/** SSE frames for the given payloads, then [DONE]. */
export function sseFrames(payloads: unknown[]): string[] {
	return [...payloads.map((payload) => `data: ${JSON.stringify(payload)}\n\n`), "data: [DONE]\n\n"];
}

export const isStreaming = (request: { json?: unknown }) =>
	(request.json as { stream?: boolean } | undefined)?.stream === true;
export const notStreaming = (request: { json?: unknown }) => !isStreaming(request);

/** Quiet console for 3.12.1's notices; returns the spies. */
export const PNG_BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
export const B64_IMAGE = Buffer.from(PNG_BYTES).toString("base64");

/** A multipart body the server received, read back with the platform's own parser. */
export async function formOf(request: { body: Buffer; headers: Record<string, unknown> }): Promise<FormData> {
	return await new Response(new Uint8Array(request.body), {
		headers: { "content-type": String(request.headers["content-type"]) },
	}).formData();
}

/** A chat model mapped to together: the scene of the fault and hardening tests. */
export const TOGETHER_CHAT = {
	model: "org/chat",
	mapping: hubModel("org/chat", {
		together: { providerId: "together-chat", status: "live", task: "conversational" },
	}),
	/** Where the call goes with a hub token (or none), and with a together key. */
	routed: "/router.huggingface.co/together/v1/chat/completions",
	direct: "/api.together.xyz/v1/chat/completions",
} as const;

/**
 * One fal.ai queue job for app `fal-ai/{app}` (a model of the same name mapped to it): the submit answers
 * `{request_id: "r", status, response_url}`, then GET …/requests/r/status and GET …/requests/r answer
 * `status` and `result` (absent: no route). `routed`: through the router, else on queue.fal.run.
 */
export function falQueueJob(job: {
	app: string;
	task: string;
	routed?: boolean;
	submitStatus?: string;
	status?: Route["respond"];
	result?: Route["respond"];
}): { model: string; base: string; routes: Route[] } {
	const base = job.routed
		? `/router.huggingface.co/fal-ai/fal-ai/${job.app}`
		: `/queue.fal.run/fal-ai/${job.app}`;
	const model = `org/${job.app}`;
	const routes: Route[] = [
		hubModel(model, { "fal-ai": { providerId: `fal-ai/${job.app}`, status: "live", task: job.task } }),
		{
			path: base,
			respond: {
				json: {
					request_id: "r",
					status: job.submitStatus ?? "IN_QUEUE",
					response_url: `https://queue.fal.run/fal-ai/${job.app}/requests/r`,
				},
			},
		},
	];
	if (job.status) routes.push({ method: "GET", path: `${base}/requests/r/status`, respond: job.status });
	if (job.result) routes.push({ method: "GET", path: `${base}/requests/r`, respond: job.result });
	return { model, base, routes };
}
