/**
 * The header search's suggestions: the hub's quick-search answer as one flat list of options (models,
 * then datasets, then users, then organisations, then "all matching models"), each with the page it
 * opens. Pure, so it is testable without a browser. What the box needs (its keys, where Enter goes)
 * before its first focus is in `./search-box`, so the first load carries only that.
 */
import type { QuickSearchAnswer } from "@modelhub/hub/api";
import { repoId, repoPagePath } from "@modelhub/tasks/repositories";
import { modelHref } from "./model";
import { modelsSearchHref, type Suggestion } from "./search-box";

/** The kinds of suggestion the header asks the hub for, in the order they are listed. */
export const QUICK_SEARCH_TYPES = ["model", "dataset", "user", "org"] as const;

/** Suggestions of each kind asked for. */
export const SUGGESTIONS_PER_KIND = 5;

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
