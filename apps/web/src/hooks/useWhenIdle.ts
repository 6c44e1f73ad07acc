import { useEffect, useState } from "react";

/**
 * False until the browser has had an idle moment after the first render (at most `timeout` ms): work
 * that is not the page's main content (the inference client behind the sidebar) waits for it, so it
 * does not compete with the first paint and the model card.
 */
export function useWhenIdle(timeout = 1500): boolean {
	const [idle, setIdle] = useState(false);
	useEffect(() => {
		if (typeof window.requestIdleCallback === "function") {
			const handle = window.requestIdleCallback(() => setIdle(true), { timeout });
			return () => window.cancelIdleCallback(handle);
		}
		const timer = setTimeout(() => setIdle(true), 200);
		return () => clearTimeout(timer);
	}, [timeout]);
	return idle;
}
