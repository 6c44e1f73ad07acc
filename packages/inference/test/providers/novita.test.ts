/**
 * Novita — chat, and text generation through the same chat route.
 *   routed: POST https://router.huggingface.co/novita/v3/openai/chat/completions
 *   direct: POST https://api.novita.ai/v3/openai/chat/completions
 *   text-generation: the generic {inputs, parameters, model} body; `generated_text` expected back.
 */
import { describe, expect, it } from "vitest";
import { textGeneration, textGenerationStream } from "../../src/index.js";
import { chatChecks, chatRows } from "../support/chat.js";
import { HF_TOKEN, hubModel, isStreaming, notStreaming, sseFrames } from "../support/fixtures.js";
import { useServer } from "../support/setup.js";

const MODEL = "meta-llama/Llama-3.3-70B-Instruct";
const TG_MODEL = "org/novita-textgen";

const table = [
	hubModel(MODEL, {
		novita: { providerId: "meta-llama/llama-3.3-70b-instruct", status: "live", task: "conversational" },
	}),
	hubModel("org/malformed", { novita: { providerId: "malformed", status: "live", task: "conversational" } }),
	hubModel(TG_MODEL, { novita: { providerId: "novita-tg", status: "live", task: "text-generation" } }),
	{
		path: "/router.huggingface.co/novita/v3/openai/chat/completions",
		when: (r: { json?: unknown }) => (r.json as { model?: string }).model === "novita-tg" && notStreaming(r),
		expect: { json: { inputs: "Once upon", parameters: { max_new_tokens: 5 }, model: "novita-tg" } },
		respond: { json: { generated_text: "Once upon a time" } },
	},
	{
		path: "/router.huggingface.co/novita/v3/openai/chat/completions",
		when: (r: { json?: unknown }) => (r.json as { model?: string }).model === "novita-tg" && isStreaming(r),
		expect: { json: { inputs: "Once upon", stream: true, model: "novita-tg" } },
		respond: {
			sse: sseFrames([
				{ token: { id: 1, text: " a", logprob: 0, special: false }, generated_text: null, details: null },
			]),
		},
	},
	...chatRows({
		routed: "/router.huggingface.co/novita/v3/openai/chat/completions",
		direct: "/api.novita.ai/v3/openai/chat/completions",
		providerId: "meta-llama/llama-3.3-70b-instruct",
	}),
];

describe("novita", () => {
	const server = useServer(table);
	chatChecks(server, { provider: "novita", model: MODEL, routed: true, malformedModel: "org/malformed" });

	it("text-generation: generic body on the chat route, generated_text back", async () => {
		const output = await textGeneration(
			{
				accessToken: HF_TOKEN,
				provider: "novita",
				model: TG_MODEL,
				inputs: "Once upon",
				parameters: { max_new_tokens: 5 },
			},
			{ fetch: server().fetch },
		);
		expect(output).toEqual({ generated_text: "Once upon a time" });
	});

	it("text-generation stream: SSE payloads yielded as they come", async () => {
		const tokens: string[] = [];
		for await (const chunk of textGenerationStream(
			{ accessToken: HF_TOKEN, provider: "novita", model: TG_MODEL, inputs: "Once upon" },
			{ fetch: server().fetch },
		)) {
			tokens.push(chunk.token.text);
		}
		expect(tokens).toEqual([" a"]);
	});
});
