/**
 * The "Use this model" body is a chunk of its own (the library snippet generators and local apps), fetched
 * as soon as the pointer or focus reaches the button, so the dialog opens with its code at once: the
 * module is kept here once loaded and rendered synchronously, with no Suspense fallback flash.
 */
import { useEffect, useState } from "react";
import { preloadCodeBlock } from "../code";

import type * as UseModel from "./UseModel";

type UseModelModule = typeof UseModel;

let loaded: UseModelModule | undefined;
let pending: Promise<UseModelModule> | undefined;

export function preloadUseModel(): Promise<UseModelModule> {
	pending ??= Promise.all([import("./UseModel"), preloadCodeBlock()]).then(([module]) => {
		loaded = module;
		return module;
	});
	return pending;
}

/** The loaded module, or undefined until it arrives (starting the load when needed). */
export function useUseModelModule(): UseModelModule | undefined {
	const [module, setModule] = useState(loaded);
	useEffect(() => {
		if (module) return;
		let alive = true;
		preloadUseModel().then(
			(value) => {
				if (alive) setModule(value);
			},
			() => undefined,
		);
		return () => {
			alive = false;
		};
	}, [module]);
	return module;
}
