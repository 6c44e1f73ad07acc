/** Module resolution hook: `@modelhub/inference` → the bundle built from this package's source. */
import { pathToFileURL } from "node:url";

let bundle = "";

export function initialize(data) {
	bundle = pathToFileURL(data.bundle).href;
}

export async function resolve(specifier, context, nextResolve) {
	if (specifier === "@modelhub/inference") return { url: bundle, shortCircuit: true };
	return nextResolve(specifier, context);
}
