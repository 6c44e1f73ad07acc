/**
 * What the header's search box needs before its suggestions are asked for: the text's bound, where Enter
 * goes without a suggestion, and the arrow keys' moves. Part of every page's first load; the suggestions
 * themselves (`./quick-search`, the request and its answer's options) load when the box is first focused.
 */

export type SuggestionKind = "model" | "dataset" | "user" | "org" | "all";

export interface Suggestion {
	kind: SuggestionKind;
	/** What the option says. */
	label: string;
	/** A second line (a full name), when there is one. */
	detail?: string;
	href: string;
}

/** The longest text sent to the hub (its own bound is 200). */
export const MAX_QUICK_SEARCH = 200;

/** The models page for a search text: where Enter goes when no suggestion is chosen. */
export function modelsSearchHref(text: string): string {
	return `/models?search=${encodeURIComponent(text.trim())}`;
}

/** The option an arrow key moves to from `active` (-1: none) among `count`, wrapping round. */
export function moveActive(active: number, count: number, key: "ArrowDown" | "ArrowUp"): number {
	if (count === 0) return -1;
	if (key === "ArrowDown") return active < 0 || active >= count - 1 ? 0 : active + 1;
	return active <= 0 ? count - 1 : active - 1;
}
