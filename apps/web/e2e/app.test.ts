/**
 * The web app in a real browser (Debian's Chromium through playwright-core) against the real hub server
 * (packages/hub/dist/cli.js serving apps/web/dist and the API), with a local OpenAI-style provider for
 * the playground. One browser for the whole file.
 */
import { TASKS_DATA } from "@modelhub/tasks";
import type { TaskDemoEntryType } from "@modelhub/tasks";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, launchBrowser, watchErrors, type Browser } from "./support/browser";
import { startHub, type RunningHub } from "./support/hub";
import { startProviderServer, type ProviderServer } from "./support/provider";

let hub: RunningHub;
let browser: Browser;
let provider: ProviderServer;
let page: Page;
let errors: string[];

interface ModelInfo {
	id: string;
	library_name?: string;
	pipeline_tag?: string;
	tags: string[];
	inferenceProviderMapping?: Record<string, { providerId: string; status: string; task: string }>;
}

let chatModel: ModelInfo;
let libraryModel: ModelInfo;
let classifierModel: ModelInfo;
let detectorModel: ModelInfo;

const STREAM_TOKENS = ["The ", "capital ", "of ", "France ", "is ", "Paris", "."];

async function getJson<T>(path: string): Promise<T> {
	const response = await fetch(hub.url + path);
	if (!response.ok) throw new Error(`${path}: ${response.status}`);
	return (await response.json()) as T;
}

/** The first model of a listing that passes `accept`, fetched with its provider mapping. */
async function findModel(query: string, accept: (model: ModelInfo) => boolean): Promise<ModelInfo> {
	const list = await getJson<ModelInfo[]>(`/api/models?${query}&limit=100`);
	for (const summary of list) {
		const model = await getJson<ModelInfo>(`/api/models/${summary.id}?expand[]=inferenceProviderMapping`);
		if (accept(model)) return model;
	}
	throw new Error(`no seeded model for ${query}`);
}

async function visit(path: string): Promise<void> {
	await page.goto(hub.url + path, { waitUntil: "networkidle" });
	await page.locator("main h1").first().waitFor();
}

function modelPath(id: string): string {
	return `/${id}`;
}

beforeAll(async () => {
	[hub, provider, browser] = await Promise.all([
		startHub(),
		startProviderServer(STREAM_TOKENS, (request) =>
			// A picture gets detections, text gets labels (the hf-inference response shapes).
			request.body.startsWith("<")
				? [
						{ label: "car", score: 0.98, box: { xmin: 40, ymin: 150, xmax: 180, ymax: 210 } },
						{ label: "dog", score: 0.91, box: { xmin: 230, ymin: 180, xmax: 290, ymax: 215 } },
					]
				: [
						[
							{ label: "POSITIVE", score: 0.97 },
							{ label: "NEGATIVE", score: 0.03 },
						],
					],
		),
		launchBrowser(),
	]);
	page = browser.context.pages()[0] ?? (await browser.context.newPage());
	errors = watchErrors(page);
	chatModel = await findModel(
		"pipeline_tag=text-generation&sort=downloads&direction=-1",
		(model) =>
			model.tags.includes("conversational") && Object.keys(model.inferenceProviderMapping ?? {}).length > 0,
	);
	libraryModel = await findModel("library=transformers&sort=downloads&direction=-1", () => true);
	const servedBy = (provider: string) => (model: ModelInfo) =>
		model.inferenceProviderMapping?.[provider] !== undefined;
	classifierModel = await findModel("pipeline_tag=text-classification", servedBy("hf-inference"));
	detectorModel = await findModel("pipeline_tag=object-detection", servedBy("hf-inference"));
}, 120_000);

afterAll(async () => {
	await browser?.close();
	await provider?.close();
	await hub?.stop();
});

describe("every page", () => {
	const pages = () => [
		"/",
		"/tasks",
		"/tasks/token-classification",
		"/tasks/summarization",
		"/tasks/text2text-generation",
		"/tasks/audio-text-to-text",
		"/libraries",
		"/libraries/transformers",
		"/models",
		"/models?pipeline_tag=text-generation",
		modelPath(chatModel.id),
		modelPath(libraryModel.id),
		"/settings",
		"/this/page/does-not-exist",
	];

	it("loads without console errors and has zero axe violations in the light and dark themes", async () => {
		const problems: string[] = [];
		for (const path of pages()) {
			await visit(path);
			// The themes are CSS media queries only (styles.css), so switching the emulated scheme restyles
			// the loaded page: one visit serves both checks.
			for (const colorScheme of ["light", "dark"] as const) {
				await page.emulateMedia({ colorScheme });
				for (const violation of await axeViolations(page)) {
					problems.push(
						`${path} (${colorScheme}): ${violation.id} — ${violation.help} — ${violation.nodes.join(" | ")}`,
					);
				}
			}
		}
		await page.emulateMedia({ colorScheme: "light" });
		// The unknown address answers 404, which Chromium logs; nothing else may be logged.
		expect(
			errors.filter((error) => !/does-not-exist: Failed to load resource: .*status of 404/.test(error)),
		).toEqual([]);
		errors.length = 0;
		expect(problems).toEqual([]);
	}, 120_000);

	it("every task page renders without console errors", async () => {
		const ids = Object.values(TASKS_DATA).flatMap((task) => (task ? [task.id] : []));
		await visit("/tasks");
		// Client-side navigation, as a person clicking through would see them.
		for (const id of ids) {
			await navigateInApp(`/tasks/${id}`);
			await page.waitForFunction(
				(label) => document.querySelector("main h1")?.textContent === label,
				TASKS_DATA[id]?.label,
			);
		}
		expect(errors).toEqual([]);
	}, 60_000);

	it("shows a real 404 page for unknown addresses and unknown models", async () => {
		const before = errors.length;
		await visit("/this/page/does-not-exist");
		expect(await page.locator("h1").textContent()).toBe("Page not found");
		await visit("/nobody/no-such-model");
		expect(await page.locator("h1").textContent()).toBe("Model not found");
		// The 404 answers (the page itself and the model's API call) are the only things Chromium logs.
		expect(errors.slice(before).length).toBeGreaterThan(0);
		expect(
			errors
				.slice(before)
				.every((error) => /Failed to load resource: the server responded with a status of 404/.test(error)),
		).toBe(true);
		errors.length = before;
	});

	it("runs axe for real (a planted violation is reported)", async () => {
		await visit("/");
		await page.evaluate(() => {
			const image = document.createElement("img");
			image.src = "/favicon.svg";
			document.querySelector("main")?.append(image);
		});
		expect((await axeViolations(page)).map((violation) => violation.id)).toContain("image-alt");
	});

	it("navigates between pages on the client without a reload", async () => {
		await visit("/");
		await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
		await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Tasks" }).click();
		await page.getByRole("heading", { level: 1, name: "Tasks" }).waitFor();
		expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
	});
});

describe("home search", () => {
	it("finds tasks, libraries and models", async () => {
		await visit("/");
		await page.getByRole("searchbox").fill("classif");
		await page.getByRole("link", { name: "Text Classification" }).first().waitFor();
		await page.getByRole("searchbox").fill("transformers");
		await page
			.locator(".result-group")
			.filter({ hasText: "Libraries" })
			.getByRole("link", { name: "Transformers", exact: true })
			.waitFor();
		const author = chatModel.id.split("/")[1] ?? chatModel.id;
		await page.getByRole("searchbox").fill(author);
		await page.getByRole("link", { name: chatModel.id }).waitFor();
	});
});

describe("task demos", () => {
	const kinds: TaskDemoEntryType[] = ["img", "audio", "text", "chart", "tabular", "text-with-tokens"];
	for (const kind of kinds) {
		it(`renders the ${kind} demo entries`, async () => {
			const task = Object.values(TASKS_DATA).find((candidate) =>
				[...(candidate?.demo.inputs ?? []), ...(candidate?.demo.outputs ?? [])].some(
					(entry) => entry.type === kind,
				),
			);
			expect(task, `a task with a ${kind} demo`).toBeDefined();
			if (!task) return;
			await visit(`/tasks/${task.id}`);
			const entries = page.locator(`[data-kind="${kind}"]`);
			expect(await entries.count()).toBeGreaterThan(0);
			const entry = entries.first();
			switch (kind) {
				case "img": {
					const image = entry.locator("img");
					await image.scrollIntoViewIfNeeded();
					await page.waitForFunction(
						(element) => (element as HTMLImageElement).complete,
						await image.elementHandle(),
					);
					expect(
						await image.evaluate((element) => (element as HTMLImageElement).naturalWidth),
					).toBeGreaterThan(0);
					expect(await image.getAttribute("alt")).toBeTruthy();
					break;
				}
				case "audio": {
					const src = await entry.locator("audio").getAttribute("src");
					expect(await entry.locator("audio").getAttribute("controls")).not.toBeNull();
					const response = await fetch(new URL(src ?? "", hub.url));
					expect(response.status).toBe(200);
					expect(response.headers.get("content-type")).toMatch(/audio/);
					break;
				}
				case "text":
					expect((await entry.locator("figcaption").textContent())?.length).toBeGreaterThan(0);
					expect((await entry.locator("p").textContent())?.length).toBeGreaterThan(0);
					break;
				case "chart": {
					const widths = await entry
						.locator(".bar-fill")
						.evaluateAll((bars) => bars.map((bar) => bar.getBoundingClientRect().width));
					expect(widths.length).toBeGreaterThan(1);
					expect(widths[0]).toBeGreaterThan(0);
					expect(widths).toEqual([...widths].sort((a, b) => b - a));
					expect(await entry.locator(".bar-value").first().textContent()).toMatch(/%$/);
					break;
				}
				case "tabular":
					expect(await entry.locator("thead th").count()).toBeGreaterThan(0);
					expect(await entry.locator("tbody tr").count()).toBeGreaterThan(0);
					break;
				case "text-with-tokens": {
					const marks = entry.locator("mark");
					expect(await marks.count()).toBeGreaterThan(0);
					const type = await marks.first().locator(".token-type").textContent();
					expect(type?.trim().length).toBeGreaterThan(0);
					break;
				}
			}
		});
	}

	it("shows the placeholder notice, the canonical note, the alias page and the video link", async () => {
		await visit("/tasks/audio-text-to-text");
		await page.getByText(/This task is a placeholder/).waitFor();
		await visit("/tasks/translation");
		await page.locator(".notice").filter({ hasText: "text2text-generation" }).waitFor();
		await visit("/tasks/text-to-audio");
		await page.getByRole("link", { name: "Text-to-Speech" }).waitFor();
		await visit("/tasks/token-classification");
		expect(await page.getByRole("link", { name: /video/ }).getAttribute("href")).toMatch(
			/youtube\.com\/watch\?v=/,
		);
		const recommended = page.locator("#models-title + .repo-list a").first();
		const id = (await recommended.textContent()) ?? "";
		expect(await recommended.getAttribute("href")).toBe(`/${id}`);
	});
});

describe("libraries and models", () => {
	it("filters and sorts the libraries table", async () => {
		await visit("/libraries");
		const rows = page.locator("tbody tr");
		const all = await rows.count();
		await page.getByLabel("Search libraries").fill("transformers");
		await page.waitForFunction((count) => document.querySelectorAll("tbody tr").length < count, all);
		const labels = await page.locator("tbody th a").allTextContents();
		expect(labels.length).toBeGreaterThan(0);
		await page.getByRole("button", { name: /^Library/ }).click();
		// The click resolves before React re-renders; wait for the new sort state instead of racing it.
		await page.waitForFunction(
			() => document.querySelector("thead th")?.getAttribute("aria-sort") === "descending",
			undefined,
			{ timeout: 5_000 },
		);
		const header = page.locator("thead th").first();
		expect(await header.getAttribute("aria-sort")).toBe("descending");
		const sorted = await page.locator("tbody th a").allTextContents();
		expect(sorted).toEqual([...labels].sort((a, b) => b.toLowerCase().localeCompare(a.toLowerCase())));
	});

	it("shows a library page with snippets for a sample model", async () => {
		await visit("/libraries/transformers");
		await page.locator(".snippet-blocks .code-block").first().waitFor();
		expect(await page.locator(".code-block .tok-keyword").count()).toBeGreaterThan(0);
	});

	it("pages through models with the cursor and filters by task", async () => {
		await visit("/models?pipeline_tag=text-generation");
		await page.locator(".model-card").first().waitFor();
		const first = await page.locator(".model-card h2").allTextContents();
		await page.getByRole("button", { name: "Next →" }).click();
		await page.waitForURL(/cursor=/);
		await page.waitForFunction((ids) => {
			const now = [...document.querySelectorAll(".model-card h2")].map((node) => node.textContent);
			return now.length > 0 && now[0] !== ids[0];
		}, first);
		const second = await page.locator(".model-card h2").allTextContents();
		expect(second.some((id) => first.includes(id))).toBe(false);
		await page.getByRole("button", { name: "← Previous" }).click();
		await page.waitForFunction(
			(ids) => document.querySelector(".model-card h2")?.textContent === ids[0],
			first,
		);
	});
});

describe("the model page's facts", () => {
	it("shows the size and the GGUF header's facts of a GGUF model", async () => {
		// A seeded catalogue model whose record carries the public hub's GGUF facts.
		await visit(modelPath("Qwen/Qwen2-0.5B-Instruct-GGUF"));
		const facts = page.getByRole("list", { name: "Model facts" });
		await facts.waitFor();
		const text = (await facts.textContent()) ?? "";
		expect(text).toContain("494M params");
		expect(text).toContain("GGUFqwen2 · 32,768-token context");
	});
});

describe("the dialog on the model page", () => {
	async function openDialog() {
		await visit(modelPath(libraryModel.id));
		const trigger = page.getByRole("button", { name: "Use this model" });
		await trigger.click();
		await page.getByRole("dialog").waitFor();
		await page.getByRole("dialog").locator(".code-block .tok-keyword").first().waitFor();
		return trigger;
	}
	const dialogOpen = () => page.evaluate(() => document.querySelector("dialog")?.open === true);
	const focusInDialog = () =>
		page.evaluate(() => document.querySelector("dialog")?.contains(document.activeElement) === true);

	it("keeps a catalogue model's snippets on the public hub (its files are not here)", async () => {
		await openDialog();
		const text = (await page.getByRole("dialog").textContent()) ?? "";
		expect(text).toContain(libraryModel.id);
		expect(text).not.toContain("HF_ENDPOINT");
		await page.keyboard.press("Escape");
	});

	it("is a labelled modal dialog with focus inside when open", async () => {
		await openDialog();
		const dialog = page.getByRole("dialog", { name: `Use ${libraryModel.id}` });
		expect(await dialog.getAttribute("aria-modal")).toBe("true");
		expect(await dialog.getAttribute("data-state")).toBe("open");
		expect(await focusInDialog()).toBe(true);
	});

	it("closes on Escape", async () => {
		await openDialog();
		await page.keyboard.press("Escape");
		await page.waitForFunction(() => document.querySelector("dialog")?.open === false);
		expect(await page.locator("dialog").getAttribute("data-state")).toBe("closed");
	});

	it("closes on a click outside, not on a click inside", async () => {
		await openDialog();
		await page.getByRole("dialog").getByRole("heading").click();
		expect(await dialogOpen()).toBe(true);
		await page.mouse.click(4, 790);
		await page.waitForFunction(() => document.querySelector("dialog")?.open === false);
	});

	it("traps focus going forwards (Tab wraps from the last control to the first)", async () => {
		await openDialog();
		const count = await page.evaluate(() => {
			const dialog = document.querySelector("dialog") as HTMLDialogElement;
			const items = [...dialog.querySelectorAll<HTMLElement>("button, a[href], [tabindex='0']")].filter(
				(el) => el.checkVisibility(),
			);
			items[items.length - 1]?.focus();
			return items.length;
		});
		await page.keyboard.press("Tab");
		expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(
			await page.evaluate(() => {
				const dialog = document.querySelector("dialog") as HTMLDialogElement;
				return [...dialog.querySelectorAll<HTMLElement>("button, a[href], [tabindex='0']")].find((el) =>
					el.checkVisibility(),
				)?.textContent;
			}),
		);
		for (let i = 0; i < count + 2; i++) {
			await page.keyboard.press("Tab");
			expect(await focusInDialog()).toBe(true);
		}
	});

	it("traps focus going backwards (Shift+Tab wraps from the first control to the last)", async () => {
		await openDialog();
		const count = await page.evaluate(() => {
			const dialog = document.querySelector("dialog") as HTMLDialogElement;
			const items = [...dialog.querySelectorAll<HTMLElement>("button, a[href], [tabindex='0']")].filter(
				(el) => el.checkVisibility(),
			);
			items[0]?.focus();
			return items.length;
		});
		await page.keyboard.press("Shift+Tab");
		const isLast = await page.evaluate(() => {
			const dialog = document.querySelector("dialog") as HTMLDialogElement;
			const items = [...dialog.querySelectorAll<HTMLElement>("button, a[href], [tabindex='0']")].filter(
				(el) => el.checkVisibility(),
			);
			return document.activeElement === items[items.length - 1];
		});
		expect(isLast).toBe(true);
		for (let i = 0; i < count + 2; i++) {
			await page.keyboard.press("Shift+Tab");
			expect(await focusInDialog()).toBe(true);
		}
	});

	it("returns focus to the trigger on close", async () => {
		await openDialog();
		await page.getByRole("dialog").getByRole("button", { name: "Close" }).click();
		await page.waitForFunction(() => document.querySelector("dialog")?.open === false);
		expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Use this model");
	});

	it("locks page scrolling while open", async () => {
		await page.setViewportSize({ width: 1280, height: 500 });
		try {
			await openDialog();
			expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe("hidden");
			const before = await page.evaluate(() => window.scrollY);
			await page.mouse.move(4, 490);
			await page.mouse.wheel(0, 600);
			await page.waitForTimeout(200);
			expect(await page.evaluate(() => window.scrollY)).toBe(before);
			await page.keyboard.press("Escape");
			await page.waitForFunction(() => document.querySelector("dialog")?.open === false);
			expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe("visible");
		} finally {
			await page.setViewportSize({ width: 1280, height: 800 });
		}
	});

	it("copies a snippet to the clipboard with feedback", async () => {
		await browser.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: hub.url });
		await openDialog();
		const dialog = page.getByRole("dialog");
		const block = dialog.locator("[role=tabpanel] .code-block").first();
		const code = await block.locator("code").textContent();
		await block.getByRole("button", { name: "Copy" }).click();
		await block.getByRole("button", { name: "Copied" }).waitFor();
		expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
		expect(code?.length).toBeGreaterThan(10);
		// The tabs inside follow the keyboard pattern.
		const tabs = dialog.getByRole("tab");
		if ((await tabs.count()) > 1) {
			await tabs.first().focus();
			await page.keyboard.press("ArrowRight");
			expect(await tabs.nth(1).getAttribute("aria-selected")).toBe("true");
		}
		await page.keyboard.press("Escape");
	});
});

/** The request text the playground shows: [request line, headers…, body]. */
function splitShownRequest(shown: string): { method: string; url: string; body: string } {
	const [head = "", ...bodyParts] = shown.split("\n\n");
	const [method = "", url = ""] = (head.split("\n")[0] ?? "").split(" ");
	return { method, url, body: bodyParts.join("\n\n") };
}

async function previewText(): Promise<string> {
	const preview = page.getByTestId("request-preview");
	await preview.waitFor();
	await page.waitForFunction(() =>
		document.querySelector("[data-testid=request-preview]")?.textContent?.includes("authorization"),
	);
	return (await preview.textContent()) ?? "";
}

/** Goes to a path inside the app without a page load (keeps the in-memory token). */
async function navigateInApp(path: string): Promise<void> {
	await page.evaluate((target) => {
		window.history.pushState({}, "", target);
		window.dispatchEvent(new PopStateEvent("popstate"));
	}, path);
}

describe("the inference providers panel", () => {
	it("lists providers with badges and gives language and client tabs with a copyable snippet", async () => {
		await visit(modelPath(chatModel.id));
		const panel = page.locator(".providers-panel");
		const providers = Object.keys(chatModel.inferenceProviderMapping ?? {});
		expect(await panel.getByRole("radio").count()).toBe(providers.length);
		expect(await panel.locator(".badge-status").first().textContent()).toMatch(/Live|Staging/);
		const languages = panel.getByRole("tablist", { name: "Language" });
		await languages.waitFor();
		expect(await languages.getByRole("tab").allTextContents()).toEqual(["Python", "JavaScript", "cURL"]);
		const clients = panel.getByRole("tablist", { name: "Client" });
		expect(await clients.getByRole("tab").count()).toBeGreaterThan(0);
		await languages.getByRole("tab", { name: "cURL" }).click();
		const code = panel.locator(".code-block code");
		await page.waitForFunction(() =>
			document.querySelector(".providers-panel .code-block code")?.textContent?.includes("curl"),
		);
		expect(await code.textContent()).not.toContain('"stream": true');
		await panel.getByRole("switch", { name: "Streaming" }).check();
		await page.waitForFunction(() =>
			/"stream": ?true/.test(document.querySelector(".providers-panel .code-block code")?.textContent ?? ""),
		);
		await panel.getByRole("switch", { name: "Bill to an organisation" }).check();
		await page.waitForFunction(() =>
			document.querySelector(".providers-panel .code-block code")?.textContent?.includes("X-HF-Bill-To"),
		);
		await browser.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: hub.url });
		await panel.locator(".code-block").getByRole("button", { name: "Copy" }).click();
		await panel.locator(".code-block").getByRole("button", { name: "Copied" }).waitFor();
		expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await code.textContent());
	});
});

describe("the playground", () => {
	it("sends the request it displayed to the provider and streams the answer", async () => {
		// Point the client's router at the local provider and give it a token, through the Settings page.
		await visit("/settings");
		await page.getByLabel("Token", { exact: true }).fill("hf_e2e_secret_token");
		await page.getByLabel("Inference router URL").fill(provider.url);
		await page.getByRole("button", { name: "Save settings" }).click();
		await page.getByText("Settings saved.").waitFor();
		expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toContain("hf_e2e_secret_token");

		// Client-side navigation keeps the in-memory token.
		await navigateInApp(modelPath(chatModel.id));
		await page.getByRole("heading", { name: "Playground" }).waitFor();
		const shown = await previewText();
		expect(shown).toContain("authorization: Bearer [redacted]");
		expect(shown).not.toContain("hf_e2e_secret_token");
		expect(await page.content()).not.toContain("hf_e2e_secret_token");
		const { method, url, body: shownBody } = splitShownRequest(shown);

		await page.getByRole("button", { name: "Send request" }).click();
		// Half the tokens arrive, the rest is held back: the answer is visible while it streams.
		await page.waitForFunction(() =>
			document.querySelector("[data-testid=chat-streaming]")?.textContent?.includes("France"),
		);
		expect(await page.getByTestId("chat-streaming").textContent()).not.toContain("Paris");
		provider.release();
		await page.locator(".chat-assistant").filter({ hasText: "The capital of France is Paris." }).waitFor();

		expect(provider.received).toHaveLength(1);
		const received = provider.received[0];
		expect(received?.method).toBe(method);
		expect(provider.url + (received?.path ?? "")).toBe(url);
		expect(received?.headers.authorization).toBe("Bearer hf_e2e_secret_token");
		expect(JSON.parse(received?.body ?? "")).toEqual(JSON.parse(shownBody));
		expect(JSON.parse(received?.body ?? "")).toMatchObject({ stream: true, messages: [{ role: "user" }] });
		const sent = (await page.getByTestId("request-sent").textContent()) ?? "";
		expect(sent).toBe(shown);
		expect(errors).toEqual([]);
	}, 60_000);

	it("runs a text classifier and draws its labels as bars", async () => {
		await navigateInApp(modelPath(classifierModel.id));
		await page.getByRole("heading", { name: "Playground" }).waitFor();
		const shown = await previewText();
		const { url, body } = splitShownRequest(shown);
		expect(JSON.parse(body)).toMatchObject({ inputs: expect.any(String) });
		const before = provider.received.length;
		await page.getByRole("button", { name: "Send request" }).click();
		await page.locator(".playground-output .bar-row").first().waitFor();
		expect(await page.locator(".playground-output .bar-label").allTextContents()).toEqual([
			"POSITIVE",
			"NEGATIVE",
		]);
		const received = provider.received[before];
		expect(provider.url + (received?.path ?? "")).toBe(url);
		expect(JSON.parse(received?.body ?? "")).toEqual(JSON.parse(body));
	});

	it("runs an object detector on the task's demo picture and draws the boxes", async () => {
		await navigateInApp(modelPath(detectorModel.id));
		await page.getByRole("heading", { name: "Playground" }).waitFor();
		const shown = await previewText();
		expect(splitShownRequest(shown).body).toMatch(/^<binary: \d+ bytes/);
		await page.getByRole("button", { name: "Send request" }).click();
		await page.locator(".playground-output .box").first().waitFor();
		expect(await page.locator(".playground-output .box-label").allTextContents()).toEqual([
			"car 98%",
			"dog 91%",
		]);
		const box = await page.locator(".playground-output .box").first().boundingBox();
		expect(box?.width).toBeGreaterThan(10);
		expect(errors).toEqual([]);
	});
});
