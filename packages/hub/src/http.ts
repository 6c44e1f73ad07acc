import type { FastifyRequest } from "fastify";

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
