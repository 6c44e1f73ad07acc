/**
 * The initial JavaScript of every page type of the built web app (issue 22: at most 120 KiB gzip each),
 * from Vite's manifest (`dist/.vite/manifest.json`, written by `npm run build`). A page type's initial
 * JavaScript is, gzip -9 compressed as one file:
 *  - the entry's closure: the chunk index.html loads and its static imports, with every script index.html
 *    itself loads or preloads;
 *  - the static closure of the page's route module (each `src/pages/*.tsx` the manifest holds: the
 *    entry's lazy routes);
 *  - for a route that shows one of `ROUTE_VIEWS` (a repository's file, commit or discussions), the static
 *    closures of the lazily loaded modules on the way from the page to that view, and of the view itself:
 *    the view shows nothing before they are loaded, so they count as initial. Likewise for a page that
 *    loads another page (a one-segment address is a profile, else a model: pages/Name.tsx loads the model
 *    page). Which pages reach which view or page is read from the manifest's dynamic imports, so a new
 *    page or a new way to a view is covered.
 * Used by src/initial-js.test.ts (the limit) and bench/web.bench.mjs (the figures). Run by itself
 * (`node apps/web/initial-js.mjs`, after `npm run build`) it prints every page type's figure, largest
 * first, and exits with 1 when one is over the limit.
 */
import { readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

/** The limit of issue 22: 120 KiB. */
export const INITIAL_JS_LIMIT = 120 * 1024;

/**
 * The lazily loaded views a route shows as its main content (nothing of it before the view's chunk is
 * in): a file, a commit with its diffs, the Community tab, a discussion, a pull request's files.
 */
export const ROUTE_VIEWS = [
	"src/components/browse/BlobView.tsx",
	"src/components/browse/CommitView.tsx",
	"src/components/community/Community.tsx",
	"src/components/community/DiscussionThread.tsx",
	"src/components/community/PullRequestFiles.tsx",
];

/** The built app in `dist`: its manifest and the scripts index.html loads or preloads. */
export function readBuild(dist) {
	const manifest = JSON.parse(readFileSync(join(dist, ".vite/manifest.json"), "utf8"));
	const html = readFileSync(join(dist, "index.html"), "utf8");
	const preloaded = [
		...html.matchAll(/<(?:script[^>]*src|link[^>]*rel="modulepreload"[^>]*href)="\/([^"]+\.js)"/g),
	].map((match) => match[1]);
	return { manifest, preloaded };
}

/** The manifest keys `key` loads before it runs: itself and its static imports, transitively. */
export function staticClosure(manifest, key, seen = new Set()) {
	if (seen.has(key) || !manifest[key]) return seen;
	seen.add(key);
	for (const child of manifest[key].imports ?? []) staticClosure(manifest, child, seen);
	return seen;
}

/** The files of the first load: the entry's closure and what index.html loads or preloads. */
export function entryFiles(manifest, preloaded) {
	const files = new Set(preloaded);
	for (const key of Object.keys(manifest).filter((inner) => manifest[inner].isEntry))
		for (const inner of staticClosure(manifest, key)) files.add(manifest[inner].file);
	return files;
}

/**
 * The shortest chain of lazily loaded modules from page `from` to `to` (both included), each imported
 * dynamically by a module of the previous one's static closure outside the entry's (whose dynamic imports
 * are the routes), and none of them another page of `pages` but `to` (a page that loads another shows
 * that page, not the other page's views); undefined when `to` is out of reach.
 */
function lazyChain(manifest, pages, from, to) {
	const entry = new Set();
	for (const key of Object.keys(manifest).filter((inner) => manifest[inner].isEntry))
		staticClosure(manifest, key, entry);
	const previous = new Map([[from, undefined]]);
	const queue = [from];
	while (queue.length > 0) {
		const key = queue.shift();
		if (key === to) {
			const chain = [];
			for (let at = key; at !== undefined; at = previous.get(at)) chain.unshift(at);
			return chain;
		}
		if (key !== from && pages.includes(key)) continue;
		for (const inner of staticClosure(manifest, key)) {
			if (entry.has(inner)) continue;
			for (const next of manifest[inner].dynamicImports ?? [])
				if (!previous.has(next)) {
					previous.set(next, key);
					queue.push(next);
				}
		}
	}
	return undefined;
}

const moduleName = (key) => basename(key).replace(/\.[^.]+$/, "");

/**
 * Every page type: `{ name, modules }`, the modules whose static closures it loads besides the entry's.
 * A page's name is its module's ("Model"); a view's or a page loaded by another adds the chain's
 * ("Model+Community+DiscussionThread", "Name+Model").
 * Throws when a view of `views` is not in the manifest or no page reaches it (a renamed view must be
 * renamed here, not silently measured no more).
 */
export function pageTypes(manifest, views = ROUTE_VIEWS) {
	const pages = Object.keys(manifest)
		.filter((key) => /^src\/pages\/[^/]+\.tsx$/.test(key) && manifest[key].isDynamicEntry)
		.sort();
	const chainsTo = (to) =>
		pages
			.filter((page) => page !== to)
			.map((page) => lazyChain(manifest, pages, page, to))
			.filter((chain) => chain !== undefined)
			.map((chain) => ({ name: chain.map(moduleName).join("+"), modules: chain }));
	const types = pages.map((page) => ({ name: moduleName(page), modules: [page] }));
	for (const page of pages) types.push(...chainsTo(page));
	for (const view of views) {
		if (!manifest[view]) throw new Error(`${view} is not in the manifest: update ROUTE_VIEWS.`);
		const found = chainsTo(view);
		if (found.length === 0) throw new Error(`No page loads ${view}: update ROUTE_VIEWS.`);
		types.push(...found);
	}
	return types;
}

/** The files a page type loads first: the entry's and its modules' static closures. */
export function initialFiles(manifest, preloaded, modules) {
	const files = entryFiles(manifest, preloaded);
	for (const key of modules)
		for (const inner of staticClosure(manifest, key)) files.add(manifest[inner].file);
	return files;
}

/** The gzip -9 size of `files` (paths under `dist`) as one file, in bytes. */
export function gzipBytes(dist, files) {
	return gzipSync(Buffer.concat([...files].map((file) => readFileSync(join(dist, file)))), { level: 9 })
		.length;
}

/** Every page type of the app built in `dist` with its initial JavaScript in bytes (gzip -9). */
export function measurePageTypes(dist) {
	const { manifest, preloaded } = readBuild(dist);
	return pageTypes(manifest).map(({ name, modules }) => ({
		name,
		modules,
		bytes: gzipBytes(dist, initialFiles(manifest, preloaded, modules)),
	}));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	const measured = measurePageTypes(fileURLToPath(new URL("dist", import.meta.url)));
	for (const page of measured.sort((a, b) => b.bytes - a.bytes))
		console.log(
			`${page.name.padEnd(36)} ${String(page.bytes).padStart(7)} B  ${(page.bytes / 1024).toFixed(1)} KiB`,
		);
	const over = measured.filter((page) => page.bytes > INITIAL_JS_LIMIT);
	if (over.length > 0) {
		console.error(`over ${INITIAL_JS_LIMIT} B: ${over.map((page) => page.name).join(", ")}`);
		process.exitCode = 1;
	}
}
