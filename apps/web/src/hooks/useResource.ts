import { useEffect, useState, type DependencyList } from "react";

export type Resource<T> =
	| { status: "loading"; data?: undefined; error?: undefined }
	| { status: "ready"; data: T; error?: undefined }
	| { status: "error"; data?: undefined; error: Error };

/** Runs `load` whenever `deps` change, aborting the previous run; a stale answer never overwrites a newer one. */
export function useResource<T>(load: (signal: AbortSignal) => Promise<T>, deps: DependencyList): Resource<T> {
	const [state, setState] = useState<Resource<T>>({ status: "loading" });
	useEffect(() => {
		const controller = new AbortController();
		setState({ status: "loading" });
		load(controller.signal).then(
			(data) => {
				if (!controller.signal.aborted) setState({ status: "ready", data });
			},
			(error: unknown) => {
				if (controller.signal.aborted) return;
				setState({ status: "error", error: error instanceof Error ? error : new Error(String(error)) });
			},
		);
		return () => controller.abort();
		// The caller names what `load` reads, as its own `deps` (the hook forwards them).
		// eslint-disable-next-line react-hooks/exhaustive-deps
	}, deps);
	return state;
}
