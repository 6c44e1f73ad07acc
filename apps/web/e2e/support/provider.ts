import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
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
	const server: Server = createServer((req, res) => {
		const cors = {
			"access-control-allow-origin": "*",
			"access-control-allow-headers": "*",
			"access-control-allow-methods": "POST, OPTIONS",
		};
		if (req.method === "OPTIONS") {
			res.writeHead(204, cors);
			res.end();
			return;
		}
		const chunks: Buffer[] = [];
		req.on("data", (chunk: Buffer) => chunks.push(chunk));
		req.on("end", async () => {
			const raw = Buffer.concat(chunks);
			const isJson = /json/.test(req.headers["content-type"] ?? "");
			const body = isJson ? raw.toString("utf8") : `<${raw.length} bytes>`;
			const request = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body };
			received.push(request);
			let streaming = false;
			try {
				streaming = isJson && (JSON.parse(body) as { stream?: unknown }).stream === true;
			} catch {
				streaming = false;
			}
			if (!streaming) {
				res.writeHead(200, { ...cors, "content-type": "application/json" });
				res.end(JSON.stringify(answer(request)));
				return;
			}
			res.writeHead(200, { ...cors, "content-type": "text/event-stream", "cache-control": "no-cache" });
			const send = (content: string, finish: string | null) =>
				res.write(
					`data: ${JSON.stringify({
						id: "chatcmpl-e2e",
						object: "chat.completion.chunk",
						created: 1_700_000_000,
						model: "e2e-model",
						system_fingerprint: "e2e",
						choices: [{ index: 0, delta: { role: "assistant", content }, finish_reason: finish }],
					})}\n\n`,
				);
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
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		received,
		release: () => {
			released = true;
			for (const wake of releaseWaiters) wake();
			releaseWaiters = [];
		},
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
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
	const chunk = (content: string, finish: string | null) =>
		`data: ${JSON.stringify({
			id: "chatcmpl-e2e",
			object: "chat.completion.chunk",
			created: 1_700_000_000,
			model: "e2e-model",
			choices: [{ index: 0, delta: { role: "assistant", content }, finish_reason: finish }],
		})}\n\n`;
	const server: Server = createServer((req, res) => {
		const cors = {
			"access-control-allow-origin": "*",
			"access-control-allow-headers": "*",
			"access-control-allow-methods": "POST, OPTIONS",
		};
		if (req.method === "OPTIONS") {
			res.writeHead(204, cors);
			res.end();
			return;
		}
		const chunks: Buffer[] = [];
		req.on("data", (data: Buffer) => chunks.push(data));
		req.on("end", () => {
			const raw = Buffer.concat(chunks);
			const isJson = /json/.test(req.headers["content-type"] ?? "");
			state.received.push({
				method: req.method ?? "",
				path: req.url ?? "",
				headers: req.headers,
				body: isJson ? raw.toString("utf8") : `<${raw.length} bytes>`,
			});
			const answer = state.answer;
			if (answer.kind === "error") {
				res.writeHead(answer.status, { ...cors, "content-type": "application/json" });
				res.end(JSON.stringify(answer.body));
				return;
			}
			res.writeHead(200, { ...cors, "content-type": "text/event-stream", "cache-control": "no-cache" });
			if (answer.kind === "hang") {
				res.write(chunk(answer.first, null));
				return;
			}
			answer.tokens.forEach((token, index) =>
				res.write(chunk(token, index === answer.tokens.length - 1 ? "stop" : null)),
			);
			res.end("data: [DONE]\n\n");
		});
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	state.close = () =>
		new Promise((resolve) => {
			server.closeAllConnections();
			server.close(() => resolve());
		});
	return state;
}
