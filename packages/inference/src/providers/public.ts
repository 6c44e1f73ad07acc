/**
 * `@modelhub/inference/providers`: the provider catalogue alone (ids, tasks, display names), for an app
 * that lists providers without loading the client.
 */
export {
	INFERENCE_PROVIDERS,
	PROVIDER_LABELS,
	PROVIDER_TASKS,
	PROVIDERS_OR_POLICIES,
	PROVIDERS_WITHOUT_ROUTER,
	isKnownProvider,
} from "./catalog.js";
export type { InferenceProvider, InferenceProviderOrPolicy } from "../types.js";
