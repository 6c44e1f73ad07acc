/**
 * OpenAI — client-side routing only: never through the router, never with a hub token.
 *   direct: POST https://api.openai.com/v1/chat/completions  (Authorization: Bearer {key})
 *   model: "openai/{id}" on our side, "{id}" in the body; no hub mapping lookup.
 */
import { describe, expect, it } from "vitest";
import { chatCompletion } from "../../src/index.js";
import { chatChecks, chatRows } from "../support/chat.js";
import { CHAT_OUTPUT, HF_TOKEN, MESSAGES, USER_AGENT } from "../support/fixtures.js";
import { useServer } from "../support/setup.js";

const table = [
	{
		path: "/api.openai.com/v1/chat/completions",
		when: (request: { json?: unknown }) => (request.json as { model?: string }).model === "no-key",
		expect: { headers: { authorization: null, "user-agent": USER_AGENT } },
		respond: { json: CHAT_OUTPUT },
	},
	...chatRows({ direct: "/api.openai.com/v1/chat/completions", providerId: "gpt-4o-mini" }),
];

describe("openai", () => {
	const server = useServer(table);
	chatChecks(server, {
		provider: "openai",
		model: "openai/gpt-4o-mini",
		routed: false,
		malformedModel: "openai/malformed",
	});

	it("asks the hub nothing (the mapping is made locally)", async () => {
		await chatCompletion(
			{
				accessToken: "sk-x",
				provider: "openai",
				model: "openai/gpt-4o-mini",
				messages: MESSAGES,
				max_tokens: 20,
			},
			{ fetch: server().fetch },
		).catch(() => undefined);
		expect(server().requestsTo("/huggingface.co")).toEqual([]);
		server().failures.length = 0;
	});

	it("is called directly even without a key, and then sends no Authorization", async () => {
		const output = await chatCompletion(
			{ provider: "openai", model: "openai/no-key", messages: MESSAGES },
			{ fetch: server().fetch },
		);
		expect(output).toEqual(CHAT_OUTPUT);
	});

	it("rejects a model without the openai/ prefix", async () => {
		await expect(
			chatCompletion({ accessToken: "sk-x", provider: "openai", model: "gpt-4o", messages: MESSAGES }),
		).rejects.toThrow('Models from openai must be prefixed by "openai/". Got "gpt-4o".');
	});

	it("rejects hub tokens", async () => {
		await expect(
			chatCompletion({
				accessToken: HF_TOKEN,
				provider: "openai",
				model: "openai/gpt-4o",
				messages: MESSAGES,
			}),
		).rejects.toThrow("Provider openai is closed-source and does not support HF tokens.");
	});

	it("requires a model (checked after the default model lookup)", async () => {
		server().use([
			{
				method: "GET",
				path: "/huggingface.co/api/tasks",
				respond: { json: { conversational: { models: [{ id: "x/y" }] } } },
			},
		]);
		await expect(
			chatCompletion(
				{ accessToken: "sk-x", provider: "openai", messages: MESSAGES },
				{ fetch: server().fetch },
			),
		).rejects.toThrow("Provider openai requires a model ID to be passed directly.");
		expect(server().requestsTo("/huggingface.co/api/tasks")).toHaveLength(1);
	});
});
