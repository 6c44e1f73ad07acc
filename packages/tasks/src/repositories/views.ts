/**
 * A repository page's own views after its id, as the public hub addresses them: `tree/{rev}/{path}`,
 * `blob/{rev}/{path}`, `commits/{rev}`, `commit/{sha}`, and the Community tab's `discussions`,
 * `discussions/{num}` and `discussions/{num}/files`. Declared once, for the web app's router
 * (apps/web/src/view/browse.ts) and the hub's page statuses and titles (packages/hub/src/web/page-meta.ts),
 * so an address is the same page on both sides.
 */

export type RepoPageView =
	| { kind: "tree" | "blob"; revision: string; path: string }
	| { kind: "commits" | "commit"; revision: string }
	/** The Community tab: the repository's discussions and pull requests. */
	| { kind: "discussions" }
	/** One discussion or pull request, and a pull request's changed files. */
	| { kind: "discussion" | "discussion-files"; num: number };

export type RepoPageViewKind = RepoPageView["kind"];

/**
 * A discussion's number as its address writes it (`/discussions/12`): a whole number from 1, at most
 * nine digits (the hub's own bound on `{num}` in its API routes).
 */
const DISCUSSION_NUMBER = /^[1-9][0-9]{0,8}$/;

/** The view an action and the segments after it name, or undefined when they name none. */
const ACTIONS: Record<string, (rest: readonly string[]) => RepoPageView | undefined> = {
	tree: (rest) =>
		rest.length >= 1 ? { kind: "tree", revision: rest[0]!, path: rest.slice(1).join("/") } : undefined,
	blob: (rest) =>
		rest.length >= 2 ? { kind: "blob", revision: rest[0]!, path: rest.slice(1).join("/") } : undefined,
	commits: (rest) => (rest.length === 1 ? { kind: "commits", revision: rest[0]! } : undefined),
	commit: (rest) => (rest.length === 1 ? { kind: "commit", revision: rest[0]! } : undefined),
	discussions: (rest) => {
		if (rest.length === 0) return { kind: "discussions" };
		const [num, files] = rest;
		if (num === undefined || !DISCUSSION_NUMBER.test(num) || rest.length > 2) return undefined;
		if (rest.length === 1) return { kind: "discussion", num: Number(num) };
		return files === "files" ? { kind: "discussion-files", num: Number(num) } : undefined;
	},
};

/**
 * Names no new repository may take, compared case-insensitively: the words after an id that name its
 * pages (the views above), the public hub's other repository pages (`resolve`, `settings`) and the
 * actions of its API (`preupload`, `xet-write-token`, `branch`, `tag`, `super-squash`, `like`, `likers`,
 * `ask-access`, `user-access-request`; `commit` is a view). With
 * them reserved, `/gpt2/discussions` is model `gpt2`'s Community tab, never a model `gpt2/discussions`,
 * and `/api/models/gpt2/preupload/main` model `gpt2`'s preupload, never an action of a model
 * `gpt2/preupload`, on the web and in the API alike. Repositories made before the reservation keep
 * their names.
 */
export const RESERVED_REPO_NAMES: readonly string[] = [
	...Object.keys(ACTIONS),
	"resolve",
	"settings",
	"preupload",
	"xet-write-token",
	"branch",
	"tag",
	"super-squash",
	"like",
	"likers",
	"ask-access",
	"user-access-request",
];

/** Why `name` may not name a new repository, or undefined when it may (its syntax: idPartProblem). */
export function reservedRepoNameProblem(name: string): string | undefined {
	const lower = name.toLowerCase();
	if (!RESERVED_REPO_NAMES.includes(lower)) return undefined;
	return `repository name '${name}' is reserved: a repository's own addresses use it (${RESERVED_REPO_NAMES.join(", ")}), so /{namespace}/${lower} would not reach it; choose another`;
}

/**
 * The repository id and view of a page address's decoded segments: `ns/name/{action}/…` or
 * `name/{action}/…`, the namespaced form tried first (as the app routes them), so a model named
 * `ns/tree` (made before such names were reserved) stays reachable. `name/discussions` is a view too:
 * callers that read two segments as a repository id ask this first. Undefined when the segments name
 * no view.
 */
export function parseRepoPageView(parts: readonly string[]): { id: string; view: RepoPageView } | undefined {
	for (const idLength of [2, 1]) {
		const action = parts[idLength];
		if (action === undefined || !Object.hasOwn(ACTIONS, action)) continue;
		const rest = parts.slice(idLength + 1);
		// Only a file path may be empty nowhere but at its end (`tree/main/` is the root).
		if (rest.slice(1).some((part) => part === "")) continue;
		const view = ACTIONS[action]!(rest);
		if (view) return { id: parts.slice(0, idLength).join("/"), view };
	}
	return undefined;
}

/** Whether a view belongs to the Community tab. */
export function isCommunityView(view: {
	kind: string;
}): view is Extract<RepoPageView, { kind: "discussions" | "discussion" | "discussion-files" }> {
	return view.kind === "discussions" || view.kind === "discussion" || view.kind === "discussion-files";
}

/** The address of a view after the repository's page path (`/tree/main/a.txt`, `/discussions/3/files`). */
export function repoPageViewPath(view: RepoPageView): string {
	const encodePath = (path: string) => path.split("/").map(encodeURIComponent).join("/");
	switch (view.kind) {
		case "tree":
		case "blob":
			return `/${view.kind}/${encodeURIComponent(view.revision)}${view.path ? `/${encodePath(view.path)}` : ""}`;
		case "commits":
		case "commit":
			return `/${view.kind}/${encodeURIComponent(view.revision)}`;
		case "discussions":
			return "/discussions";
		case "discussion":
			return `/discussions/${view.num}`;
		case "discussion-files":
			return `/discussions/${view.num}/files`;
	}
}

/** What a view's title names beyond the repository: a commit page's commit, a discussion's title. */
export interface RepoPageViewFacts {
	commit?: { id: string; title: string } | undefined;
	discussion?: { title: string } | undefined;
}

/**
 * A view's page title without the site's name (the hub writes it into the page it serves; the app sets
 * the same once it has loaded): the file or folder, the repository and the revision, or the discussion.
 */
export function repoPageViewTitle(id: string, view: RepoPageView, facts: RepoPageViewFacts = {}): string {
	switch (view.kind) {
		case "tree":
			return `${view.path ? `${view.path} · ` : ""}${id} at ${view.revision}`;
		case "blob":
			return `${view.path} · ${id} at ${view.revision}`;
		case "commits":
			return `Commits · ${id} at ${view.revision}`;
		case "commit":
			return `${facts.commit?.title ?? "Commit"} · ${id}@${(facts.commit?.id ?? view.revision).slice(0, 7)}`;
		case "discussions":
			return `Discussions · ${id}`;
		case "discussion":
			return `${facts.discussion?.title ?? "Discussion"} #${view.num} · ${id}`;
		case "discussion-files":
			return `Files changed · ${facts.discussion?.title ?? "Pull request"} #${view.num} · ${id}`;
	}
}
