/**
 * How the playground shows an HTTP request: the client's dry run (`prepareRequest`) or a captured
 * `fetch` call, as text with every credential redacted and every embedded file described, not dumped.
 */
export interface CapturedRequest {
	method: string;
	url: string;
	headers: Array<[string, string]>;
	/** The body as text (JSON, pretty-printed when it parses), or a description of binary data. */
	body?: string;
	/** The body exactly as sent, for comparison. */
	rawBody?: string;
}

const SECRET_HEADERS = /^(authorization|x-api-key|api-key|x-key|proxy-authorization)$/i;

/** Hides the secret part of a credential header but keeps its scheme ("Bearer [redacted]"). */
export function redactHeader(name: string, value: string): string {
	if (!SECRET_HEADERS.test(name)) return value;
	const match = /^(\w+)\s+\S/.exec(value);
	return match ? `${match[1]} [redacted]` : "[redacted]";
}

/** How a binary body (or an embedded file) is shown instead of its bytes. */
function binaryLabel(bytes: number, type?: string): string {
	return `<binary: ${bytes} bytes${type ? `, ${type}` : ""}>`;
}

const DATA_URL = /^data:([\w.+-]+\/[\w.+-]+)?(?:;[\w=-]+)*;base64,([A-Za-z0-9+/=]*)$/;
/** Long enough that no prompt or id looks like it; base64 of a 192-byte file. */
const BARE_BASE64 = /^[A-Za-z0-9+/]{256,}={0,2}$/;

function base64Size(text: string): number {
	const padding = text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0;
	return Math.max(0, Math.floor((text.length * 3) / 4) - padding);
}

/**
 * A JSON payload with every embedded file (a `data:…;base64,` URL, or a long bare base64 string) replaced
 * by `<binary: N bytes, type>`: a speech-recognition request carries its clip as ~140 KB of base64,
 * which says nothing to a reader and slows the page. `fileType` names bare base64 of the input file.
 */
export function elideBinary(value: unknown, fileType?: string): unknown {
	if (typeof value === "string") {
		const dataUrl = DATA_URL.exec(value);
		if (dataUrl) return binaryLabel(base64Size(dataUrl[2] ?? ""), dataUrl[1] ?? fileType);
		if (BARE_BASE64.test(value)) return binaryLabel(base64Size(value), fileType);
		return value;
	}
	if (Array.isArray(value)) return value.map((item) => elideBinary(item, fileType));
	if (typeof value === "object" && value !== null) {
		return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, elideBinary(item, fileType)]));
	}
	return value;
}

function describeText(text: string, fileType?: string): { body: string; rawBody: string } {
	try {
		return { body: JSON.stringify(elideBinary(JSON.parse(text), fileType), null, 2), rawBody: text };
	} catch {
		return { body: text, rawBody: text };
	}
}

async function describeBody(body: unknown, fileType?: string): Promise<{ body?: string; rawBody?: string }> {
	if (body === undefined || body === null) return {};
	if (typeof body === "string") return describeText(body, fileType);
	if (body instanceof Blob) return { body: binaryLabel(body.size, body.type || fileType) };
	if (body instanceof ArrayBuffer) return { body: binaryLabel(body.byteLength, fileType) };
	if (ArrayBuffer.isView(body)) return { body: binaryLabel(body.byteLength, fileType) };
	if (body instanceof FormData) {
		const parts: string[] = [];
		body.forEach((value, name) => {
			parts.push(
				`${name}: ${typeof value === "string" ? value : binaryLabel(value.size, value.type || fileType)}`,
			);
		});
		return { body: `<multipart form data>\n${parts.join("\n")}` };
	}
	if (body instanceof URLSearchParams) return { body: body.toString(), rawBody: body.toString() };
	return { body: "<streamed body>" };
}

/** A request prepared by the client's dry run, as the playground shows it (credentials redacted). */
export async function describePrepared(
	prepared: { method: string; url: string; headers: Record<string, string>; body?: unknown },
	fileType?: string,
): Promise<CapturedRequest> {
	const headers = Object.entries(prepared.headers).map(
		([name, value]) => [name.toLowerCase(), redactHeader(name, value)] as [string, string],
	);
	return {
		method: prepared.method.toUpperCase(),
		url: prepared.url,
		headers,
		...(await describeBody(prepared.body, fileType)),
	};
}

/** Reads what a `fetch(input, init)` call would send, with credentials redacted. */
export async function captureFetchCall(
	input: RequestInfo | URL,
	init?: RequestInit,
	fileType?: string,
): Promise<CapturedRequest> {
	const request = input instanceof Request ? input : undefined;
	const url = request ? request.url : String(input);
	const method = (init?.method ?? request?.method ?? "GET").toUpperCase();
	const headers = new Headers(request?.headers);
	new Headers(init?.headers).forEach((value, name) => headers.set(name, value));
	const list: Array<[string, string]> = [];
	headers.forEach((value, name) => list.push([name, redactHeader(name, value)]));
	let body: unknown = init?.body;
	if (body === undefined && request && request.body) body = await request.clone().text();
	return { method, url, headers: list, ...(await describeBody(body, fileType)) };
}

/** The request as text, the way the playground shows it. */
export function formatRequest(request: CapturedRequest): string {
	const lines = [
		`${request.method} ${request.url}`,
		...request.headers.map(([name, value]) => `${name}: ${value}`),
	];
	return request.body === undefined ? lines.join("\n") : `${lines.join("\n")}\n\n${request.body}`;
}

/** A fetch that records every non-hub request it sends (so the page can show what was really sent). */
export function recordingFetch(
	hubOrigin: string,
	baseFetch: typeof fetch,
	onRequest: (request: CapturedRequest) => void,
	fileType?: string,
): typeof fetch {
	return async (input, init) => {
		const url = input instanceof Request ? input.url : String(input);
		if (!isHubRequest(url, hubOrigin)) onRequest(await captureFetchCall(input, init, fileType));
		return baseFetch(input, init);
	};
}

export function isHubRequest(url: string, hubOrigin: string): boolean {
	const base = hubOrigin.replace(/\/+$/, "");
	return url.startsWith(`${base}/api/`);
}
