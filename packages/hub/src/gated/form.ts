import type { GatedField } from "../api/community.js";

/**
 * A gated repository's request form, from its card's front matter (the public hub's `extra_gated_*`
 * metadata, hub-docs "Gated models"): `extra_gated_fields` maps a field's name to its type (`text`,
 * `checkbox`, `date_picker`, `country`, `select`) or to `{ type, options }`. Pure functions.
 */

const FIELD_TYPES: ReadonlySet<string> = new Set(["text", "checkbox", "date_picker", "country", "select"]);
/** The most fields, options and characters read from a card (it is the owner's, but bounded anyway). */
const MAX_FIELDS = 50;
const MAX_OPTIONS = 200;
const MAX_NAME = 200;
/** The longest answer kept for a text field. */
export const MAX_ANSWER_CHARS = 1000;

function optionOf(value: unknown): { label: string; value: string } | undefined {
	if (typeof value === "string" || typeof value === "number")
		return { label: String(value), value: String(value) };
	if (typeof value === "object" && value !== null) {
		const { label, value: inner } = value as { label?: unknown; value?: unknown };
		if (typeof inner === "string" || typeof inner === "number") {
			return { label: typeof label === "string" ? label : String(inner), value: String(inner) };
		}
	}
	return undefined;
}

/** The form's fields, in the card's order (unknown types are read as text). */
export function gatedFields(card: Record<string, unknown> | undefined): GatedField[] {
	const declared = card?.extra_gated_fields;
	if (typeof declared !== "object" || declared === null || Array.isArray(declared)) return [];
	const fields: GatedField[] = [];
	for (const [name, spec] of Object.entries(declared).slice(0, MAX_FIELDS)) {
		if (name.length === 0 || name.length > MAX_NAME) continue;
		const typeName =
			typeof spec === "string"
				? spec
				: typeof spec === "object" && spec !== null
					? (spec as { type?: unknown }).type
					: undefined;
		const type = (
			typeof typeName === "string" && FIELD_TYPES.has(typeName) ? typeName : "text"
		) as GatedField["type"];
		const field: GatedField = { name, type };
		if (type === "select") {
			const options =
				typeof spec === "object" && spec !== null ? (spec as { options?: unknown }).options : undefined;
			field.options = Array.isArray(options)
				? options.slice(0, MAX_OPTIONS).flatMap((option) => optionOf(option) ?? [])
				: [];
		}
		fields.push(field);
	}
	return fields;
}

/** A string front-matter value (the prompt, heading, button text), or undefined. */
export function cardText(card: Record<string, unknown> | undefined, key: string): string | undefined {
	const value = card?.[key];
	return typeof value === "string" && value.trim() !== "" ? value.slice(0, 10_000) : undefined;
}

/**
 * The answers a request keeps (the form's fields only), or the reason they are refused: every field
 * must be answered, a checkbox ticked, a select with one of its options.
 */
export function checkAnswers(
	fields: readonly GatedField[],
	answers: Record<string, unknown>,
): { ok: Record<string, string | boolean> } | { problem: string } {
	const kept: Record<string, string | boolean> = {};
	for (const field of fields) {
		const answer = answers[field.name];
		if (field.type === "checkbox") {
			if (answer !== true) return { problem: `'${field.name}' must be ticked to ask for access` };
			kept[field.name] = true;
			continue;
		}
		if (typeof answer !== "string" || answer.trim() === "") {
			return { problem: `'${field.name}' must be answered to ask for access` };
		}
		if (answer.length > MAX_ANSWER_CHARS) {
			return { problem: `'${field.name}' is longer than ${MAX_ANSWER_CHARS} characters` };
		}
		if (field.type === "select" && !(field.options ?? []).some((option) => option.value === answer)) {
			return { problem: `'${field.name}' must be one of its options` };
		}
		kept[field.name] = answer.trim();
	}
	return { ok: kept };
}
