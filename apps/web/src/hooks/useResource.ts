import { useEffect, useEffectEvent, useState, type DependencyList } from "react";

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
	const keys = [...deps, reload];
	// The caller's deps (checked at the call through the lint's `additionalHooks`) as one value that
	// changes only when an entry does: kept from render to render ("storing information from previous
	// renders"), so the effect below has a fixed list of its own.
	const [current, setCurrent] = useState<DependencyList>(keys);
	let loadedFor = current;
	if (!sameDeps(current, keys)) {
		setCurrent(keys);
		loadedFor = keys;
	}
	const [answer, setAnswer] = useState<{ deps: DependencyList; resource: Resource<T> }>();
	// The latest `load` (it reads what the deps name), without being a dependency itself.
	const run = useEffectEvent((signal: AbortSignal) => load(signal));
	useEffect(() => {
		const controller = new AbortController();
		run(controller.signal).then(
			(data) => {
				if (!controller.signal.aborted) setAnswer({ deps: loadedFor, resource: { status: "ready", data } });
			},
			(error: unknown) => {
				if (controller.signal.aborted) return;
				const failure = error instanceof Error ? error : new Error(String(error));
				setAnswer({ deps: loadedFor, resource: { status: "error", error: failure } });
			},
		);
		return () => controller.abort();
	}, [loadedFor]);
	return answer && sameDeps(answer.deps, keys) ? answer.resource : LOADING;
}
