import type { FastifyReply, FastifyRequest } from "fastify";

/** Content-Security-Policy of every response: no inline script, nothing loaded from elsewhere. */
export const CONTENT_SECURITY_POLICY = [
	"default-src 'self'",
	"script-src 'self'",
	"style-src 'self'",
	"img-src 'self' data: blob:",
	"media-src 'self' blob: data:",
	"connect-src *",
	"frame-ancestors 'none'",
	"base-uri 'self'",
	"object-src 'none'",
	"form-action 'self'",
].join("; ");

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
	"content-security-policy": CONTENT_SECURITY_POLICY,
	"x-content-type-options": "nosniff",
	"referrer-policy": "strict-origin-when-cross-origin",
	"x-frame-options": "DENY",
	"cross-origin-opener-policy": "same-origin",
};

export const JSON_TYPE = "application/json; charset=utf-8";

/** Sends `{ error }` with a 4xx status. */
export function sendError(reply: FastifyReply, status: number, error: string): FastifyReply {
	return reply.code(status).type(JSON_TYPE).send({ error });
}

/** Whether the client asks for an HTML page (a browser navigation). */
export function acceptsHtml(request: FastifyRequest): boolean {
	const accept = request.headers.accept;
	return typeof accept === "string" && accept.toLowerCase().includes("text/html");
}

/** The path part of the request URL. */
export function pathOf(request: FastifyRequest): string {
	const url = request.url;
	const query = url.indexOf("?");
	return query < 0 ? url : url.slice(0, query);
}

interface SchemaError {
	keyword: string;
	instancePath: string;
	message?: string;
	params: Record<string, unknown>;
}

function parameterName(error: SchemaError): string {
	const first = error.instancePath.split("/")[1] ?? "";
	return first.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** Turns Ajv errors of a route schema into one message naming the offending parameter. */
export function formatSchemaErrors(errors: readonly SchemaError[], dataVar: string): Error {
	const error = errors[0];
	const where =
		dataVar === "querystring" ? "query parameter" : dataVar === "body" ? "body field" : "parameter";
	if (!error) return new Error(`invalid ${dataVar}`);
	if (error.keyword === "additionalProperties") {
		const name = String(error.params.additionalProperty ?? "");
		return new Error(`unknown ${where} '${name.slice(0, 64)}'`);
	}
	const name = parameterName(error);
	if (name === "") return new Error(`invalid ${dataVar}: ${error.message ?? "not valid"}`);
	if (error.keyword === "enum" && Array.isArray(error.params.allowedValues)) {
		const allowed = (error.params.allowedValues as unknown[]).filter((value) => value !== "");
		const list = allowed.length > 12 ? `${allowed.slice(0, 12).join(", ")}, …` : allowed.join(", ");
		return new Error(`invalid value for ${where} '${name}': must be one of ${list}`);
	}
	if (error.keyword === "type" && error.params.type === "string") {
		return new Error(`${where} '${name}' must be given once`);
	}
	return new Error(`invalid value for ${where} '${name}': ${error.message ?? "not valid"}`);
}

/** The error codes huggingface_hub reads from `X-Error-Code` to raise its specific exceptions. */
export type HubErrorCode = "RepoNotFound" | "RevisionNotFound" | "EntryNotFound";

/** A header-safe copy of a message (printable ASCII only). */
export function headerText(text: string): string {
	return text.replace(/[^\x20-\x7e]/g, "?").slice(0, 200);
}

/**
 * A 404 huggingface_hub turns into RepositoryNotFoundError, RevisionNotFoundError or
 * RemoteEntryNotFoundError: `X-Error-Code`, and `X-Error-Message` equal to the body's error (the client
 * shows each distinct message once).
 */
export function sendHubError(
	reply: FastifyReply,
	code: HubErrorCode,
	error: string,
	extraHeaders: Record<string, string> = {},
): FastifyReply {
	return reply
		.code(404)
		.headers({ "x-error-code": code, "x-error-message": headerText(error), ...extraHeaders })
		.type(JSON_TYPE)
		.send({ error });
}

export const REPO_NOT_FOUND = "Repository not found";

/** Seconds a client is asked to wait (`Retry-After`) when the database or storage is unavailable. */
export const RETRY_AFTER_SECONDS = 5;

/** 503 with Retry-After: the request may succeed later (huggingface_hub retries 503 with backoff). */
export function sendUnavailable(reply: FastifyReply, what: string): FastifyReply {
	return reply
		.code(503)
		.header("retry-after", String(RETRY_AFTER_SECONDS))
		.type(JSON_TYPE)
		.send({ error: `${what} is unavailable; retry in a few seconds` });
}
