import { useEffect, useState } from "react";

/**
 * A module loaded on demand (a dynamic import) once `wanted`, or undefined until it has arrived: for
 * enhancements a view can show without (highlighting), kept out of the page's first load.
 */
export function useModule<T>(load: () => Promise<T>, wanted: boolean): T | undefined {
	const [module, setModule] = useState<T>();
	useEffect(() => {
		if (!wanted || module !== undefined) return;
		let live = true;
		load().then(
			(loaded) => {
				if (live) setModule(() => loaded);
			},
			() => undefined,
		);
		return () => {
			live = false;
		};
	}, [wanted, module, load]);
	return module;
}
