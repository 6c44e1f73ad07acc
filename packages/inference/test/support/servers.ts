/**
 * A real node:http server on 127.0.0.1 driven by a response table, and a fetch that sends the
 * client's real URLs to it: https://api.together.xyz/v1/x → http://127.0.0.1:PORT/api.together.xyz/v1/x.
 * The rewriting fetch is a thin wrapper around the global fetch; nothing is mocked.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { isDeepStrictEqual } from "node:util";

/** The real fetch, captured before tests replace the global one with a guard. */
export const realFetch = globalThis.fetch;

export interface RecordedRequest {
	method: string;
	/** "/{host}{pathname}{search}" of the original URL. */
	path: string;
	headers: IncomingHttpHeaders;
	body: Buffer;
	/** The body parsed as JSON, when it is JSON. */
	json?: unknown;
}

export interface Reply {
	status?: number;
	headers?: Record<string, string>;
	/** Sent as application/json. */
	json?: unknown;
	/** Raw body (content type from `headers`). */
	body?: string | Uint8Array;
	/** Server-sent events: each string is written as its own chunk, as text/event-stream. */
	sse?: string[];
	/** Wait before answering. */
	delayMs?: number;
	/** Destroy the socket after writing (a connection reset mid-body). */
	reset?: boolean;
	/** Never answer (until the client gives up). */
	hang?: boolean;
	/** Write the body but never end the response. */
	keepOpen?: boolean;
	/** Destroy the socket without answering (a connection reset before any header). */
	drop?: boolean;
	/**
	 * Chunks written one by one with backpressure, until they run out or the client goes away (so a
	 * generator sees exactly how much the client let it write). Sent as text/event-stream unless
	 * `headers` says otherwise.
	 */
	frames?: AsyncIterable<string | Uint8Array>;
}

export interface Route {
	method?: string;
	/** Matched against "/{host}{pathname}" and, when it contains "?", also the query. */
	path: string;
	/** Further condition, e.g. to tell streaming from non-streaming calls to one URL. */
	when?: (request: RecordedRequest) => boolean;
	/** What the client must send. A header value of null means "must be absent". */
	expect?: { headers?: Record<string, string | null>; json?: unknown; bodyBytes?: Uint8Array };
	respond: Reply | ((request: RecordedRequest, hit: number) => Reply);
}

export interface TestServer {
	origin: string;
	/** Every request received, in order. */
	requests: RecordedRequest[];
	/** Expectation mismatches (also answered with HTTP 418 so the call fails). */
	failures: string[];
	/** A fetch that sends every absolute URL to this server. */
	fetch: typeof fetch;
	/** Replaces the response table. */
	use(routes: Route[]): void;
	/** Requests whose path starts with the given prefix. */
	requestsTo(prefix: string): RecordedRequest[];
	reset(): void;
	close(): Promise<void>;
}

function pathMatches(route: Route, method: string, path: string): boolean {
	if ((route.method ?? "POST") !== method) return false;
	const routePath = route.path;
	return routePath.includes("?") ? routePath === path : routePath === path.split("?")[0];
}

function checkExpectations(route: Route, request: RecordedRequest): string[] {
	const problems: string[] = [];
	for (const [name, value] of Object.entries(route.expect?.headers ?? {})) {
		const actual = request.headers[name.toLowerCase()];
		if (value === null ? actual !== undefined : actual !== value) {
			problems.push(`header ${name}: expected ${JSON.stringify(value)}, got ${JSON.stringify(actual)}`);
		}
	}
	if (route.expect && "json" in route.expect && !isDeepStrictEqual(request.json, route.expect.json)) {
		problems.push(
			`body: expected ${JSON.stringify(route.expect.json)}, got ${request.body.toString("utf8")}`,
		);
	}
	if (route.expect?.bodyBytes && !Buffer.from(route.expect.bodyBytes).equals(request.body)) {
		problems.push(`body bytes differ (${request.body.length} bytes received)`);
	}
	return problems;
}

/** Writes a reply; SSE frames leave one chunk each. Shared with the real-client protocol servers. */
export async function writeReply(res: ServerResponse, reply: Reply): Promise<void> {
	if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
	if (reply.hang) return;
	if (reply.drop) {
		res.socket?.destroy();
		return;
	}
	const headers: Record<string, string> = { ...reply.headers };
	if (reply.json !== undefined) headers["content-type"] ??= "application/json";
	if (reply.sse || reply.frames) headers["content-type"] ??= "text/event-stream";
	res.writeHead(reply.status ?? 200, headers);
	if (reply.frames) {
		let gone = false;
		res.once("close", () => (gone = true));
		for await (const frame of reply.frames) {
			if (gone) break;
			if (!res.write(frame)) {
				await new Promise((resolve) => {
					res.once("drain", resolve);
					res.once("close", resolve);
				});
			}
		}
		if (gone) return;
	} else if (reply.sse) {
		for (const frame of reply.sse) {
			res.write(frame);
			// Let each frame leave as its own chunk.
			await new Promise((resolve) => setImmediate(resolve));
		}
	} else if (reply.json !== undefined) {
		res.write(JSON.stringify(reply.json));
	} else if (reply.body !== undefined) {
		res.write(reply.body);
	}
	if (reply.keepOpen) return;
	if (reply.reset) {
		await new Promise((resolve) => setTimeout(resolve, 5));
		res.socket?.destroy();
		return;
	}
	res.end();
}

export async function startServer(initialRoutes: Route[] = []): Promise<TestServer> {
	let routes = initialRoutes;
	const hits = new Map<Route, number>();
	const requests: RecordedRequest[] = [];
	const failures: string[] = [];

	const server: Server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on("data", (chunk: Buffer) => chunks.push(chunk));
		req.on("end", () => {
			const body = Buffer.concat(chunks);
			let json: unknown;
			try {
				json = body.length ? JSON.parse(body.toString("utf8")) : undefined;
			} catch {
				json = undefined;
			}
			const recorded: RecordedRequest = {
				method: req.method ?? "GET",
				path: req.url ?? "/",
				headers: req.headers,
				body,
				json,
			};
			requests.push(recorded);
			const route = routes.find(
				(candidate) =>
					pathMatches(candidate, recorded.method, recorded.path) &&
					(!candidate.when || candidate.when(recorded)),
			);
			if (!route) {
				failures.push(`no route for ${recorded.method} ${recorded.path}`);
				void writeReply(res, {
					status: 599,
					json: { error: `no route for ${recorded.method} ${recorded.path}` },
				});
				return;
			}
			const problems = checkExpectations(route, recorded);
			if (problems.length) {
				failures.push(...problems.map((problem) => `${recorded.method} ${recorded.path}: ${problem}`));
				void writeReply(res, { status: 418, json: { error: problems.join("; ") } });
				return;
			}
			const hit = hits.get(route) ?? 0;
			hits.set(route, hit + 1);
			const reply = typeof route.respond === "function" ? route.respond(recorded, hit) : route.respond;
			writeReply(res, reply).catch(() => res.destroy());
		});
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

	const rewritingFetch: typeof fetch = (input, init) => {
		const url = new URL(input instanceof Request ? input.url : String(input));
		if (url.protocol === "data:") return realFetch(input, init);
		return realFetch(`${origin}/${url.host}${url.pathname}${url.search}`, init);
	};

	return {
		origin,
		requests,
		failures,
		fetch: rewritingFetch,
		use(next) {
			routes = next;
			hits.clear();
		},
		requestsTo: (prefix) => requests.filter((request) => request.path.startsWith(prefix)),
		reset() {
			requests.length = 0;
			failures.length = 0;
			hits.clear();
		},
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
