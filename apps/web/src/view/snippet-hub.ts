/**
 * Which hub the snippets the app shows should fetch a model from. A model whose files this hub serves
 * gets `{ hubUrl }` (the option of @modelhub/tasks' snippet generators); a catalogue model that carries
 * only metadata (`metadataOnly` in model info) keeps pointing at the public hub, where its files are.
 */
import type { HubUrlMetaName, ModelInfo } from "@modelhub/hub/api";
import { HubUrlError, otherHubUrl, type SnippetOptions } from "@modelhub/tasks";

const HUB_URL_META: HubUrlMetaName = "modelhub-hub-url";

/**
 * The hub's address as users reach it: the hub chosen in Settings, else the public URL the hub announces
 * in the page (MODELHUB_PUBLIC_URL), else the origin the page was served from.
 */
export function snippetHubUrl(settingsHubUrl: string, doc: Document = document): string {
	if (settingsHubUrl) return settingsHubUrl;
	const announced = doc.querySelector(`meta[name="${HUB_URL_META}"]`)?.getAttribute("content");
	return announced || doc.location.origin;
}

/**
 * The snippet options for a model: its files' hub, unless it carries only metadata. An address the
 * generators refuse (a Settings value that is no http(s) URL) gives no option rather than no dialog.
 */
export function snippetOptions(model: Pick<ModelInfo, "metadataOnly">, hubUrl: string): SnippetOptions {
	if (model.metadataOnly === true) return {};
	try {
		otherHubUrl({ hubUrl });
	} catch (error) {
		if (error instanceof HubUrlError) return {};
		throw error;
	}
	return { hubUrl };
}
