/**
 * The hub suite's checks of the web app's pages and the security headers (support/hub-suite.ts runs them
 * on each database).
 */
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TASKS_DATA } from "@modelhub/tasks";
import { ANONYMOUS } from "../../../src/accounts/viewer.js";
import { CONTENT_SECURITY_POLICY } from "../../../src/http.js";
import { countMatchingModels } from "../../../src/models/store.js";
import { startHub } from "../hub.js";
import { walk, rawRequest, type HubSuite } from "./context.js";

export function defineWebSecurityChecks(suite: HubSuite): void {
	describe("web and security", () => {
		it("sets the security headers on every kind of response", async () => {
			const paths = [
				"/api/models/openai/whisper-large-v3",
				"/api/nothing",
				"/",
				"/assets/demo/input.wav",
				"/healthz",
			];
			for (const path of paths) {
				const res = await fetch(`${suite.base}${path}`);
				await res.arrayBuffer();
				expect(res.headers.get("content-security-policy"), path).toBe(CONTENT_SECURITY_POLICY);
				expect(res.headers.get("content-security-policy"), path).not.toMatch(/unsafe-inline|unsafe-eval/);
				expect(res.headers.get("content-security-policy"), path).toMatch(/frame-ancestors 'none'/);
				expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
				expect(res.headers.get("referrer-policy"), path).toBeTruthy();
				expect(res.headers.get("x-powered-by"), path).toBeNull();
			}
		});

		it("serves the demo media of @modelhub/tasks", async () => {
			const wav = await fetch(`${suite.base}/assets/demo/input.wav`);
			expect(wav.status).toBe(200);
			expect(wav.headers.get("content-type")).toMatch(/audio\/(x-)?wav/);
			const bytes = Buffer.from(await wav.arrayBuffer());
			expect(bytes.subarray(0, 4).toString("latin1")).toBe("RIFF");
			const svg = await fetch(`${suite.base}/assets/demo/elephant.svg`);
			expect(svg.status).toBe(200);
			expect(svg.headers.get("content-type")).toMatch(/image\/svg\+xml/);
			expect((await fetch(`${suite.base}/assets/demo/missing.svg`)).status).toBe(404);
		});

		it("shows a script-free notice when the web app is not built", async () => {
			const res = await fetch(`${suite.base}/`, { headers: { accept: "text/html" } });
			expect(res.status).toBe(200);
			expect(res.headers.get("content-type")).toMatch(/text\/html/);
			const html = await res.text();
			expect(html).toMatch(/not built/);
			expect(html).not.toMatch(/<script|<style|style=/i);
			// The notice keeps the page's true status: 404 for an address with no model behind it.
			const deep = await fetch(`${suite.base}/models/some/page`, { headers: { accept: "text/html" } });
			expect(deep.status).toBe(404);
			expect(await deep.text()).toMatch(/not built/);
			const known = await fetch(`${suite.base}/tasks`, { headers: { accept: "text/html" } });
			expect(known.status).toBe(200);
		});

		it("serves a built web app with a single-page-app fallback", async () => {
			const dir = mkdtempSync(join(tmpdir(), "modelhub-web-"));
			suite.tempDirs.push(dir);
			mkdirSync(join(dir, "assets"));
			writeFileSync(
				join(dir, "index.html"),
				'<!doctype html><script type="module" src="/assets/app.js"></script>',
			);
			writeFileSync(join(dir, "assets", "app.js"), "console.log('app');");
			writeFileSync(join(dir, ".env"), "SECRET=1");
			const web = await startHub({ db: suite.db, seed: false, webDir: dir });
			try {
				const root = await fetch(`${web.url}/`, { headers: { accept: "text/html" } });
				expect(root.status).toBe(200);
				expect(await root.text()).toContain("/assets/app.js");
				const asset = await fetch(`${web.url}/assets/app.js`);
				expect(asset.status).toBe(200);
				expect(asset.headers.get("content-type")).toMatch(/javascript/);
				const spa = await fetch(`${web.url}/meta-llama/Llama-3.1-8B-Instruct`, {
					headers: { accept: "text/html,*/*" },
				});
				expect(spa.status).toBe(200);
				expect(await spa.text()).toContain("/assets/app.js");
				expect(spa.headers.get("content-security-policy")).toBe(CONTENT_SECURITY_POLICY);
				const notHtml = await fetch(`${web.url}/models/x`, { headers: { accept: "application/json" } });
				expect(notHtml.status).toBe(404);
				const api = await fetch(`${web.url}/api/unknown`, { headers: { accept: "text/html" } });
				expect(api.status).toBe(404);
				expect(api.headers.get("content-type")).toMatch(/json/);
				const dot = await rawRequest(web.url, { path: "/.env" });
				expect(dot.body).not.toContain("SECRET");
				// Bodies are read to the end: a response still being sent keeps its connection (and close()) waiting.
				const demo = await fetch(`${web.url}/assets/demo/input.wav`);
				expect(demo.status).toBe(200);
				expect((await demo.arrayBuffer()).byteLength).toBeGreaterThan(44);
				const model = await fetch(`${web.url}/api/models/openai/whisper-large-v3`);
				expect(model.status).toBe(200);
				await model.text();
			} finally {
				await web.close();
			}
		});

		it("answers each page's status and writes its title and description into the page", async () => {
			const dir = mkdtempSync(join(tmpdir(), "modelhub-web-"));
			suite.tempDirs.push(dir);
			writeFileSync(
				join(dir, "index.html"),
				'<!doctype html><html><head><meta name="description" content="built" />' +
					'<title>ModelHub</title><script type="module" src="/assets/app.js"></script></head>' +
					'<body><div id="root"></div></body></html>',
			);
			const web = await startHub({ db: suite.db, seed: false, webDir: dir });
			const page = async (path: string) => {
				const res = await fetch(`${web.url}${path}`, { headers: { accept: "text/html" } });
				const html = await res.text();
				return {
					status: res.status,
					html,
					title: /<title>([^<]*)<\/title>/.exec(html)?.[1],
					description: /<meta name="description" content="([^"]*)"/.exec(html)?.[1],
				};
			};
			try {
				const cases: Array<[string, number, string]> = [
					["/", 200, "ModelHub"],
					["/models", 200, "Models · ModelHub"],
					["/tasks", 200, "Tasks · ModelHub"],
					["/libraries", 200, "Libraries · ModelHub"],
					["/settings", 200, "Settings · ModelHub"],
					["/tasks/text-classification", 200, "Text Classification · ModelHub"],
					// A pipeline type without a page that other pages name as canonical lists them.
					["/tasks/text2text-generation", 200, "Text2Text Generation · ModelHub"],
					["/tasks/no-such-task", 404, "Page not found · ModelHub"],
					["/libraries/transformers", 200, "Transformers · ModelHub"],
					["/libraries/no-such-library", 404, "Library not found · ModelHub"],
					["/meta-llama/Llama-3.1-8B-Instruct", 200, "meta-llama/Llama-3.1-8B-Instruct · ModelHub"],
					["/META-LLAMA/llama-3.1-8b-instruct", 200, "meta-llama/Llama-3.1-8B-Instruct · ModelHub"],
					// A namespace without an account (seeded models) has a page; a name with nothing is a 404.
					["/meta-llama", 200, "meta-llama · ModelHub"],
					["/META-LLAMA", 200, "meta-llama · ModelHub"],
					["/gpt2", 404, "Not found · ModelHub"],
					["/nobody/no-such-model", 404, "Model not found · ModelHub"],
					["/a/b/c", 404, "Page not found · ModelHub"],
				];
				for (const [path, status, title] of cases) {
					const got = await page(path);
					expect({ path, status: got.status, title: got.title }).toEqual({ path, status, title });
					// Every answer is the app itself (it renders its own 404 view), with no inline script.
					expect(got.html).toContain('<script type="module" src="/assets/app.js"></script>');
					expect(got.html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
					expect(got.description).toBeTruthy();
				}
				const model = await page("/meta-llama/Llama-3.1-8B-Instruct");
				expect(model.description).toMatch(
					/^meta-llama\/Llama-3\.1-8B-Instruct: Text Generation model for Transformers, license llama3\.1, [\d,]+ downloads/,
				);
				const task = await page("/tasks/text-classification");
				expect(task.description).toBe(TASKS_DATA["text-classification"]?.summary);
				// Text from the address is escaped, never markup.
				const hostile = await page("/%3Cscript%3Ealert(1)%3C%2Fscript%3E");
				expect(hostile.status).toBe(404);
				expect(hostile.html).not.toContain("<script>alert");
				expect(hostile.description).toContain("&#60;script&#62;");
				const head = await fetch(`${web.url}/nobody/no-such-model`, {
					method: "HEAD",
					headers: { accept: "text/html" },
				});
				expect(head.status).toBe(404);
			} finally {
				await web.close();
			}
		});

		it("counts the models a listing's filters match", async () => {
			for (const query of [
				"",
				"pipeline_tag=text-generation",
				"author=meta-llama",
				"inference_provider=groq",
				"filter=license:apache-2.0",
				"search=llama%203",
				"library=transformers&filter=en",
			]) {
				const res = await fetch(`${suite.base}/api/models-count?${query}`);
				expect(res.status).toBe(200);
				const listed = (await walk(suite.base, `${query}&limit=1000`)).models.length;
				expect(await res.json()).toEqual({ count: listed, exact: true });
			}
			// Counting stops at the cap and says so.
			expect(await countMatchingModels(suite.db, { viewer: ANONYMOUS }, 3)).toEqual({
				count: 3,
				exact: false,
			});
			expect(
				await countMatchingModels(suite.db, { author: "meta-llama", viewer: ANONYMOUS }, 1000),
			).toMatchObject({ exact: true });
			const none = await fetch(`${suite.base}/api/models-count?author=nobody-at-all`);
			expect(await none.json()).toEqual({ count: 0, exact: true });
			const bad = await fetch(`${suite.base}/api/models-count?pipeline_tag=not-a-task`);
			expect(bad.status).toBe(400);
			expect(((await bad.json()) as { error: string }).error).toMatch(/pipeline_tag/);
		});

		it("answers CORS preflights for reads", async () => {
			const res = await fetch(`${suite.base}/api/models/openai/whisper-large-v3`, {
				method: "OPTIONS",
				headers: { origin: "https://example.com", "access-control-request-method": "GET" },
			});
			expect(res.status).toBe(204);
			expect(res.headers.get("access-control-allow-origin")).toBe("*");
			expect(res.headers.get("access-control-allow-methods")).not.toMatch(/PUT|DELETE/);
		});

		it("answers HEAD like GET without a body", async () => {
			const res = await rawRequest(suite.base, {
				method: "HEAD",
				path: "/api/models/openai/whisper-large-v3",
			});
			expect(res.status).toBe(200);
			expect(res.body).toBe("");
		});
	});
}
