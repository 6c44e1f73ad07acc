/**
 * Replicate — predictions for images, speech and video.
 *   POST https://api.replicate.com/v1/models/{providerId}/predictions   (routed: {router}/replicate/…)
 *   POST https://api.replicate.com/v1/predictions with body.version for "owner/name:version" ids
 *   headers: Prefer: wait; body {input: {…parameters, prompt | text}, version?}
 *   answers: text-to-image {output: [url]}; text-to-speech a Blob, {output: url} or {output: [url]};
 *            text-to-video {output: url}. URLs are downloaded.
 *   image-to-image: input {…parameters, image, images: [image], input_image, input_images: [image]} (a data:
 *     URL, default image/jpeg) → output URL (or [url]) downloaded
 *   automatic-speech-recognition: input {…parameters, audio: data URL (default audio/wav)} → output string, [string],
 *     or {transcription | translation | txt_file (downloaded)} → {text}
 *   Our addition: an answer still "starting"/"processing" is polled at the path of urls.get — on the submit's
 *   own base (Replicate, or the router's replicate route), never on the host urls.get names.
 */
import { describe, expect, it } from "vitest";
import {
	automaticSpeechRecognition,
	imageToImage,
	InferenceOutputError,
	textToImage,
	textToSpeech,
	textToVideo,
} from "../../src/index.js";
import { FAST, HF_TOKEN, hubModel, PNG_BYTES, PROVIDER_KEY } from "../support/fixtures.js";
import type { Route } from "../support/servers.js";
import { useServer } from "../support/setup.js";

const OUT = "https://replicate.delivery/xezq/out.webp";
const WAV = new Uint8Array([0x52, 0x49, 0x46, 0x46, 1, 2]);

const table: Route[] = [
	hubModel("black-forest-labs/FLUX.1-schnell", {
		replicate: { providerId: "black-forest-labs/flux-schnell", status: "live", task: "text-to-image" },
	}),
	hubModel("org/versioned", {
		replicate: { providerId: "owner/sdxl:abc123", status: "live", task: "text-to-image" },
	}),
	hubModel("org/flux-lora", {
		replicate: {
			providerId: "owner/flux-lora",
			status: "live",
			task: "text-to-image",
			adapter: "lora",
			adapterWeightsPath: "l.safetensors",
		},
	}),
	hubModel("org/slow", { replicate: { providerId: "owner/slow", status: "live", task: "text-to-image" } }),
	hubModel("org/hostile", {
		replicate: { providerId: "owner/hostile", status: "live", task: "text-to-image" },
	}),
	hubModel("timbrooks/instruct-pix2pix", {
		replicate: { providerId: "timothybrooks/instruct-pix2pix", status: "live", task: "image-to-image" },
	}),
	hubModel("org/i2i-bad", {
		replicate: { providerId: "owner/i2i-bad", status: "live", task: "image-to-image" },
	}),
	hubModel("openai/whisper-large-v3", {
		replicate: { providerId: "openai/whisper:v3", status: "live", task: "automatic-speech-recognition" },
	}),
	...["asr-list", "asr-transcription", "asr-translation", "asr-file", "asr-bad"].map((id) =>
		hubModel(`org/${id}`, {
			replicate: { providerId: `owner/${id}`, status: "live", task: "automatic-speech-recognition" },
		}),
	),
	hubModel("org/img-bad", {
		replicate: { providerId: "owner/img-bad", status: "live", task: "text-to-image" },
	}),
	hubModel("hexgrad/Kokoro-82M", {
		replicate: { providerId: "jaaari/kokoro-82m", status: "live", task: "text-to-speech" },
	}),
	hubModel("org/tts-blob", {
		replicate: { providerId: "owner/tts-blob", status: "live", task: "text-to-speech" },
	}),
	hubModel("org/tts-bad", {
		replicate: { providerId: "owner/tts-bad", status: "live", task: "text-to-speech" },
	}),
	hubModel("genmo/mochi-1-preview", {
		replicate: { providerId: "genmoai/mochi-1", status: "live", task: "text-to-video" },
	}),
	hubModel("org/video-bad", {
		replicate: { providerId: "owner/video-bad", status: "live", task: "text-to-video" },
	}),

	{
		path: "/api.replicate.com/v1/models/black-forest-labs/flux-schnell/predictions",
		expect: {
			headers: {
				authorization: `Bearer ${PROVIDER_KEY}`,
				prefer: "wait",
				"content-type": "application/json",
			},
			json: { input: { num_outputs: 1, prompt: "a bird" } },
		},
		respond: { json: { id: "p0", status: "succeeded", output: [OUT] } },
	},
	{
		path: "/router.huggingface.co/replicate/v1/predictions",
		when: (r) => (r.json as { version?: string }).version === "abc123",
		expect: {
			headers: { authorization: `Bearer ${HF_TOKEN}`, prefer: "wait" },
			json: { input: { prompt: "a bird" }, version: "abc123" },
		},
		respond: { json: { output: [OUT] } },
	},
	{
		path: "/router.huggingface.co/replicate/v1/models/owner/flux-lora/predictions",
		expect: { json: { input: { prompt: "a bird", lora_weights: "https://huggingface.co/org/flux-lora" } } },
		respond: { json: { output: [OUT] } },
	},
	{
		path: "/router.huggingface.co/replicate/v1/models/owner/slow/predictions",
		respond: {
			json: {
				id: "p1",
				status: "starting",
				output: null,
				urls: { get: "https://api.replicate.com/v1/predictions/p1" },
			},
		},
	},
	{
		method: "GET",
		path: "/router.huggingface.co/replicate/v1/predictions/p1",
		expect: { headers: { authorization: `Bearer ${HF_TOKEN}` } },
		respond: (_request, hit) =>
			hit === 0
				? {
						json: {
							id: "p1",
							status: "processing",
							output: null,
							urls: { get: "https://api.replicate.com/v1/predictions/p1" },
						},
					}
				: { json: { id: "p1", status: "succeeded", output: [OUT] } },
	},
	{
		path: "/api.replicate.com/v1/models/owner/hostile/predictions",
		respond: {
			json: {
				id: "p9",
				status: "processing",
				output: null,
				urls: { get: "https://evil.example/v1/predictions/p9" },
			},
		},
	},
	{
		method: "GET",
		path: "/api.replicate.com/v1/predictions/p9",
		expect: { headers: { authorization: `Bearer ${PROVIDER_KEY}` } },
		respond: { json: { id: "p9", status: "succeeded", output: OUT } },
	},
	{
		path: "/router.huggingface.co/replicate/v1/models/timothybrooks/instruct-pix2pix/predictions",
		expect: {
			headers: { prefer: "wait" },
			json: {
				input: {
					prompt: "make it snow",
					image: `data:image/png;base64,${Buffer.from(PNG_BYTES).toString("base64")}`,
					images: [`data:image/png;base64,${Buffer.from(PNG_BYTES).toString("base64")}`],
					input_image: `data:image/png;base64,${Buffer.from(PNG_BYTES).toString("base64")}`,
					input_images: [`data:image/png;base64,${Buffer.from(PNG_BYTES).toString("base64")}`],
				},
			},
		},
		respond: { json: { output: OUT } },
	},
	{
		path: "/api.replicate.com/v1/models/timothybrooks/instruct-pix2pix/predictions",
		expect: {
			headers: { authorization: `Bearer ${PROVIDER_KEY}` },
			json: {
				input: {
					image: `data:image/jpeg;base64,${Buffer.from(PNG_BYTES).toString("base64")}`,
					images: [`data:image/jpeg;base64,${Buffer.from(PNG_BYTES).toString("base64")}`],
					input_image: `data:image/jpeg;base64,${Buffer.from(PNG_BYTES).toString("base64")}`,
					input_images: [`data:image/jpeg;base64,${Buffer.from(PNG_BYTES).toString("base64")}`],
				},
			},
		},
		respond: { json: { output: [OUT] } },
	},
	{ path: "/api.replicate.com/v1/models/owner/i2i-bad/predictions", respond: { json: { output: 7 } } },
	{
		path: "/router.huggingface.co/replicate/v1/predictions",
		when: (r) => (r.json as { version?: string }).version === "v3",
		expect: {
			json: {
				input: { language: "en", audio: `data:audio/wav;base64,${Buffer.from(WAV).toString("base64")}` },
				version: "v3",
			},
		},
		respond: { json: { output: "hello there" } },
	},
	{
		path: "/api.replicate.com/v1/models/owner/asr-list/predictions",
		respond: { json: { output: ["listed"] } },
	},
	{
		path: "/api.replicate.com/v1/models/owner/asr-transcription/predictions",
		expect: { json: { input: { audio: `data:audio/flac;base64,${Buffer.from(WAV).toString("base64")}` } } },
		respond: { json: { output: { transcription: "transcribed" } } },
	},
	{
		path: "/api.replicate.com/v1/models/owner/asr-translation/predictions",
		respond: { json: { output: { translation: "translated" } } },
	},
	{
		path: "/api.replicate.com/v1/models/owner/asr-file/predictions",
		respond: { json: { output: { txt_file: "https://replicate.delivery/xezq/out.txt" } } },
	},
	{ path: "/api.replicate.com/v1/models/owner/asr-bad/predictions", respond: { json: { output: { n: 1 } } } },
	{
		method: "GET",
		path: "/replicate.delivery/xezq/out.txt",
		expect: { headers: { authorization: null } },
		respond: { headers: { "content-type": "text/plain" }, body: "from a file" },
	},
	{
		path: "/router.huggingface.co/replicate/v1/models/owner/img-bad/predictions",
		respond: { json: { output: [] } },
	},
	{
		method: "GET",
		path: "/replicate.delivery/xezq/out.webp",
		respond: { headers: { "content-type": "image/webp" }, body: PNG_BYTES },
	},

	{
		path: "/router.huggingface.co/replicate/v1/models/jaaari/kokoro-82m/predictions",
		expect: { json: { input: { voice: "af_bella", text: "hello" } } },
		respond: { json: { output: OUT } },
	},
	{
		path: "/router.huggingface.co/replicate/v1/models/owner/tts-blob/predictions",
		respond: { headers: { "content-type": "audio/wav" }, body: WAV },
	},
	{
		path: "/router.huggingface.co/replicate/v1/models/owner/tts-bad/predictions",
		respond: { json: { output: 42 } },
	},

	{
		path: "/router.huggingface.co/replicate/v1/models/genmoai/mochi-1/predictions",
		expect: { json: { input: { num_frames: 10, prompt: "rain" } } },
		respond: { json: { output: OUT } },
	},
	{
		path: "/router.huggingface.co/replicate/v1/models/owner/video-bad/predictions",
		respond: { json: { output: ["x"] } },
	},
];

describe("replicate", () => {
	const server = useServer(table);

	it("text-to-image: direct, Prefer: wait, output[0] downloaded", async () => {
		const blob = await textToImage(
			{
				accessToken: PROVIDER_KEY,
				provider: "replicate",
				model: "black-forest-labs/FLUX.1-schnell",
				inputs: "a bird",
				parameters: { num_outputs: 1 },
			},
			{ fetch: server().fetch },
		);
		expect(blob.type).toBe("image/webp");
	});

	it("text-to-image: versioned ids use /v1/predictions with a version; outputType url", async () => {
		const url = await textToImage(
			{ accessToken: HF_TOKEN, provider: "replicate", model: "org/versioned", inputs: "a bird" },
			{ fetch: server().fetch, outputType: "url" },
		);
		expect(url).toBe(OUT);
	});

	it("text-to-image: LoRA adapters send lora_weights", async () => {
		const url = await textToImage(
			{ accessToken: HF_TOKEN, provider: "replicate", model: "org/flux-lora", inputs: "a bird" },
			{ fetch: server().fetch, outputType: "url" },
		);
		expect(url).toBe(OUT);
	});

	it("text-to-image: a prediction not finished within Prefer: wait is polled at urls.get", async () => {
		const url = await textToImage(
			{ accessToken: HF_TOKEN, provider: "replicate", model: "org/slow", inputs: "a bird" },
			{ ...FAST, fetch: server().fetch, outputType: "url" },
		);
		expect(url).toBe(OUT);
		expect(server().requestsTo("/router.huggingface.co/replicate/v1/predictions/p1")).toHaveLength(2);
	});

	it("text-to-image: urls.get on another host is polled on Replicate itself, so the key never leaves it", async () => {
		const url = await textToImage(
			{ accessToken: PROVIDER_KEY, provider: "replicate", model: "org/hostile", inputs: "a bird" },
			{ ...FAST, fetch: server().fetch, outputType: "url" },
		);
		expect(url).toBe(OUT);
		expect(server().requestsTo("/evil.example")).toEqual([]);
		expect(server().requestsTo("/api.replicate.com/v1/predictions/p9")).toHaveLength(1);
	});

	it("text-to-image: a malformed answer", async () => {
		await expect(
			textToImage(
				{ accessToken: HF_TOKEN, provider: "replicate", model: "org/img-bad", inputs: "x" },
				{ fetch: server().fetch },
			),
		).rejects.toThrow("Invalid inference output: Expected Replicate text-to-image response format.");
	});

	it("text-to-speech: input.text, output URL downloaded", async () => {
		const blob = await textToSpeech(
			{
				accessToken: HF_TOKEN,
				provider: "replicate",
				model: "hexgrad/Kokoro-82M",
				inputs: "hello",
				parameters: { voice: "af_bella" } as never,
			},
			{ fetch: server().fetch },
		);
		expect(blob.size).toBe(PNG_BYTES.length);
	});

	it("text-to-speech: a Blob answer is returned as it is", async () => {
		const blob = await textToSpeech(
			{ accessToken: HF_TOKEN, provider: "replicate", model: "org/tts-blob", inputs: "hello" },
			{ fetch: server().fetch },
		);
		expect(blob.type).toBe("audio/wav");
		expect(new Uint8Array(await blob.arrayBuffer())).toEqual(WAV);
	});

	it("text-to-speech: a malformed answer", async () => {
		await expect(
			textToSpeech(
				{ accessToken: HF_TOKEN, provider: "replicate", model: "org/tts-bad", inputs: "x" },
				{ fetch: server().fetch },
			),
		).rejects.toThrow("Invalid inference output: Expected Blob or object with output.");
	});

	it("text-to-video: output URL downloaded", async () => {
		const blob = await textToVideo(
			{
				accessToken: HF_TOKEN,
				provider: "replicate",
				model: "genmo/mochi-1-preview",
				inputs: "rain",
				parameters: { num_frames: 10 },
			},
			{ fetch: server().fetch },
		);
		expect(blob.size).toBe(PNG_BYTES.length);
	});

	it("text-to-video: a malformed answer", async () => {
		await expect(
			textToVideo(
				{ accessToken: HF_TOKEN, provider: "replicate", model: "org/video-bad", inputs: "x" },
				{ fetch: server().fetch },
			),
		).rejects.toThrow("Invalid inference output: Expected { output: string }.");
	});

	it("image-to-image (routed): the image as a data URL under every key Replicate models read", async () => {
		const blob = await imageToImage(
			{
				accessToken: HF_TOKEN,
				provider: "replicate",
				model: "timbrooks/instruct-pix2pix",
				inputs: new Blob([PNG_BYTES], { type: "image/png" }),
				parameters: { prompt: "make it snow" },
			},
			{ fetch: server().fetch },
		);
		expect(blob.type).toBe("image/webp");
	});

	it("image-to-image (direct): an ArrayBuffer is sent as image/jpeg; a list output is downloaded", async () => {
		const blob = await imageToImage(
			{
				accessToken: PROVIDER_KEY,
				provider: "replicate",
				model: "timbrooks/instruct-pix2pix",
				inputs: PNG_BYTES.buffer.slice(0) as ArrayBuffer,
			},
			{ fetch: server().fetch },
		);
		expect(blob.size).toBe(PNG_BYTES.length);
	});

	it("image-to-image: a malformed answer", async () => {
		await expect(
			imageToImage(
				{
					accessToken: PROVIDER_KEY,
					provider: "replicate",
					model: "org/i2i-bad",
					inputs: new Blob([PNG_BYTES]),
				},
				{ fetch: server().fetch },
			),
		).rejects.toThrow("Expected Replicate image-to-image response format");
	});

	it("automatic-speech-recognition: versioned id, audio as a data URL, a string output", async () => {
		const output = await automaticSpeechRecognition(
			{
				accessToken: HF_TOKEN,
				provider: "replicate",
				model: "openai/whisper-large-v3",
				inputs: new Blob([WAV]),
				parameters: { language: "en" } as never,
			},
			{ fetch: server().fetch },
		);
		expect(output).toEqual({ text: "hello there" });
	});

	it("automatic-speech-recognition: list, transcription, translation and txt_file outputs", async () => {
		const call = (model: string) =>
			automaticSpeechRecognition(
				{
					accessToken: PROVIDER_KEY,
					provider: "replicate",
					model,
					inputs: new Blob([WAV], { type: "audio/flac" }),
				},
				{ fetch: server().fetch },
			);
		expect(await call("org/asr-list")).toEqual({ text: "listed" });
		expect(await call("org/asr-transcription")).toEqual({ text: "transcribed" });
		expect(await call("org/asr-translation")).toEqual({ text: "translated" });
		expect(await call("org/asr-file")).toEqual({ text: "from a file" });
		await expect(call("org/asr-bad")).rejects.toBeInstanceOf(InferenceOutputError);
	});
});
