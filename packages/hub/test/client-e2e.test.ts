// The inference client pointed at our own hub: provider mapping lookup (explicit provider and the
// `auto` policy), the default model of a task from /api/tasks, and the request that reaches the provider.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
	InferenceClient,
	chatCompletion,
	clearProviderMappingCache,
	textClassification,
} from "@modelhub/inference";
import { openDatabase } from "../src/db/open.js";
import type { Database } from "../src/db/types.js";
import { startHub, type RunningHub } from "./support/hub.js";

interface Received {
	method: string;
	url: string;
	authorization: string | undefined;
	body: Record<string, unknown>;
}

/** A router on 127.0.0.1 that answers like the providers behind it (OpenAI chat, hf-inference). */
async function startRouter(): Promise<{ url: string; received: Received[]; server: Server }> {
	const received: Received[] = [];
	const server = createServer(async (request: IncomingMessage, response) => {
		const chunks: Buffer[] = [];
		for await (const chunk of request) chunks.push(chunk as Buffer);
		const text = Buffer.concat(chunks).toString("utf8");
		const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
		received.push({
			method: request.method ?? "",
			url: request.url ?? "",
			authorization: request.headers.authorization,
			body,
		});
		response.setHeader("content-type", "application/json");
		if (request.url?.endsWith("/v1/chat/completions")) {
			response.end(
				JSON.stringify({
					id: "chatcmpl-1",
					created: 1,
					model: body.model,
					system_fingerprint: "fp",
					object: "chat.completion",
					choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: "Paris." } }],
					usage: { prompt_tokens: 8, completion_tokens: 2, total_tokens: 10 },
				}),
			);
		} else if (request.url?.startsWith("/hf-inference/models/")) {
			response.end(
				JSON.stringify([
					[
						{ label: "POSITIVE", score: 0.98 },
						{ label: "NEGATIVE", score: 0.02 },
					],
				]),
			);
		} else {
			response.statusCode = 404;
			response.end(JSON.stringify({ error: "no such route" }));
		}
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address() as AddressInfo;
	return { url: `http://127.0.0.1:${port}`, received, server };
}

describe("the inference client against our hub", () => {
	let db: Database;
	let hub: RunningHub;
	let router: Awaited<ReturnType<typeof startRouter>>;
	const token = "hf_e2e_token_0123456789";

	beforeAll(async () => {
		db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
		hub = await startHub({ db, logLevel: "silent" });
		router = await startRouter();
	});

	afterAll(async () => {
		await hub?.close();
		await db?.close();
		await new Promise((resolve) => router?.server.close(resolve));
	});

	it("looks up the provider mapping on the hub and sends the provider's own model id", async () => {
		clearProviderMappingCache();
		const output = await chatCompletion(
			{
				accessToken: token,
				provider: "groq",
				model: "meta-llama/Llama-3.3-70B-Instruct",
				messages: [{ role: "user", content: "What is the capital of France?" }],
			},
			{ hubUrl: hub.url, routerUrl: router.url },
		);
		expect(output.choices[0]?.message.content).toBe("Paris.");
		const last = router.received.at(-1)!;
		expect(last.url).toBe("/groq/openai/v1/chat/completions");
		expect(last.body.model).toBe("llama-3.3-70b-versatile");
		expect(last.authorization).toBe(`Bearer ${token}`);
	});

	it("picks the first provider of the hub's mapping under the auto policy", async () => {
		clearProviderMappingCache();
		const client = new InferenceClient(token, { hubUrl: hub.url, routerUrl: router.url });
		// chatCompletion with "auto" now goes to the router's own auto-routing; request() still resolves
		// "auto" from the hub's mapping, in its order.
		await client.request(
			{
				model: "meta-llama/Llama-3.3-70B-Instruct",
				provider: "auto",
				messages: [{ role: "user", content: "Hi" }],
			},
			{ task: "conversational" },
		);
		const last = router.received.at(-1)!;
		expect(last.url).toBe("/together/v1/chat/completions");
		expect(last.body.model).toBe("meta-llama/Llama-3.3-70B-Instruct-Turbo");
	});

	it("takes a task's default model from the hub's /api/tasks", async () => {
		clearProviderMappingCache();
		const output = await textClassification(
			{ accessToken: token, provider: "hf-inference", inputs: "What a lovely day." },
			{ hubUrl: hub.url, routerUrl: router.url },
		);
		expect(output[0]).toEqual({ label: "POSITIVE", score: 0.98 });
		expect(router.received.at(-1)!.url).toBe(
			"/hf-inference/models/distilbert/distilbert-base-uncased-finetuned-sst-2-english",
		);
	});

	it("reports the hub's 404 for an unknown model with the exact message", async () => {
		clearProviderMappingCache();
		await expect(
			chatCompletion(
				{ accessToken: token, provider: "groq", model: "nobody/no-such-model", messages: [] },
				{ hubUrl: hub.url, routerUrl: router.url },
			),
		).rejects.toThrow("Model nobody/no-such-model does not exist");
	});

	it("refuses a task the hub's mapping does not list for the provider", async () => {
		clearProviderMappingCache();
		await expect(
			textClassification(
				{
					accessToken: token,
					provider: "hf-inference",
					model: "meta-llama/Llama-3.3-70B-Instruct",
					inputs: "x",
				},
				{ hubUrl: hub.url, routerUrl: router.url },
			),
		).rejects.toThrow(
			/We have not been able to find inference provider information for model meta-llama\/Llama-3.3-70B-Instruct/,
		);
	});
});
