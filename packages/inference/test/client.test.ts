import { describe, expect, it } from "vitest";
import { HfInference, InferenceClient, InferenceClientEndpoint } from "../src/index.js";
import { CHAT_OUTPUT, HF_TOKEN, hubModel, MESSAGES } from "./support/fixtures.js";
import { useServer } from "./support/setup.js";

const TASK_FUNCTIONS = [
	"audioClassification",
	"audioToAudio",
	"automaticSpeechRecognition",
	"textToAudio",
	"textToSpeech",
	"request",
	"streamingRequest",
	"imageClassification",
	"imageSegmentation",
	"imageToImage",
	"imageTextToImage",
	"imageTextToVideo",
	"imageToText",
	"imageToVideo",
	"objectDetection",
	"textToImage",
	"textToVideo",
	"zeroShotImageClassification",
	"documentQuestionAnswering",
	"visualQuestionAnswering",
	"chatCompletion",
	"chatCompletionStream",
	"featureExtraction",
	"fillMask",
	"questionAnswering",
	"sentenceSimilarity",
	"summarization",
	"tableQuestionAnswering",
	"textClassification",
	"textGeneration",
	"textGenerationStream",
	"tokenClassification",
	"translation",
	"zeroShotClassification",
	"tabularClassification",
	"tabularRegression",
];

const table = [
	hubModel("org/chat", { together: { providerId: "together-chat", status: "live", task: "conversational" } }),
	{ path: "/router.huggingface.co/together/v1/chat/completions", respond: { json: CHAT_OUTPUT } },
	{ path: "/my-endpoint.example/v1/chat/completions", respond: { json: CHAT_OUTPUT } },
];

describe("InferenceClient", () => {
	const server = useServer(table);

	it("has the 36 task functions as non-enumerable own methods, and two enumerable fields", () => {
		const client = new InferenceClient(HF_TOKEN);
		expect(Object.keys(client).sort()).toEqual(["accessToken", "defaultOptions"]);
		expect(
			Object.getOwnPropertyNames(client)
				.filter((name) => typeof (client as never)[name] === "function")
				.sort(),
		).toEqual([...TASK_FUNCTIONS].sort());
		for (const name of TASK_FUNCTIONS) {
			expect(Object.getOwnPropertyDescriptor(client, name)?.enumerable).toBe(false);
		}
	});

	it("uses its token and default options; per-call values win", async () => {
		const client = new InferenceClient(HF_TOKEN, { fetch: server().fetch, billTo: "org-a" });
		await client.chatCompletion({ provider: "together", model: "org/chat", messages: MESSAGES });
		await client.chatCompletion(
			{ provider: "together", model: "org/chat", messages: MESSAGES, accessToken: "hf_other" },
			{ billTo: "org-b" },
		);
		const posts = server().requestsTo("/router.huggingface.co");
		expect(posts.map((r) => [r.headers.authorization, r.headers["x-hf-bill-to"]])).toEqual([
			[`Bearer ${HF_TOKEN}`, "org-a"],
			["Bearer hf_other", "org-b"],
		]);
	});

	it("with the default empty token sends no Authorization", async () => {
		const client = new InferenceClient(undefined, { fetch: server().fetch });
		await client.chatCompletion({ provider: "together", model: "org/chat", messages: MESSAGES });
		expect(server().requestsTo("/router.huggingface.co")[0]?.headers.authorization).toBeUndefined();
	});

	it("endpoint(url) returns a client bound to that endpoint", async () => {
		const client = new InferenceClient(HF_TOKEN, { fetch: server().fetch }).endpoint(
			"https://my-endpoint.example",
		);
		expect(client).toBeInstanceOf(InferenceClient);
		expect(client.defaultOptions.endpointUrl).toBe("https://my-endpoint.example");
		await expect(client.chatCompletion({ messages: MESSAGES })).resolves.toEqual(CHAT_OUTPUT);
		expect(server().requests[0]?.headers.authorization).toBe(`Bearer ${HF_TOKEN}`);
	});

	it("keeps the deprecated subclasses", () => {
		expect(new HfInference("hf_x")).toBeInstanceOf(InferenceClient);
		expect(new InferenceClientEndpoint("hf_x")).toBeInstanceOf(InferenceClient);
		expect(typeof new HfInference().chatCompletion).toBe("function");
	});
});
