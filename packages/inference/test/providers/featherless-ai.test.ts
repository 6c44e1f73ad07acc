/**
 * Featherless AI — chat, and completions for text generation.
 *   chat:   POST {router}/featherless-ai/v1/chat/completions | https://api.featherless.ai/v1/chat/completions
 *   completions: POST {router}/featherless-ai/v1/completions
 *     body: the arguments as given (inputs, parameters kept) + parameters flattened + model + prompt
 *     answer: {choices: [{text}], model} → {generated_text: choices[0].text}
 */
import { describe, expect, it } from "vitest";
import { textGeneration } from "../../src/index.js";
import { chatChecks, chatRows } from "../support/chat.js";
import { HF_TOKEN, hubModel } from "../support/fixtures.js";
import { useServer } from "../support/setup.js";

const MODEL = "meta-llama/Llama-3.1-8B-Instruct";
const TG_MODEL = "org/featherless-textgen";

const table = [
	hubModel(MODEL, {
		"featherless-ai": {
			providerId: "meta-llama/Meta-Llama-3.1-8B-Instruct",
			status: "live",
			task: "conversational",
		},
	}),
	hubModel("org/malformed", {
		"featherless-ai": { providerId: "malformed", status: "live", task: "conversational" },
	}),
	hubModel(TG_MODEL, { "featherless-ai": { providerId: "fl-tg", status: "live", task: "text-generation" } }),
	hubModel("org/fl-bad", {
		"featherless-ai": { providerId: "fl-bad", status: "live", task: "text-generation" },
	}),
	{
		path: "/router.huggingface.co/featherless-ai/v1/completions",
		when: (r: { json?: unknown }) => (r.json as { model?: string }).model === "fl-bad",
		respond: { json: { choices: "nope" } },
	},
	{
		path: "/router.huggingface.co/featherless-ai/v1/completions",
		expect: {
			json: {
				inputs: "Hello",
				parameters: { temperature: 0.5, max_new_tokens: 3 },
				temperature: 0.5,
				max_new_tokens: 3,
				model: "fl-tg",
				prompt: "Hello",
			},
		},
		respond: { json: { id: "c1", model: "fl-tg", choices: [{ text: " world", index: 0 }] } },
	},
	...chatRows({
		routed: "/router.huggingface.co/featherless-ai/v1/chat/completions",
		direct: "/api.featherless.ai/v1/chat/completions",
		providerId: "meta-llama/Meta-Llama-3.1-8B-Instruct",
	}),
];

describe("featherless-ai", () => {
	const server = useServer(table);
	chatChecks(server, {
		provider: "featherless-ai",
		model: MODEL,
		routed: true,
		malformedModel: "org/malformed",
	});

	it("text-generation: completions route, generated_text from choices[0].text", async () => {
		const output = await textGeneration(
			{
				accessToken: HF_TOKEN,
				provider: "featherless-ai",
				model: TG_MODEL,
				inputs: "Hello",
				parameters: { temperature: 0.5, max_new_tokens: 3 },
			},
			{ fetch: server().fetch },
		);
		expect(output).toEqual({ generated_text: " world" });
	});

	it("text-generation: a malformed answer names the provider", async () => {
		await expect(
			textGeneration(
				{ accessToken: HF_TOKEN, provider: "featherless-ai", model: "org/fl-bad", inputs: "x" },
				{ fetch: server().fetch },
			),
		).rejects.toThrow("Invalid inference output: Expected Featherless AI text generation response format.");
	});
});
