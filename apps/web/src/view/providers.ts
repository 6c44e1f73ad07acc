import type { ProviderMapping, ProviderMappingEntry } from "../api/models";

const PROVIDER_LABELS: Record<string, string> = {
	"black-forest-labs": "Black Forest Labs",
	cerebras: "Cerebras",
	cohere: "Cohere",
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
	replicate: "Replicate",
	sambanova: "SambaNova",
	together: "Together AI",
};

export function providerLabel(provider: string): string {
	return PROVIDER_LABELS[provider] ?? provider;
}

export interface ProviderEntry extends ProviderMappingEntry {
	provider: string;
	label: string;
}

/** The providers serving a model, in the hub's preference order (the mapping object's key order). */
export function providerEntries(mapping: ProviderMapping | undefined): ProviderEntry[] {
	if (!mapping || typeof mapping !== "object") return [];
	return Object.entries(mapping).map(([provider, entry]) => ({
		...entry,
		provider,
		label: providerLabel(provider),
	}));
}

export interface SnippetLike {
	language: string;
	client: string;
	content: string;
}

export const SNIPPET_LANGUAGES = ["python", "js", "sh"] as const;
export type SnippetLanguageId = (typeof SNIPPET_LANGUAGES)[number];

export const SNIPPET_LANGUAGE_LABELS: Record<SnippetLanguageId, string> = {
	python: "Python",
	js: "JavaScript",
	sh: "cURL",
};

/** Languages that have at least one snippet, in python / js / sh order. */
export function snippetLanguages(snippets: SnippetLike[]): SnippetLanguageId[] {
	return SNIPPET_LANGUAGES.filter((language) => snippets.some((snippet) => snippet.language === language));
}

/** The clients offering a snippet in `language`, in the generator's order, without duplicates. */
export function snippetClients(snippets: SnippetLike[], language: string): string[] {
	return [
		...new Set(snippets.filter((snippet) => snippet.language === language).map((snippet) => snippet.client)),
	];
}

const CLIENT_LABELS: Record<string, string> = {
	huggingface_hub: "huggingface_hub",
	"huggingface.js": "huggingface.js",
	requests: "requests",
	openai: "openai",
	fal_client: "fal-client",
	curl: "cURL",
	fetch: "fetch",
};

export function clientLabel(client: string): string {
	return CLIENT_LABELS[client] ?? client;
}
