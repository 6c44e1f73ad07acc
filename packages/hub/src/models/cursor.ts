import type { ModelSort } from "../vocabulary.js";
import { parseIsoDate } from "./dates.js";
import { modelIdProblem } from "./ids.js";

export type Direction = 1 | -1;

/** Where a page ended: the sort value and id of its last model (a keyset position, never an offset). */
export interface CursorPosition {
	sort: ModelSort;
	direction: Direction;
	/** The last model's sort value: a count, an ISO date, or null when sorting by id. */
	value: number | string | null;
	id: string;
}

const VERSION = 1;

/** An opaque token for the page after `position`. */
export function encodeCursor(position: CursorPosition): string {
	const payload = [VERSION, position.sort, position.direction, position.value, position.id];
	return Buffer.from(JSON.stringify(payload), "utf8").toString("base64url");
}

/**
 * Reads a cursor made by encodeCursor for the same sort order. Returns a message saying what is wrong
 * (for a 400 answer) when it is not one.
 */
export function decodeCursor(text: string, sort: ModelSort, direction: Direction): CursorPosition | string {
	if (text.length > 1024 || !/^[A-Za-z0-9_-]+$/.test(text)) return "cursor is not one this hub issued";
	let payload: unknown;
	try {
		payload = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
	} catch {
		return "cursor is not one this hub issued";
	}
	if (!Array.isArray(payload) || payload.length !== 5 || payload[0] !== VERSION) {
		return "cursor is not one this hub issued";
	}
	const [, cursorSort, cursorDirection, value, id] = payload as unknown[];
	if (cursorSort !== sort || cursorDirection !== direction) {
		return "cursor belongs to another sort order: keep 'sort' and 'direction' unchanged while paging";
	}
	if (typeof id !== "string" || modelIdProblem(id) !== undefined) return "cursor is not one this hub issued";
	if (sort === "id") {
		if (value !== null) return "cursor is not one this hub issued";
	} else if (sort === "lastModified" || sort === "createdAt") {
		// Exactly what the hub writes (toISOString), for a date that exists: anything else is forged.
		if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(value)) {
			return "cursor is not one this hub issued";
		}
		if (parseIsoDate(value)?.toISOString() !== value) return "cursor is not one this hub issued";
	} else if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
		return "cursor is not one this hub issued";
	}
	return { sort, direction, value, id };
}
