#!/usr/bin/env node
/* global window, document, performance, PerformanceObserver, MutationObserver -- functions passed to page.evaluate run in the browser */
// The web app's first-load benchmark, run after `npm run build`. Against the real hub server serving
// apps/web/dist on 127.0.0.1, it measures:
//  - initial JavaScript (gzip -9) of every page type (target: 120 KiB each): the scripts and modulepreloads
//    index.html references plus the route's chunk and its static imports, and those of the views the
//    route loads before it shows them (from Vite's manifest; ../initial-js.mjs, which
//    src/initial-js.test.ts checks against the target), and, for the home page and a model page, as a
//    cross-check, every script the page actually fetched until the network went idle;
//  - first contentful paint and time to interactive in headless Chromium (median of 5 cold loads,
//    cache disabled). Interactive = the latest of DOMContentLoaded, the route's <h1> being rendered by
//    React, and the end of the last long task;
//  - Lighthouse performance and accessibility scores (its default mobile profile with simulated
//    throttling), when the lighthouse package is installed.
// Note: the scores depend on how the server sends the files; `vite build` writes .br/.gz files for a
// server that serves pre-compressed files. Prints one JSON line.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import { INITIAL_JS_LIMIT, measurePageTypes } from "../initial-js.mjs";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const dist = join(root, "apps/web/dist");
const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const chromiumArgs = [
	"--headless",
	"--no-sandbox",
	"--disable-gpu",
	"--disable-background-networking",
	"--disable-component-update",
	"--disable-sync",
	"--no-first-run",
];
const RUNS = 5;

if (!existsSync(join(dist, ".vite/manifest.json"))) {
	console.error("apps/web/dist is not built (run `npm run build` first).");
	process.exit(1);
}

const gzipKb = (bytes) => Math.round((gzipSync(bytes, { level: 9 }).length / 1024) * 10) / 10;
const median = (values) => {
	const sorted = [...values].sort((a, b) => a - b);
	return Math.round(sorted[Math.floor(sorted.length / 2)]);
};

// ---- Static sizes from the manifest ---------------------------------------------------------------

// Every page type of the app and its initial JavaScript, as src/initial-js.test.ts checks it (the page
// types are derived from the manifest: every page module, and the views a page loads before it shows
// them, e.g. "Model+CommitView"; see ../initial-js.mjs).
const pageTypeSizes = measurePageTypes(dist);
const kib = (bytes) => Math.round((bytes / 1024) * 10) / 10;
const initialJs = (name) => {
	const found = pageTypeSizes.find((page) => page.name === name);
	if (!found) throw new Error(`no page type ${name}`);
	return kib(found.bytes);
};

// ---- The real hub ---------------------------------------------------------------------------------

const BENCH_ADMIN_TOKEN = "web-bench-admin-token-0123456789abcdef";
const BROWSE_MODEL = "bench-user/browse-bench";

async function startHub() {
	const dataDir = mkdtempSync(join(tmpdir(), "modelhub-web-bench-"));
	const child = spawn(process.execPath, [join(root, "packages/hub/dist/cli.js"), "serve"], {
		env: {
			...process.env,
			PORT: "0",
			HOST: "127.0.0.1",
			MODELHUB_DATA_DIR: dataDir,
			MODELHUB_WEB_DIR: dist,
			MODELHUB_ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
			DATABASE_URL: "",
		},
		stdio: ["ignore", "pipe", "pipe"],
	});
	let output = "";
	const url = await new Promise((resolve, reject) => {
		const timer = setTimeout(() => reject(new Error(`hub did not start:\n${output}`)), 60_000);
		const onData = (chunk) => {
			output += chunk;
			const match = /listening on (http:\/\/\S+?)\/?(?:\s|$)/.exec(output);
			if (match) {
				clearTimeout(timer);
				resolve(match[1].replace(/\/$/, ""));
			}
		};
		child.stdout.on("data", onData);
		child.stderr.on("data", onData);
		child.once("exit", (code) => reject(new Error(`hub exited with ${code}:\n${output}`)));
	});
	return {
		url,
		stop: async () => {
			const exited = new Promise((resolve) => child.once("exit", resolve));
			child.kill("SIGTERM");
			await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
			if (child.exitCode === null) child.kill("SIGKILL");
			rmSync(dataDir, { recursive: true, force: true });
		},
	};
}

// ---- Paint and interactivity in Chromium ----------------------------------------------------------

const OBSERVE = () => {
	const state = { longTaskEnd: 0, headingAt: 0 };
	window.__benchState = state;
	try {
		new PerformanceObserver((list) => {
			for (const entry of list.getEntries())
				state.longTaskEnd = Math.max(state.longTaskEnd, entry.startTime + entry.duration);
		}).observe({ type: "longtask", buffered: true });
	} catch {
		// No long-task timing: interactive falls back to the other signals.
	}
	const check = () => {
		if (!state.headingAt && document.querySelector("main h1")) state.headingAt = performance.now();
	};
	new MutationObserver(check).observe(document, { subtree: true, childList: true });
};

async function measureLoads(context, url) {
	const fcps = [];
	const ttis = [];
	let loadedJs = 0;
	for (let run = 0; run < RUNS; run++) {
		const page = await context.newPage();
		const cdp = await context.newCDPSession(page);
		await cdp.send("Network.enable");
		await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
		await page.addInitScript(OBSERVE);
		const scripts = new Set();
		page.on("response", (response) => {
			if (response.request().resourceType() === "script") scripts.add(new URL(response.url()).pathname);
		});
		await page.goto(url, { waitUntil: "networkidle" });
		await page.locator("main h1").first().waitFor();
		const timing = await page.evaluate(() => {
			const fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN;
			const nav = performance.getEntriesByType("navigation")[0];
			const state = window.__benchState;
			return {
				fcp,
				dcl: nav?.domContentLoadedEventEnd ?? 0,
				heading: state.headingAt,
				longTaskEnd: state.longTaskEnd,
			};
		});
		fcps.push(timing.fcp);
		ttis.push(Math.max(timing.fcp, timing.dcl, timing.heading, timing.longTaskEnd));
		if (run === 0) {
			loadedJs = gzipKb(
				Buffer.concat(
					[...scripts].filter((path) => path.endsWith(".js")).map((path) => readFileSync(join(dist, path))),
				),
			);
		}
		await page.close();
	}
	return { fcp: median(fcps), tti: median(ttis), loadedJs };
}

// ---- Browsing views: time until the view is on screen, and layout shift -------------------------

/** A model with a 1 MB text file, code and two commits, made through the hub's API. */
async function makeBrowseModel(hubUrl) {
	const user = await fetch(`${hubUrl}/api/admin/users`, {
		method: "POST",
		headers: { authorization: `Bearer ${BENCH_ADMIN_TOKEN}`, "content-type": "application/json" },
		body: JSON.stringify({ name: "bench-user" }),
	});
	const { token } = await user.json();
	const auth = { authorization: `Bearer ${token}` };
	await fetch(`${hubUrl}/api/repos/create`, {
		method: "POST",
		headers: { ...auth, "content-type": "application/json" },
		body: JSON.stringify({ name: "browse-bench" }),
	});
	const commit = async (summary, files) => {
		const lines = [
			{ key: "header", value: { summary } },
			...Object.entries(files).map(([path, content]) => ({
				key: "file",
				value: { path, encoding: "base64", content: Buffer.from(content).toString("base64") },
			})),
		];
		const res = await fetch(`${hubUrl}/api/models/${BROWSE_MODEL}/commit/main`, {
			method: "POST",
			headers: { ...auth, "content-type": "application/x-ndjson" },
			body: lines.map((line) => JSON.stringify(line)).join("\n"),
		});
		return (await res.json()).commitOid;
	};
	const code = (n) =>
		Array.from({ length: 300 }, (_, i) => `def f${i}(x):\n    return x * ${n} + ${i}  # line ${i}\n`).join(
			"",
		);
	const big = Array.from({ length: 16_000 }, (_, i) => `line ${i}: some words of a large text file\n`)
		.join("")
		.padEnd(1024 * 1024, "x");
	await commit("Add files", {
		"README.md": "# Bench\n\nA model.\n",
		"data/big.txt": big,
		"src/model.py": code(2),
	});
	return commit("Change the code", { "src/model.py": code(3) });
}

const OBSERVE_VIEW = () => {
	const state = { shown: 0, cls: 0 };
	window.__viewState = state;
	new PerformanceObserver((list) => {
		for (const entry of list.getEntries()) if (!entry.hadRecentInput) state.cls += entry.value;
	}).observe({ type: "layout-shift", buffered: true });
	const check = () => {
		if (!state.shown && document.querySelector(window.__viewSelector ?? "main h1"))
			state.shown = performance.now();
	};
	new MutationObserver(check).observe(document, { subtree: true, childList: true });
};

/** Median time from navigation to `selector` on screen, and the largest layout shift, over cold loads. */
async function measureView(context, url, selector) {
	const shown = [];
	let cls = 0;
	for (let run = 0; run < RUNS; run++) {
		const page = await context.newPage();
		const cdp = await context.newCDPSession(page);
		await cdp.send("Network.enable");
		await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
		await page.addInitScript(`window.__viewSelector = ${JSON.stringify(selector)};`);
		await page.addInitScript(OBSERVE_VIEW);
		await page.goto(url, { waitUntil: "networkidle" });
		await page.locator(selector).first().waitFor();
		await page.waitForTimeout(300);
		const state = await page.evaluate(() => window.__viewState);
		shown.push(state.shown);
		cls = Math.max(cls, state.cls);
		await page.close();
	}
	return { shown_ms: median(shown), cls: Math.round(cls * 1000) / 1000 };
}

async function lighthouseScores(urls) {
	let lighthouse;
	let chromeLauncher;
	try {
		lighthouse = (await import("lighthouse")).default;
		chromeLauncher = await import("chrome-launcher");
	} catch {
		return undefined;
	}
	const scores = {};
	for (const [name, url] of Object.entries(urls)) {
		// A fresh browser per page, and one retry when a run reports no score (a flaky trace).
		for (let attempt = 0; attempt < 2 && scores[name]?.performance === undefined; attempt++) {
			const chrome = await chromeLauncher.launch({ chromePath: chromiumPath, chromeFlags: chromiumArgs });
			try {
				const result = await lighthouse(url, {
					port: chrome.port,
					output: "json",
					logLevel: "error",
					onlyCategories: ["performance", "accessibility"],
				});
				const categories = result?.lhr.categories ?? {};
				const score = (category) =>
					typeof category?.score === "number" ? Math.round(category.score * 100) : undefined;
				scores[name] = {
					performance: score(categories.performance),
					accessibility: score(categories.accessibility),
					error: result?.lhr.runtimeError?.code,
				};
			} finally {
				await chrome.kill();
			}
		}
	}
	return scores;
}

const hub = await startHub();
const profile = mkdtempSync(join(tmpdir(), "modelhub-web-bench-chromium-"));
let context;
try {
	// A chat model with providers: the model page with the most on it.
	const list = await (
		await fetch(`${hub.url}/api/models?pipeline_tag=text-generation&sort=downloads&direction=-1&limit=20`)
	).json();
	const modelId = (list.find((model) => model.tags.includes("conversational")) ?? list[0]).id;
	context = await chromium.launchPersistentContext(profile, {
		executablePath: chromiumPath,
		headless: true,
		args: chromiumArgs,
	});
	const home = await measureLoads(context, `${hub.url}/`);
	const model = await measureLoads(context, `${hub.url}/${modelId}`);
	const commitId = await makeBrowseModel(hub.url);
	const browse = {
		tree: await measureView(context, `${hub.url}/${BROWSE_MODEL}/tree/main/src`, "table.file-table tbody tr"),
		blob_1mb_text: await measureView(
			context,
			`${hub.url}/${BROWSE_MODEL}/blob/main/data/big.txt`,
			".code-view",
		),
		blob_code: await measureView(
			context,
			`${hub.url}/${BROWSE_MODEL}/blob/main/src/model.py`,
			".code-view .hljs-keyword",
		),
		commits: await measureView(context, `${hub.url}/${BROWSE_MODEL}/commits/main`, ".commit-list li"),
		commit_diff: await measureView(context, `${hub.url}/${BROWSE_MODEL}/commit/${commitId}`, ".diff-table"),
	};
	await context.close();
	context = undefined;
	const lh = await lighthouseScores({ home: `${hub.url}/`, model: `${hub.url}/${modelId}` });
	const result = {
		name: "web-first-load",
		model_page: modelId,
		home_initial_js_gzip_kb: initialJs("Home"),
		model_initial_js_gzip_kb: initialJs("Model"),
		// Every page type, each against the same target (KiB, 1 KiB = 1,024 B).
		initial_js_gzip_kb_by_page: Object.fromEntries(pageTypeSizes.map((page) => [page.name, kib(page.bytes)])),
		home_loaded_js_gzip_kb: home.loadedJs,
		model_loaded_js_gzip_kb: model.loadedJs,
		home_fcp_ms: home.fcp,
		home_tti_ms: home.tti,
		model_fcp_ms: model.fcp,
		model_tti_ms: model.tti,
		// Cold loads of the browsing views (median time until the view is on screen; largest layout shift).
		browse_views: browse,
		...(lh
			? {
					lighthouse_home_performance: lh.home.performance,
					lighthouse_home_accessibility: lh.home.accessibility,
					lighthouse_model_performance: lh.model.performance,
					lighthouse_model_accessibility: lh.model.accessibility,
					...(lh.home.error || lh.model.error ? { lighthouse_errors: [lh.home.error, lh.model.error] } : {}),
				}
			: { lighthouse: "not installed" }),
		target_initial_js_gzip_kb: INITIAL_JS_LIMIT / 1024,
		pages_over_target: pageTypeSizes.filter((page) => page.bytes > INITIAL_JS_LIMIT).map((page) => page.name),
	};
	console.log(JSON.stringify(result));
} finally {
	await context?.close();
	rmSync(profile, { recursive: true, force: true });
	await hub.stop();
}
