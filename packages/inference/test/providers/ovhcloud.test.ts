/**
 * OVHcloud AI Endpoints — chat, and completions for text generation.
 *   chat:   POST {router}/ovhcloud/v1/chat/completions | https://oai.endpoints.kepler.ai.cloud.ovh.net/v1/chat/completions
 *   completions: POST {router}/ovhcloud/v1/completions
 *     body: model, the other arguments, max_tokens = parameters.max_new_tokens + parameters flat, prompt = inputs
 */
import { describe, expect, it } from "vitest";
import { textGeneration } from "../../src/index.js";
import { chatChecks, chatRows } from "../support/chat.js";
import { HF_TOKEN, hubModel } from "../support/fixtures.js";
import { useServer } from "../support/setup.js";

const MODEL = "meta-llama/Llama-3.1-8B-Instruct";

const table = [
	hubModel(MODEL, {
		ovhcloud: { providerId: "Llama-3.1-8B-Instruct", status: "live", task: "conversational" },
	}),
	hubModel("org/malformed", {
		ovhcloud: { providerId: "malformed", status: "live", task: "conversational" },
	}),
	hubModel("org/ovh-tg", { ovhcloud: { providerId: "ovh-tg", status: "live", task: "text-generation" } }),
	hubModel("org/ovh-bad", { ovhcloud: { providerId: "ovh-bad", status: "live", task: "text-generation" } }),
	{
		path: "/router.huggingface.co/ovhcloud/v1/completions",
		when: (r: { json?: unknown }) => (r.json as { model?: string }).model === "ovh-bad",
		respond: { json: { choices: [] } },
	},
	{
		path: "/router.huggingface.co/ovhcloud/v1/completions",
		expect: {
			json: { model: "ovh-tg", max_tokens: 7, max_new_tokens: 7, top_p: 0.9, prompt: "Hi" },
		},
		respond: { json: { model: "ovh-tg", choices: [{ text: " there" }] } },
	},
	...chatRows({
		routed: "/router.huggingface.co/ovhcloud/v1/chat/completions",
		direct: "/oai.endpoints.kepler.ai.cloud.ovh.net/v1/chat/completions",
		providerId: "Llama-3.1-8B-Instruct",
	}),
];

describe("ovhcloud", () => {
	const server = useServer(table);
	chatChecks(server, { provider: "ovhcloud", model: MODEL, routed: true, malformedModel: "org/malformed" });

	it("text-generation: max_new_tokens also sent as max_tokens, prompt = inputs", async () => {
		const output = await textGeneration(
			{
				accessToken: HF_TOKEN,
				provider: "ovhcloud",
				model: "org/ovh-tg",
				inputs: "Hi",
				parameters: { max_new_tokens: 7, top_p: 0.9 },
			},
			{ fetch: server().fetch },
		);
		expect(output).toEqual({ generated_text: " there" });
	});

	it("text-generation: a malformed answer names the provider", async () => {
		await expect(
			textGeneration(
				{ accessToken: HF_TOKEN, provider: "ovhcloud", model: "org/ovh-bad", inputs: "x" },
				{ fetch: server().fetch },
			),
		).rejects.toThrow("Invalid inference output: Expected OVHcloud text generation response format.");
	});
});
