import type { InferenceProvider, InferenceTask } from "../types.js";

/** The 17 provider ids, alphabetical. */
export const INFERENCE_PROVIDERS = [
	"black-forest-labs",
	"cerebras",
	"cohere",
	"fal-ai",
	"featherless-ai",
	"fireworks-ai",
	"groq",
	"hf-inference",
	"hyperbolic",
	"nebius",
	"novita",
	"nscale",
	"openai",
	"ovhcloud",
	"replicate",
	"sambanova",
	"together",
] as const;

export const PROVIDERS_OR_POLICIES = [...INFERENCE_PROVIDERS, "auto"] as const;

/**
 * Task names per provider, in 3.12.1's table order (providers.json provider_table_order and the
 * key order of each provider's tasks). Names only, so that error messages can list them without
 * pulling any helper code into a bundle.
 */
export const PROVIDER_TASKS: Readonly<Record<InferenceProvider, readonly InferenceTask[]>> = {
	"black-forest-labs": ["text-to-image"],
	cerebras: ["conversational"],
	cohere: ["conversational"],
	"fal-ai": ["text-to-image", "text-to-speech", "text-to-video", "automatic-speech-recognition"],
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
	novita: ["conversational", "text-generation"],
	nscale: ["text-to-image", "conversational"],
	openai: ["conversational"],
	ovhcloud: ["conversational", "text-generation"],
	replicate: ["text-to-image", "text-to-speech", "text-to-video"],
	sambanova: ["conversational", "feature-extraction"],
	together: ["text-to-image", "conversational", "text-generation"],
};

export function isKnownProvider(id: string): id is InferenceProvider {
	return Object.prototype.hasOwnProperty.call(PROVIDER_TASKS, id);
}
