import { checkJson, ModelInputError } from "../models/input.js";

/**
 * The small files analysis reads whole. A configuration file is kilobytes; a larger one is not what
 * the public hub reads either, so anything past the bound is skipped unread (a 4 GB `config.json`
 * costs nothing).
 */
export const MAX_ANALYSED_JSON_BYTES = 1024 * 1024;

/** Why a small file gave no value: reported once in the log, the fields it feeds stay empty. */
export type UnreadableReason = "too large" | "not UTF-8" | "not JSON" | "not an object" | "unstorable JSON";

export type ParsedJson =
	{ ok: true; value: Record<string, unknown> } | { ok: false; reason: UnreadableReason };

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * Parses a JSON object file as analysis reads it: strict UTF-8, an object at the top, and JSON
 * PostgreSQL's jsonb can hold (no NUL, no lone surrogates, bounded nesting: the checks of model records).
 */
export function parseJsonObject(bytes: Uint8Array): ParsedJson {
	if (bytes.byteLength > MAX_ANALYSED_JSON_BYTES) return { ok: false, reason: "too large" };
	let text: string;
	try {
		text = UTF8.decode(bytes);
	} catch {
		return { ok: false, reason: "not UTF-8" };
	}
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		// SyntaxError, or RangeError when the nesting exhausts the parser's stack.
		return { ok: false, reason: "not JSON" };
	}
	if (typeof value !== "object" || value === null || Array.isArray(value))
		return { ok: false, reason: "not an object" };
	try {
		checkJson(value, "file");
	} catch (error) {
		if (error instanceof ModelInputError) return { ok: false, reason: "unstorable JSON" };
		throw error;
	}
	return { ok: true, value: value as Record<string, unknown> };
}

/** Decodes a small text file (YAML): strict UTF-8 or nothing. */
export function decodeText(bytes: Uint8Array): string | undefined {
	if (bytes.byteLength > MAX_ANALYSED_JSON_BYTES) return undefined;
	try {
		return UTF8.decode(bytes);
	} catch {
		return undefined;
	}
}

export function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function stringOf(value: unknown): string | undefined {
	return typeof value === "string" && value.length > 0 ? value : undefined;
}
