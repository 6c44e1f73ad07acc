/**
 * Together AI — images, chat, completions.
 *   text-to-image: POST {router}/together/v1/images/generations | https://api.together.xyz/v1/images/generations
 *     body: other arguments, parameters flat, prompt = inputs, response_format "base64", model
 *     answer: {data: [{b64_json}]} → JPEG Blob; outputType "url" → data URL (3.12.1 ignored it)
 *   text-generation: POST …/v1/completions  body {model, ...arguments (inputs, parameters kept), prompt}
 *     answer: {choices: [{text}], model} → {generated_text}
 */
import { describe, expect, it } from "vitest";
import { textGeneration, textToImage } from "../../src/index.js";
import { chatChecks, chatRows } from "../support/chat.js";
import { B64_IMAGE, HF_TOKEN, hubModel, PNG_BYTES } from "../support/fixtures.js";
import { useServer } from "../support/setup.js";

const MODEL = "meta-llama/Llama-3.3-70B-Instruct";

const table = [
	hubModel(MODEL, {
		together: {
			providerId: "meta-llama/Llama-3.3-70B-Instruct-Turbo",
			status: "live",
			task: "conversational",
		},
	}),
	hubModel("org/malformed", {
		together: { providerId: "malformed", status: "live", task: "conversational" },
	}),
	hubModel("black-forest-labs/FLUX.1-schnell", {
		together: { providerId: "black-forest-labs/FLUX.1-schnell-Free", status: "live", task: "text-to-image" },
	}),
	hubModel("org/img-bad", { together: { providerId: "img-bad", status: "live", task: "text-to-image" } }),
	hubModel("org/tog-tg", { together: { providerId: "tog-tg", status: "live", task: "text-generation" } }),
	hubModel("org/tg-bad", { together: { providerId: "tg-bad", status: "live", task: "text-generation" } }),
	{
		path: "/router.huggingface.co/together/v1/images/generations",
		when: (r: { json?: unknown }) => (r.json as { model?: string }).model === "img-bad",
		respond: { json: { data: "none" } },
	},
	{
		path: "/router.huggingface.co/together/v1/images/generations",
		expect: {
			json: {
				steps: 4,
				prompt: "a boat",
				response_format: "base64",
				model: "black-forest-labs/FLUX.1-schnell-Free",
			},
		},
		respond: { json: { data: [{ b64_json: B64_IMAGE }] } },
	},
	{
		path: "/router.huggingface.co/together/v1/completions",
		when: (r: { json?: unknown }) => (r.json as { model?: string }).model === "tg-bad",
		respond: { json: { choices: [] } },
	},
	{
		path: "/router.huggingface.co/together/v1/completions",
		expect: { json: { model: "tog-tg", inputs: "Say", parameters: { max_new_tokens: 2 }, prompt: "Say" } },
		respond: { json: { model: "tog-tg", choices: [{ text: " hi" }] } },
	},
	...chatRows({
		routed: "/router.huggingface.co/together/v1/chat/completions",
		direct: "/api.together.xyz/v1/chat/completions",
		providerId: "meta-llama/Llama-3.3-70B-Instruct-Turbo",
	}),
];

describe("together", () => {
	const server = useServer(table);
	chatChecks(server, { provider: "together", model: MODEL, routed: true, malformedModel: "org/malformed" });

	it("text-to-image: base64 → JPEG Blob", async () => {
		const blob = await textToImage(
			{
				accessToken: HF_TOKEN,
				provider: "together",
				model: "black-forest-labs/FLUX.1-schnell",
				inputs: "a boat",
				parameters: { steps: 4 },
			},
			{ fetch: server().fetch },
		);
		expect(blob.type).toBe("image/jpeg");
		expect(new Uint8Array(await blob.arrayBuffer())).toEqual(PNG_BYTES);
	});

	it("text-to-image: outputType url is honoured (fixed incumbent bug)", async () => {
		const url = await textToImage(
			{
				accessToken: HF_TOKEN,
				provider: "together",
				model: "black-forest-labs/FLUX.1-schnell",
				inputs: "a boat",
				parameters: { steps: 4 },
			},
			{ fetch: server().fetch, outputType: "url" },
		);
		expect(url).toBe(`data:image/jpeg;base64,${B64_IMAGE}`);
	});

	it("text-to-image: a malformed answer", async () => {
		await expect(
			textToImage(
				{ accessToken: HF_TOKEN, provider: "together", model: "org/img-bad", inputs: "x" },
				{ fetch: server().fetch },
			),
		).rejects.toThrow("Invalid inference output: Expected Together text-to-image response format.");
	});

	it("text-generation: completions with inputs and parameters kept", async () => {
		const output = await textGeneration(
			{
				accessToken: HF_TOKEN,
				provider: "together",
				model: "org/tog-tg",
				inputs: "Say",
				parameters: { max_new_tokens: 2 },
			},
			{ fetch: server().fetch },
		);
		expect(output).toEqual({ generated_text: " hi" });
	});

	it("text-generation: a malformed answer", async () => {
		await expect(
			textGeneration(
				{ accessToken: HF_TOKEN, provider: "together", model: "org/tg-bad", inputs: "x" },
				{ fetch: server().fetch },
			),
		).rejects.toThrow("Invalid inference output: Expected Together text generation response format.");
	});
});
