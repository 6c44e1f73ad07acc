/**
 * HF Inference — 28 tasks, always served by the router (provider keys too).
 *   POST {router}/hf-inference/models/{providerId}                         most tasks
 *   POST {router}/hf-inference/models/{providerId}/pipeline/{task}         feature-extraction, sentence-similarity
 *   POST {router}/hf-inference/models/{providerId}/v1/chat/completions     conversational
 *   body: the arguments as given (no model key); Blob tasks send the raw bytes (parameters dropped).
 *   endpointUrl: the URL is used as given (chat: …/v1/chat/completions appended by the suffix rules).
 * Each row below: what the task sends, a valid answer and what comes back, a malformed answer and its message.
 */
import { describe, expect, it } from "vitest";
import * as client from "../../src/index.js";
import {
	CHAT_OUTPUT,
	HF_TOKEN,
	hubModel,
	MESSAGES,
	PNG_BYTES,
	PROVIDER_KEY,
	USER_AGENT,
} from "../support/fixtures.js";
import type { Route } from "../support/servers.js";
import { useServer } from "../support/setup.js";

const IMAGE = new Blob([PNG_BYTES], { type: "image/png" });
const AUDIO = new Blob([new Uint8Array([1, 2, 3, 4])], { type: "audio/flac" });
const B64 = Buffer.from(PNG_BYTES).toString("base64");
const BASE = "/router.huggingface.co/hf-inference/models";

interface Case {
	task: string;
	call: (
		args: { accessToken: string; provider: "hf-inference"; model: string },
		options: client.Options,
	) => Promise<unknown>;
	/** JSON body expected, or raw bytes for Blob tasks. */
	json?: unknown;
	bytes?: Uint8Array;
	pipeline?: boolean;
	answer: Reply;
	result: unknown;
	bad?: Reply;
	error?: string;
}
type Reply = { json: unknown } | { body: Uint8Array; headers: Record<string, string> };

const label = { label: "POSITIVE", score: 0.9 };

const CASES: Case[] = [
	{
		task: "text-classification",
		call: (a, o) => client.textClassification({ ...a, inputs: "I love it", parameters: { top_k: 1 } }, o),
		json: { inputs: "I love it", parameters: { top_k: 1 } },
		answer: { json: [[label]] },
		result: [label],
		bad: { json: [label] },
		error: "Expected Array<{label: string, score: number}>",
	},
	{
		task: "text-generation",
		call: (a, o) => client.textGeneration({ ...a, inputs: "Hello" }, o),
		json: { inputs: "Hello" },
		answer: { json: [{ generated_text: "Hello world" }] },
		result: { generated_text: "Hello world" },
		bad: { json: [{ text: "x" }] },
		error: "Expected Array<{generated_text: string}>",
	},
	{
		task: "question-answering",
		call: (a, o) => client.questionAnswering({ ...a, inputs: { question: "Who?", context: "Me." } }, o),
		json: { inputs: { question: "Who?", context: "Me." } },
		answer: { json: { answer: "Me", score: 0.9, start: 0, end: 2 } },
		result: { answer: "Me", score: 0.9, start: 0, end: 2 },
		bad: { json: { answer: "Me" } },
		error: "Expected Array<{answer: string, end: number, score: number, start: number}>",
	},
	{
		task: "audio-classification",
		call: (a, o) => client.audioClassification({ ...a, inputs: AUDIO, parameters: { top_k: 2 } }, o),
		bytes: new Uint8Array([1, 2, 3, 4]),
		answer: { json: [label] },
		result: [label],
		bad: { json: [{ label: "x" }] },
		error: "Expected Array<{label: string, score: number}> but received different format",
	},
	{
		task: "automatic-speech-recognition",
		call: (a, o) => client.automaticSpeechRecognition({ ...a, inputs: AUDIO }, o),
		bytes: new Uint8Array([1, 2, 3, 4]),
		answer: { json: { text: "hi", chunks: [{ text: "hi", timestamp: [0, 1] }] } },
		result: { text: "hi", chunks: [{ text: "hi", timestamp: [0, 1] }] },
		bad: { json: { transcript: "hi" } },
		error: "Expected {text: string}",
	},
	{
		task: "fill-mask",
		call: (a, o) => client.fillMask({ ...a, inputs: "Paris is the [MASK] of France." }, o),
		json: { inputs: "Paris is the [MASK] of France." },
		answer: {
			json: [{ score: 0.9, sequence: "paris is the capital of france.", token: 3007, token_str: "capital" }],
		},
		result: [{ score: 0.9, sequence: "paris is the capital of france.", token: 3007, token_str: "capital" }],
		bad: { json: [{ score: 0.9 }] },
		error: "Expected Array<{score: number, sequence: string, token: number, token_str: string}>",
	},
	{
		task: "feature-extraction",
		pipeline: true,
		call: (a, o) => client.featureExtraction({ ...a, inputs: "hi", normalize: true }, o),
		json: { inputs: "hi", normalize: true },
		answer: { json: [[0.1, 0.2]] },
		result: [[0.1, 0.2]],
		bad: { json: [[0.1, [0.2]]] },
		error: "Expected Array<number[][][] | number[][] | number[] | number>",
	},
	{
		task: "image-classification",
		call: (a, o) => client.imageClassification({ ...a, inputs: IMAGE }, o),
		bytes: PNG_BYTES,
		answer: { json: [label] },
		result: [label],
		bad: { json: { label: "x" } },
		error: "Expected Array<{label: string, score: number}>",
	},
	{
		task: "image-segmentation",
		call: (a, o) => client.imageSegmentation({ ...a, inputs: IMAGE }, o),
		bytes: PNG_BYTES,
		answer: { json: [{ label: "cat", mask: "aGVsbG8=", score: 1 }] },
		result: [{ label: "cat", mask: "aGVsbG8=", score: 1 }],
		bad: { json: [{ label: "cat", score: 1 }] },
		error: "Expected Array<{label: string, mask: string, score: number}>",
	},
	{
		task: "document-question-answering",
		call: (a, o) =>
			client.documentQuestionAnswering({ ...a, inputs: { image: IMAGE, question: "Total?" } }, o),
		json: { inputs: { question: "Total?", image: B64 } },
		answer: { json: [{ answer: "42", score: 0.8, start: 1, end: 1 }] },
		result: { answer: "42", score: 0.8, start: 1, end: 1 },
		bad: { json: { answer: "42" } },
		error: "Expected Array<{answer: string, end: number, score: number, start: number}>",
	},
	{
		task: "image-to-text",
		call: (a, o) => client.imageToText({ ...a, inputs: IMAGE }, o),
		bytes: PNG_BYTES,
		answer: { json: [{ generated_text: "a cat" }] },
		result: { generated_text: "a cat" },
		bad: { json: { generated_text: "a cat" } },
		error: "Expected {generated_text: string}",
	},
	{
		task: "object-detection",
		call: (a, o) => client.objectDetection({ ...a, inputs: IMAGE }, o),
		bytes: PNG_BYTES,
		answer: { json: [{ label: "cat", score: 1, box: { xmin: 1, ymin: 2, xmax: 3, ymax: 4 } }] },
		result: [{ label: "cat", score: 1, box: { xmin: 1, ymin: 2, xmax: 3, ymax: 4 } }],
		bad: { json: [{ label: "cat", score: 1, box: { xmin: 1 } }] },
		error:
			"Expected Array<{label: string, score: number, box: {xmin: number, ymin: number, xmax: number, ymax: number}}>",
	},
	{
		task: "audio-to-audio",
		call: (a, o) => client.audioToAudio({ ...a, inputs: AUDIO }, o),
		bytes: new Uint8Array([1, 2, 3, 4]),
		answer: { json: [{ label: "vocals", "content-type": "audio/flac", blob: "AAAA" }] },
		result: [{ label: "vocals", "content-type": "audio/flac", blob: "AAAA" }],
		bad: { json: { label: "vocals" } },
		error: "Expected Array",
	},
	{
		task: "zero-shot-image-classification",
		call: (a, o) =>
			client.zeroShotImageClassification(
				{ ...a, inputs: IMAGE, parameters: { candidate_labels: ["cat", "dog"] } },
				o,
			),
		json: { inputs: { image: B64 }, parameters: { candidate_labels: ["cat", "dog"] } },
		answer: { json: [{ label: "cat", score: 0.9 }] },
		result: [{ label: "cat", score: 0.9 }],
		bad: { json: [{ label: 1, score: 0.9 }] },
		error: "Expected Array<{label: string, score: number}>",
	},
	{
		task: "zero-shot-classification",
		call: (a, o) =>
			client.zeroShotClassification(
				{ ...a, inputs: "refund", parameters: { candidate_labels: ["billing", "faq"] } },
				o,
			),
		json: { inputs: "refund", parameters: { candidate_labels: ["billing", "faq"] } },
		answer: { json: [{ sequence: "refund", labels: ["billing", "faq"], scores: [0.9, 0.1] }] },
		result: [{ sequence: "refund", labels: ["billing", "faq"], scores: [0.9, 0.1] }],
		bad: { json: [{ label: "billing", score: 0.9 }] },
		error: "Expected Array<{labels: string[], scores: number[], sequence: string}>",
	},
	{
		task: "image-to-image",
		call: (a, o) => client.imageToImage({ ...a, inputs: IMAGE, parameters: { prompt: "make it blue" } }, o),
		json: { inputs: B64, parameters: { prompt: "make it blue" } },
		answer: { body: PNG_BYTES, headers: { "content-type": "image/png" } },
		result: "blob",
		bad: { json: { image: "x" } },
		error: "Expected Blob",
	},
	{
		task: "sentence-similarity",
		pipeline: true,
		call: (a, o) =>
			client.sentenceSimilarity({ ...a, inputs: { source_sentence: "a", sentences: ["b", "c"] } }, o),
		json: { inputs: { source_sentence: "a", sentences: ["b", "c"] } },
		answer: { json: [0.5, 0.25] },
		result: [0.5, 0.25],
		bad: { json: [[0.5]] },
		error: "Expected Array<number>",
	},
	{
		task: "table-question-answering",
		call: (a, o) =>
			client.tableQuestionAnswering({ ...a, inputs: { question: "How many?", table: { n: ["1", "2"] } } }, o),
		json: { inputs: { question: "How many?", table: { n: ["1", "2"] } } },
		answer: { json: { answer: "SUM > 3", coordinates: [[0, 0]], cells: ["1", "2"], aggregator: "SUM" } },
		result: { answer: "SUM > 3", coordinates: [[0, 0]], cells: ["1", "2"], aggregator: "SUM" },
		bad: { json: { answer: "3" } },
		error: "Expected {aggregator: string, answer: string, cells: string[], coordinates: number[][]}",
	},
	{
		task: "tabular-classification",
		call: (a, o) => client.tabularClassification({ ...a, inputs: { data: { a: ["1"] } } }, o),
		json: { inputs: { data: { a: ["1"] } } },
		answer: { json: [1, 0] },
		result: [1, 0],
		bad: { json: ["1"] },
		error: "Expected Array<number>",
	},
	{
		task: "text-to-speech",
		call: (a, o) => client.textToSpeech({ ...a, inputs: "hello" }, o),
		json: { inputs: "hello" },
		answer: { body: new Uint8Array([9, 9]), headers: { "content-type": "audio/flac" } },
		result: "blob",
	},
	{
		task: "token-classification",
		call: (a, o) => client.tokenClassification({ ...a, inputs: "My name is Sarah" }, o),
		json: { inputs: "My name is Sarah" },
		answer: { json: [{ entity_group: "PER", score: 0.99, word: "Sarah", start: 11, end: 16 }] },
		result: [{ entity_group: "PER", score: 0.99, word: "Sarah", start: 11, end: 16 }],
		bad: { json: [{ entity: "PER" }] },
		error: "Expected Array<{end: number, entity_group: string, score: number, start: number, word: string}>",
	},
	{
		task: "translation",
		call: (a, o) => client.translation({ ...a, inputs: "Bonjour" }, o),
		json: { inputs: "Bonjour" },
		answer: { json: [{ translation_text: "Hello" }] },
		result: { translation_text: "Hello" },
		bad: { json: { translation_text: "Hello" } },
		error: "Expected Array<{translation_text: string}>",
	},
	{
		task: "summarization",
		call: (a, o) => client.summarization({ ...a, inputs: "A long text." }, o),
		json: { inputs: "A long text." },
		answer: { json: [{ summary_text: "Short." }] },
		result: { summary_text: "Short." },
		bad: { json: [{ summary: "Short." }] },
		error: "Expected Array<{summary_text: string}>",
	},
	{
		task: "visual-question-answering",
		call: (a, o) => client.visualQuestionAnswering({ ...a, inputs: { image: IMAGE, question: "Color?" } }, o),
		json: { inputs: { question: "Color?", image: B64 } },
		answer: { json: [{ answer: "blue", score: 0.7 }] },
		result: { answer: "blue", score: 0.7 },
		bad: { json: [{ answer: "blue" }] },
		error: "Expected Array<{answer: string, score: number}>",
	},
	{
		task: "tabular-regression",
		call: (a, o) => client.tabularRegression({ ...a, inputs: { data: { a: ["1"] } } }, o),
		json: { inputs: { data: { a: ["1"] } } },
		answer: { json: [3.5] },
		result: [3.5],
		bad: { json: { value: 3.5 } },
		error: "Expected Array<number>",
	},
	{
		task: "text-to-audio",
		call: (a, o) => client.request({ ...a, inputs: "a drum loop" }, { ...o, task: "text-to-audio" }),
		json: { inputs: "a drum loop" },
		answer: { body: new Uint8Array([7]), headers: { "content-type": "audio/wav" } },
		result: "blob",
	},
	{
		task: "text-to-image",
		call: (a, o) => client.textToImage({ ...a, inputs: "a cat" }, o),
		json: { inputs: "a cat" },
		answer: { body: PNG_BYTES, headers: { "content-type": "image/png" } },
		result: "blob",
		bad: { json: { something: "else" } },
		error: "Expected a Blob ",
	},
	{
		task: "conversational",
		call: (a, o) => client.chatCompletion({ ...a, messages: MESSAGES }, o),
		json: { messages: MESSAGES, model: "hf/conversational" },
		answer: { json: { anything: "goes" } },
		result: { anything: "goes" },
	},
];

function pathOf(task: string, model: string, pipeline?: boolean): string {
	if (task === "conversational") return `${BASE}/${model}/v1/chat/completions`;
	return pipeline ? `${BASE}/${model}/pipeline/${task}` : `${BASE}/${model}`;
}

const table: Route[] = [];
for (const c of CASES) {
	table.push(
		hubModel(`hf/${c.task}`, {
			"hf-inference": { providerId: `hf/${c.task}`, status: "live", task: c.task },
		}),
	);
	table.push(
		hubModel(`bad/${c.task}`, {
			"hf-inference": { providerId: `bad/${c.task}`, status: "live", task: c.task },
		}),
	);
	table.push({
		path: pathOf(c.task, `hf/${c.task}`, c.pipeline),
		expect: {
			headers: {
				authorization: `Bearer ${HF_TOKEN}`,
				"user-agent": USER_AGENT,
				"content-type": c.bytes
					? c.task.startsWith("audio") || c.task === "automatic-speech-recognition"
						? "audio/flac"
						: "image/png"
					: "application/json",
			},
			...(c.bytes ? { bodyBytes: c.bytes } : { json: c.json }),
		},
		respond: c.answer,
	});
	if (c.bad) table.push({ path: pathOf(c.task, `bad/${c.task}`, c.pipeline), respond: c.bad });
}

describe("hf-inference", () => {
	const server = useServer([
		{
			path: `${BASE}/hf/text-classification`,
			when: (r) => r.headers.authorization === `Bearer ${PROVIDER_KEY}`,
			respond: { json: [[label]] },
		},
		...table,
		hubModel("hf/feature-extraction-as-similarity", {
			"hf-inference": { providerId: "st/model", status: "live", task: "feature-extraction" },
		}),
		{ path: `${BASE}/st/model/pipeline/sentence-similarity`, respond: { json: [0.5] } },
		{ path: "/my-endpoint.example/v1/chat/completions", respond: { json: CHAT_OUTPUT } },
		{
			path: "/my-endpoint.example/generate",
			expect: { json: { inputs: "x" } },
			respond: { json: [{ generated_text: "y" }] },
		},
		{ path: "/my-endpoint.example/classify", expect: { bodyBytes: PNG_BYTES }, respond: { json: [label] } },
		{
			path: "/my-endpoint.example/edit",
			expect: { bodyBytes: PNG_BYTES },
			respond: { body: PNG_BYTES, headers: { "content-type": "image/png" } },
		},
		{ path: `${BASE}/hf/generic`, expect: { json: { inputs: "raw" } }, respond: { json: { raw: true } } },
		hubModel("hf/generic", {
			"hf-inference": { providerId: "hf/generic", status: "live", task: "text-classification" },
		}),
	]);

	for (const c of CASES) {
		it(`${c.task}: request and parsed answer`, async () => {
			const output = await c.call(
				{ accessToken: HF_TOKEN, provider: "hf-inference", model: `hf/${c.task}` },
				{ fetch: server().fetch },
			);
			if (c.result === "blob") expect(output).toBeInstanceOf(Blob);
			else expect(output).toEqual(c.result);
		});
		if (c.bad && c.error) {
			const message = `Invalid inference output: ${c.error}. Use the 'request' method with the same parameters to do a custom call with no type checking.`;
			it(`${c.task}: malformed answer → ${c.error}`, async () => {
				await expect(
					c.call(
						{ accessToken: HF_TOKEN, provider: "hf-inference", model: `bad/${c.task}` },
						{ fetch: server().fetch },
					),
				).rejects.toThrow(message);
			});
		}
	}

	it("Blob tasks drop parameters (the bytes are the body)", () => {
		expect(CASES.filter((c) => c.bytes).map((c) => c.task)).toContain("audio-classification");
	});

	it("feature-extraction models serve sentence-similarity (sentence-transformers)", async () => {
		const output = await client.sentenceSimilarity(
			{
				accessToken: HF_TOKEN,
				provider: "hf-inference",
				model: "hf/feature-extraction-as-similarity",
				inputs: { source_sentence: "a", sentences: ["b"] },
			},
			{ fetch: server().fetch },
		);
		expect(output).toEqual([0.5]);
	});

	it("a provider key still goes through the router", async () => {
		const output = await client.textClassification(
			{ accessToken: PROVIDER_KEY, provider: "hf-inference", model: "hf/text-classification", inputs: "x" },
			{ fetch: server().fetch },
		);
		expect(output).toEqual([label]);
	});

	it("endpointUrl: chat appends /v1/chat/completions (trailing slashes trimmed)", async () => {
		const output = await client.chatCompletion(
			{ endpointUrl: "https://my-endpoint.example///", messages: MESSAGES },
			{ fetch: server().fetch },
		);
		expect(output).toEqual(CHAT_OUTPUT);
		expect(server().requests[0]?.json).toEqual({
			messages: MESSAGES,
			model: "https://my-endpoint.example///",
		});
	});

	it("endpointUrl: chat after /v1 appends /chat/completions; a full chat URL is kept", async () => {
		await client.chatCompletion(
			{ endpointUrl: "https://my-endpoint.example/v1", messages: MESSAGES, model: "tgi" },
			{ fetch: server().fetch },
		);
		await client.chatCompletion(
			{ endpointUrl: "https://my-endpoint.example/v1/chat/completions", messages: MESSAGES },
			{ fetch: server().fetch },
		);
		expect(server().requests.map((r) => r.path)).toEqual([
			"/my-endpoint.example/v1/chat/completions",
			"/my-endpoint.example/v1/chat/completions",
		]);
		expect(server().requests[0]?.json).toMatchObject({ model: "tgi" });
	});

	it("endpointUrl: other tasks post to the URL as given, with no hub lookup", async () => {
		const output = await client.textGeneration(
			{ endpointUrl: "https://my-endpoint.example/generate", inputs: "x" },
			{ fetch: server().fetch },
		);
		expect(output).toEqual({ generated_text: "y" });
		expect(server().requestsTo("/huggingface.co")).toEqual([]);
	});

	it("endpointUrl: Blob tasks post the bytes", async () => {
		const output = await client.imageClassification(
			{ endpointUrl: "https://my-endpoint.example/classify", inputs: IMAGE },
			{ fetch: server().fetch },
		);
		expect(output).toEqual([label]);
	});

	it("endpointUrl: imageToImage without parameters keeps the endpoint (3.12.1 dropped it)", async () => {
		const output = await client.imageToImage(
			{ endpointUrl: "https://my-endpoint.example/edit", inputs: IMAGE },
			{ fetch: server().fetch },
		);
		expect(output).toBeInstanceOf(Blob);
	});

	it("request() without a task fails the mapping's task check, as in 3.12.1", async () => {
		await expect(
			client.request(
				{ accessToken: HF_TOKEN, provider: "hf-inference", model: "hf/generic", inputs: "raw" },
				{ fetch: server().fetch },
			),
		).rejects.toThrow(
			"Model hf/generic is not supported for task undefined and provider hf-inference. Supported task: text-classification.",
		);
	});

	it("request() with an endpoint and no task uses the generic helper", async () => {
		server().use([
			{
				path: "/my-endpoint.example/anything",
				expect: { json: { inputs: "raw" } },
				respond: { json: { raw: true } },
			},
		]);
		const output = await client.request(
			{ endpointUrl: "https://my-endpoint.example/anything", inputs: "raw" },
			{ fetch: server().fetch },
		);
		expect(output).toEqual({ raw: true });
		expect(console.warn).toHaveBeenCalledWith(
			"The request method is deprecated and will be removed in a future version of huggingface.js. Use specific task functions instead.",
		);
	});

	it("text-to-image: outputType url gives a data URL of the bytes", async () => {
		const url = await client.textToImage(
			{ accessToken: HF_TOKEN, provider: "hf-inference", model: "hf/text-to-image", inputs: "a cat" },
			{ fetch: server().fetch, outputType: "url" },
		);
		expect(url).toBe(`data:image/jpeg;base64,${B64}`);
	});
});
