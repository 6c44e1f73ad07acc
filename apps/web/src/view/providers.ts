import type { ProviderMapping, ProviderMappingEntry } from "@modelhub/hub/api";
import { INFERENCE_PROVIDERS, isKnownProvider, PROVIDER_LABELS } from "@modelhub/inference/catalog";

/** The providers in the model list's filter, by display name. */
export function providerOptions(): Array<{ id: string; label: string }> {
	return INFERENCE_PROVIDERS.map((id) => ({ id, label: PROVIDER_LABELS[id] })).sort((a, b) =>
		a.label.localeCompare(b.label),
	);
}

export function providerLabel(provider: string): string {
	return isKnownProvider(provider) ? PROVIDER_LABELS[provider] : provider;
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

const SNIPPET_LANGUAGES = ["python", "js", "sh"] as const;
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

/** A snippet's caption: the client and its language, once when they share a name ("cURL", not "cURL (cURL)"). */
export function snippetTitle(language: SnippetLanguageId, client: string): string {
	const clientName = clientLabel(client);
	const languageName = SNIPPET_LANGUAGE_LABELS[language];
	return clientName.toLowerCase() === languageName.toLowerCase()
		? clientName
		: `${clientName} (${languageName})`;
}
