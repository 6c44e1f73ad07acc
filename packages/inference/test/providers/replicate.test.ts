/**
 * Replicate — predictions for images, speech and video.
 *   POST https://api.replicate.com/v1/models/{providerId}/predictions   (routed: {router}/replicate/…)
 *   POST https://api.replicate.com/v1/predictions with body.version for "owner/name:version" ids
 *   headers: Prefer: wait; body {input: {…parameters, prompt | text}, version?}
 *   answers: text-to-image {output: [url]}; text-to-speech a Blob, {output: url} or {output: [url]};
 *            text-to-video {output: url}. URLs are downloaded.
 *   Our addition: an answer still "starting"/"processing" is polled at urls.get until it settles.
 */
import { describe, expect, it } from "vitest";
import { textToImage, textToSpeech, textToVideo } from "../../src/index.js";
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
		path: "/api.replicate.com/v1/predictions/p1",
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
		expect(server().requestsTo("/api.replicate.com/v1/predictions/p1")).toHaveLength(2);
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
});
