/**
 * `@modelhub/inference/catalog`: what the client knows, as names and words only — the providers (ids,
 * tasks, display names) and the task registry (each task function's task, answer and input) — for an
 * app that lists providers or chooses a task function without loading the client.
 */
export {
	INFERENCE_PROVIDERS,
	PROVIDER_LABELS,
	PROVIDER_TASKS,
	PROVIDERS_OR_POLICIES,
	PROVIDERS_WITHOUT_ROUTER,
	isKnownProvider,
} from "./providers/catalog.js";
export { TASK_REGISTRY, functionForPipeline, taskDeclaration } from "./tasks/registry.js";
export type {
	TaskAnswer,
	TaskDeclaration,
	TaskFunctionName,
	TaskInput,
	TaskRegistry,
} from "./tasks/registry.js";
export type { TaskOutput } from "./tasks/functions.js";
export type { InferenceProvider, InferenceProviderOrPolicy } from "./types.js";
