/**
 * Together AI — images, videos, chat, completions, embeddings, speech, transcription.
 *   text-to-image: POST {router}/together/v1/images/generations | https://api.together.xyz/v1/images/generations
 *     body: other arguments, parameters flat (num_inference_steps → steps), prompt, response_format, model
 *     answer: {data: [{b64_json}]} → JPEG Blob; outputType "url" asks for response_format "url" → data[0].url
 *   image-to-image: same route; the image as a data: URL in reference_images (FLUX.1 Kontext: image_url),
 *     prompt from the parameters, response_format base64 → JPEG Blob
 *   text-to-video / image-to-video: POST …/v2/videos → {id, status}; GET …/v2/videos/{id} every 2 s (≤ 150)
 *     until completed (failed → error.message) → outputs.video_url downloaded without credentials
 *   conversational: response_format {json_schema: {schema}} sent as {type: json_schema, schema}
 *   text-generation: POST …/v1/completions {model, prompt, mapped parameters} → {generated_text, details}
 *   feature-extraction: POST …/v1/embeddings {input, model} → data[].embedding
 *   text-to-speech: POST …/v1/audio/speech {input, voice (Kokoro: "af_alloy" by default), model} → audio body
 *   automatic-speech-recognition: POST …/v1/audio/transcriptions, multipart (file + fields + model) → {text, chunks}
 */
import { describe, expect, it } from "vitest";
import {
	automaticSpeechRecognition,
	chatCompletion,
	featureExtraction,
	imageToImage,
	imageToVideo,
	InferenceInputError,
	InferenceOutputError,
	textToImage,
	textToSpeech,
	textToVideo,
} from "../../src/index.js";
import { chatChecks, chatRows } from "../support/chat.js";
import {
	B64_IMAGE,
	CHAT_OUTPUT,
	FAST,
	HF_TOKEN,
	hubModel,
	MESSAGES,
	PNG_BYTES,
	PROVIDER_KEY,
	formOf,
} from "../support/fixtures.js";
import type { RecordedRequest, Route } from "../support/servers.js";
import { useServer } from "../support/setup.js";
import {
	textGenerationChecks,
	textGenerationRows,
	type TextGenerationSpec,
} from "../support/text-generation.js";

const MODEL = "meta-llama/Llama-3.3-70B-Instruct";
const ROUTED = "/router.huggingface.co/together";
const DIRECT = "/api.together.xyz";
const IMAGE_DATA_URL = `data:image/png;base64,${B64_IMAGE}`;
const VIDEO_URL = "https://videos.together.example/out.mp4";
const MP4 = new Uint8Array([0, 0, 0, 24, 0x66, 0x74, 0x79, 0x70]);
const MP3 = new Uint8Array([0x49, 0x44, 0x33, 4, 0, 0]);
const TEXT_GENERATION: TextGenerationSpec = {
	provider: "together",
	routed: `${ROUTED}/v1/completions`,
	direct: `${DIRECT}/v1/completions`,
	style: "completions",
	malformed: "Expected Together text generation response format",
	details: true,
};

const modelIs = (model: string) => (request: RecordedRequest) =>
	(request.json as { model?: string } | undefined)?.model === model;
const job = (status: string, extra: Record<string, unknown> = {}) => ({
	json: { id: "job-1", status, ...extra },
});

const table: Route[] = [
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
	hubModel("org/json-chat", {
		together: { providerId: "json-chat", status: "live", task: "conversational" },
	}),
	hubModel("black-forest-labs/FLUX.1-schnell", {
		together: { providerId: "black-forest-labs/FLUX.1-schnell-Free", status: "live", task: "text-to-image" },
	}),
	hubModel("org/img-bad", { together: { providerId: "img-bad", status: "live", task: "text-to-image" } }),
	hubModel("black-forest-labs/FLUX.1-Kontext-dev", {
		together: { providerId: "black-forest-labs/FLUX.1-kontext-dev", status: "live", task: "image-to-image" },
	}),
	hubModel("black-forest-labs/FLUX.2-dev", {
		together: { providerId: "black-forest-labs/FLUX.2-dev", status: "live", task: "image-to-image" },
	}),
	hubModel("Wan-AI/Wan2.2-T2V-A14B", {
		together: { providerId: "Wan-AI/Wan2.2-T2V-A14B", status: "live", task: "text-to-video" },
	}),
	hubModel("org/video-failed", {
		together: { providerId: "video-failed", status: "live", task: "text-to-video" },
	}),
	hubModel("org/video-stuck", {
		together: { providerId: "video-stuck", status: "live", task: "text-to-video" },
	}),
	hubModel("Wan-AI/Wan2.2-I2V-A14B", {
		together: { providerId: "Wan-AI/Wan2.2-I2V-A14B", status: "live", task: "image-to-video" },
	}),
	hubModel("BAAI/bge-base-en-v1.5", {
		together: { providerId: "BAAI/bge-base-en-v1.5", status: "live", task: "feature-extraction" },
	}),
	hubModel("org/fe-bad", { together: { providerId: "fe-bad", status: "live", task: "feature-extraction" } }),
	hubModel("hexgrad/Kokoro-82M", {
		together: { providerId: "hexgrad/Kokoro-82M", status: "live", task: "text-to-speech" },
	}),
	hubModel("canopylabs/orpheus-3b", {
		together: { providerId: "canopylabs/orpheus-3b-0.1-ft", status: "live", task: "text-to-speech" },
	}),
	hubModel("openai/whisper-large-v3", {
		together: { providerId: "openai/whisper-large-v3", status: "live", task: "automatic-speech-recognition" },
	}),
	...textGenerationRows(TEXT_GENERATION),
	{
		path: `${ROUTED}/v1/chat/completions`,
		when: modelIs("json-chat"),
		expect: {
			json: {
				model: "json-chat",
				messages: MESSAGES,
				response_format: { type: "json_schema", schema: { type: "object" } },
			},
		},
		respond: { json: CHAT_OUTPUT },
	},
	...chatRows({
		routed: `${ROUTED}/v1/chat/completions`,
		direct: `${DIRECT}/v1/chat/completions`,
		providerId: "meta-llama/Llama-3.3-70B-Instruct-Turbo",
	}),
	{ path: `${ROUTED}/v1/images/generations`, when: modelIs("img-bad"), respond: { json: { data: "none" } } },
	{
		path: `${ROUTED}/v1/images/generations`,
		when: (r) => (r.json as { response_format?: string }).response_format === "url",
		expect: {
			json: {
				steps: 4,
				prompt: "a boat",
				response_format: "url",
				model: "black-forest-labs/FLUX.1-schnell-Free",
			},
		},
		respond: { json: { data: [{ url: "https://images.together.example/boat.png" }] } },
	},
	{
		path: `${ROUTED}/v1/images/generations`,
		when: modelIs("black-forest-labs/FLUX.1-schnell-Free"),
		expect: {
			headers: { authorization: `Bearer ${HF_TOKEN}` },
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
		path: `${DIRECT}/v1/images/generations`,
		when: modelIs("black-forest-labs/FLUX.1-kontext-dev"),
		expect: {
			headers: { authorization: `Bearer ${PROVIDER_KEY}` },
			json: {
				prompt: "snow",
				image_url: IMAGE_DATA_URL,
				seed: 7,
				response_format: "base64",
				model: "black-forest-labs/FLUX.1-kontext-dev",
			},
		},
		respond: { json: { data: [{ b64_json: B64_IMAGE }] } },
	},
	{
		path: `${ROUTED}/v1/images/generations`,
		when: modelIs("black-forest-labs/FLUX.2-dev"),
		expect: {
			json: {
				prompt: "",
				reference_images: [`data:image/jpeg;base64,${B64_IMAGE}`],
				response_format: "base64",
				model: "black-forest-labs/FLUX.2-dev",
			},
		},
		respond: { json: { data: [{ url: "no base64" }] } },
	},
	{
		path: `${ROUTED}/v2/videos`,
		when: modelIs("Wan-AI/Wan2.2-T2V-A14B"),
		expect: {
			headers: { authorization: `Bearer ${HF_TOKEN}` },
			json: { steps: 30, width: 832, height: 480, prompt: "waves", model: "Wan-AI/Wan2.2-T2V-A14B" },
		},
		respond: job("queued"),
	},
	{
		method: "GET",
		path: `${ROUTED}/v2/videos/job-1`,
		expect: { headers: { authorization: `Bearer ${HF_TOKEN}` } },
		respond: (_request, hit) =>
			hit === 0 ? job("in_progress") : job("completed", { outputs: { video_url: VIDEO_URL } }),
	},
	{
		path: `${DIRECT}/v2/videos`,
		when: modelIs("Wan-AI/Wan2.2-I2V-A14B"),
		expect: {
			headers: { authorization: `Bearer ${PROVIDER_KEY}` },
			json: {
				frame_images: [{ input_image: IMAGE_DATA_URL, frame: "first" }],
				model: "Wan-AI/Wan2.2-I2V-A14B",
				prompt: "it dances",
			},
		},
		respond: job("completed", { outputs: { video_url: VIDEO_URL } }),
	},
	{ path: `${DIRECT}/v2/videos`, when: modelIs("video-failed"), respond: { json: { id: "job-2" } } },
	{
		method: "GET",
		path: `${DIRECT}/v2/videos/job-2`,
		respond: { json: { id: "job-2", status: "failed", error: { message: "out of capacity" } } },
	},
	{
		path: `${DIRECT}/v2/videos`,
		when: modelIs("video-stuck"),
		respond: { json: { id: "job-3", status: "queued" } },
	},
	{ method: "GET", path: `${DIRECT}/v2/videos/job-3`, respond: { json: { id: "job-3", status: "queued" } } },
	{
		method: "GET",
		path: "/videos.together.example/out.mp4",
		expect: { headers: { authorization: null } },
		respond: { headers: { "content-type": "video/mp4" }, body: MP4 },
	},
	{ path: `${DIRECT}/v1/embeddings`, when: modelIs("fe-bad"), respond: { json: { data: [{ vector: [] }] } } },
	{
		path: `${DIRECT}/v1/embeddings`,
		expect: { json: { input: ["a", "b"], model: "BAAI/bge-base-en-v1.5" } },
		respond: { json: { data: [{ embedding: [0.1, 0.2] }, { embedding: [0.3, 0.4] }] } },
	},
	{
		path: `${ROUTED}/v1/audio/speech`,
		when: modelIs("hexgrad/Kokoro-82M"),
		expect: { json: { input: "hello", voice: "af_alloy", model: "hexgrad/Kokoro-82M" } },
		respond: { headers: { "content-type": "audio/mpeg" }, body: MP3 },
	},
	{
		path: `${ROUTED}/v1/audio/speech`,
		when: modelIs("canopylabs/orpheus-3b-0.1-ft"),
		expect: { json: { voice: "tara", input: "hello", model: "canopylabs/orpheus-3b-0.1-ft" } },
		respond: { json: { error: "not audio" } },
	},
	{
		path: `${DIRECT}/v1/audio/transcriptions`,
		respond: { json: { text: "hi there", segments: [{ id: 0, start: 0, end: 1.5, text: "hi there" }] } },
	},
];

describe("together", () => {
	const server = useServer(table);
	chatChecks(server, { provider: "together", model: MODEL, routed: true, malformedModel: "org/malformed" });
	textGenerationChecks(server, TEXT_GENERATION);

	it("conversational: a json_schema response format is sent the way Together reads it", async () => {
		const output = await chatCompletion(
			{
				accessToken: HF_TOKEN,
				provider: "together",
				model: "org/json-chat",
				messages: MESSAGES,
				response_format: { type: "json_schema", json_schema: { schema: { type: "object" } } },
			},
			{ fetch: server().fetch },
		);
		expect(output).toEqual(CHAT_OUTPUT);
	});

	it("text-to-image: num_inference_steps sent as steps; base64 → JPEG Blob", async () => {
		const blob = await textToImage(
			{
				accessToken: HF_TOKEN,
				provider: "together",
				model: "black-forest-labs/FLUX.1-schnell",
				inputs: "a boat",
				parameters: { num_inference_steps: 4 },
			},
			{ fetch: server().fetch },
		);
		expect(blob.type).toBe("image/jpeg");
		expect(new Uint8Array(await blob.arrayBuffer())).toEqual(PNG_BYTES);
	});

	it("text-to-image: outputType url asks Together for a hosted URL and returns it", async () => {
		const url = await textToImage(
			{
				accessToken: HF_TOKEN,
				provider: "together",
				model: "black-forest-labs/FLUX.1-schnell",
				inputs: "a boat",
				parameters: { num_inference_steps: 4 },
			},
			{ fetch: server().fetch, outputType: "url" },
		);
		expect(url).toBe("https://images.together.example/boat.png");
	});

	it("text-to-image: a malformed answer", async () => {
		await expect(
			textToImage(
				{ accessToken: HF_TOKEN, provider: "together", model: "org/img-bad", inputs: "x" },
				{ fetch: server().fetch },
			),
		).rejects.toThrow("Invalid inference output: Expected Together text-to-image response format.");
	});

	it("image-to-image (direct): FLUX.1 Kontext takes image_url; the prompt comes from the parameters", async () => {
		const blob = await imageToImage(
			{
				accessToken: PROVIDER_KEY,
				provider: "together",
				model: "black-forest-labs/FLUX.1-Kontext-dev",
				inputs: new Blob([PNG_BYTES], { type: "image/png" }),
				parameters: { prompt: "snow", seed: 7 },
			},
			{ fetch: server().fetch },
		);
		expect(blob.type).toBe("image/jpeg");
	});

	it("image-to-image (routed): other models take reference_images; a non-base64 answer is an output error", async () => {
		const call = imageToImage(
			{
				accessToken: HF_TOKEN,
				provider: "together",
				model: "black-forest-labs/FLUX.2-dev",
				inputs: PNG_BYTES.buffer.slice(0) as ArrayBuffer,
			},
			{ fetch: server().fetch },
		);
		await expect(call).rejects.toThrow("Expected Together image-to-image response format");
	});

	it("text-to-video (routed): job polled on the router until completed; the video downloaded without credentials", async () => {
		const blob = await textToVideo(
			{
				accessToken: HF_TOKEN,
				provider: "together",
				model: "Wan-AI/Wan2.2-T2V-A14B",
				inputs: "waves",
				parameters: { num_inference_steps: 30, target_size: { width: 832, height: 480 } } as never,
			},
			{ ...FAST, fetch: server().fetch },
		);
		expect(new Uint8Array(await blob.arrayBuffer())).toEqual(MP4);
		expect(server().requestsTo(`${ROUTED}/v2/videos/job-1`)).toHaveLength(2);
	});

	it("image-to-video (direct): the image as the first keyframe; an already completed job is not polled", async () => {
		const blob = await imageToVideo(
			{
				accessToken: PROVIDER_KEY,
				provider: "together",
				model: "Wan-AI/Wan2.2-I2V-A14B",
				inputs: new Blob([PNG_BYTES], { type: "image/png" }),
				parameters: { prompt: "it dances" },
			},
			{ ...FAST, fetch: server().fetch },
		);
		expect(blob.size).toBe(MP4.length);
		expect(server().requests.filter((r) => r.method === "GET" && r.path.includes("/v2/videos/"))).toEqual([]);
	});

	it("video: a failed job names Together's message; a job that never finishes stops after 150 polls", async () => {
		const call = (model: string) =>
			textToVideo(
				{ accessToken: PROVIDER_KEY, provider: "together", model, inputs: "x" },
				{ ...FAST, fetch: server().fetch },
			);
		await expect(call("org/video-failed")).rejects.toThrow(
			"Together video generation failed: out of capacity",
		);
		await expect(call("org/video-stuck")).rejects.toThrow("aborting after 150 status polls");
		expect(server().requestsTo(`${DIRECT}/v2/videos/job-3`)).toHaveLength(150);
	});

	it("feature-extraction: OpenAI-style embeddings → number[][]", async () => {
		const output = await featureExtraction(
			{ accessToken: PROVIDER_KEY, provider: "together", model: "BAAI/bge-base-en-v1.5", inputs: ["a", "b"] },
			{ fetch: server().fetch },
		);
		expect(output).toEqual([
			[0.1, 0.2],
			[0.3, 0.4],
		]);
		await expect(
			featureExtraction(
				{ accessToken: PROVIDER_KEY, provider: "together", model: "org/fe-bad", inputs: "a" },
				{ fetch: server().fetch },
			),
		).rejects.toBeInstanceOf(InferenceOutputError);
	});

	it("text-to-speech: Kokoro gets a default voice; the audio body comes back as a Blob", async () => {
		const blob = await textToSpeech(
			{ accessToken: HF_TOKEN, provider: "together", model: "hexgrad/Kokoro-82M", inputs: "hello" },
			{ fetch: server().fetch },
		);
		expect(blob.type).toBe("audio/mpeg");
	});

	it("text-to-speech: other models keep the caller's voice; a JSON answer is an output error", async () => {
		await expect(
			textToSpeech(
				{
					accessToken: HF_TOKEN,
					provider: "together",
					model: "canopylabs/orpheus-3b",
					inputs: "hello",
					parameters: { voice: "tara" },
				},
				{ fetch: server().fetch },
			),
		).rejects.toBeInstanceOf(InferenceOutputError);
	});

	it("automatic-speech-recognition: a multipart upload named from the Blob's type; segments become chunks", async () => {
		const output = await automaticSpeechRecognition(
			{
				accessToken: PROVIDER_KEY,
				provider: "together",
				model: "openai/whisper-large-v3",
				inputs: new Blob([MP3], { type: "audio/mpeg" }),
				parameters: { language: "en", return_timestamps: true } as never,
			},
			{ fetch: server().fetch },
		);
		expect(output).toEqual({ text: "hi there", chunks: [{ text: "hi there", timestamp: [0, 1.5] }] });
		const request = server().requestsTo(`${DIRECT}/v1/audio/transcriptions`)[0] as RecordedRequest;
		expect(String(request.headers["content-type"])).toMatch(/^multipart\/form-data; boundary=/);
		const form = await formOf(request);
		const file = form.get("file") as File;
		expect(file.name).toBe("audio.mp3");
		expect(new Uint8Array(await file.arrayBuffer())).toEqual(MP3);
		expect([...form.keys()]).toEqual(["file", "language", "return_timestamps", "model"]);
		expect(form.get("return_timestamps")).toBe("true");
		expect(form.get("model")).toBe("openai/whisper-large-v3");
	});

	it("automatic-speech-recognition: an http(s) URL goes as the file field; other inputs are refused", async () => {
		await automaticSpeechRecognition(
			{
				accessToken: PROVIDER_KEY,
				provider: "together",
				model: "openai/whisper-large-v3",
				inputs: "https://example.com/a.mp3" as never,
			},
			{ fetch: server().fetch },
		);
		const form = await formOf(server().requests.at(-1) as RecordedRequest);
		expect(form.get("file")).toBe("https://example.com/a.mp3");
		await expect(
			automaticSpeechRecognition({
				accessToken: PROVIDER_KEY,
				provider: "together",
				model: "openai/whisper-large-v3",
				inputs: "not a url" as never,
			}),
		).rejects.toBeInstanceOf(InferenceInputError);
	});
});
