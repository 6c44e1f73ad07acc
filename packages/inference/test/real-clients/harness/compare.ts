/**
 * "Sends the request @modelhub/inference sends": the first inference request of a snippet against the
 * first of the client's call for the same case — same method, host, path and query, same
 * Authorization value (header form and token), same X-HF-Bill-To and Prefer (replicate's `Prefer: wait`
 * decides whether the answer is the result or a prediction to poll), same media type and the same body.
 * JSON bodies are compared as data (key order is not part of a request); multipart bodies as their
 * parts — name, file name, part type and bytes — in name order (a form's part order carries no meaning
 * to the provider, and python requests writes text fields before files); a `data:` URL is compared by
 * the bytes it carries and the kind of media its label names (`audio/…`, `image/…`), because the exact
 * label is each library's guess of a file's type while the bytes are what the provider reads. Two
 * spellings of a default are the same request: `"stream": false` (OpenAI-style APIs stream only when
 * asked) and `"parameters": {}` (every task parameter of the HF Inference API is optional).
 */
import { isDeepStrictEqual } from "node:util";
import { parseDataUrl } from "../protocols/media.js";
import type { RecordedRequest } from "./server.js";

function mediaType(record: RecordedRequest): string {
	return String(record.headers["content-type"] ?? "")
		.split(";")[0]!
		.trim()
		.toLowerCase();
}

/** Top-level fields whose value only restates the API's default. */
const DEFAULTS: Record<string, (value: unknown) => boolean> = {
	stream: (value) => value === false,
	parameters: (value) => isDeepStrictEqual(value, {}),
};

/** Replaces data: URLs by their media family and bytes, so that equal files compare equal. */
function normalizedValue(value: unknown): unknown {
	const data = parseDataUrl(value);
	if (data) return { dataUrl: data.type.split("/")[0], base64: data.bytes.toString("base64") };
	if (Array.isArray(value)) return value.map(normalizedValue);
	if (value && typeof value === "object") {
		return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, normalizedValue(item)]));
	}
	return value;
}

function normalized(body: unknown): unknown {
	if (!body || typeof body !== "object" || Array.isArray(body)) return normalizedValue(body);
	const kept = Object.entries(body).filter(([key, value]) => !DEFAULTS[key]?.(value));
	return normalizedValue(Object.fromEntries(kept));
}

function jsonOf(record: RecordedRequest): unknown {
	try {
		return JSON.parse(record.body.toString("utf8"));
	} catch {
		return undefined;
	}
}

function show(value: unknown): string {
	const text = typeof value === "string" ? value : JSON.stringify(value);
	return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/** A multipart body as its parts (text values; files as name, type and bytes), in name order. */
async function formParts(record: RecordedRequest): Promise<unknown[] | string> {
	try {
		const form = await new Response(new Uint8Array(record.body), {
			headers: { "content-type": String(record.headers["content-type"]) },
		}).formData();
		const parts: Array<[string, ...unknown[]]> = [];
		for (const [name, value] of form.entries()) {
			parts.push(
				typeof value === "string"
					? [name, value]
					: [name, value.name, value.type, Buffer.from(await value.arrayBuffer()).toString("base64")],
			);
		}
		return parts.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
	} catch (error) {
		return `unreadable form: ${String(error)}`;
	}
}

const MULTIPART = "multipart/form-data";

/** The differences between a snippet's request and the client's ([] when they are the same request). */
export async function compareRequests(snippet: RecordedRequest, client: RecordedRequest): Promise<string[]> {
	const problems: string[] = [];
	const same = (what: string, a: unknown, b: unknown) => {
		if (!isDeepStrictEqual(a, b)) problems.push(`${what}: ${show(a)} (client: ${show(b)})`);
	};
	same("method", snippet.method, client.method);
	same("url", `https://${snippet.host}${snippet.target}`, `https://${client.host}${client.target}`);
	same("authorization", snippet.headers.authorization, client.headers.authorization);
	same("x-hf-bill-to", snippet.headers["x-hf-bill-to"], client.headers["x-hf-bill-to"]);
	same("prefer", snippet.headers.prefer, client.headers.prefer);
	same("content-type", mediaType(snippet), mediaType(client));
	if (mediaType(client) === "application/json" && mediaType(snippet) === "application/json") {
		same("body", normalized(jsonOf(snippet)), normalized(jsonOf(client)));
	} else if (mediaType(client) === MULTIPART && mediaType(snippet) === MULTIPART) {
		same("form", await formParts(snippet), await formParts(client));
	} else if (!snippet.body.equals(client.body)) {
		problems.push(`body: ${snippet.body.length} bytes differ from the client's ${client.body.length}`);
	}
	return problems;
}
