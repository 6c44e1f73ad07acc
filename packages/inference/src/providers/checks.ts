import { InferenceOutputError } from "../core/errors.js";

/** Small shape predicates shared by the response parsers. `every` lets an empty array pass, as in 3.12.1. */
export type Rec = Record<string, unknown>;

export function isRecord(value: unknown): value is Rec {
	return typeof value === "object" && value !== null;
}

export function isArrayOf(value: unknown, predicate: (item: unknown) => boolean): value is unknown[] {
	return Array.isArray(value) && value.every(predicate);
}

export function isString(value: unknown): value is string {
	return typeof value === "string";
}

export function isNumber(value: unknown): value is number {
	return typeof value === "number";
}

export function isLabelScore(item: unknown): boolean {
	return isRecord(item) && isString(item.label) && isNumber(item.score);
}

/** The task-level check of automaticSpeechRecognition (all providers). */
export function checkTranscription(raw: unknown): asserts raw is { text: string } {
	if (!isRecord(raw) || !isString(raw.text)) throw new InferenceOutputError("Expected {text: string}");
}
