/**
 * What the server says about a web-app address before any script runs: the HTTP status (404 for an
 * unknown model, task or library page, so crawlers, link checkers and `curl -I` see the truth) and the
 * page's title and description, written into index.html. The rules mirror the web app's routes
 * (apps/web/src/App.tsx) and its pages' own not-found decisions, so the status always matches the view
 * the app renders.
 */
import { MODEL_LIBRARIES_UI_ELEMENTS, PIPELINE_DATA, TASKS_DATA } from "@modelhub/tasks";
import type { PipelineType } from "@modelhub/tasks";
import {
	parseRepoPageView,
	repoPageViewTitle,
	type AppSection,
	type RepoPageView,
	type RepoPageViewFacts,
} from "@modelhub/tasks/repositories";
import type { HubUrlMetaName } from "../api/models.js";

export interface PageMeta {
	status: 200 | 404;
	/** The document title, without the site suffix. */
	title: string;
	description: string;
}

/** The few facts of a model its page's title and description use. */
export interface ModelFacts {
	id: string;
	pipeline_tag?: string;
	library_name?: string;
	downloads?: number;
	likes?: number;
	license?: string;
}

/**
 * A page of a repository after its id: its browsing pages (`/tree/{rev}/{path}`, `/blob/{rev}/{path}`,
 * `/commits/{rev}`, `/commit/{rev}`) and its Community tab (`/discussions`, `/discussions/{num}`,
 * `/discussions/{num}/files`), as @modelhub/tasks/repositories declares them for the app too.
 */
export type RepoView = RepoPageView;

/** What a page's title names: the repository's id as stored, a commit page's commit, a discussion's title. */
export interface RepoViewFacts extends RepoPageViewFacts {
	id: string;
}

/** The few facts of a dataset its page's title and description use. */
export interface DatasetFacts {
	id: string;
	downloads?: number;
	likes?: number;
	license?: string;
}

/** The repository types that have pages (`/{id}`, `/datasets/{id}`). */
export type PageRepoType = "model" | "dataset";

/** What a profile page's title names: the account and its full name. */
export interface AccountFacts {
	name: string;
	kind: "user" | "org";
	fullname: string;
}

export interface PageLookups {
	/** The user or organisation with this name (case-insensitively), or undefined. */
	account(name: string): Promise<AccountFacts | undefined>;
	/**
	 * The namespace as stored when public repositories live under `name` though no account has it
	 * (seeded or imported models), or undefined.
	 */
	namespace(name: string): Promise<string | undefined>;
	/** The model with this id (case-insensitively), or undefined when the hub has none. */
	model(id: string): Promise<ModelFacts | undefined>;
	/** The dataset with this id (case-insensitively), or undefined when the hub has none. */
	dataset(id: string): Promise<DatasetFacts | undefined>;
	/** A repository's page `view`, or undefined when it, or its revision, folder, file or commit is missing. */
	repoView(type: PageRepoType, id: string, view: RepoView): Promise<RepoViewFacts | undefined>;
}

export const SITE_NAME = "ModelHub";
const SITE_DESCRIPTION = "ModelHub: browse machine-learning tasks and libraries, and use any model.";

/**
 * The app's own one-segment pages, one per APP_SECTIONS entry of @modelhub/tasks/repositories (the
 * list the web app routes; a web browser test checks each answers 200 with this title): a path
 * starting with any other segment is a model id.
 */
const SECTION_PAGES: Record<AppSection, Omit<PageMeta, "status">> = {
	tasks: { title: "Tasks", description: "Every machine-learning task, by modality." },
	libraries: { title: "Libraries", description: "The model libraries and how to use them." },
	models: {
		title: "Models",
		description:
			"Search the hub's models by task, library, inference provider, author, license and language.",
	},
	settings: { title: "Settings", description: "Access token and addresses." },
	account: { title: "Account", description: "Sign in with a hub access token; your models." },
	datasets: {
		title: "Datasets",
		description: "Search the hub's datasets by task, modality, format, size, license and author.",
	},
	new: { title: "New model", description: "Create a model repository." },
	"new-dataset": { title: "New dataset", description: "Create a dataset repository." },
	login: { title: "Sign in", description: "Sign in to this hub with your user name and password." },
	join: { title: "Create an account", description: "Join this hub." },
	logout: { title: "Signing out", description: "Sign out of this hub." },
};

function isAppSection(segment: string): segment is AppSection {
	return Object.hasOwn(SECTION_PAGES, segment);
}

/** Pages one level below a section (`/settings/tokens`). */
const SUBSECTION_PAGES: Record<string, Omit<PageMeta, "status">> = {
	"settings/tokens": {
		title: "Access tokens",
		description: "Create, list and revoke your access tokens for huggingface_hub, the hf CLI and git.",
	},
	"settings/admin": {
		title: "Site administration",
		description: "Invite links and accounts, for the hub's site admins.",
	},
	"settings/webhooks": {
		title: "Webhooks",
		description: "Create, edit, enable, disable and delete your webhooks, and read their delivery logs.",
	},
};

const NOT_FOUND: PageMeta = {
	status: 404,
	title: "Page not found",
	description: "There is nothing at this address.",
};

const LIBRARIES = MODEL_LIBRARIES_UI_ELEMENTS as Record<string, { prettyLabel: string } | undefined>;

function isPipeline(id: string): id is PipelineType {
	return Object.hasOwn(PIPELINE_DATA, id);
}

function taskPage(id: string): PageMeta {
	if (!isPipeline(id)) return NOT_FOUND;
	const name = PIPELINE_DATA[id].name;
	const task = TASKS_DATA[id];
	if (task) {
		return {
			status: 200,
			title: task.label,
			description: task.summary || `${task.label}: what the task is, models, datasets and libraries.`,
		};
	}
	// A type without a page of its own that other pages name as their canonical type lists those pages.
	const covered = Object.values(TASKS_DATA).some((candidate) => candidate?.canonicalId === id);
	if (covered) return { status: 200, title: name, description: `${name}: the task pages that cover it.` };
	return {
		status: 404,
		title: `${name} has no task page yet`,
		description: "This pipeline type exists, but nobody has written its task page.",
	};
}

function libraryPage(key: string): PageMeta {
	const library = Object.hasOwn(LIBRARIES, key) ? LIBRARIES[key] : undefined;
	if (!library) return { ...NOT_FOUND, title: "Library not found" };
	return {
		status: 200,
		title: library.prettyLabel,
		description: `How to install ${library.prettyLabel} and use its models, with code snippets.`,
	};
}

const COUNT = new Intl.NumberFormat("en-US");

function modelDescription(model: ModelFacts): string {
	const task =
		model.pipeline_tag && isPipeline(model.pipeline_tag) ? PIPELINE_DATA[model.pipeline_tag].name : undefined;
	const library = model.library_name
		? (LIBRARIES[model.library_name]?.prettyLabel ?? model.library_name)
		: undefined;
	const kind = [task ? `${task} model` : "Model", library ? `for ${library}` : undefined]
		.filter(Boolean)
		.join(" ");
	const facts = [
		model.license ? `license ${model.license}` : undefined,
		model.downloads !== undefined ? `${COUNT.format(model.downloads)} downloads` : undefined,
		model.likes !== undefined ? `${COUNT.format(model.likes)} likes` : undefined,
	].filter(Boolean);
	return `${model.id}: ${kind}${facts.length > 0 ? `, ${facts.join(", ")}` : ""}. Model card, files and how to use it.`;
}

/** The title and what is missing, of a view that does not exist. */
const VIEW_NOT_FOUND: Record<RepoView["kind"], { title: string; what: string }> = {
	tree: { title: "Folder not found", what: "folder" },
	blob: { title: "File not found", what: "file" },
	commits: { title: "Revision not found", what: "revision" },
	commit: { title: "Commit not found", what: "commit" },
	discussions: { title: "Repository not found", what: "repository" },
	discussion: { title: "Discussion not found", what: "discussion" },
	"discussion-files": { title: "Pull request not found", what: "pull request" },
};

/** What a view's page description says it shows. */
const VIEW_SHOWS: Record<RepoView["kind"], string> = {
	tree: "files",
	blob: "files",
	commits: "the history",
	commit: "a commit and its changes",
	discussions: "discussions and pull requests",
	discussion: "a discussion",
	"discussion-files": "a pull request's changed files",
};

function accountLabel(account: AccountFacts): string {
	return account.fullname && account.fullname !== account.name
		? `${account.fullname} (@${account.name})`
		: account.name;
}

function profilePage(account: AccountFacts): PageMeta {
	return {
		status: 200,
		title: accountLabel(account),
		description:
			account.kind === "org"
				? `${account.name}: the organisation's models and members.`
				: `${account.name}: their models and organisations.`,
	};
}

/** `/{namespace}` of a namespace without an account: the page lists its repositories. */
function namespacePage(name: string): PageMeta {
	return { status: 200, title: name, description: `${name}: its models and datasets.` };
}

/** The title of the one-segment address that names nothing (apps/web/src/view/model.ts says the same). */
export const NOTHING_CALLED_TITLE = "Not found";

/** `/organizations/{org}/settings`: an organisation's members, for its admins. */
async function orgSettingsPage(parts: readonly string[], lookups: PageLookups): Promise<PageMeta> {
	const [, name, page] = parts;
	if (parts.length !== 3 || name === undefined || page !== "settings") return NOT_FOUND;
	const account = await lookups.account(name);
	if (account?.kind !== "org") {
		return {
			status: 404,
			title: "Organisation not found",
			description: `The hub has no organisation called “${name}”.`,
		};
	}
	return {
		status: 200,
		title: `Members · ${account.name}`,
		description: `${account.name}: add members, change their roles, remove them.`,
	};
}

/** Splits a path into decoded segments; undefined when a segment is not valid percent-encoding. */
function segments(path: string): string[] | undefined {
	const parts = path.split("/").filter((part) => part !== "");
	try {
		return parts.map((part) => decodeURIComponent(part));
	} catch {
		return undefined;
	}
}

/** The status, title and description of the page at `path` (the path only, no query). */
export async function pageMeta(path: string, lookups: PageLookups): Promise<PageMeta> {
	const parts = segments(path);
	if (parts === undefined) return NOT_FOUND;
	const [first, second] = parts;
	if (first === undefined) return { status: 200, title: SITE_NAME, description: SITE_DESCRIPTION };
	const section = isAppSection(first) ? SECTION_PAGES[first] : undefined;
	if (parts.length === 1 && section) return { status: 200, ...section };
	const subsection = parts.length === 2 ? SUBSECTION_PAGES[parts.join("/")] : undefined;
	if (subsection) return { status: 200, ...subsection };
	if (parts.length === 2 && first === "tasks" && second !== undefined) return taskPage(second);
	if (first === "organizations") return orgSettingsPage(parts, lookups);
	if (parts.length === 2 && first === "libraries" && second !== undefined) return libraryPage(second);
	if (first === "datasets") return datasetPage(parts.slice(1), lookups);
	// `/gpt2/discussions` is a view too: `discussions` is a reserved repository name.
	if (parts.length > 2 || parseRepoPageView(parts)) {
		return section ? NOT_FOUND : repoViewPage("model", parts, lookups);
	}
	// `/:name`: a user's or organisation's profile (apps/web/src/pages/Name.tsx looks in the same
	// order), else a namespace's repositories, else a model without a namespace.
	if (parts.length === 1) {
		const account = await lookups.account(first);
		if (account) return profilePage(account);
		const namespace = await lookups.namespace(first);
		if (namespace !== undefined) return namespacePage(namespace);
		const model = await lookups.model(first);
		if (model) return { status: 200, title: model.id, description: modelDescription(model) };
		return {
			status: 404,
			title: NOTHING_CALLED_TITLE,
			description: `The hub has no user, organisation, namespace or model called “${first}”.`,
		};
	}
	// `/:namespace/:name` and `/:name`, as the app routes them (`/models/x` included).
	const model = await lookups.model(parts.join("/"));
	if (!model) {
		return {
			status: 404,
			title: "Model not found",
			description: `The hub has no model called “${parts.join("/")}”.`,
		};
	}
	return { status: 200, title: model.id, description: modelDescription(model) };
}

/** `/datasets/{id}` and its browsing pages (`parts` after `datasets`), as the app routes them. */
async function datasetPage(parts: readonly string[], lookups: PageLookups): Promise<PageMeta> {
	if (parts.length > 2 || parseRepoPageView(parts)) return repoViewPage("dataset", parts, lookups);
	const dataset = await lookups.dataset(parts.join("/"));
	if (!dataset) {
		return {
			status: 404,
			title: "Dataset not found",
			description: `The hub has no dataset called “${parts.join("/")}”.`,
		};
	}
	const facts = [
		dataset.license ? `license ${dataset.license}` : undefined,
		dataset.downloads !== undefined ? `${COUNT.format(dataset.downloads)} downloads` : undefined,
		dataset.likes !== undefined ? `${COUNT.format(dataset.likes)} likes` : undefined,
	].filter(Boolean);
	return {
		status: 200,
		title: dataset.id,
		description: `${dataset.id}: dataset${facts.length > 0 ? `, ${facts.join(", ")}` : ""}. Dataset card, files and how to use it.`,
	};
}

/** A page of a repository after its id: `{id}/tree/…`, `/blob/…`, `/commits/…`, `/commit/…`, `/discussions…`. */
async function repoViewPage(
	type: PageRepoType,
	parts: readonly string[],
	lookups: PageLookups,
): Promise<PageMeta> {
	const browsed = parseRepoPageView(parts);
	if (!browsed) return NOT_FOUND;
	const facts = await lookups.repoView(type, browsed.id, browsed.view);
	const missing = VIEW_NOT_FOUND[browsed.view.kind];
	if (!facts) {
		return {
			status: 404,
			title: missing.title,
			description: `The hub has no such ${missing.what} of “${browsed.id}”.`,
		};
	}
	const view = browsed.view;
	const at = "revision" in view ? ` at ${view.revision}` : "";
	return {
		status: 200,
		title: repoPageViewTitle(facts.id, view, facts),
		description: `${facts.id}: ${VIEW_SHOWS[view.kind]}${at}.`,
	};
}

function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** index.html with the page's title and description in place of the built ones. */
/**
 * The name of the `<meta>` that tells the web app the hub's public URL (MODELHUB_PUBLIC_URL), for the
 * snippets it shows; without it the app uses the origin the page came from.
 */
export const HUB_URL_META: HubUrlMetaName = "modelhub-hub-url";

export function renderPage(template: string, meta: PageMeta, hubUrl?: string): string {
	const title = meta.title === SITE_NAME ? SITE_NAME : `${meta.title} · ${SITE_NAME}`;
	const description = `<meta name="description" content="${escapeHtml(meta.description)}" />`;
	let html = template.replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(title)}</title>`);
	html = /<meta\s+name="description"[^>]*>/.test(html)
		? html.replace(/<meta\s+name="description"[^>]*>/, () => description)
		: html.replace(/<\/head>/, () => `${description}\n</head>`);
	if (hubUrl !== undefined)
		html = html.replace(
			/<\/head>/,
			() => `<meta name="${HUB_URL_META}" content="${escapeHtml(hubUrl)}" />\n</head>`,
		);
	return html;
}
