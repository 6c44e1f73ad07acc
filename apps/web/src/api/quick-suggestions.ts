/**
 * The header search's suggestions for a text, from the hub's `GET /api/quicksearch`. The header loads this
 * module when its search box is first focused (components/HeaderSearch.tsx), not with every page.
 */
import type { QuickSearchAnswer } from "@modelhub/hub/api";
import { QUICK_SEARCH_TYPES, SUGGESTIONS_PER_KIND, suggestionsOf } from "../view/quick-search";
import type { Suggestion } from "../view/search-box";
import { apiUrl, getJson, type ApiOptions } from "./http";

export async function quickSuggestions(text: string, options: ApiOptions): Promise<Suggestion[]> {
	const url = apiUrl(options.baseUrl, "/api/quicksearch", {
		q: text,
		type: [...QUICK_SEARCH_TYPES],
		limit: SUGGESTIONS_PER_KIND,
	});
	const { data } = await getJson<QuickSearchAnswer>(url, options);
	return suggestionsOf(data, text);
}
