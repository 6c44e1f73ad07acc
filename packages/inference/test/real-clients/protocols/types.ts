/**
 * The shape of a protocol server: one `ProviderProtocol` per provider (one file each), a table of
 * endpoints per host, each endpoint a small function from the request the provider receives to the
 * reply it gives — refusing (`Refusal`, answered in the provider's own error shape) what the real API
 * refuses.
 */
import type { IncomingHttpHeaders } from "node:http";

/** How the request authenticated, as the server read it. */
export type Credential =
	/** A hub token (`hf_…`) that the router accepted. */
	| { kind: "hub" }
	/** The provider's own key, in the provider's header form. */
	| { kind: "key" }
	/** Nothing usable: `reason` says what was wrong (sent in the provider's 401). */
	| { kind: "none"; reason: string };

/** A request as the provider sees it, after the harness restored its original host. */
export interface ProviderRequest {
	method: string;
	/** Original host, e.g. `api.together.xyz` (for routed calls, the provider's own host). */
	host: string;
	/** Path below the provider's base (routed calls lose their `/{provider}` prefix). */
	path: string;
	query: URLSearchParams;
	headers: IncomingHttpHeaders;
	body: Buffer;
	/** The body parsed, when the request says it is JSON and it parses. */
	json?: unknown;
	/** Set when the request said JSON but the body did not parse. */
	jsonError?: string;
	via: "direct" | "router";
	credential: Credential;
	/** `https://{host}` or `https://router.huggingface.co/{provider}`: the base the client called. */
	base: string;
}

export interface Reply {
	status?: number;
	headers?: Record<string, string>;
	/** Sent as application/json. */
	json?: unknown;
	/** A raw body; its type goes in `headers`. */
	body?: Uint8Array | string;
	/** Server-sent events, each string one frame. */
	sse?: string[];
}

/**
 * Thrown by an endpoint to refuse a request; the server answers `status` with the provider's error
 * body for `message`, and the harness reports the message.
 */
export class Refusal extends Error {
	constructor(
		readonly status: number,
		message: string,
		readonly code?: string,
	) {
		super(message);
		this.name = "Refusal";
	}
}

/** Provider-side state the endpoints share: the model catalogue and jobs in flight. */
export interface ProtocolState {
	/** Whether `provider` serves the provider-side model id (for `task`, when given). */
	knows(provider: string, modelId: string, task?: string): boolean;
	/** The provider-side ids `provider` serves. */
	models(provider: string): string[];
	/** The task `provider` serves a model for (apps that are called by id alone, like fal.ai's). */
	taskOf(provider: string, modelId: string): string | undefined;
	/** The hub's record of a model, if the hub has it. */
	hubModel(id: string): HubModel | undefined;
	/** Stores a job (queue request, prediction…) and returns its id. */
	addJob(provider: string, job: Job): string;
	job(provider: string, id: string): Job | undefined;
	/** An absolute https URL on the provider's media host that serves `file`. */
	mediaUrl(host: string, file: MediaFile): string;
}

export type MediaFile = "image.png" | "audio.wav" | "audio.flac" | "video.mp4";

export interface Job {
	/** The provider-side model id the job runs. */
	model: string;
	/** What the finished job answers (the provider's result document). */
	result: unknown;
	/** How many status checks answer "in progress" before "done" (queues). */
	pendingPolls: number;
	/** Set to the credential form of the submit; follow-ups must use the same. */
	credential: Credential["kind"];
}

export interface HubModel {
	id: string;
	pipeline_tag?: string;
	tags: string[];
	library_name?: string;
	mask_token?: string;
	/** provider → mapping entry, in the user's order of preference. */
	inferenceProviderMapping: Record<
		string,
		{
			providerId: string;
			status: "live" | "staging";
			task: string;
			adapter?: string;
			adapterWeightsPath?: string;
		}
	>;
}

export interface Endpoint {
	/** What it is, in the provider's words (e.g. "chat completions"). */
	name: string;
	method: "GET" | "POST";
	/**
	 * Path below the provider's base. A string may hold `{model}` (a model id, slashes allowed) and
	 * `{id}` (one segment); a RegExp's named groups are passed on as well.
	 */
	path: string | RegExp;
	/** `inference`: a call a client makes for a task (compared between clients); `follow-up`: polls, results, media. */
	role: "inference" | "follow-up";
	/** Media downloads are public; everything else needs a credential (default true). */
	needsAuth?: boolean;
	/** The reply; throws `Refusal` for what the real API refuses. */
	handle(request: ProviderRequest, params: Record<string, string>, state: ProtocolState): Reply;
}

/** One host of a provider (its API, a queue subdomain, a media CDN) and what it serves. */
export interface ProviderHost {
	host: string;
	/** The router's `?_subdomain=` value that reaches this host (fal.ai's queue). */
	routerSubdomain?: string;
	endpoints: Endpoint[];
}

/** How a provider reads its own key from a direct request. */
export interface KeyScheme {
	/** How a key is written, e.g. `Bearer {key}`, `Key {key}` (fal.ai). */
	describe: string;
	/** The key the request carries, if it carries one in this provider's form. */
	read(headers: IncomingHttpHeaders): string | undefined;
}

export interface ProviderProtocol {
	provider: string;
	/** Hosts the provider answers on; the first is its API. */
	hosts: ProviderHost[];
	/** Served by the hub's router at `router.huggingface.co/{provider}/…`. */
	routed: boolean;
	/** Answers direct calls with the provider's own key (false: router only, like hf-inference). */
	direct: boolean;
	keyScheme: KeyScheme;
	/** The provider-side id under which the provider serves a hub model (its id style). */
	providerModelId(hubModelId: string): string;
	/**
	 * Providers the hub does not map (openai): the hub-side name of a provider model, which clients
	 * resolve to the provider id without a mapping.
	 */
	unmappedHubModelId?(providerModelId: string): string;
	/** The provider's error body for a message (OpenAI style, FastAPI style, …). */
	errorBody(status: number, message: string, code?: string): unknown;
}
