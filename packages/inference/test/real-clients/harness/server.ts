/**
 * The protocol servers, as one `node:http` listener (for clients whose transport the harness
 * redirects: Python, node fetch) and one `node:https` listener (for curl, which keeps its TLS). A
 * request is dispatched on its original host — the `Host` header, or `X-Forwarded-Host` where a
 * transport cannot keep `Host` (node fetch) — to the router, the hub or a provider's protocol, and
 * recorded with the outcome: which endpoint answered, and why a request was refused.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { hubError } from "../protocols/common.js";
import { HUB_HOST, hubHost } from "../protocols/hub.js";
import { ROUTER_HOST, autoRouterChat } from "../protocols/router.js";
import {
	Refusal,
	type Credential,
	type Endpoint,
	type HubModel,
	type Job,
	type MediaFile,
	type ProtocolState,
	type ProviderHost,
	type ProviderProtocol,
	type ProviderRequest,
	type Reply,
} from "../protocols/types.js";
import { HUB_TOKEN, isHubAuthorization, providerKey } from "./credentials.js";
import { writeReply } from "../../support/servers.js";
import type { Certificate } from "./tls.js";

/** Headers the harness's transports add; removed before providers see the request. */
export const RUN_HEADER = "x-modelhub-run";
const FORWARDED_HOST = "x-forwarded-host";

export interface RecordedRequest {
	/** The snippet (or client call) that sent it. */
	run: string;
	method: string;
	host: string;
	/** Path and query as sent. */
	target: string;
	headers: IncomingHttpHeaders;
	body: Buffer;
	provider?: string;
	via?: "direct" | "router";
	endpoint?: string;
	role?: Endpoint["role"];
	status: number;
	/** Why the server refused it. */
	refusal?: string;
}

/** The catalogue the servers serve: hub models, provider-side models, jobs. */
class State implements ProtocolState {
	readonly hub = new Map<string, HubModel>();
	readonly catalog = new Map<string, Map<string, string>>();
	private readonly jobs = new Map<string, Map<string, Job>>();
	private files = 0;

	knows(provider: string, modelId: string, task?: string): boolean {
		const served = this.catalog.get(provider)?.get(modelId);
		return served !== undefined && (task === undefined || served === task);
	}
	models(provider: string): string[] {
		return [...(this.catalog.get(provider)?.keys() ?? [])];
	}
	taskOf(provider: string, modelId: string): string | undefined {
		return this.catalog.get(provider)?.get(modelId);
	}
	hubModel(id: string): HubModel | undefined {
		return this.hub.get(id);
	}
	addJob(provider: string, job: Job): string {
		const jobs = this.jobs.get(provider) ?? new Map<string, Job>();
		this.jobs.set(provider, jobs);
		const id = `${provider.replace(/[^a-z]/g, "")}-${(jobs.size + 1).toString().padStart(5, "0")}`;
		jobs.set(id, job);
		return id;
	}
	job(provider: string, id: string): Job | undefined {
		return this.jobs.get(provider)?.get(id);
	}
	mediaUrl(host: string, file: MediaFile): string {
		this.files += 1;
		return `https://${host}/files/${this.files.toString(36)}/${file}`;
	}
}

function templateToRegExp(path: string): RegExp {
	const escaped = path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
	return new RegExp(
		`^${escaped.replace(/\\\{model\\\}/g, "(?<model>.+)").replace(/\\\{id\\\}/g, "(?<id>[^/]+)")}$`,
	);
}

function matchEndpoint(
	endpoints: readonly Endpoint[],
	method: string,
	path: string,
): { endpoint: Endpoint; params: Record<string, string> } | { methodNotAllowed: boolean } {
	let methodNotAllowed = false;
	for (const endpoint of endpoints) {
		const pattern = typeof endpoint.path === "string" ? templateToRegExp(endpoint.path) : endpoint.path;
		const match = pattern.exec(path);
		if (!match) continue;
		if (endpoint.method !== method) {
			methodNotAllowed = true;
			continue;
		}
		return { endpoint, params: { ...match.groups } };
	}
	return { methodNotAllowed };
}

/** The endpoint of a provider that answers `method` on `https://{host}{path}` (router URLs included), if any. */
export function endpointFor(
	protocols: readonly ProviderProtocol[],
	host: string,
	method: string,
	path: string,
): Endpoint | undefined {
	for (const protocol of protocols) {
		const prefix = `/${protocol.provider}/`;
		const routed = host === ROUTER_HOST && protocol.routed && path.startsWith(prefix);
		const target = routed ? protocol.hosts[0] : protocol.hosts.find((candidate) => candidate.host === host);
		if (!target) continue;
		const matched = matchEndpoint(target.endpoints, method, routed ? path.slice(prefix.length - 1) : path);
		if ("endpoint" in matched) return matched.endpoint;
	}
	return undefined;
}

function contentTypeOf(headers: IncomingHttpHeaders): string {
	return String(headers["content-type"] ?? "")
		.split(";")[0]!
		.trim()
		.toLowerCase();
}

/** Where a request goes after the router and host lookup; `refuse` answers before any endpoint runs. */
type Route =
	| {
			protocol?: ProviderProtocol;
			host: ProviderHost;
			path: string;
			query: URLSearchParams;
			via: "direct" | "router";
			base: string;
			credential: Credential;
			errorBody: (status: number, message: string, code?: string) => unknown;
	  }
	| { refuse: Refusal; errorBody: (status: number, message: string, code?: string) => unknown };

export interface ProtocolServers {
	/** `127.0.0.1:{port}` of the plain HTTP listener. */
	httpAddress: string;
	httpsPort: number;
	records: RecordedRequest[];
	/** Adds a hub model (with its provider mappings) and the provider-side models it maps to. */
	addModel(model: HubModel): void;
	/** Adds a provider-side model that the hub does not map (e.g. OpenAI's own ids). */
	addProviderModel(provider: string, providerModelId: string, task: string): void;
	/** Requests sent by one run. */
	recordsOf(run: string): RecordedRequest[];
	close(): Promise<void>;
}

export async function startProtocolServers(
	protocols: readonly ProviderProtocol[],
	certificate: Certificate,
): Promise<ProtocolServers> {
	const state = new State();
	const records: RecordedRequest[] = [];
	const hub = hubHost(isHubAuthorization);
	const routerHost: ProviderHost = { host: ROUTER_HOST, endpoints: [autoRouterChat] };

	function directCredential(protocol: ProviderProtocol, headers: IncomingHttpHeaders): Credential {
		if (!protocol.direct) {
			return { kind: "none", reason: `${protocol.provider} is only served through the router` };
		}
		const key = protocol.keyScheme.read(headers);
		if (key === providerKey(protocol.provider)) return { kind: "key" };
		const sent = String(headers.authorization ?? "");
		if (key?.startsWith("hf_") || sent.includes(HUB_TOKEN)) {
			return { kind: "none", reason: `A Hugging Face token is not a ${protocol.provider} API key` };
		}
		if (key === undefined) {
			return { kind: "none", reason: `Missing credentials: expected ${protocol.keyScheme.describe}` };
		}
		return { kind: "none", reason: `Invalid API key for ${protocol.provider}` };
	}

	function route(host: string, url: URL, headers: IncomingHttpHeaders): Route {
		if (host === ROUTER_HOST) {
			const credential: Credential = isHubAuthorization(headers.authorization)
				? { kind: "hub" }
				: { kind: "none", reason: "Invalid credentials in Authorization header (a hub token is required)" };
			const [, provider = "", ...rest] = url.pathname.split("/");
			const protocol = protocols.find((candidate) => candidate.provider === provider);
			if (!protocol) {
				return {
					host: routerHost,
					path: url.pathname,
					query: url.searchParams,
					via: "router",
					base: `https://${ROUTER_HOST}`,
					credential,
					errorBody: hubError,
				};
			}
			if (!protocol.routed)
				return {
					refuse: new Refusal(404, `Provider ${provider} is not served by the router`),
					errorBody: hubError,
				};
			const query = new URLSearchParams(url.searchParams);
			const subdomain = query.get("_subdomain");
			query.delete("_subdomain");
			const target = subdomain
				? protocol.hosts.find((candidate) => candidate.routerSubdomain === subdomain)
				: protocol.hosts[0];
			if (!target)
				return {
					refuse: new Refusal(404, `Unknown subdomain ${subdomain} for ${provider}`),
					errorBody: hubError,
				};
			return {
				protocol,
				host: target,
				path: `/${rest.join("/")}`,
				query,
				via: "router",
				base: `https://${ROUTER_HOST}/${provider}`,
				credential,
				errorBody: credential.kind === "hub" ? protocol.errorBody : hubError,
			};
		}
		if (host === HUB_HOST) {
			return {
				host: hub,
				path: url.pathname,
				query: url.searchParams,
				via: "direct",
				base: `https://${HUB_HOST}`,
				credential: { kind: "hub" },
				errorBody: hubError,
			};
		}
		for (const protocol of protocols) {
			const target = protocol.hosts.find((candidate) => candidate.host === host);
			if (target) {
				return {
					protocol,
					host: target,
					path: url.pathname,
					query: url.searchParams,
					via: "direct",
					base: `https://${host}`,
					credential: directCredential(protocol, headers),
					errorBody: protocol.errorBody,
				};
			}
		}
		return { refuse: new Refusal(502, `No server for host ${host}`), errorBody: hubError };
	}

	function answer(
		method: string,
		host: string,
		url: URL,
		headers: IncomingHttpHeaders,
		body: Buffer,
	): { reply: Reply; record: Partial<RecordedRequest> } {
		if (host === "127.0.0.1" || host === "localhost" || host === "") {
			const refusal = "The request reached the harness without its original host (transport not redirected)";
			return { reply: { status: 421, json: { error: refusal } }, record: { refusal } };
		}
		const target = route(host, url, headers);
		if ("refuse" in target) {
			return {
				reply: {
					status: target.refuse.status,
					json: target.errorBody(target.refuse.status, target.refuse.message),
				},
				record: { refusal: target.refuse.message },
			};
		}
		const matched = matchEndpoint(target.host.endpoints, method, target.path);
		const recordBase: Partial<RecordedRequest> = { provider: target.protocol?.provider, via: target.via };
		const refuse = (refusal: Refusal, extra: Partial<RecordedRequest> = {}) => ({
			reply: {
				status: refusal.status,
				json: target.errorBody(refusal.status, refusal.message, refusal.code),
			},
			record: { ...recordBase, ...extra, refusal: refusal.message },
		});
		if (!("endpoint" in matched)) {
			return refuse(
				new Refusal(
					matched.methodNotAllowed ? 405 : 404,
					`No route for ${method} ${target.path} on ${target.host.host}`,
				),
			);
		}
		const { endpoint, params } = matched;
		const extra = { endpoint: endpoint.name, role: endpoint.role };
		if (endpoint.needsAuth !== false && target.credential.kind === "none") {
			return refuse(new Refusal(401, target.credential.reason), extra);
		}
		let json: unknown;
		let jsonError: string | undefined;
		if (contentTypeOf(headers) === "application/json") {
			try {
				json = JSON.parse(body.toString("utf8"));
			} catch (error) {
				jsonError = (error as Error).message;
			}
		}
		const request: ProviderRequest = {
			method,
			host: target.host.host,
			path: target.path,
			query: target.query,
			headers,
			body,
			json,
			jsonError,
			via: target.via,
			credential: target.credential,
			base: target.base,
		};
		try {
			return { reply: endpoint.handle(request, params, state), record: { ...recordBase, ...extra } };
		} catch (error) {
			if (error instanceof Refusal) return refuse(error, extra);
			const message = `protocol server error: ${(error as Error).stack ?? String(error)}`;
			return {
				reply: { status: 500, json: { error: message } },
				record: { ...recordBase, ...extra, refusal: message },
			};
		}
	}

	async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const body = Buffer.concat(chunks);
		const headers = { ...req.headers };
		const run = String(headers[RUN_HEADER] ?? "");
		const forwarded = headers[FORWARDED_HOST];
		delete headers[RUN_HEADER];
		delete headers[FORWARDED_HOST];
		const host = String(forwarded ?? headers.host ?? "")
			.replace(/:\d+$/, "")
			.toLowerCase();
		const url = new URL(req.url ?? "/", `https://${host || "invalid.local"}`);
		const method = req.method ?? "GET";
		const { reply, record } = answer(method, host, url, headers, body);
		const status = reply.status ?? 200;
		records.push({ run, method, host, target: req.url ?? "/", headers, body, status, ...record });
		await writeReply(res, { ...reply, status });
	}

	const onRequest = (req: IncomingMessage, res: ServerResponse) => {
		handle(req, res).catch((error: unknown) => {
			res.destroy(error as Error);
		});
	};
	const http = createServer(onRequest);
	const https = createHttpsServer({ key: certificate.key, cert: certificate.cert }, onRequest);
	// Node closes an idle keep-alive socket after 5 s and undici reuses one until about 4 s: on a loaded
	// machine the two cross, and a request sent on a socket the server is closing fails with ECONNRESET /
	// "other side closed" (seen under a load average of 17). Idle sockets here stay open for the run.
	for (const server of [http, https]) {
		server.keepAliveTimeout = 120_000;
		server.headersTimeout = 125_000;
	}
	await Promise.all([
		new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve)),
		new Promise<void>((resolve) => https.listen(0, "127.0.0.1", resolve)),
	]);

	const addProviderModel = (provider: string, providerModelId: string, task: string) => {
		const served = state.catalog.get(provider) ?? new Map<string, string>();
		state.catalog.set(provider, served);
		served.set(providerModelId, task);
	};

	return {
		httpAddress: `127.0.0.1:${(http.address() as AddressInfo).port}`,
		httpsPort: (https.address() as AddressInfo).port,
		records,
		addModel(model) {
			state.hub.set(model.id, model);
			for (const [provider, entry] of Object.entries(model.inferenceProviderMapping)) {
				addProviderModel(provider, entry.providerId, entry.task);
			}
		},
		addProviderModel,
		recordsOf: (run) => records.filter((record) => record.run === run),
		close: async () => {
			for (const server of [http, https]) server.closeAllConnections();
			await Promise.all(
				[http, https].map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
			);
		},
	};
}
