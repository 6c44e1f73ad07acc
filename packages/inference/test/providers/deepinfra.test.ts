/**
 * DeepInfra — OpenAI-compatible routes under /v1/openai (new in today's clients).
 *   chat:            POST {router}/deepinfra/v1/openai/chat/completions | https://api.deepinfra.com/v1/openai/chat/completions
 *   text-generation: POST …/v1/openai/completions  {model, prompt, mapped parameters} → choices[0].text
 *   feature-extraction: POST …/v1/openai/embeddings  {input, flat options, model} → data[].embedding
 *   text-to-speech:  POST …/v1/openai/audio/speech  {input, parameters (voice passed through), model} → audio body
 *   automatic-speech-recognition: POST …/v1/openai/audio/transcriptions, multipart: file (audio.{ext} from the
 *     Blob's type, wav by default), one field per parameter, model last → {text, segments} → {text, chunks}
 */
import { describe, expect, it } from "vitest";
import {
	automaticSpeechRecognition,
	featureExtraction,
	InferenceInputError,
	InferenceOutputError,
	textToSpeech,
} from "../../src/index.js";
import { chatChecks, chatRows } from "../support/chat.js";
import { formOf, HF_TOKEN, hubModel, PROVIDER_KEY } from "../support/fixtures.js";
import type { RecordedRequest, Route } from "../support/servers.js";
import { useServer } from "../support/setup.js";
import {
	textGenerationChecks,
	textGenerationRows,
	type TextGenerationSpec,
} from "../support/text-generation.js";

const MODEL = "meta-llama/Llama-3.3-70B-Instruct";
const ROUTED = "/router.huggingface.co/deepinfra/v1/openai";
const DIRECT = "/api.deepinfra.com/v1/openai";
const WAV = new Uint8Array([0x52, 0x49, 0x46, 0x46, 1, 2, 3]);
const TEXT_GENERATION: TextGenerationSpec = {
	provider: "deepinfra",
	routed: `${ROUTED}/completions`,
	direct: `${DIRECT}/completions`,
	style: "completions",
	malformed: "Expected DeepInfra text generation response format",
};
const modelIs = (model: string) => (request: RecordedRequest) =>
	(request.json as { model?: string } | undefined)?.model === model;

const table: Route[] = [
	hubModel(MODEL, {
		deepinfra: { providerId: "meta-llama/Llama-3.3-70B-Instruct", status: "live", task: "conversational" },
	}),
	hubModel("org/malformed", {
		deepinfra: { providerId: "malformed", status: "live", task: "conversational" },
	}),
	hubModel("BAAI/bge-m3", {
		deepinfra: { providerId: "BAAI/bge-m3", status: "live", task: "feature-extraction" },
	}),
	hubModel("org/fe-bad", { deepinfra: { providerId: "fe-bad", status: "live", task: "feature-extraction" } }),
	hubModel("hexgrad/Kokoro-82M", {
		deepinfra: { providerId: "hexgrad/Kokoro-82M", status: "live", task: "text-to-speech" },
	}),
	hubModel("org/tts-json", { deepinfra: { providerId: "tts-json", status: "live", task: "text-to-speech" } }),
	hubModel("openai/whisper-large-v3-turbo", {
		deepinfra: {
			providerId: "openai/whisper-large-v3-turbo",
			status: "live",
			task: "automatic-speech-recognition",
		},
	}),
	hubModel("org/asr-bad", {
		deepinfra: { providerId: "asr-bad", status: "live", task: "automatic-speech-recognition" },
	}),
	...textGenerationRows(TEXT_GENERATION),
	...chatRows({
		routed: `${ROUTED}/chat/completions`,
		direct: `${DIRECT}/chat/completions`,
		providerId: "meta-llama/Llama-3.3-70B-Instruct",
	}),
	{ path: `${DIRECT}/embeddings`, when: modelIs("fe-bad"), respond: { json: { data: "none" } } },
	{
		path: `${DIRECT}/embeddings`,
		expect: {
			headers: { authorization: `Bearer ${PROVIDER_KEY}`, "content-type": "application/json" },
			json: { normalize: true, input: ["a", "b"], model: "BAAI/bge-m3" },
		},
		respond: { json: { data: [{ embedding: [1, 0] }, { embedding: [0, 1] }], model: "BAAI/bge-m3" } },
	},
	{
		path: `${ROUTED}/audio/speech`,
		when: modelIs("hexgrad/Kokoro-82M"),
		expect: {
			headers: { authorization: `Bearer ${HF_TOKEN}` },
			json: { voice: "af_bella", input: "hello", model: "hexgrad/Kokoro-82M" },
		},
		respond: { headers: { "content-type": "audio/wav" }, body: WAV },
	},
	{ path: `${ROUTED}/audio/speech`, when: modelIs("tts-json"), respond: { json: { audio: null } } },
	{
		path: `${ROUTED}/audio/transcriptions`,
		expect: { headers: { authorization: `Bearer ${HF_TOKEN}` } },
		respond: { json: { text: "hello", segments: [{ start: 0, end: 0.8, text: "hello" }] } },
	},
	{ path: `${DIRECT}/audio/transcriptions`, respond: { json: { language: "en" } } },
];

describe("deepinfra", () => {
	const server = useServer(table);
	chatChecks(server, { provider: "deepinfra", model: MODEL, routed: true, malformedModel: "org/malformed" });
	textGenerationChecks(server, TEXT_GENERATION);

	it("feature-extraction (direct): input and flat options, model last; data[].embedding back", async () => {
		const output = await featureExtraction(
			{
				accessToken: PROVIDER_KEY,
				provider: "deepinfra",
				model: "BAAI/bge-m3",
				inputs: ["a", "b"],
				normalize: true,
			},
			{ fetch: server().fetch },
		);
		expect(output).toEqual([
			[1, 0],
			[0, 1],
		]);
		await expect(
			featureExtraction(
				{ accessToken: PROVIDER_KEY, provider: "deepinfra", model: "org/fe-bad", inputs: "a" },
				{ fetch: server().fetch },
			),
		).rejects.toThrow("Expected DeepInfra feature-extraction (embeddings) response format");
	});

	it("text-to-speech (routed): input and the caller's voice; the audio body as a Blob", async () => {
		const blob = await textToSpeech(
			{
				accessToken: HF_TOKEN,
				provider: "deepinfra",
				model: "hexgrad/Kokoro-82M",
				inputs: "hello",
				parameters: { voice: "af_bella" },
			},
			{ fetch: server().fetch },
		);
		expect(blob.type).toBe("audio/wav");
		expect(new Uint8Array(await blob.arrayBuffer())).toEqual(WAV);
	});

	it("text-to-speech: a JSON answer is an output error", async () => {
		await expect(
			textToSpeech(
				{ accessToken: HF_TOKEN, provider: "deepinfra", model: "org/tts-json", inputs: "x" },
				{ fetch: server().fetch },
			),
		).rejects.toBeInstanceOf(InferenceOutputError);
	});

	it("automatic-speech-recognition (routed): a multipart upload; segments become chunks", async () => {
		const output = await automaticSpeechRecognition(
			{
				accessToken: HF_TOKEN,
				provider: "deepinfra",
				model: "openai/whisper-large-v3-turbo",
				inputs: new Blob([WAV], { type: "audio/webm;codecs=opus" }),
				parameters: { language: "en", temperature: 0 } as never,
			},
			{ fetch: server().fetch },
		);
		expect(output).toEqual({ text: "hello", chunks: [{ text: "hello", timestamp: [0, 0.8] }] });
		const request = server().requestsTo(`${ROUTED}/audio/transcriptions`)[0] as RecordedRequest;
		expect(String(request.headers["content-type"])).toMatch(/^multipart\/form-data; boundary=/);
		const form = await formOf(request);
		expect((form.get("file") as File).name).toBe("audio.webm");
		expect(
			[...form.entries()].map(([key, value]) => [key, typeof value === "string" ? value : "(file)"]),
		).toEqual([
			["file", "(file)"],
			["language", "en"],
			["temperature", "0"],
			["model", "openai/whisper-large-v3-turbo"],
		]);
	});

	it("automatic-speech-recognition (direct): an ArrayBuffer is named audio.wav; an answer without text is an output error", async () => {
		await expect(
			automaticSpeechRecognition(
				{
					accessToken: PROVIDER_KEY,
					provider: "deepinfra",
					model: "org/asr-bad",
					inputs: WAV.buffer.slice(0) as never,
				},
				{ fetch: server().fetch },
			),
		).rejects.toThrow("Expected DeepInfra automatic-speech-recognition response format");
		const form = await formOf(server().requestsTo(`${DIRECT}/audio/transcriptions`)[0] as RecordedRequest);
		expect((form.get("file") as File).name).toBe("audio.wav");
	});

	it("automatic-speech-recognition: a text input is refused before any request", async () => {
		await expect(
			automaticSpeechRecognition({
				accessToken: PROVIDER_KEY,
				provider: "deepinfra",
				model: "org/asr-bad",
				inputs: "hello" as never,
			}),
		).rejects.toBeInstanceOf(InferenceInputError);
	});
});
