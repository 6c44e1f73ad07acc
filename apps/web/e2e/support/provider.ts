import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedRequest {
	method: string;
	path: string;
	headers: IncomingHttpHeaders;
	body: string;
}

export interface ProviderServer {
	url: string;
	received: ReceivedRequest[];
	/** Lets the stream finish (the server holds the last tokens until then, so a test can see a partial answer). */
	release: () => void;
	close: () => Promise<void>;
}

const CORS = {
	"access-control-allow-origin": "*",
	"access-control-allow-headers": "*",
	"access-control-allow-methods": "POST, OPTIONS",
};

/**
 * A CORS-open HTTP server on 127.0.0.1 (as real providers' APIs are) that reads each request whole,
 * records it in `received` (JSON bodies as text, others as their size) and hands it to `handle`.
 */
async function listen(
	received: ReceivedRequest[],
	handle: (request: ReceivedRequest, res: ServerResponse, isJson: boolean) => void | Promise<void>,
): Promise<{ url: string; close: () => Promise<void> }> {
	const server: Server = createServer((req, res) => {
		if (req.method === "OPTIONS") {
			res.writeHead(204, CORS);
			res.end();
			return;
		}
		const chunks: Buffer[] = [];
		req.on("data", (chunk: Buffer) => chunks.push(chunk));
		req.on("end", () => {
			const raw = Buffer.concat(chunks);
			const isJson = /json/.test(req.headers["content-type"] ?? "");
			const request = {
				method: req.method ?? "",
				path: req.url ?? "",
				headers: req.headers,
				body: isJson ? raw.toString("utf8") : `<${raw.length} bytes>`,
			};
			received.push(request);
			void handle(request, res, isJson);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

/** One `chat.completion.chunk` server-sent event, as OpenAI-compatible providers stream them. */
function chatChunk(content: string, finish: string | null): string {
	return `data: ${JSON.stringify({
		id: "chatcmpl-e2e",
		object: "chat.completion.chunk",
		created: 1_700_000_000,
		model: "e2e-model",
		system_fingerprint: "e2e",
		choices: [{ index: 0, delta: { role: "assistant", content }, finish_reason: finish }],
	})}\n\n`;
}

/**
 * A local stand-in for an inference provider. A JSON request with `"stream": true` gets OpenAI's chat
 * completion SSE: `tokens` as `chat.completion.chunk` events, the first half at once and the rest after
 * `release()` (or a 10 s fallback), then `data: [DONE]`. Any other request gets `answer(request)` as
 * JSON. CORS is open, as real providers' is.
 */
export async function startProviderServer(
	tokens: string[],
	answer: (request: ReceivedRequest) => unknown,
): Promise<ProviderServer> {
	const received: ReceivedRequest[] = [];
	let releaseWaiters: Array<() => void> = [];
	let released = false;
	const server = await listen(received, async (request, res, isJson) => {
		let streaming = false;
		try {
			streaming = isJson && (JSON.parse(request.body) as { stream?: unknown }).stream === true;
		} catch {
			streaming = false;
		}
		if (!streaming) {
			res.writeHead(200, { ...CORS, "content-type": "application/json" });
			res.end(JSON.stringify(answer(request)));
			return;
		}
		res.writeHead(200, { ...CORS, "content-type": "text/event-stream", "cache-control": "no-cache" });
		const send = (content: string, finish: string | null) => res.write(chatChunk(content, finish));
		const half = Math.ceil(tokens.length / 2);
		tokens.slice(0, half).forEach((token) => send(token, null));
		if (!released) {
			await new Promise<void>((resolve) => {
				const timer = setTimeout(resolve, 10_000);
				releaseWaiters.push(() => {
					clearTimeout(timer);
					resolve();
				});
			});
		}
		tokens
			.slice(half)
			.forEach((token, index) => send(token, index === tokens.length - half - 1 ? "stop" : null));
		res.end("data: [DONE]\n\n");
	});
	return {
		url: server.url,
		received,
		release: () => {
			released = true;
			for (const wake of releaseWaiters) wake();
			releaseWaiters = [];
		},
		close: server.close,
	};
}

export type ScriptedAnswer =
	| { kind: "stream"; tokens: string[] }
	/** Sends the first token, then holds the stream open until the client goes away. */
	| { kind: "hang"; first: string }
	| { kind: "error"; status: number; body: unknown };

export interface ScriptedProvider {
	url: string;
	received: ReceivedRequest[];
	/** What the next requests get. */
	answer: ScriptedAnswer;
	close: () => Promise<void>;
}

/**
 * A provider stand-in whose answer the test sets before each request: a streamed chat answer, an error
 * status with a JSON body (as providers send), or a stream that never finishes (for Stop and timeouts).
 */
export async function startScriptedProvider(): Promise<ScriptedProvider> {
	const state: ScriptedProvider = {
		url: "",
		received: [],
		answer: { kind: "stream", tokens: ["OK"] },
		close: async () => undefined,
	};
	const server = await listen(state.received, (_request, res) => {
		const answer = state.answer;
		if (answer.kind === "error") {
			res.writeHead(answer.status, { ...CORS, "content-type": "application/json" });
			res.end(JSON.stringify(answer.body));
			return;
		}
		res.writeHead(200, { ...CORS, "content-type": "text/event-stream", "cache-control": "no-cache" });
		if (answer.kind === "hang") {
			res.write(chatChunk(answer.first, null));
			return;
		}
		answer.tokens.forEach((token, index) =>
			res.write(chatChunk(token, index === answer.tokens.length - 1 ? "stop" : null)),
		);
		res.end("data: [DONE]\n\n");
	});
	state.url = server.url;
	state.close = server.close;
	return state;
}
