/**
 * The header search's suggestions: the hub's quick-search answer as one flat list of options (models,
 * then datasets, then users, then organisations, then "all matching models"), each with the page it
 * opens. Pure, so the keyboard logic of the combobox is testable without a browser.
 */
import type { QuickSearchAnswer } from "@modelhub/hub/api";
import { repoId, repoPagePath } from "@modelhub/tasks/repositories";
import { modelHref } from "./model";

export type SuggestionKind = "model" | "dataset" | "user" | "org" | "all";

/** The kinds of suggestion the header asks the hub for, in the order they are listed. */
export const QUICK_SEARCH_TYPES = ["model", "dataset", "user", "org"] as const;

export interface Suggestion {
	kind: SuggestionKind;
	/** What the option says. */
	label: string;
	/** A second line (a full name), when there is one. */
	detail?: string;
	href: string;
}

/** The longest text sent to the hub (its own bound is 200). */
export const MAX_QUICK_SEARCH = 200;
/** Suggestions of each kind asked for. */
export const SUGGESTIONS_PER_KIND = 5;

/** The models page for a search text: where Enter goes when no suggestion is chosen. */
export function modelsSearchHref(text: string): string {
	return `/models?search=${encodeURIComponent(text.trim())}`;
}

export function profileHref(name: string): string {
	return `/${encodeURIComponent(name)}`;
}

export function suggestionsOf(answer: QuickSearchAnswer, text: string): Suggestion[] {
	const detail = (name: string, fullname: string) =>
		fullname && fullname !== name ? { detail: fullname } : {};
	const trimmed = text.trim();
	return [
		...answer.models.map((model): Suggestion => ({
			kind: "model",
			label: model.id,
			href: modelHref(model.id),
		})),
		...answer.datasets.map((dataset): Suggestion => ({
			kind: "dataset",
			label: dataset.id,
			href: repoPagePath(repoId("dataset", dataset.id)),
		})),
		...answer.users.map((user): Suggestion => ({
			kind: "user",
			label: user.user,
			...detail(user.user, user.fullname),
			href: profileHref(user.user),
		})),
		...answer.orgs.map((org): Suggestion => ({
			kind: "org",
			label: org.name,
			...detail(org.name, org.fullname),
			href: profileHref(org.name),
		})),
		...(trimmed
			? [
					{
						kind: "all" as const,
						label:
							answer.modelsCount > 0
								? `See all ${answer.modelsCount.toLocaleString("en-US")} models for “${trimmed}”`
								: `Search models for “${trimmed}”`,
						href: modelsSearchHref(trimmed),
					},
				]
			: []),
	];
}

/** The option an arrow key moves to from `active` (-1: none) among `count`, wrapping round. */
export function moveActive(active: number, count: number, key: "ArrowDown" | "ArrowUp"): number {
	if (count === 0) return -1;
	if (key === "ArrowDown") return active < 0 || active >= count - 1 ? 0 : active + 1;
	return active <= 0 ? count - 1 : active - 1;
}
