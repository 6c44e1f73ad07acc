/**
 * The checks every API makes before it does any work: the body is what it claims to be, required
 * fields are there with the right type, the model exists, media is a format the model reads. Each
 * failure is a `Refusal` with the status a real API answers (400 for malformed input, 404 for unknown
 * models, 415 for a body of the wrong type, 422 for well-formed but unusable input).
 */
import { decodeBase64, parseDataUrl, sniff, type MediaKind } from "./media.js";
import { Refusal, type ProtocolState, type ProviderRequest } from "./types.js";

export type JsonObject = Record<string, unknown>;

function contentType(request: ProviderRequest): string {
	return String(request.headers["content-type"] ?? "")
		.split(";")[0]!
		.trim()
		.toLowerCase();
}

/** The JSON object body; refuses other content types, unparsable JSON and non-objects. */
export function jsonBody(request: ProviderRequest): JsonObject {
	const type = contentType(request);
	if (type !== "application/json") {
		throw new Refusal(
			415,
			`Expected a JSON body (Content-Type: application/json), got ${type || "no Content-Type"}`,
		);
	}
	if (request.jsonError !== undefined)
		throw new Refusal(400, `The body is not valid JSON: ${request.jsonError}`);
	const body = request.json;
	if (!body || typeof body !== "object" || Array.isArray(body)) {
		throw new Refusal(400, "The JSON body must be an object");
	}
	return body as JsonObject;
}

type Kind = "string" | "number" | "boolean" | "array" | "object";

function kindOf(value: unknown): Kind | "null" | "undefined" {
	if (value === null) return "null";
	if (Array.isArray(value)) return "array";
	return typeof value as Kind | "undefined";
}

/** A required field of the given kind. */
export function field(body: JsonObject, key: string, kind: Kind): unknown {
	if (!(key in body) || body[key] === undefined) throw new Refusal(400, `'${key}' is a required property`);
	if (kindOf(body[key]) !== kind) {
		throw new Refusal(400, `'${key}' must be of type ${kind}, got ${kindOf(body[key])}`);
	}
	return body[key];
}

export function stringField(body: JsonObject, key: string): string {
	const value = field(body, key, "string") as string;
	if (value.length === 0) throw new Refusal(400, `'${key}' must not be empty`);
	return value;
}

/** An optional field: absent, or of the given kind. */
export function optionalField(body: JsonObject, key: string, kind: Kind): unknown {
	if (body[key] === undefined) return undefined;
	return field(body, key, kind);
}

/** Refuses keys outside `allowed` (OpenAI rejects unrecognised request arguments). */
export function onlyKeys(body: JsonObject, allowed: readonly string[]): void {
	const unknown = Object.keys(body).filter((key) => !allowed.includes(key));
	if (unknown.length > 0)
		throw new Refusal(400, `Unrecognized request argument supplied: ${unknown.join(", ")}`);
}

/** The model id must be one the provider serves (for `task`, when given). */
export function knownModel(state: ProtocolState, provider: string, id: unknown, task?: string): string {
	if (typeof id !== "string" || id.length === 0) throw new Refusal(400, "'model' is a required property");
	if (!state.knows(provider, id, task)) {
		throw new Refusal(
			404,
			`The model '${id}' does not exist on ${provider}${task ? ` for ${task}` : ""}`,
			"model_not_found",
		);
	}
	return id;
}

/** An `https:` URL or a `data:` URL holding media of an accepted kind. */
export function mediaUrl(value: unknown, key: string, accepted: readonly MediaKind[]): void {
	if (typeof value !== "string") throw new Refusal(400, `'${key}' must be a URL string`);
	if (/^https?:\/\//.test(value)) return;
	const data = parseDataUrl(value);
	if (!data) throw new Refusal(422, `'${key}' must be an http(s) URL or a base64 data: URL`);
	mediaBytes(data.bytes, key, accepted);
}

/**
 * As `mediaUrl`, or bare base64 of accepted media: what APIs that take either form read (WaveSpeed
 * receives a data: URL from huggingface_hub 2.0.0 and bare base64 from huggingface.js 4.13.28).
 */
export function mediaUrlOrBase64(value: unknown, key: string, accepted: readonly MediaKind[]): void {
	const bytes = decodeBase64(value);
	if (bytes) mediaBytes(bytes, key, accepted);
	else mediaUrl(value, key, accepted);
}

/** Bytes of an accepted media kind (by their signature, whatever they are labelled). */
export function mediaBytes(bytes: Uint8Array, what: string, accepted: readonly MediaKind[]): MediaKind {
	const kind = sniff(bytes);
	if (!kind || !accepted.includes(kind)) {
		throw new Refusal(
			422,
			`${what}: unsupported media (${kind ?? "unknown format"}); accepted: ${accepted.join(", ")}`,
		);
	}
	return kind;
}

/**
 * A raw media body: the bytes are an accepted kind and the Content-Type names the same top-level type
 * (`audio/…` for audio, `image/…` for images), as media endpoints dispatch on it.
 */
export function rawMediaBody(request: ProviderRequest, accepted: readonly MediaKind[]): MediaKind {
	if (request.body.length === 0) throw new Refusal(400, "The request body is empty");
	const kind = mediaBytes(request.body, "body", accepted);
	const type = contentType(request);
	const family = kind === "png" || kind === "jpeg" ? "image/" : kind === "mp4" ? "video/" : "audio/";
	if (!type.startsWith(family)) {
		throw new Refusal(415, `Content-Type ${type || "(none)"} does not describe a ${kind} body`);
	}
	return kind;
}

/** True when the request's Content-Type says JSON. */
export function isJsonRequest(request: ProviderRequest): boolean {
	return contentType(request) === "application/json";
}
