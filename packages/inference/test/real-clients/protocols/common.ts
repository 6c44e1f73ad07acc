/** Key schemes and error shapes that several providers share. */
import type { IncomingHttpHeaders } from "node:http";
import type { KeyScheme } from "./types.js";

function authorization(headers: IncomingHttpHeaders): string {
	return String(headers.authorization ?? "");
}

/** `Authorization: Bearer {key}` — the OpenAI convention most providers follow. */
export const BEARER: KeyScheme = {
	describe: "Authorization: Bearer {key}",
	read: (headers) => /^Bearer (.+)$/.exec(authorization(headers))?.[1],
};

/** `{error: {message, type, param, code}}`, as OpenAI and the OpenAI-compatible APIs answer. */
export function openaiError(status: number, message: string, code?: string): unknown {
	const type =
		status === 401 ? "authentication_error" : status === 404 ? "not_found_error" : "invalid_request_error";
	return { error: { message, type, param: null, code: code ?? null } };
}

/** `{detail: message}`, as FastAPI-based APIs answer (fal.ai, Replicate, Black Forest Labs). */
export function detailError(_status: number, message: string): unknown {
	return { detail: message };
}

/** `{error: message}`, as the hub and its router answer. */
export function hubError(_status: number, message: string): unknown {
	return { error: message };
}

/** The part of a hub id after the owner: `acme-labs/text-to-image` → `text-to-image`. */
export function modelName(hubModelId: string): string {
	return hubModelId.slice(hubModelId.indexOf("/") + 1);
}
