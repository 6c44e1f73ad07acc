import { useCallback } from "react";

type ObjectUrlTarget = HTMLImageElement | HTMLMediaElement | HTMLAnchorElement;

/**
 * A ref that shows `blob` in an element through an object URL (`src`, or `href` for a link), revoked when
 * the blob changes or the element goes. A ref callback with a cleanup (React 19), not state set by an
 * effect: the URL lives exactly as long as the element that shows it.
 */
export function useObjectUrlRef(
	blob: Blob | undefined,
): (element: ObjectUrlTarget | null) => (() => void) | void {
	return useCallback(
		(element: ObjectUrlTarget | null) => {
			if (!element || !blob) return;
			const url = URL.createObjectURL(blob);
			if (element instanceof HTMLAnchorElement) element.href = url;
			else element.src = url;
			return () => URL.revokeObjectURL(url);
		},
		[blob],
	);
}
