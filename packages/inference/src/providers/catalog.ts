import type { InferenceTask } from "../types.js";

/**
 * Which provider serves which task: THE one declaration of provider × task pairs (96: the 87 of
 * huggingface.js 4.13.28, plus the 9 of black-forest-labs, hyperbolic, nebius and sambanova, which the
 * public router stopped serving on 2026-07-01 and we keep for direct provider keys).
 *
 * One line per provider, in the order error messages list them (3.12.1's table order, with today's
 * providers where huggingface.js 4.13.28 puts them); tasks in that same order. Everything else derives
 * from this: `INFERENCE_PROVIDERS`, the per-task helper tables (`by-task.ts`, generated from this
 * declaration by test/providers/by-task.test.ts), the registry `request()` uses, the snippet offers.
 * Names only, so that an error message can list them without pulling helper code into a bundle.
 *
 * Adding a provider: write `src/providers/<id>.ts` (one `{provider}{Task}` helper per task), add its
 * line here, then regenerate `by-task.ts` (`UPDATE_GENERATED=1 npx vitest run packages/inference/test/providers/by-task.test.ts`).
 */
export const PROVIDER_TASKS = {
	baseten: ["conversational"],
	"black-forest-labs": ["text-to-image"],
	cerebras: ["conversational"],
	cohere: ["conversational"],
	deepinfra: [
		"automatic-speech-recognition",
		"conversational",
		"feature-extraction",
		"text-generation",
		"text-to-speech",
	],
	"fal-ai": [
		"audio-to-audio",
		"automatic-speech-recognition",
		"image-text-to-image",
		"image-text-to-video",
		"image-to-image",
		"image-segmentation",
		"image-to-video",
		"text-to-audio",
		"text-to-image",
		"text-to-speech",
		"text-to-video",
	],
	"featherless-ai": ["conversational", "text-generation"],
	"hf-inference": [
		"text-to-image",
		"conversational",
		"text-generation",
		"text-classification",
		"question-answering",
		"audio-classification",
		"automatic-speech-recognition",
		"fill-mask",
		"feature-extraction",
		"image-classification",
		"image-segmentation",
		"document-question-answering",
		"image-to-text",
		"object-detection",
		"audio-to-audio",
		"zero-shot-image-classification",
		"zero-shot-classification",
		"image-to-image",
		"sentence-similarity",
		"table-question-answering",
		"tabular-classification",
		"text-to-speech",
		"token-classification",
		"translation",
		"summarization",
		"visual-question-answering",
		"tabular-regression",
		"text-to-audio",
	],
	"fireworks-ai": ["conversational"],
	groq: ["conversational", "text-generation"],
	hyperbolic: ["text-to-image", "conversational", "text-generation"],
	nebius: ["text-to-image", "conversational", "text-generation"],
	novita: ["conversational", "text-generation", "text-to-video"],
	nscale: ["text-to-image", "conversational"],
	openai: ["conversational"],
	ovhcloud: ["conversational", "text-generation"],
	publicai: ["conversational"],
	replicate: [
		"text-to-image",
		"text-to-speech",
		"text-to-video",
		"image-to-image",
		"automatic-speech-recognition",
	],
	sambanova: ["conversational", "feature-extraction"],
	scaleway: ["conversational", "text-generation", "feature-extraction"],
	together: [
		"text-to-image",
		"image-to-image",
		"text-to-video",
		"image-to-video",
		"conversational",
		"text-generation",
		"feature-extraction",
		"text-to-speech",
		"automatic-speech-recognition",
	],
	wavespeed: [
		"text-to-image",
		"text-to-video",
		"image-to-image",
		"image-to-video",
		"image-text-to-image",
		"image-text-to-video",
	],
	"zai-org": ["conversational", "text-to-image", "image-to-text"],
} as const satisfies Readonly<Record<string, readonly InferenceTask[]>>;

type Catalog = typeof PROVIDER_TASKS;
type Provider = keyof Catalog;

/** The providers that serve `T`. */
export type ProvidersOf<T extends InferenceTask> = {
	[P in Provider]: T extends Catalog[P][number] ? P : never;
}[Provider];

function sortedKeys<K extends string>(record: Readonly<Record<K, unknown>>): K[] {
	return (Object.keys(record) as K[]).sort();
}

/** The provider ids, alphabetical. */
export const INFERENCE_PROVIDERS: readonly Provider[] = /* @__PURE__ */ sortedKeys(PROVIDER_TASKS);

/** The provider ids, then the "auto" policy. */
export const PROVIDERS_OR_POLICIES: ReadonlyArray<Provider | "auto"> =
	/* @__PURE__ */ withAuto(INFERENCE_PROVIDERS);

function withAuto(providers: readonly Provider[]): Array<Provider | "auto"> {
	return [...providers, "auto"];
}

/**
 * Each provider's display name (as the public hub's provider pages write it). Keyed by the catalogue's
 * own ids, so a provider added above without a name, or a name left for a removed one, fails to compile.
 */
export const PROVIDER_LABELS: { readonly [P in Provider]: string } = {
	baseten: "Baseten",
	"black-forest-labs": "Black Forest Labs",
	cerebras: "Cerebras",
	cohere: "Cohere",
	deepinfra: "DeepInfra",
	"fal-ai": "fal",
	"featherless-ai": "Featherless AI",
	"fireworks-ai": "Fireworks",
	groq: "Groq",
	"hf-inference": "HF Inference API",
	hyperbolic: "Hyperbolic",
	nebius: "Nebius AI Studio",
	novita: "Novita",
	nscale: "Nscale",
	openai: "OpenAI",
	ovhcloud: "OVHcloud AI Endpoints",
	publicai: "Public AI",
	replicate: "Replicate",
	sambanova: "SambaNova",
	scaleway: "Scaleway",
	together: "Together AI",
	wavespeed: "WaveSpeedAI",
	"zai-org": "Z.ai",
};

/**
 * Providers whose public router route was removed on 2026-07-01 (huggingface.js 1fc5d92e8): kept for
 * direct provider keys; an `hf_` token gets whatever the router answers.
 */
export const PROVIDERS_WITHOUT_ROUTER: readonly Provider[] = [
	"black-forest-labs",
	"hyperbolic",
	"nebius",
	"sambanova",
];

export function isKnownProvider(id: string): id is Provider {
	return Object.hasOwn(PROVIDER_TASKS, id);
}
