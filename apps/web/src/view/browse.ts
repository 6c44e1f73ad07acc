/**
 * The model page's own addresses, as on the public hub: `/{id}` (the card), `/{id}/tree/{rev}/{path}`,
 * `/{id}/blob/{rev}/{path}`, `/{id}/commits/{rev}`, `/{id}/commit/{sha}`, and how a file is shown.
 * Pure, so the routes, the links and the hub's page titles (packages/hub/src/web/page-meta.ts) agree.
 */
import { REPO_TYPE_URLS, type RepoType } from "@modelhub/tasks/repositories";
import { encodeModelId } from "../api/http";

export type BrowseView =
	| { kind: "card" }
	| { kind: "tree" | "blob"; revision: string; path: string }
	| { kind: "commits" | "commit"; revision: string };

/** How many segments after the action each browsing page takes (the revision, then a path). */
const VIEWS: Record<Exclude<BrowseView["kind"], "card">, (rest: readonly string[]) => boolean> = {
	tree: (rest) => rest.length >= 1,
	blob: (rest) => rest.length >= 2,
	commits: (rest) => rest.length === 1,
	commit: (rest) => rest.length === 1,
};

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
 * is tried before `name/{action}/…`, as the hub does, so a model named `ns/tree` stays reachable.
 */
export function parseBrowsePath(pathname: string): { id: string; view: BrowseView } | undefined {
	const parts = decodedSegments(pathname);
	if (parts === undefined || parts.length === 0) return undefined;
	if (parts.length <= 2) return { id: parts.join("/"), view: { kind: "card" } };
	for (const idLength of [2, 1]) {
		const action = parts[idLength];
		if (action === undefined || !Object.hasOwn(VIEWS, action)) continue;
		const kind = action as keyof typeof VIEWS;
		const rest = parts.slice(idLength + 1);
		if (!VIEWS[kind](rest) || rest.slice(1).some((part) => part === "")) continue;
		const id = parts.slice(0, idLength).join("/");
		const revision = rest[0] as string;
		const view: BrowseView =
			kind === "tree" || kind === "blob"
				? { kind, revision, path: rest.slice(1).join("/") }
				: { kind, revision };
		return { id, view };
	}
	return undefined;
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
	if (view.kind === "card") return base;
	const revision = encodeURIComponent(view.revision);
	if (!("path" in view)) return `${base}/${view.kind}/${revision}`;
	return `${base}/${view.kind}/${revision}${view.path ? `/${encodeModelId(view.path)}` : ""}`;
}

/** The page title (without the site's name), as the hub writes it into the page it serves. */
export function browseTitle(id: string, view: BrowseView, commit?: { id: string; title: string }): string {
	switch (view.kind) {
		case "card":
			return id;
		case "tree":
			return `${view.path ? `${view.path} · ` : ""}${id} at ${view.revision}`;
		case "blob":
			return `${view.path} · ${id} at ${view.revision}`;
		case "commits":
			return `Commits · ${id} at ${view.revision}`;
		case "commit":
			return `${commit?.title ?? "Commit"} · ${id}@${(commit?.id ?? view.revision).slice(0, 7)}`;
	}
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
