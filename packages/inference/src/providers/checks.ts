import { InferenceOutputError } from "../core/errors.js";

/** Small shape predicates shared by the response parsers. `every` lets an empty array pass, as in 3.12.1. */
export type Rec = Record<string, unknown>;

export function isRecord(value: unknown): value is Rec {
	return typeof value === "object" && value !== null;
}

function isArrayOf(value: unknown, predicate: (item: unknown) => boolean): value is unknown[] {
	return Array.isArray(value) && value.every(predicate);
}

export function isString(value: unknown): value is string {
	return typeof value === "string";
}

export function isNumber(value: unknown): value is number {
	return typeof value === "number";
}

/** The task-level check of automaticSpeechRecognition (all providers). */
export function checkTranscription(raw: unknown): asserts raw is { text: string } {
	if (!isRecord(raw) || !isString(raw.text)) throw new InferenceOutputError("Expected {text: string}");
}

/**
 * An answer shape as data: `"string"`, `"number"`, `"number?"` (absent or a number), `[shape]` (an
 * array whose every element fits, empty included, as 3.12.1's checks use `every`), or
 * `{ key: shape }` (an object whose listed keys fit).
 */
export type Shape = "string" | "number" | "number?" | readonly [Shape] | { readonly [key: string]: Shape };

export function fits(value: unknown, shape: Shape): boolean {
	if (shape === "string") return isString(value);
	if (shape === "number") return isNumber(value);
	if (shape === "number?") return value === undefined || isNumber(value);
	if (Array.isArray(shape)) return isArrayOf(value, (item) => fits(item, (shape as readonly [Shape])[0]));
	if (!isRecord(value)) return false;
	const record = shape as { readonly [key: string]: Shape };
	for (const key in record) if (!fits(value[key], record[key] as Shape)) return false;
	return true;
}
