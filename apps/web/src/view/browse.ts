/**
 * The model page's own addresses, as on the public hub: `/{id}` (the card), `/{id}/tree/{rev}/{path}`,
 * `/{id}/blob/{rev}/{path}`, `/{id}/commits/{rev}`, `/{id}/commit/{sha}`, the Community tab's
 * `/{id}/discussions[/{num}[/files]]`, and how a file is shown.
 * Pure, so the routes, the links and the hub's page titles (packages/hub/src/web/page-meta.ts) agree.
 */
import {
	isCommunityView,
	parseRepoPageView,
	REPO_TYPE_URLS,
	repoPageViewPath,
	repoPageViewTitle,
	type RepoPageView,
	type RepoType,
} from "@modelhub/tasks/repositories";
import { encodeModelId } from "../api/http";

/** The card, or one of the views @modelhub/tasks/repositories declares for app and hub alike. */
export type BrowseView = { kind: "card" } | RepoPageView;

/** The "Files and versions" tab's views. */
export type FilesView = Extract<BrowseView, { kind: "tree" | "blob" | "commits" | "commit" }>;

/** The Community tab's views: the list, a discussion, a pull request's files. */
export type CommunityView = Extract<BrowseView, { kind: "discussions" | "discussion" | "discussion-files" }>;

function decodedSegments(pathname: string): string[] | undefined {
	const parts = pathname.split("/").filter((part) => part !== "");
	try {
		return parts.map((part) => decodeURIComponent(part));
	} catch {
		return undefined;
	}
}

/**
 * The model id and view of a page address, or undefined when it is no model page. `ns/name/{action}/…`
 * is tried before `name/{action}/…`, as the hub does, so a model named `ns/tree` stays reachable;
 * `name/discussions` is the Community tab of `name` (no repository may be called `discussions`).
 */
export function parseBrowsePath(pathname: string): { id: string; view: BrowseView } | undefined {
	const parts = decodedSegments(pathname);
	if (parts === undefined || parts.length === 0) return undefined;
	if (parts.length <= 2) return parseRepoPageView(parts) ?? { id: parts.join("/"), view: { kind: "card" } };
	return parseRepoPageView(parts);
}

/**
 * A dataset's page addresses: the same views under `/datasets/` (`/datasets/{id}`, `/datasets/{id}/tree/…`),
 * or undefined when `pathname` is no dataset page.
 */
export function parseDatasetPath(pathname: string): { id: string; view: BrowseView } | undefined {
	const prefix = `/${REPO_TYPE_URLS.dataset.prefix}`;
	if (!pathname.startsWith(prefix)) return undefined;
	const browsed = parseBrowsePath(pathname.slice(prefix.length - 1));
	return browsed && browsed.id !== "" ? browsed : undefined;
}

/**
 * The address of a view of a repository (revisions such as `refs/pr/1` are one encoded segment):
 * `/{id}/…` for a model, `/datasets/{id}/…` for a dataset.
 */
export function browseHref(id: string, view: BrowseView, repoType: RepoType = "model"): string {
	const base = `/${REPO_TYPE_URLS[repoType].prefix}${encodeModelId(id)}`;
	return view.kind === "card" ? base : `${base}${repoPageViewPath(view)}`;
}

/** The page title (without the site's name), as the hub writes it into the page it serves. */
export function browseTitle(
	id: string,
	view: BrowseView,
	commit?: { id: string; title: string },
	discussion?: { title: string },
): string {
	return view.kind === "card" ? id : repoPageViewTitle(id, view, { commit, discussion });
}

/** The same view at another revision (a commit page leads to that revision's history). */
export function atRevision(view: BrowseView, revision: string): BrowseView {
	switch (view.kind) {
		case "card":
			return { kind: "tree", revision, path: "" };
		case "tree":
		case "blob":
			return { ...view, revision };
		default:
			return { kind: "commits", revision };
	}
}

/** The breadcrumbs of a path: each folder above it with its own path. */
export function pathCrumbs(path: string): Array<{ name: string; path: string }> {
	const parts = path ? path.split("/") : [];
	return parts.map((name, index) => ({ name, path: parts.slice(0, index + 1).join("/") }));
}

/** A commit's short id, as git and the public hub show it. */
export function shortCommitId(id: string): string {
	return id.slice(0, 7);
}

/** The "Files and versions" tab's view for an address: its own, or the root of `main` for the others. */
export function filesViewOf(view: BrowseView): FilesView {
	switch (view.kind) {
		case "tree":
		case "blob":
		case "commits":
		case "commit":
			return view;
		default:
			return { kind: "tree", revision: "main", path: "" };
	}
}

/** Which of a repository page's tabs an address opens: the card, the files, or the Community tab. */
export function tabOfView(view: BrowseView): "card" | "files" | "community" {
	if (view.kind === "card") return "card";
	return isCommunityView(view) ? "community" : "files";
}

/**
 * The tab a repository page opens: the address's own (files, community); on the card's address, the files
 * when arriving from "Create" with the upload form, else `?tab=` when the page has that tab, else the card.
 */
export function openTab(
	view: BrowseView,
	upload: boolean,
	queryTab: string | null,
	queryTabs: ReadonlySet<string>,
): string {
	if (view.kind !== "card") return tabOfView(view);
	if (upload) return "files";
	return queryTab !== null && queryTabs.has(queryTab) ? queryTab : "card";
}

/** The Community tab's view for an address: its own, or the list. */
export function communityViewOf(view: BrowseView): CommunityView {
	return isCommunityView(view) ? view : { kind: "discussions" };
}
