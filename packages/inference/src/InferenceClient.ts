import {
	prepareRequest,
	prepareRequestSync,
	type PrepareRequestOptions,
	type PreparedInferenceRequest,
} from "./tasks/custom/prepareRequest.js";
import { TASK_FUNCTIONS } from "./tasks/functions.js";
import { fallbackRunner, type FallbackOptions, type WithFallback } from "./lib/fallback.js";
import { FALLBACK_KEY } from "./lib/request.js";
import type { InferenceTask, Options } from "./types.js";

type TaskFunctions = typeof TASK_FUNCTIONS;

/**
 * The methods: the task functions, which on the client also take a provider list and `fallback`
 * (provider fallback); `request` and `streamingRequest` keep their generic signatures.
 */
type ClientMethods = {
	[K in keyof TaskFunctions]: K extends "request" | "streamingRequest"
		? TaskFunctions[K]
		: WithFallback<TaskFunctions[K]>;
};

export type InferenceClientOptions = Options & FallbackOptions & { endpointUrl?: string };

/**
 * One method per task function. Per-call arguments and options win over the client's; the methods
 * are non-enumerable own properties, as in 3.12.1. Methods accept provider fallback (a provider list,
 * or `fallback: true` with "auto"; see lib/fallback.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- methods are attached in the constructor
export class InferenceClient {
	accessToken: string;
	defaultOptions: InferenceClientOptions;

	constructor(accessToken = "", defaultOptions: InferenceClientOptions = {}) {
		this.accessToken = accessToken;
		this.defaultOptions = defaultOptions;
		const { endpointUrl, ...options } = defaultOptions;
		for (const name of Object.keys(TASK_FUNCTIONS) as Array<keyof TaskFunctions>) {
			const fn = TASK_FUNCTIONS[name] as (args: Record<string, unknown>, options?: object) => unknown;
			Object.defineProperty(this, name, {
				enumerable: false,
				value: (params: Record<string, unknown>, callOptions?: Options) =>
					fn(
						{ endpointUrl, accessToken, ...params },
						{ ...options, ...callOptions, [FALLBACK_KEY]: fallbackRunner },
					),
			});
		}
	}

	/** A client for an inference endpoint URL, with the same token and options. */
	endpoint(endpointUrl: string): InferenceClient {
		return new InferenceClient(this.accessToken, { ...this.defaultOptions, endpointUrl });
	}

	/** `prepareRequest` with this client's token, endpoint and options: the request a call would send. */
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any task function, whatever its argument types
	prepareRequest<F extends (args: any, options?: any) => unknown>(
		target: F | InferenceTask,
		args: Parameters<F>[0],
		options?: PrepareRequestOptions,
	): Promise<PreparedInferenceRequest> {
		const { endpointUrl, ...defaults } = this.defaultOptions;
		return prepareRequest(
			target,
			{ endpointUrl, accessToken: this.accessToken, ...args },
			{ ...defaults, ...options },
		);
	}

	/** `prepareRequestSync` with this client's token, endpoint and options: pure, no I/O. */
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any task function, whatever its argument types
	prepareRequestSync<F extends (args: any, options?: any) => unknown>(
		target: F | InferenceTask,
		args: Parameters<F>[0],
		options?: PrepareRequestOptions,
	): PreparedInferenceRequest {
		const { endpointUrl, ...defaults } = this.defaultOptions;
		return prepareRequestSync(
			target,
			{ endpointUrl, accessToken: this.accessToken, ...args },
			{ ...defaults, ...options },
		);
	}
}

// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type -- typed methods of the class above
export interface InferenceClient extends ClientMethods {}

/** @deprecated Use InferenceClient. */
export class HfInference extends InferenceClient {}

/** @deprecated Use InferenceClient with `endpointUrl`, or `client.endpoint(url)`. */
export class InferenceClientEndpoint extends InferenceClient {}
