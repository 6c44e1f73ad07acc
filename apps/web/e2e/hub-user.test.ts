/**
 * The ten problems a demanding Hub user found (issue 15), one test each, in Debian's Chromium against the
 * real hub: each failed on the code before the fix and passes now. A local provider stand-in answers the
 * playground as the test scripts it (a streamed answer, an error with a status, a stream that hangs).
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, launchBrowser, watchErrors, type Browser } from "./support/browser";
import { startHub, type RunningHub } from "./support/hub";
import { startScriptedProvider, type ScriptedProvider } from "./support/provider";

let hub: RunningHub;
let browser: Browser;
let provider: ScriptedProvider;
let page: Page;
let errors: string[];

const CHAT_MODEL = "meta-llama/Llama-3.1-8B-Instruct";
const TOKEN = "hf_abc123_e2e";

async function api<T>(path: string): Promise<T> {
	const response = await fetch(hub.url + path);
	if (!response.ok) throw new Error(`${path}: ${response.status}`);
	return (await response.json()) as T;
}

async function visit(path: string) {
	const response = await page.goto(hub.url + path, { waitUntil: "networkidle" });
	await page.locator("main h1").first().waitFor();
	return response;
}

async function listedIds(): Promise<string[]> {
	return page.locator(".model-card h2 a").allTextContents();
}

/** The playground's request messages of one received request. */
function sentMessages(index: number): Array<{ role: string; content: string }> {
	return (
		JSON.parse(provider.received[index]?.body ?? "{}") as {
			messages: Array<{ role: string; content: string }>;
		}
	).messages;
}

beforeAll(async () => {
	[hub, provider, browser] = await Promise.all([startHub(), startScriptedProvider(), launchBrowser()]);
	page = browser.context.pages()[0] ?? (await browser.context.newPage());
	page.setDefaultTimeout(10_000);
	errors = watchErrors(page);
	// The inference router is the local stand-in (kept in localStorage by the Settings page).
	await visit("/settings");
	await page.getByLabel("Inference router URL").fill(provider.url);
	await page.getByRole("button", { name: "Save settings" }).click();
	await page.getByText("Settings saved.").waitFor();
}, 120_000);

afterAll(async () => {
	await browser?.close();
	await provider?.close();
	await hub?.stop();
});

describe("issue 15: what a Hub user expects", () => {
	it("1. the playground's token field keeps every character and the request carries the whole token", async () => {
		await visit(`/${CHAT_MODEL}`);
		const field = page.getByLabel("Access token", { exact: true });
		await field.pressSequentially(TOKEN, { delay: 20 });
		expect(await page.getByLabel("Access token", { exact: true }).inputValue()).toBe(TOKEN);
		provider.answer = { kind: "stream", tokens: ["Paris", "."] };
		const before = provider.received.length;
		await page.getByRole("button", { name: "Send request" }).click();
		await page.locator(".chat-assistant").filter({ hasText: "Paris." }).waitFor();
		expect(provider.received[before]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
		const content = await page.content();
		const at = content.indexOf(TOKEN);
		expect(at === -1 ? "" : content.slice(Math.max(0, at - 300), at + 50)).toBe("");
	}, 60_000);

	it("2. errors show next to Send with the provider's message and status; failed turns retry or go; Stop and the timeout are visible", async () => {
		// Continues in the page of test 1 (the token is in memory).
		const errorsBefore = errors.length;
		provider.answer = { kind: "error", status: 500, body: { error: "Model too busy, try later" } };
		await page.getByLabel("Message").fill("Second question");
		await page.getByRole("button", { name: "Send request" }).click();
		const alert = page.getByTestId("run-error");
		await alert.waitFor();
		expect(await alert.textContent()).toMatch(/HTTP 500/);
		expect(await alert.textContent()).toContain("Model too busy, try later");
		// Next to Send: right below it, on screen.
		const send = await page.getByRole("button", { name: "Send request" }).boundingBox();
		const box = await alert.boundingBox();
		expect(box && send ? box.y - (send.y + send.height) : Infinity).toBeLessThan(120);
		expect(await alert.isVisible()).toBe(true);
		// Brought into view (issue 22: it landed below the fold), without the test scrolling to it; 1 px for
		// the sub-pixel edge that scrolling to the nearest edge leaves.
		const viewport = page.viewportSize();
		expect(box && viewport ? box.y >= 0 && box.y + box.height <= viewport.height + 1 : false).toBe(true);
		const failed = page.locator(".chat-turn[data-status=failed]");
		await failed.getByRole("button", { name: "Retry this message" }).waitFor();
		// One way to retry a failed chat turn: the turn's own button (there were two).
		expect(await page.getByRole("button", { name: /Retry/ }).count()).toBe(1);

		// Retry: the same question is asked again in its place, never twice in a row.
		provider.answer = { kind: "stream", tokens: ["Fine", "."] };
		let before = provider.received.length;
		await failed.getByRole("button", { name: "Retry this message" }).click();
		await page.locator(".chat-assistant").filter({ hasText: "Fine." }).waitFor();
		expect(sentMessages(before).map((message) => message.role)).toEqual(["user", "assistant", "user"]);
		expect(sentMessages(before).at(-1)?.content).toBe("Second question");

		// Stop: feedback, and the stopped turn is not sent with the next question.
		provider.answer = { kind: "hang", first: "Partial" };
		await page.getByLabel("Message").fill("Third question");
		await page.getByRole("button", { name: "Send request" }).click();
		await page.getByTestId("chat-streaming").filter({ hasText: "Partial" }).waitFor();
		expect(await page.getByTestId("timeout-countdown").textContent()).toMatch(/Times out in \d+ s/);
		await page.getByRole("button", { name: "Stop" }).click();
		await page.getByTestId("run-error").filter({ hasText: "Stopped" }).waitFor();
		await page.locator(".chat-turn[data-status=stopped]").getByRole("button", { name: "Remove" }).waitFor();
		provider.answer = { kind: "stream", tokens: ["Done", "."] };
		before = provider.received.length;
		await page.getByLabel("Message").fill("Fourth question");
		await page.getByRole("button", { name: "Send request" }).click();
		await page.locator(".chat-assistant").filter({ hasText: "Done." }).waitFor();
		const roles = sentMessages(before).map((message) => message.role);
		expect(roles.filter((role, index) => role === "user" && roles[index + 1] === "user")).toEqual([]);
		expect(sentMessages(before).map((message) => message.content)).not.toContain("Third question");
		// Remove takes the stopped turn off the page.
		await page.locator(".chat-turn[data-status=stopped]").getByRole("button", { name: "Remove" }).click();
		expect(await page.locator(".chat-turn[data-status=stopped]").count()).toBe(0);
		// Chromium logs the provider's 500 answer; that one is expected here.
		const logged = errors.splice(errorsBefore);
		expect(logged.every((error) => /status of 500/.test(error))).toBe(true);
	}, 60_000);

	it("3. the author link lists that author's models only", async () => {
		await visit(`/${CHAT_MODEL}`);
		await page.getByRole("link", { name: "meta-llama", exact: true }).click();
		await page.waitForURL(/\/models\?author=meta-llama/);
		await page.locator(".model-card").first().waitFor();
		const ids = await listedIds();
		expect(ids.length).toBeGreaterThan(2);
		expect(ids.every((id) => id.startsWith("meta-llama/"))).toBe(true);
		const { count } = await api<{ count: number }>("/api/models-count?author=meta-llama");
		await page
			.getByTestId("model-total")
			.filter({ hasText: `${count} models` })
			.waitFor();
	});

	it("4. a model page has its card, its files and a way to use every model, GGUF repos without a library included", async () => {
		await visit(`/${CHAT_MODEL}`);
		const card = page.locator(".markdown");
		await card.locator("h2").first().waitFor();
		const text = (await card.textContent()) ?? "";
		expect(text).not.toMatch(/^---|license: llama3\.1/m);
		expect(await page.getByRole("list", { name: "Tags" }).getByRole("link").count()).toBeGreaterThan(3);
		expect(await page.locator(".card-metadata").textContent()).toContain("llama3.1");

		await page.getByRole("tab", { name: "Files and versions" }).click();
		const readme = page.locator(".file-table tr", { hasText: "README.md" });
		await readme.waitFor();
		const href = await readme.getByRole("link", { name: /Download/ }).getAttribute("href");
		expect(href).toBe(`/${CHAT_MODEL}/resolve/main/README.md`);
		expect((await fetch(hub.url + href)).status).toBe(200);
		expect(await readme.locator(".numeric").textContent()).toMatch(/\d+(\.\d)? (B|kB)/);
		expect(await page.getByLabel("Revision").inputValue()).toBe("main");

		await visit("/bartowski/Meta-Llama-3.1-8B-Instruct-GGUF");
		await page.getByRole("button", { name: "Use this model" }).click();
		const tabs = page.getByRole("dialog").getByRole("tab");
		await tabs.first().waitFor();
		const names = await tabs.allTextContents();
		expect(names).toContain("llama.cpp");
		expect(names).toContain("Ollama");
		expect(await page.getByRole("dialog").locator(".code-block").count()).toBeGreaterThan(0);
		await page.keyboard.press("Escape");
	});

	it("5. the model list filters by provider, license, language and author, counts, links tags and searches as you type", async () => {
		await visit("/models?inference_provider=groq");
		await page.locator(".model-card").first().waitFor();
		const expected = (await api<Array<{ id: string }>>("/api/models?inference_provider=groq&limit=20")).map(
			(model) => model.id,
		);
		expect(await listedIds()).toEqual(expected);
		const total = await api<{ count: number }>("/api/models-count?inference_provider=groq");
		await page
			.getByTestId("model-total")
			.filter({ hasText: `${total.count} models` })
			.waitFor();
		expect(await page.getByLabel("Inference provider", { exact: true }).inputValue()).toBe("groq");

		await page.getByLabel("License").selectOption("apache-2.0");
		await page.waitForURL(/license=apache-2.0/);
		await page.getByLabel("Language").selectOption("en");
		await page.waitForURL(/language=en/);
		await page.getByRole("button", { name: /Remove filter Inference provider/ }).click();
		await page.waitForURL((url) => !url.search.includes("inference_provider"));

		// Search as you type: no Enter, and "llama 3.3" finds Llama-3.3.
		await visit("/models");
		await page.getByLabel("Search models").pressSequentially("llama 3.3", { delay: 30 });
		await page.waitForURL(/search=llama(\+|%20)3\.3/);
		await page.locator(".model-card h2", { hasText: "meta-llama/Llama-3.3-70B-Instruct" }).waitFor();

		// Tags on a model page are links to the filtered list.
		await visit(`/${CHAT_MODEL}`);
		await page.getByRole("list", { name: "Tags" }).getByRole("link", { name: "conversational" }).click();
		await page.waitForURL(/\/models\?tag=conversational/);
		await page.locator(".model-card").first().waitFor();
		const tagged = await api<Array<{ id: string }>>("/api/models?filter=conversational&limit=20");
		expect(await listedIds()).toEqual(tagged.map((model) => model.id));
	}, 60_000);

	it("6. Qwen models show their real licenses", async () => {
		for (const [id, license] of [
			["Qwen/Qwen2.5-7B-Instruct", "apache-2.0"],
			["Qwen/Qwen3-8B", "apache-2.0"],
			["Qwen/Qwen2.5-72B-Instruct", "qwen"],
		] as const) {
			await visit(`/${id}`);
			const header = await page.locator("main").innerText();
			expect({ id, license: /License\s*([\w.-]+)/i.exec(header)?.[1] }).toEqual({ id, license });
			expect(await page.locator("main").textContent()).not.toContain("llama3.1");
		}
		await visit("/models?license=llama3.1");
		await page.locator(".model-card").first().waitFor();
		expect((await listedIds()).filter((id) => id.startsWith("Qwen/"))).toEqual([]);
	});

	it("7. the speech-recognition request preview shows the clip as <binary: N bytes, type>", async () => {
		await visit("/openai/whisper-large-v3");
		await page.locator(".providers-panel").getByRole("radio", { name: /fal/ }).check();
		const preview = page.getByTestId("request-preview");
		await page.waitForFunction(() =>
			document.querySelector("[data-testid=request-preview]")?.textContent?.includes("fal"),
		);
		const shown = (await preview.textContent()) ?? "";
		expect(shown).toMatch(/<binary: \d+ bytes, audio\/[\w.+-]+>/);
		expect(shown.length).toBeLessThan(3000);
		expect((await page.content()).length).toBeLessThan(100_000);
	});

	it("8. two columns on a desktop, one provider picker, nothing wider than a phone", async () => {
		await visit(`/${CHAT_MODEL}`);
		await page.getByRole("heading", { name: "Playground" }).waitFor();
		expect(await page.locator("fieldset.provider-picker").count()).toBe(1);
		const main = await page.locator(".model-main").boundingBox();
		const side = await page.locator(".model-sidebar").boundingBox();
		expect(main && side ? side.x >= main.x + main.width : false).toBe(true);
		expect(side && main ? Math.abs(side.y - main.y) : Infinity).toBeLessThan(5);
		await page.setViewportSize({ width: 390, height: 844 });
		try {
			await visit(`/${CHAT_MODEL}`);
			await page.locator(".markdown h2").first().waitFor();
			// A phone scrolls through the card, not through the card, snippets and playground (3,729 px before).
			expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThan(3000);
			expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
			await page.getByRole("tab", { name: "Inference" }).click();
			await page.getByRole("heading", { name: "Playground" }).waitFor();
			expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
			expect(await page.locator("fieldset.provider-picker").count()).toBe(1);
		} finally {
			await page.setViewportSize({ width: 1280, height: 800 });
		}
	});

	it("9. Use this model opens with its code at once, with clear tab names, and every snippet asks the same question", async () => {
		await visit(`/${CHAT_MODEL}`);
		const trigger = page.getByRole("button", { name: "Use this model" });
		await trigger.hover();
		await page.waitForLoadState("networkidle");
		// Watch for any loading state, then click: the code must be there in the same task as the click.
		const atOnce = await page.evaluate(async () => {
			const seen: string[] = [];
			new MutationObserver(() => {
				if (document.querySelector("dialog [role=status]")?.textContent?.includes("Loading"))
					seen.push("loading");
			}).observe(document.body, { subtree: true, childList: true });
			const button = [...document.querySelectorAll("button")].find((b) => b.textContent === "Use this model");
			button?.click();
			// Before the next paint: a chunk still to download could not be on screen by then.
			await new Promise((resolve) => requestAnimationFrame(resolve));
			return { code: document.querySelector("dialog .code-block code")?.textContent ?? "", seen };
		});
		expect(atOnce.code.length).toBeGreaterThan(10);
		await page.waitForTimeout(200);
		expect(atOnce.seen).toEqual([]);
		const dialog = page.getByRole("dialog");
		const tabs = await dialog.getByRole("tab").allTextContents();
		expect(tabs[0]).toBe("Transformers");
		expect(tabs).toContain("vLLM");
		const titles = await dialog.locator(".code-block-title").allTextContents();
		for (const name of [...tabs, ...titles]) {
			expect(name).not.toMatch(/^(Python|Shell|JavaScript|C#) \d+$/);
			expect(name).not.toMatch(/^(.+) \(\1\)$/);
		}
		const librarySnippet = (await dialog.locator(".code-block code").allTextContents()).join("\n");
		await page.keyboard.press("Escape");

		const panel = page.locator(".providers-panel");
		await panel.getByRole("tab", { name: "cURL" }).click();
		await page.waitForFunction(() =>
			document.querySelector(".providers-panel .code-block code")?.textContent?.includes("curl"),
		);
		expect(await panel.locator(".code-block-title").textContent()).toBe("cURL");
		const providerSnippet = (await panel.locator(".code-block code").textContent()) ?? "";
		const question = await page.getByLabel("Message").inputValue();
		expect(question.length).toBeGreaterThan(5);
		expect(providerSnippet).toContain(question);
		expect(librarySnippet).toContain(question);
	});

	it("10. unknown models, tasks and libraries answer 404 (still the app's 404 view); pages carry their title and description", async () => {
		const before = errors.length;
		for (const [path, heading] of [
			["/nobody/no-such-model", "Model not found"],
			["/tasks/no-such-task", "Page not found"],
			["/libraries/no-such-library", "Library not found"],
		] as const) {
			const response = await visit(path);
			expect({ path, status: response?.status() }).toEqual({ path, status: 404 });
			expect(await page.locator("main h1").textContent()).toBe(heading);
		}
		// Chromium logs each 404 answer (documents and the model API call); nothing else.
		expect(errors.slice(before).every((error) => /status of 404/.test(error))).toBe(true);
		errors.length = before;
		const known = await fetch(`${hub.url}/${CHAT_MODEL}`, { headers: { accept: "text/html" } });
		expect(known.status).toBe(200);
		const html = await known.text();
		expect(html).toContain(`<title>${CHAT_MODEL} · ModelHub</title>`);
		expect(html).toMatch(
			/<meta name="description" content="meta-llama\/Llama-3\.1-8B-Instruct: Text Generation model/,
		);
		const task = await fetch(`${hub.url}/tasks/text-classification`, { headers: { accept: "text/html" } });
		expect(task.status).toBe(200);
		expect(await task.text()).toContain("<title>Text Classification · ModelHub</title>");
	});

	it("keeps zero axe violations in both themes: card, files, the open dialog, a GGUF model, the filtered list", async () => {
		const problems: string[] = [];
		const check = async (label: string) => {
			for (const violation of await axeViolations(page)) {
				problems.push(`${label}: ${violation.id} — ${violation.help} — ${violation.nodes.join(" | ")}`);
			}
		};
		try {
			for (const colorScheme of ["light", "dark"] as const) {
				await page.emulateMedia({ colorScheme });
				await visit(`/${CHAT_MODEL}`);
				await page.locator(".markdown h2").first().waitFor();
				await check(`card (${colorScheme})`);
				await page.getByRole("tab", { name: "Files and versions" }).click();
				await page.locator(".file-table").waitFor();
				await check(`files (${colorScheme})`);
				await page.getByRole("button", { name: "Use this model" }).click();
				await page.getByRole("dialog").locator(".code-block").first().waitFor();
				await check(`dialog (${colorScheme})`);
				await page.keyboard.press("Escape");
				await visit("/bartowski/Meta-Llama-3.1-8B-Instruct-GGUF");
				await check(`GGUF model (${colorScheme})`);
				await visit("/models?license=apache-2.0&language=en&tag=conversational&inference_provider=together");
				await page.locator(".model-card").first().waitFor();
				await check(`filtered list (${colorScheme})`);
			}
		} finally {
			await page.emulateMedia({ colorScheme: "light" });
		}
		expect(problems).toEqual([]);
	}, 90_000);

	it("logged no console errors along the way", () => {
		expect(errors).toEqual([]);
	});
});
