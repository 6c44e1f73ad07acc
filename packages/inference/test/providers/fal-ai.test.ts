/**
 * fal.ai — images, speech, video (queue) and speech recognition.
 *   auth: direct `Authorization: Key {key}`; routed `Bearer hf_…`.
 *   text-to-image: POST https://fal.run/{providerId}  body {…parameters, sync_mode: true, prompt}
 *     (+ loras for LoRA adapters) → {images: [{url}]} → GET url (outputType "url": the URL itself)
 *   text-to-speech: POST https://fal.run/{providerId}  body {…parameters, text} → {audio: {url}} → GET url
 *   text-to-video: POST https://queue.fal.run/{providerId} (routed: {router}/fal-ai/{providerId}?_subdomain=queue)
 *     → {request_id, status, response_url}; GET {base}{response_url path}/status{query} until COMPLETED
 *     (same headers as the submit), then GET {base}{response_url path}{query} → {video: {url}} → GET url
 *   automatic-speech-recognition: POST https://fal.run/{providerId}, JSON {audio_url: data:{type};base64,…}
 */
import { describe, expect, it } from "vitest";
import { automaticSpeechRecognition, textToImage, textToSpeech, textToVideo } from "../../src/index.js";
import { FAST, HF_TOKEN, hubModel, PNG_BYTES, PROVIDER_KEY } from "../support/fixtures.js";
import type { Route } from "../support/servers.js";
import { useServer } from "../support/setup.js";

const IMAGE_URL = "https://v3.fal.media/files/image.png";
const AUDIO_URL = "https://v3.fal.media/files/speech.mp3";
const VIDEO_URL = "https://v3.fal.media/files/video.mp4";
const RESPONSE_URL = "https://queue.fal.run/fal-ai/ltx-video/requests/req-1";
const MP3 = new Uint8Array([0x49, 0x44, 0x33, 4, 0, 0]);

let statusPolls = 0;
const queueStatus = (): { json: unknown } => ({
	json: { status: ++statusPolls < 3 ? "IN_PROGRESS" : "COMPLETED" },
});

const table: Route[] = [
	hubModel("black-forest-labs/FLUX.1-dev", {
		"fal-ai": { providerId: "fal-ai/flux/dev", status: "live", task: "text-to-image" },
	}),
	hubModel("org/sdxl-lora", {
		"fal-ai": {
			providerId: "fal-ai/lora",
			status: "live",
			task: "text-to-image",
			adapter: "lora",
			adapterWeightsPath: "w.safetensors",
		},
	}),
	hubModel("org/img-bad", { "fal-ai": { providerId: "img-bad", status: "live", task: "text-to-image" } }),
	hubModel("hexgrad/Kokoro-82M", {
		"fal-ai": { providerId: "fal-ai/kokoro", status: "live", task: "text-to-speech" },
	}),
	hubModel("org/tts-bad", { "fal-ai": { providerId: "tts-bad", status: "live", task: "text-to-speech" } }),
	hubModel("org/tts-404", { "fal-ai": { providerId: "tts-404", status: "live", task: "text-to-speech" } }),
	hubModel("Lightricks/LTX-Video", {
		"fal-ai": { providerId: "fal-ai/ltx-video", status: "live", task: "text-to-video" },
	}),
	hubModel("org/video-no-id", {
		"fal-ai": { providerId: "video-no-id", status: "live", task: "text-to-video" },
	}),
	hubModel("openai/whisper-large-v3", {
		"fal-ai": { providerId: "fal-ai/whisper", status: "live", task: "automatic-speech-recognition" },
	}),

	{
		path: "/fal.run/fal-ai/flux/dev",
		expect: {
			headers: { authorization: `Key ${PROVIDER_KEY}` },
			json: { seed: 3, sync_mode: true, prompt: "a tree" },
		},
		respond: { json: { images: [{ url: IMAGE_URL, content_type: "image/png" }] } },
	},
	{
		path: "/router.huggingface.co/fal-ai/fal-ai/lora",
		expect: {
			headers: { authorization: `Bearer ${HF_TOKEN}` },
			json: {
				sync_mode: true,
				prompt: "a tree",
				loras: [{ path: "https://huggingface.co/org/sdxl-lora/resolve/main/w.safetensors", scale: 1 }],
				model_name: "stabilityai/stable-diffusion-xl-base-1.0",
			},
		},
		respond: { json: { images: [{ url: IMAGE_URL }] } },
	},
	{ path: "/fal.run/img-bad", respond: { json: { images: [] } } },
	{
		method: "GET",
		path: "/v3.fal.media/files/image.png",
		respond: { headers: { "content-type": "image/png" }, body: PNG_BYTES },
	},

	{
		path: "/fal.run/fal-ai/kokoro",
		expect: { json: { voice: "af", text: "hello" } },
		respond: { json: { audio: { url: AUDIO_URL } } },
	},
	{ path: "/fal.run/tts-bad", respond: { json: { audio: "nope" } } },
	{
		path: "/fal.run/tts-404",
		respond: { json: { audio: { url: "https://v3.fal.media/files/missing.mp3" } } },
	},
	{
		method: "GET",
		path: "/v3.fal.media/files/speech.mp3",
		respond: { headers: { "content-type": "audio/mpeg" }, body: MP3 },
	},
	{ method: "GET", path: "/v3.fal.media/files/missing.mp3", respond: { status: 404, body: "" } },

	{
		path: "/router.huggingface.co/fal-ai/fal-ai/ltx-video?_subdomain=queue",
		expect: { headers: { authorization: `Bearer ${HF_TOKEN}` }, json: { num_frames: 9, prompt: "waves" } },
		respond: { json: { request_id: "req-1", status: "IN_QUEUE", response_url: RESPONSE_URL } },
	},
	{
		method: "GET",
		path: "/router.huggingface.co/fal-ai/fal-ai/ltx-video/requests/req-1/status?_subdomain=queue",
		expect: { headers: { authorization: `Bearer ${HF_TOKEN}` } },
		respond: queueStatus,
	},
	{
		method: "GET",
		path: "/router.huggingface.co/fal-ai/fal-ai/ltx-video/requests/req-1?_subdomain=queue",
		respond: { json: { video: { url: VIDEO_URL } } },
	},
	{
		path: "/queue.fal.run/fal-ai/ltx-video",
		expect: { headers: { authorization: `Key ${PROVIDER_KEY}` } },
		respond: { json: { request_id: "req-1", status: "COMPLETED", response_url: RESPONSE_URL } },
	},
	{
		method: "GET",
		path: "/queue.fal.run/fal-ai/ltx-video/requests/req-1",
		expect: { headers: { authorization: `Key ${PROVIDER_KEY}` } },
		respond: { json: { video: { url: "not a url" } } },
	},
	{ path: "/router.huggingface.co/fal-ai/video-no-id", respond: { json: { status: "IN_QUEUE" } } },
	{
		method: "GET",
		path: "/v3.fal.media/files/video.mp4",
		respond: { headers: { "content-type": "video/mp4" }, body: MP3 },
	},

	{
		path: "/fal.run/fal-ai/whisper",
		expect: {
			headers: { "content-type": "application/json" },
			json: { audio_url: `data:audio/mpeg;base64,${Buffer.from(MP3).toString("base64")}` },
		},
		respond: { json: { text: "hello world", chunks: [{ text: "hello world", timestamp: [0, 1] }] } },
	},
];

describe("fal-ai", () => {
	const server = useServer(table);

	it("text-to-image: direct with Key auth, sync_mode, downloads the image", async () => {
		const blob = await textToImage(
			{
				accessToken: PROVIDER_KEY,
				provider: "fal-ai",
				model: "black-forest-labs/FLUX.1-dev",
				inputs: "a tree",
				parameters: { seed: 3 },
			},
			{ fetch: server().fetch },
		);
		expect(blob.type).toBe("image/png");
		expect(new Uint8Array(await blob.arrayBuffer())).toEqual(PNG_BYTES);
	});

	it("text-to-image: outputType url returns the image URL (fixed incumbent bug)", async () => {
		const url = await textToImage(
			{
				accessToken: PROVIDER_KEY,
				provider: "fal-ai",
				model: "black-forest-labs/FLUX.1-dev",
				inputs: "a tree",
				parameters: { seed: 3 },
			},
			{ fetch: server().fetch, outputType: "url" },
		);
		expect(url).toBe(IMAGE_URL);
		expect(server().requestsTo("/v3.fal.media")).toEqual([]);
	});

	it("text-to-image: LoRA adapters add loras and the SDXL base for fal-ai/lora", async () => {
		const blob = await textToImage(
			{ accessToken: HF_TOKEN, provider: "fal-ai", model: "org/sdxl-lora", inputs: "a tree" },
			{ fetch: server().fetch },
		);
		expect(blob.size).toBe(PNG_BYTES.length);
	});

	it("text-to-image: a malformed answer", async () => {
		await expect(
			textToImage(
				{ accessToken: PROVIDER_KEY, provider: "fal-ai", model: "org/img-bad", inputs: "x" },
				{ fetch: server().fetch },
			),
		).rejects.toThrow("Invalid inference output: Expected Fal.ai text-to-image response format.");
	});

	it("text-to-speech: text = inputs, audio downloaded", async () => {
		const blob = await textToSpeech(
			{
				accessToken: PROVIDER_KEY,
				provider: "fal-ai",
				model: "hexgrad/Kokoro-82M",
				inputs: "hello",
				parameters: { voice: "af" } as never,
			},
			{ fetch: server().fetch },
		);
		expect(blob.type).toBe("audio/mpeg");
	});

	it("text-to-speech: a malformed answer quotes it", async () => {
		await expect(
			textToSpeech(
				{ accessToken: PROVIDER_KEY, provider: "fal-ai", model: "org/tts-bad", inputs: "x" },
				{ fetch: server().fetch },
			),
		).rejects.toThrow(
			'Expected { audio: { url: string } } format from Fal.ai Text-to-Speech, got: {"audio":"nope"}',
		);
	});

	it("text-to-speech: a failed download", async () => {
		await expect(
			textToSpeech(
				{ accessToken: PROVIDER_KEY, provider: "fal-ai", model: "org/tts-404", inputs: "x" },
				{ fetch: server().fetch },
			),
		).rejects.toThrow(
			"Invalid inference output: Error fetching or processing audio from Fal.ai Text-to-Speech URL: https://v3.fal.media/files/missing.mp3. Failed to fetch audio from https://v3.fal.media/files/missing.mp3: Not Found.",
		);
	});

	it("text-to-video: routed queue, status polled until COMPLETED, then result and download", async () => {
		statusPolls = 0;
		const blob = await textToVideo(
			{
				accessToken: HF_TOKEN,
				provider: "fal-ai",
				model: "Lightricks/LTX-Video",
				inputs: "waves",
				parameters: { num_frames: 9 },
			},
			{ ...FAST, fetch: server().fetch },
		);
		expect(blob.type).toBe("video/mp4");
		expect(
			server().requestsTo("/router.huggingface.co/fal-ai/fal-ai/ltx-video/requests/req-1/status"),
		).toHaveLength(3);
	});

	it("text-to-video: direct, already COMPLETED (no status call); the result shape is checked", async () => {
		await expect(
			textToVideo(
				{ accessToken: PROVIDER_KEY, provider: "fal-ai", model: "Lightricks/LTX-Video", inputs: "waves" },
				{ ...FAST, fetch: server().fetch },
			),
		).rejects.toThrow(
			'Expected { video: { url: string } } result format, got instead: {"video":{"url":"not a url"}}',
		);
		expect(server().requestsTo("/queue.fal.run/fal-ai/ltx-video/requests/req-1/status")).toHaveLength(0);
	});

	it("text-to-video: the submit answer needs a request id", async () => {
		await expect(
			textToVideo(
				{ accessToken: HF_TOKEN, provider: "fal-ai", model: "org/video-no-id", inputs: "x" },
				{ fetch: server().fetch },
			),
		).rejects.toThrow("Invalid inference output: No request ID found in the response.");
	});

	it("automatic-speech-recognition: JSON with a data URL; only text is returned", async () => {
		const output = await automaticSpeechRecognition(
			{
				accessToken: PROVIDER_KEY,
				provider: "fal-ai",
				model: "openai/whisper-large-v3",
				inputs: new Blob([MP3], { type: "audio/mpeg" }),
			},
			{ fetch: server().fetch },
		);
		expect(output).toEqual({ text: "hello world" });
	});

	it("automatic-speech-recognition: the blob needs a type", async () => {
		await expect(
			automaticSpeechRecognition({
				accessToken: PROVIDER_KEY,
				provider: "fal-ai",
				model: "openai/whisper-large-v3",
				inputs: new Blob([MP3]),
			}),
		).rejects.toThrow(
			"Unable to determine the input's content-type. Make sure your are passing a Blob when using provider fal-ai.",
		);
	});

	it("automatic-speech-recognition: only four audio types", async () => {
		await expect(
			automaticSpeechRecognition(
				{
					accessToken: PROVIDER_KEY,
					provider: "fal-ai",
					model: "openai/whisper-large-v3",
					inputs: new Blob([MP3], { type: "audio/ogg" }),
				},
				{ fetch: server().fetch },
			),
		).rejects.toThrow(
			"Provider fal-ai does not support blob type audio/ogg - supported content types are: audio/mpeg, audio/mp4, audio/wav, audio/x-wav",
		);
	});
});
