import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import fastifyStatic from "@fastify/static";
import { HubError, noSuchApiRoute, noSuchPath } from "../errors.js";
import { acceptsHtml, pathOf } from "../http.js";
import { publicRepoPage, type RepoPageTarget } from "../services/contents.js";
import { publicDiscussionPage } from "../services/discussions.js";
import { publicDatasetInfo } from "../services/datasets.js";
import { publicModelInfo, type ReadContext } from "../services/models.js";
import { publicAccount, publicNamespace } from "../services/people.js";
import type { AnswerRequest, MirrorService } from "../mirror/service.js";
import { REPO_TYPE_URLS } from "../repo-identity.js";
import { COMMIT_ID } from "../vocabulary.js";
import { movedLocation, MOVED_STATUS } from "./redirects.js";
import {
	type AccountFacts,
	type DatasetFacts,
	type PageRepoType,
	pageMeta,
	renderPage,
	type ModelFacts,
	type RepoView,
	type RepoViewFacts,
} from "../web/page-meta.js";

/** The services' context (for the status and title of model pages), and the files to serve. */
export interface WebRoutesOptions extends ReadContext {
	/** The built web app, or undefined to serve the built-in "not built" page. */
	webDir: string | undefined;
	/** Demo media of @modelhub/tasks, served at /assets/demo/. */
	demoDir: string;
	/** The URL clients reach the hub at, when configured (MODELHUB_PUBLIC_URL): told to the app for its snippets. */
	publicUrl?: string | undefined;
	/** Mirror mode: the page of a repository only the upstream has is the upstream's (as the public sees it). */
	mirror?: MirrorService | undefined;
}

/**
 * The upstream's info of a repository this hub does not have (mirror mode), as an anonymous client gets it
 * (the same answer the app then asks for); undefined when it is not mirrored or the upstream has none.
 */
async function mirroredInfo(
	mirror: MirrorService | undefined,
	type: "model" | "dataset",
	id: string,
): Promise<Record<string, unknown> | undefined> {
	if (mirror === undefined || !(await mirror.mirrors({ type, id }))) return undefined;
	try {
		const info = await askMirror(mirror, type, id, {
			method: "GET",
			pathAndQuery: mirroredApiPath(type, id),
			immutable: false,
			revision: "main",
		});
		return isRecord(info) ? info : undefined;
	} catch {
		return undefined;
	}
}

/** The upstream's answer to `request` about a repository this hub mirrors, as the public sees it, parsed. */
async function askMirror(
	mirror: MirrorService,
	type: "model" | "dataset",
	id: string,
	request: AnswerRequest,
): Promise<unknown> {
	const answer = await mirror.answer({ type, id, signedIn: false }, request);
	return JSON.parse(answer.body.toString("utf8"));
}

/** This hub's API path of a repository (the upstream's is the same). */
function mirroredApiPath(type: "model" | "dataset", id: string): string {
	return `/api/${REPO_TYPE_URLS[type].api}/${id.split("/").map(encodeURIComponent).join("/")}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A browsing page (`tree`, `blob`, `commits`, `commit`) of a repository only the upstream has (mirror
 * mode), by the rules of a local repository's (publicRepoPage): the revision must resolve (the upstream's
 * info at it), a tree's path be a folder and a blob's a file (the upstream's paths-info), and a commit page
 * names the revision's commit (the first of the upstream's history from it). Asked through MirrorService as
 * the public sees it (the same answers the app then asks for, within the service's bounds, kept answers
 * served while the upstream is unreachable); undefined when it is not mirrored, the upstream has none of
 * it, or it cannot be asked and nothing was kept (the page is then sent as a 404 document the app fills in).
 */
async function mirroredRepoPage(
	mirror: MirrorService | undefined,
	type: "model" | "dataset",
	id: string,
	page: RepoPageTarget,
): Promise<RepoViewFacts | undefined> {
	if (mirror === undefined || !(await mirror.mirrors({ type, id }))) return undefined;
	const base = mirroredApiPath(type, id);
	const revision = encodeURIComponent(page.revision);
	const immutable = COMMIT_ID.test(page.revision);
	const ask = (request: AnswerRequest): Promise<unknown> => askMirror(mirror, type, id, request);
	try {
		const info = await ask({
			method: "GET",
			pathAndQuery: `${base}/revision/${revision}`,
			immutable,
			revision: page.revision,
		});
		if (!isRecord(info)) return undefined;
		const shown = typeof info.id === "string" ? info.id : id;
		switch (page.kind) {
			case "tree":
			case "blob": {
				if (page.path === "") return page.kind === "tree" ? { id: shown } : undefined;
				const form = new URLSearchParams([["paths", page.path]]);
				const entries = await ask({
					method: "POST",
					pathAndQuery: `${base}/paths-info/${revision}`,
					form: form.toString(),
					immutable,
				});
				const wanted = page.kind === "tree" ? "directory" : "file";
				const found =
					Array.isArray(entries) &&
					entries.some((entry) => isRecord(entry) && entry.path === page.path && entry.type === wanted);
				return found ? { id: shown } : undefined;
			}
			case "commits":
				return { id: shown };
			case "commit": {
				const history = await ask({ method: "GET", pathAndQuery: `${base}/commits/${revision}`, immutable });
				const first: unknown = Array.isArray(history) ? history[0] : undefined;
				if (!isRecord(first) || typeof first.id !== "string" || typeof first.title !== "string") {
					return undefined;
				}
				return { id: shown, commit: { id: first.id, title: first.title } };
			}
		}
	} catch (error) {
		// The upstream's 4xx passed on, an upstream that cannot be read (5xx, 504), an answer that is not JSON.
		if (error instanceof HubError || error instanceof SyntaxError) return undefined;
		throw error;
	}
}

/** The page facts of a mirrored repository's info (the fields the page's title and description use). */
function mirroredFacts(info: Record<string, unknown>, id: string): ModelFacts {
	const text = (key: string): string | undefined => {
		const value = info[key];
		return typeof value === "string" ? value : undefined;
	};
	const count = (key: string): number | undefined => {
		const value = info[key];
		return typeof value === "number" ? value : undefined;
	};
	const card = info.cardData;
	const license = isRecord(card) && typeof card.license === "string" ? card.license : undefined;
	const facts: ModelFacts = { id: text("id") ?? id };
	const pipeline = text("pipeline_tag");
	if (pipeline) facts.pipeline_tag = pipeline;
	const library = text("library_name");
	if (library) facts.library_name = library;
	const downloads = count("downloads");
	if (downloads !== undefined) facts.downloads = downloads;
	const likes = count("likes");
	if (likes !== undefined) facts.likes = likes;
	if (license) facts.license = license;
	return facts;
}

/** Shown when the web app has not been built. No script and no inline style, so the CSP holds. */
export const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>ModelHub</title>
</head>
<body>
<h1>ModelHub</h1>
<p>The hub API is running, but the web app is not built.</p>
<p>Build it with <code>npm run build</code> (or point <code>MODELHUB_WEB_DIR</code> at a built copy) and restart the server.</p>
<ul>
<li><a href="/api/models">/api/models</a>: models</li>
<li><a href="/api/tasks">/api/tasks</a>: the task catalogue</li>
<li><a href="/api/libraries">/api/libraries</a>: libraries</li>
<li><a href="/api/pipelines">/api/pipelines</a>: pipeline types</li>
<li><a href="/healthz">/healthz</a>: health</li>
</ul>
</body>
</html>
`;

const HTML_TYPE = "text/html; charset=utf-8";
/** Longer ids cannot exist (two parts of at most 96 characters), so they are not looked up. */
const MAX_MODEL_ID_LENGTH = 200;
const MODEL_FACTS = new Set(["pipeline_tag", "library_name", "downloads", "likes", "cardData"] as const);

async function modelFacts(context: WebRoutesOptions, id: string): Promise<ModelFacts | undefined> {
	if (id.length > MAX_MODEL_ID_LENGTH) return undefined;
	// Pages are rendered for anyone (the app sends its token with API calls, not with page loads), so a
	// private model's page is looked up as the public sees it: no title, no description, 404.
	const model = await publicModelInfo(context, id, { properties: MODEL_FACTS });
	if (!model) {
		const mirrored = await mirroredInfo(context.mirror, "model", id);
		return mirrored ? mirroredFacts(mirrored, id) : undefined;
	}
	const license = model.cardData?.license;
	return {
		id: model.id,
		...(model.pipeline_tag ? { pipeline_tag: model.pipeline_tag } : {}),
		...(model.library_name ? { library_name: model.library_name } : {}),
		...(typeof model.downloads === "number" ? { downloads: model.downloads } : {}),
		...(typeof model.likes === "number" ? { likes: model.likes } : {}),
		...(typeof license === "string" ? { license } : {}),
	};
}

const DATASET_FACTS = new Set(["downloads", "likes", "cardData"] as const);

async function datasetFacts(context: WebRoutesOptions, id: string): Promise<DatasetFacts | undefined> {
	if (id.length > MAX_MODEL_ID_LENGTH) return undefined;
	// As the public sees it, for the reason modelFacts gives.
	const dataset = await publicDatasetInfo(context, id, { properties: DATASET_FACTS });
	if (!dataset) {
		const mirrored = await mirroredInfo(context.mirror, "dataset", id);
		if (!mirrored) return undefined;
		const { id: shown, downloads, likes, license } = mirroredFacts(mirrored, id);
		return {
			id: shown,
			...(downloads !== undefined ? { downloads } : {}),
			...(likes !== undefined ? { likes } : {}),
			...(license !== undefined ? { license } : {}),
		};
	}
	const license = dataset.cardData?.license;
	return {
		id: dataset.id,
		...(typeof dataset.downloads === "number" ? { downloads: dataset.downloads } : {}),
		...(typeof dataset.likes === "number" ? { likes: dataset.likes } : {}),
		...(typeof license === "string" ? { license } : {}),
	};
}

async function repoViewFacts(
	context: WebRoutesOptions,
	type: PageRepoType,
	id: string,
	view: RepoView,
): Promise<RepoViewFacts | undefined> {
	if (id.length > MAX_MODEL_ID_LENGTH) return undefined;
	// As the public sees it, for the reason modelFacts gives: a private repository's pages are 404 here.
	switch (view.kind) {
		case "discussions":
			return publicDiscussionPage(context, { type, id });
		case "discussion":
		case "discussion-files": {
			const page = await publicDiscussionPage(context, { type, id }, view.num);
			// A discussion that is no pull request has no changed files.
			if (view.kind === "discussion-files" && page?.discussion?.isPullRequest !== true) return undefined;
			return page;
		}
		default:
			// A private local repository of the id is no mirror's: its pages stay 404 (MirrorService.mirrors).
			return (
				(await publicRepoPage(context, { type, id }, view)) ??
				mirroredRepoPage(context.mirror, type, id, view)
			);
	}
}

async function accountFacts(context: ReadContext, name: string): Promise<AccountFacts | undefined> {
	const account = await publicAccount(context, name);
	return account ? { name: account.name, kind: account.kind, fullname: account.fullname } : undefined;
}

function isApiPath(path: string): boolean {
	return path === "/api" || path.startsWith("/api/");
}

/**
 * Static files: the demo media and the web app, with the single-page-app fallback (index.html for
 * browser navigations that match no file, with the page's status, title and description), and JSON
 * 404s for everything else.
 */
export async function webRoutes(app: FastifyInstance, options: WebRoutesOptions): Promise<void> {
	const { webDir, demoDir } = options;
	// The built page: every navigation gets it with its own status, title and description. It is read
	// again when the file changes (a rebuild next to a running hub names new asset files).
	const templatePath = webDir === undefined ? undefined : join(webDir, "index.html");
	let cached: { mtimeMs: number; html: string } | undefined;
	const template = async (): Promise<string | undefined> => {
		if (templatePath === undefined) return undefined;
		const { mtimeMs } = await stat(templatePath);
		if (cached?.mtimeMs !== mtimeMs) cached = { mtimeMs, html: await readFile(templatePath, "utf8") };
		return cached.html;
	};
	await template();

	await app.register(fastifyStatic, {
		root: demoDir,
		prefix: "/assets/demo/",
		decorateReply: false,
		index: false,
		dotfiles: "deny",
		maxAge: "1h",
	});

	if (webDir !== undefined) {
		await app.register(fastifyStatic, {
			root: webDir,
			prefix: "/",
			// "/" is a page like the others: rendered below with its title, not sent as the bare file.
			index: false,
			dotfiles: "deny",
			// The web build writes .br and .gz beside each file; send those to clients that accept them.
			preCompressed: true,
			// Folders ("/", "/assets/") are pages or nothing, never files: without this, a request for one
			// that accepts no compressed encoding (curl's default) was answered 403 by the static handler.
			allowedPath: (path) => !path.endsWith("/"),
			// Hashed build outputs may be cached for long; index.html must be revalidated.
			setHeaders(reply, path) {
				if (/[\\/]assets[\\/]/.test(path))
					reply.header("cache-control", "public, max-age=31536000, immutable");
				else reply.header("cache-control", "no-cache");
			},
		});
	} else {
		app.get("/", async (_request, reply) =>
			reply.type(HTML_TYPE).header("cache-control", "no-cache").send(NOT_BUILT_PAGE),
		);
	}

	app.setNotFoundHandler(async (request, reply) => {
		const path = pathOf(request);
		const navigation =
			(request.method === "GET" || request.method === "HEAD") &&
			!isApiPath(path) &&
			!path.startsWith("/assets/demo/") &&
			// The root address is the app for any client (`curl http://host/`), not only for browsers.
			(acceptsHtml(request) || path === "/");
		if (navigation) {
			// The status is the truth about the address even when the app is not built (a private or
			// unknown model is a 404 either way).
			const meta = await pageMeta(path, {
				account: (name) => accountFacts(options, name),
				namespace: (name) => publicNamespace(options, name),
				model: (id) => modelFacts(options, id),
				dataset: (id) => datasetFacts(options, id),
				repoView: (type, id, view) => repoViewFacts(options, type, id, view),
			});
			// The page of a moved repository's former id: the page at its id now.
			const moved = meta.status === 404 ? await movedLocation(options.db, request) : undefined;
			if (moved !== undefined) return reply.code(MOVED_STATUS).header("location", moved).send();
			const html = await template();
			if (html === undefined)
				return reply
					.code(meta.status)
					.type(HTML_TYPE)
					.header("cache-control", "no-cache")
					.send(NOT_BUILT_PAGE);
			return reply
				.code(meta.status)
				.type(HTML_TYPE)
				.header("cache-control", "no-cache")
				.send(renderPage(html, meta, options.publicUrl));
		}
		throw isApiPath(path) ? noSuchApiRoute() : noSuchPath();
	});
}
