import type { RefObject } from "react";
import { useLocation, useSearchParams } from "react-router";

/** The cursor stack kept in a history entry's state by the pagination buttons (none on other entries). */
function previousCursors(historyState: unknown): string[] {
	if (typeof historyState !== "object" || historyState === null || !("previous" in historyState)) return [];
	const { previous } = historyState;
	return Array.isArray(previous)
		? previous.filter((cursor): cursor is string => typeof cursor === "string")
		: [];
}

/**
 * Paging a list by the hub's cursors (`X-Next-Cursor`, never offsets). The cursors of the pages before
 * the current one live in the history entry's state, so "Previous" needs no offsets and Back and reload
 * restore the page number with the page. `withCursor` is the list's URL with another cursor; `heading`
 * (the list's heading) is focused after a page change.
 */
export function useCursorPages(
	currentCursor: string,
	withCursor: (cursor: string) => URLSearchParams,
	heading: RefObject<HTMLHeadingElement | null>,
) {
	const [, setParams] = useSearchParams();
	const previous = previousCursors(useLocation().state);
	const goTo = (cursor: string | undefined, back: boolean) => {
		setParams(withCursor(cursor ?? ""), {
			state: { previous: back ? previous.slice(0, -1) : [...previous, currentCursor] },
		});
		// The buttons sit below the list: the new page is read from its top, as after a page load.
		window.scrollTo(0, 0);
		heading.current?.focus({ preventScroll: true });
	};
	return {
		/** 1 on the first page. */
		pageNumber: previous.length + 1,
		hasPrevious: previous.length > 0 || currentCursor !== "",
		previousPage: () => goTo(previous[previous.length - 1], true),
		nextPage: (cursor: string) => goTo(cursor, false),
	};
}
