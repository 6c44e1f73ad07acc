/**
 * The hub suite's checks of healthz, the task catalogue, one model's shape, not-found answers and refused
 * ids (support/hub-suite.ts runs them on each database).
 */
import { expect, it } from "vitest";
import { renderApiTasks } from "@modelhub/tasks";
import { CONTENT_SECURITY_POLICY } from "../../../src/http.js";
import { type CompactModel, rawRequest, type HubSuite } from "./context.js";

export function defineReadChecks(suite: HubSuite): void {
	it("answers /healthz", async () => {
		const res = await fetch(`${suite.base}/healthz`);
		expect(res.status).toBe(200);
		expect(await res.json()).toEqual({ status: "ok", database: suite.db.kind, storage: "disk" });
	});

	it("serves the task catalogue exactly as renderApiTasks() builds it", async () => {
		const res = await fetch(`${suite.base}/api/tasks`);
		expect(res.status).toBe(200);
		expect(res.headers.get("content-type")).toMatch(/^application\/json/);
		expect(await res.json()).toEqual(JSON.parse(JSON.stringify(renderApiTasks())));
	});

	it("returns a model in the public hub's shape", async () => {
		const res = await fetch(`${suite.base}/api/models/meta-llama/Llama-3.1-8B-Instruct`);
		expect(res.status).toBe(200);
		const model = (await res.json()) as Record<string, unknown>;
		expect(Object.keys(model).slice(0, 3)).toEqual(["id", "modelId", "author"]);
		expect(model).toMatchObject({
			id: "meta-llama/Llama-3.1-8B-Instruct",
			modelId: "meta-llama/Llama-3.1-8B-Instruct",
			author: "meta-llama",
			pipeline_tag: "text-generation",
			library_name: "transformers",
			private: false,
			transformersInfo: { auto_model: "AutoModelForCausalLM", processor: "AutoTokenizer" },
		});
		expect(model.tags).toContain("conversational");
		expect(
			(model.config as { tokenizer_config: { chat_template: string } }).tokenizer_config.chat_template,
		).toMatch(/messages/);
		expect(model.lastModified).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
		expect(typeof model.downloads).toBe("number");
		expect(model).not.toHaveProperty("inferenceProviderMapping");
		expect(model).not.toHaveProperty("mask_token");
	});

	it("keeps fill-mask tokens and widget data", async () => {
		const model = (await (
			await fetch(`${suite.base}/api/models/google-bert/bert-base-uncased`)
		).json()) as Record<string, unknown>;
		expect(model.mask_token).toBe("[MASK]");
		expect(model.widgetData).toEqual([{ text: "Paris is the [MASK] of France." }]);
	});

	it("expands the provider mapping as an object in preference order", async () => {
		for (const query of ["expand[]=inferenceProviderMapping", "expand=inferenceProviderMapping"]) {
			const res = await fetch(`${suite.base}/api/models/meta-llama/Llama-3.3-70B-Instruct?${query}`);
			expect(res.status).toBe(200);
			const model = (await res.json()) as CompactModel;
			const mapping = model.inferenceProviderMapping as Record<string, Record<string, string>>;
			expect(Object.keys(mapping).slice(0, 3)).toEqual(["together", "groq", "cerebras"]);
			expect(mapping.together).toEqual({
				providerId: "meta-llama/Llama-3.3-70B-Instruct-Turbo",
				task: "conversational",
				status: "live",
			});
			expect(mapping.nscale?.status).toBe("staging");
		}
		const lora = (await (
			await fetch(`${suite.base}/api/models/XLabs-AI/flux-RealismLora?expand[]=inferenceProviderMapping`)
		).json()) as CompactModel;
		expect(lora.inferenceProviderMapping?.["fal-ai"]).toEqual({
			providerId: "fal-ai/flux-lora",
			task: "text-to-image",
			status: "live",
			adapter: "lora",
			adapterWeightsPath: "lora.safetensors",
		});
		const none = (await (
			await fetch(`${suite.base}/api/models/facebook/dinov2-base?expand[]=inferenceProviderMapping`)
		).json()) as CompactModel;
		expect(none.inferenceProviderMapping).toEqual({});
	});

	it("finds models case-insensitively and answers with the stored id", async () => {
		const model = (await (
			await fetch(`${suite.base}/api/models/OPENAI/WHISPER-large-v3`)
		).json()) as CompactModel;
		expect(model.id).toBe("openai/whisper-large-v3");
	});

	it("answers 404 with a JSON error for unknown models and routes", async () => {
		for (const path of ["/api/models/nobody/nothing", "/api/nothing", "/api/models/a/b/c", "/api"]) {
			const res = await fetch(`${suite.base}${path}`);
			expect(res.status, path).toBe(404);
			expect(res.headers.get("content-type"), path).toMatch(/^application\/json/);
			expect(typeof ((await res.json()) as { error: unknown }).error).toBe("string");
		}
	});

	it("refuses malformed ids and path traversal with 400 or 404, never 5xx", async () => {
		const paths = [
			"/api/models/a..b/c",
			"/api/models/-a/b",
			"/api/models/a/.b",
			"/api/models/%2e%2e/etc",
			"/api/models/a/b%00c",
			"/api/models/a%2Fb/c",
			`/api/models/a/${"x".repeat(97)}`,
			"/api/models/a/b%20c",
		];
		for (const path of paths) {
			const res = await rawRequest(suite.base, { path });
			expect(res.status, path).toBe(400);
			expect(JSON.parse(res.body), path).toHaveProperty("error");
		}
		// Broken percent-encoding is refused before routing, with the same headers and shape.
		for (const path of ["/api/models/%zz/b", "/api/%", "/%ff"]) {
			const res = await rawRequest(suite.base, { path });
			expect(res.status, path).toBe(400);
			expect(JSON.parse(res.body), path).toEqual({ error: "malformed URL: invalid percent-encoding" });
			expect(res.headers["content-security-policy"], path).toBe(CONTENT_SECURITY_POLICY);
		}
		for (const path of [
			"/api/models/../../etc/passwd",
			"/api/models/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
			"/assets/demo/../../package.json",
			"/assets/demo/%2e%2e/package.json",
		]) {
			const res = await rawRequest(suite.base, { path });
			expect(res.status, path).toBeGreaterThanOrEqual(400);
			expect(res.status, path).toBeLessThan(500);
			expect(res.body, path).not.toMatch(/"name":\s*"@modelhub\/tasks"|root:x:0/);
		}
	});
}
