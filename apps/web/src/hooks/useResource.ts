import { useEffect, useState, type DependencyList } from "react";

export type Resource<T> =
	| { status: "loading"; data?: undefined; error?: undefined }
	| { status: "ready"; data: T; error?: undefined }
	| { status: "error"; data?: undefined; error: Error };

const LOADING = { status: "loading" } as const;

function sameDeps(a: DependencyList, b: DependencyList): boolean {
	return a.length === b.length && a.every((value, index) => Object.is(value, b[index]));
}

/**
 * Runs `load` whenever `deps` change, aborting the previous run; a stale answer never overwrites a newer
 * one. An answer is kept with the deps it was loaded for, and "loading" is derived (deps that have no
 * answer yet), so the effect never resets state itself (React's "you might not need an effect").
 */
export function useResource<T>(
	load: (signal: AbortSignal) => Promise<T>,
	deps: DependencyList,
	/** A value whose change loads again though `load` does not read it (a counter bumped after an edit). */
	reload?: unknown,
): Resource<T> {
	const [answer, setAnswer] = useState<{ deps: DependencyList; resource: Resource<T> }>();
	const keys = [...deps, reload];
	useEffect(() => {
		const controller = new AbortController();
		load(controller.signal).then(
			(data) => {
				if (!controller.signal.aborted) setAnswer({ deps: keys, resource: { status: "ready", data } });
			},
			(error: unknown) => {
				if (controller.signal.aborted) return;
				const failure = error instanceof Error ? error : new Error(String(error));
				setAnswer({ deps: keys, resource: { status: "error", error: failure } });
			},
		);
		return () => controller.abort();
		// The caller names what `load` reads, as its own `deps` (the hook forwards them; the lint checks
		// the caller's list through `additionalHooks`).
		// eslint-disable-next-line react-hooks/exhaustive-deps
	}, keys);
	return answer && sameDeps(answer.deps, keys) ? answer.resource : LOADING;
}
