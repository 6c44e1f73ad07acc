/**
 * fal.ai — images, speech, video (queue) and speech recognition.
 *   auth: direct `Authorization: Key {key}`; routed `Bearer hf_…`.
 *   text-to-image: POST https://fal.run/{providerId}  body {…parameters, prompt} (no sync_mode, as huggingface_hub 2.0.0)
 *     (+ loras for LoRA adapters) → {images: [{url}]} → GET url (outputType "url": the URL itself)
 *   text-to-speech: POST https://fal.run/{providerId}  body {…parameters, text} → {audio: {url}} → GET url
 *   text-to-video: POST https://queue.fal.run/{providerId} (routed: {router}/fal-ai/{providerId}?_subdomain=queue)
 *     → {request_id, status, response_url}; GET {base}{response_url path}/status{query} until COMPLETED
 *     (same headers as the submit), then GET {base}{response_url path}{query} → {video: {url}} → GET url
 *   automatic-speech-recognition: POST https://fal.run/{providerId}, JSON {audio_url: data:{type};base64,…}
 *     → {text} (or {output}), timestamps from chunks[] or segments[]
 *   queue tasks (new in today's clients; same queue protocol as text-to-video, files downloaded without credentials):
 *     image-to-image  {…parameters, image_url: data URL, image_urls: [data URL], loras?} → images[0].url
 *     image-to-video  {…parameters, image_url: data URL, loras?} → video.url
 *     image-segmentation {…parameters, image_url, sync_mode: true} → image.url → [{label: "mask", score: 1, mask: base64}]
 *     image-text-to-image / -video: as above with an image; without one, {…parameters, prompt} to the text-only
 *       app one path segment up (direct calls only)
 *     text-to-audio {…parameters, prompt} → audio_file.url or audio.url
 *     audio-to-audio {…parameters, audio_url: data URL (types fal decodes)} → audio.url → [{blob, content-type, label}]
 */
import { describe, expect, it } from "vitest";
import {
	audioToAudio,
	automaticSpeechRecognition,
	imageSegmentation,
	imageTextToImage,
	imageTextToVideo,
	imageToImage,
	imageToVideo,
	InferenceInputError,
	InferenceOutputError,
	prepareRequest,
	textToAudio,
	textToImage,
	textToSpeech,
	textToVideo,
} from "../../src/index.js";
import { B64_IMAGE, FAST, HF_TOKEN, hubModel, PNG_BYTES, PROVIDER_KEY } from "../support/fixtures.js";
import type { Route } from "../support/servers.js";
import { useServer } from "../support/setup.js";

const IMAGE_URL = "https://v3.fal.media/files/image.png";
const AUDIO_URL = "https://v3.fal.media/files/speech.mp3";
const VIDEO_URL = "https://v3.fal.media/files/video.mp4";
const RESPONSE_URL = "https://queue.fal.run/fal-ai/ltx-video/requests/req-1";
const MP3 = new Uint8Array([0x49, 0x44, 0x33, 4, 0, 0]);

const QUEUE = "https://queue.fal.run";
const DATA_URL = `data:image/png;base64,${B64_IMAGE}`;
const MASK_URL = "https://v3.fal.media/files/mask.png";
const AUDIO_OUT = "https://v3.fal.media/files/out.wav";

/** A queue app: submit → request id; status COMPLETED at once; result JSON. */
function queueApp(
	base: string,
	app: string,
	expectJson: Record<string, unknown> | undefined,
	result: unknown,
	id: string,
	auth: string,
): Route[] {
	const query = base.startsWith("/router") ? "?_subdomain=queue" : "";
	return [
		{
			path: `${base}/${app}${query}`,
			expect: { headers: { authorization: auth }, ...(expectJson ? { json: expectJson } : {}) },
			respond: {
				json: { request_id: id, status: "IN_QUEUE", response_url: `${QUEUE}/${app}/requests/${id}` },
			},
		},
		{
			method: "GET",
			path: `${base}/${app}/requests/${id}/status${query}`,
			expect: { headers: { authorization: auth } },
			respond: { json: { status: "COMPLETED" } },
		},
		{
			method: "GET",
			path: `${base}/${app}/requests/${id}${query}`,
			expect: { headers: { authorization: auth } },
			respond: { json: result },
		},
	];
}

const ROUTED_QUEUE = "/router.huggingface.co/fal-ai";
const DIRECT_QUEUE = "/queue.fal.run";
const BEARER = `Bearer ${HF_TOKEN}`;
const KEY = `Key ${PROVIDER_KEY}`;

const QUEUE_ROUTES: Route[] = [
	hubModel("black-forest-labs/FLUX.1-Kontext-dev", {
		"fal-ai": { providerId: "fal-ai/flux-kontext/dev", status: "live", task: "image-to-image" },
	}),
	hubModel("org/i2i-lora", {
		"fal-ai": {
			providerId: "fal-ai/flux-lora/image-to-image",
			status: "live",
			task: "image-to-image",
			adapter: "lora",
			adapterWeightsPath: "w.safetensors",
		},
	}),
	hubModel("Wan-AI/Wan2.1-I2V-14B-720P", {
		"fal-ai": { providerId: "fal-ai/wan-i2v", status: "live", task: "image-to-video" },
	}),
	hubModel("briaai/RMBG-2.0", {
		"fal-ai": { providerId: "fal-ai/bria/background/remove", status: "live", task: "image-segmentation" },
	}),
	hubModel("org/seg-inline", {
		"fal-ai": { providerId: "fal-ai/seg-inline", status: "live", task: "image-segmentation" },
	}),
	hubModel("black-forest-labs/FLUX.2-dev", {
		"fal-ai": { providerId: "fal-ai/flux-2/edit", status: "live", task: "image-text-to-image" },
	}),
	hubModel("Lightricks/LTX-2", {
		"fal-ai": { providerId: "fal-ai/ltx-2/image-to-video", status: "live", task: "image-text-to-video" },
	}),
	hubModel("stabilityai/stable-audio-open-1.0", {
		"fal-ai": { providerId: "fal-ai/stable-audio", status: "live", task: "text-to-audio" },
	}),
	hubModel("org/t2a-bad", {
		"fal-ai": { providerId: "fal-ai/t2a-bad", status: "live", task: "text-to-audio" },
	}),
	hubModel("org/enhancer", {
		"fal-ai": { providerId: "fal-ai/enhancer", status: "live", task: "audio-to-audio" },
	}),
	...queueApp(
		DIRECT_QUEUE,
		"fal-ai/flux-kontext/dev",
		{ prompt: "snow", image_url: DATA_URL, image_urls: [DATA_URL] },
		{ images: [{ url: IMAGE_URL }] },
		"i2i",
		KEY,
	),
	...queueApp(
		ROUTED_QUEUE,
		"fal-ai/flux-lora/image-to-image",
		{
			image_url: DATA_URL,
			image_urls: [DATA_URL],
			loras: [{ path: "https://huggingface.co/org/i2i-lora/resolve/main/w.safetensors", scale: 1 }],
		},
		{ images: [{ url: "not a url" }] },
		"i2i-lora",
		BEARER,
	),
	...queueApp(
		ROUTED_QUEUE,
		"fal-ai/wan-i2v",
		{ prompt: "it moves", image_url: DATA_URL },
		{ video: { url: VIDEO_URL } },
		"i2v",
		BEARER,
	),
	...queueApp(
		DIRECT_QUEUE,
		"fal-ai/bria/background/remove",
		{ image_url: DATA_URL, sync_mode: true },
		{ image: { url: MASK_URL } },
		"seg",
		KEY,
	),
	...queueApp(
		DIRECT_QUEUE,
		"fal-ai/seg-inline",
		undefined,
		{ image: { url: `data:image/png;base64,${B64_IMAGE}` } },
		"seg-inline",
		KEY,
	),
	...queueApp(
		DIRECT_QUEUE,
		"fal-ai/flux-2/edit",
		{ prompt: "a hat", image_url: DATA_URL, image_urls: [DATA_URL] },
		{ images: [{ url: IMAGE_URL }] },
		"it2i",
		KEY,
	),
	...queueApp(
		DIRECT_QUEUE,
		"fal-ai/flux-2",
		{ prompt: "a hat" },
		{ images: [{ url: IMAGE_URL }] },
		"it2i-text",
		KEY,
	),
	...queueApp(
		ROUTED_QUEUE,
		"fal-ai/flux-2/edit",
		{ prompt: "a hat" },
		{ images: [{ url: IMAGE_URL }] },
		"it2i-routed",
		BEARER,
	),
	...queueApp(
		ROUTED_QUEUE,
		"fal-ai/ltx-2/image-to-video",
		{ prompt: "it moves", image_url: DATA_URL },
		{ video: { url: VIDEO_URL } },
		"it2v",
		BEARER,
	),
	...queueApp(
		ROUTED_QUEUE,
		"fal-ai/stable-audio",
		{ seconds_total: 5, prompt: "rain" },
		{ audio_file: { url: AUDIO_OUT } },
		"t2a",
		BEARER,
	),
	...queueApp(DIRECT_QUEUE, "fal-ai/t2a-bad", undefined, { audio: "none" }, "t2a-bad", KEY),
	...queueApp(
		DIRECT_QUEUE,
		"fal-ai/enhancer",
		{ audio_url: `data:audio/x-wav;base64,${Buffer.from(MP3).toString("base64")}` },
		{ audio: { url: AUDIO_OUT, content_type: "audio/wav" }, text: "enhanced" },
		"a2a",
		KEY,
	),
	{
		method: "GET",
		path: "/v3.fal.media/files/mask.png",
		expect: { headers: { authorization: null } },
		respond: { headers: { "content-type": "image/png" }, body: PNG_BYTES },
	},
	{
		method: "GET",
		path: "/v3.fal.media/files/out.wav",
		expect: { headers: { authorization: null } },
		respond: { headers: { "content-type": "audio/wav" }, body: MP3 },
	},
];

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
	hubModel("org/whisper-wav", {
		"fal-ai": { providerId: "fal-ai/whisper-wav", status: "live", task: "automatic-speech-recognition" },
	}),
	hubModel("nvidia/parakeet", {
		"fal-ai": { providerId: "fal-ai/nemotron", status: "live", task: "automatic-speech-recognition" },
	}),
	hubModel("org/asr-bad", {
		"fal-ai": { providerId: "fal-ai/asr-bad", status: "live", task: "automatic-speech-recognition" },
	}),

	{
		path: "/fal.run/fal-ai/flux/dev",
		expect: {
			headers: { authorization: `Key ${PROVIDER_KEY}` },
			json: { seed: 3, prompt: "a tree" },
		},
		respond: { json: { images: [{ url: IMAGE_URL, content_type: "image/png" }] } },
	},
	{
		path: "/router.huggingface.co/fal-ai/fal-ai/lora",
		expect: {
			headers: { authorization: `Bearer ${HF_TOKEN}` },
			json: {
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
	{
		path: "/fal.run/fal-ai/whisper-wav",
		expect: { json: { audio_url: `data:audio/x-wav;base64,${Buffer.from(MP3).toString("base64")}` } },
		respond: { json: { text: "from a wav" } },
	},
	{
		path: "/fal.run/fal-ai/nemotron",
		respond: { json: { output: "from output", segments: [{ text: "from output", start: 0.5, end: 2 }] } },
	},
	{ path: "/fal.run/fal-ai/asr-bad", respond: { json: { transcript: "x" } } },
	...QUEUE_ROUTES,
];

describe("fal-ai", () => {
	const server = useServer(table);

	it("text-to-image: direct with Key auth, no sync_mode, downloads the image", async () => {
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

	it("automatic-speech-recognition: JSON with a data URL; text and chunks", async () => {
		const output = await automaticSpeechRecognition(
			{
				accessToken: PROVIDER_KEY,
				provider: "fal-ai",
				model: "openai/whisper-large-v3",
				inputs: new Blob([MP3], { type: "audio/mpeg" }),
			},
			{ fetch: server().fetch },
		);
		expect(output).toEqual({ text: "hello world", chunks: [{ text: "hello world", timestamp: [0, 1] }] });
	});

	it("automatic-speech-recognition: audio/wav is labelled audio/x-wav, the spelling fal decodes", async () => {
		const output = await automaticSpeechRecognition(
			{
				accessToken: PROVIDER_KEY,
				provider: "fal-ai",
				model: "org/whisper-wav",
				inputs: new Blob([MP3], { type: "audio/wav" }),
			},
			{ fetch: server().fetch },
		);
		expect(output).toEqual({ text: "from a wav" });
	});

	it("automatic-speech-recognition: `output` and `segments` answers; neither text nor output is an error", async () => {
		const call = (model: string) =>
			automaticSpeechRecognition(
				{
					accessToken: PROVIDER_KEY,
					provider: "fal-ai",
					model,
					inputs: new Blob([MP3], { type: "audio/wav" }),
				},
				{ fetch: server().fetch },
			);
		expect(await call("nvidia/parakeet")).toEqual({
			text: "from output",
			chunks: [{ text: "from output", timestamp: [0.5, 2] }],
		});
		await expect(call("org/asr-bad")).rejects.toThrow("Invalid inference output: Expected {text: string}.");
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

	it("automatic-speech-recognition and audio-to-audio label audio by one rule (case and parameters ignored)", async () => {
		const bytes = Buffer.from(MP3).toString("base64");
		const label = async (fn: typeof automaticSpeechRecognition | typeof audioToAudio, type: string) => {
			const prepared = await prepareRequest(
				fn,
				{
					accessToken: PROVIDER_KEY,
					provider: "fal-ai",
					model: "org/any",
					inputs: new Blob([MP3], { type }),
				},
				{
					inferenceProviderMapping: {
						providerId: "fal-ai/any",
						status: "live",
						task: fn === audioToAudio ? "audio-to-audio" : "automatic-speech-recognition",
					},
				},
			);
			return (prepared.json as { audio_url: string }).audio_url;
		};
		const cases: Array<[string, string]> = [
			["audio/mp3", "audio/mpeg"],
			["audio/mp4", "audio/mp4"],
			["audio/wave", "audio/x-wav"],
			["AUDIO/WAV", "audio/x-wav"],
			["audio/webm;codecs=opus", "video/webm"],
		];
		for (const [type, sent] of cases) {
			expect(await label(automaticSpeechRecognition, type)).toBe(`data:${sent};base64,${bytes}`);
			expect(await label(audioToAudio, type)).toBe(`data:${sent};base64,${bytes}`);
		}
		const refusal =
			"Provider fal-ai does not support blob type audio/ogg - supported content types are: audio/mpeg, audio/mp3, audio/mp4, audio/wav, audio/wave, audio/x-wav, audio/webm, video/webm";
		await expect(label(automaticSpeechRecognition, "audio/ogg")).rejects.toThrow(refusal);
		await expect(label(audioToAudio, "audio/ogg")).rejects.toThrow(refusal);
	});

	it("automatic-speech-recognition: only the audio types fal decodes", async () => {
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
			"Provider fal-ai does not support blob type audio/ogg - supported content types are: audio/mpeg, audio/mp3, audio/mp4, audio/wav, audio/wave, audio/x-wav, audio/webm, video/webm",
		);
	});

	const image = () => new Blob([PNG_BYTES], { type: "image/png" });

	it("image-to-image (direct queue, Key auth): image_url and image_urls as data URLs; the image downloaded", async () => {
		const blob = await imageToImage(
			{
				accessToken: PROVIDER_KEY,
				provider: "fal-ai",
				model: "black-forest-labs/FLUX.1-Kontext-dev",
				inputs: image(),
				parameters: { prompt: "snow" },
			},
			{ ...FAST, fetch: server().fetch },
		);
		expect(new Uint8Array(await blob.arrayBuffer())).toEqual(PNG_BYTES);
	});

	it("image-to-image (routed): LoRA adapters add loras; a result without a URL is an output error", async () => {
		await expect(
			imageToImage(
				{
					accessToken: HF_TOKEN,
					provider: "fal-ai",
					model: "org/i2i-lora",
					inputs: PNG_BYTES.buffer.slice(0) as ArrayBuffer,
				},
				{ ...FAST, fetch: server().fetch },
			),
		).rejects.toThrow(
			/Expected \{ images: Array<\{ url: string \}> \} result format from Fal.ai image-to-image/,
		);
	});

	it("image-to-video (routed queue): the image as image_url, the video downloaded", async () => {
		const blob = await imageToVideo(
			{
				accessToken: HF_TOKEN,
				provider: "fal-ai",
				model: "Wan-AI/Wan2.1-I2V-14B-720P",
				inputs: image(),
				parameters: { prompt: "it moves" },
			},
			{ ...FAST, fetch: server().fetch },
		);
		expect(blob.type).toBe("video/mp4");
	});

	it("image-segmentation: the mask downloaded without credentials, as one base64 mask", async () => {
		const output = await imageSegmentation(
			{ accessToken: PROVIDER_KEY, provider: "fal-ai", model: "briaai/RMBG-2.0", inputs: image() },
			{ ...FAST, fetch: server().fetch },
		);
		expect(output).toEqual([{ label: "mask", score: 1, mask: B64_IMAGE }]);
	});

	it("image-segmentation: a data: URL mask is read in place", async () => {
		const output = await imageSegmentation(
			{ accessToken: PROVIDER_KEY, provider: "fal-ai", model: "org/seg-inline", inputs: image() },
			{ ...FAST, fetch: server().fetch },
		);
		expect(output).toEqual([{ label: "mask", score: 1, mask: B64_IMAGE }]);
	});

	it("image-text-to-image: with an image as image-to-image; without, the text-only app one level up (direct)", async () => {
		const withImage = await imageTextToImage(
			{
				accessToken: PROVIDER_KEY,
				provider: "fal-ai",
				model: "black-forest-labs/FLUX.2-dev",
				inputs: image(),
				parameters: { prompt: "a hat" },
			},
			{ ...FAST, fetch: server().fetch },
		);
		expect(withImage.size).toBe(PNG_BYTES.length);
		const textOnly = await imageTextToImage(
			{
				accessToken: PROVIDER_KEY,
				provider: "fal-ai",
				model: "black-forest-labs/FLUX.2-dev",
				parameters: { prompt: "a hat" },
			},
			{ ...FAST, fetch: server().fetch },
		);
		expect(textOnly.size).toBe(PNG_BYTES.length);
		expect(
			server()
				.requestsTo("/queue.fal.run/fal-ai/flux-2")
				.map((r) => r.path),
		).toContain("/queue.fal.run/fal-ai/flux-2");
	});

	it("image-text-to-image without an image, routed: the mapped app itself (the router resolves it)", async () => {
		const blob = await imageTextToImage(
			{
				accessToken: HF_TOKEN,
				provider: "fal-ai",
				model: "black-forest-labs/FLUX.2-dev",
				parameters: { prompt: "a hat" },
			},
			{ ...FAST, fetch: server().fetch },
		);
		expect(blob.size).toBe(PNG_BYTES.length);
	});

	it("image-text-to-video (routed): the image as image_url", async () => {
		const blob = await imageTextToVideo(
			{
				accessToken: HF_TOKEN,
				provider: "fal-ai",
				model: "Lightricks/LTX-2",
				inputs: image(),
				parameters: { prompt: "it moves" },
			},
			{ ...FAST, fetch: server().fetch },
		);
		expect(blob.type).toBe("video/mp4");
	});

	it("text-to-audio: prompt and parameters; the audio_file downloaded; other shapes are output errors", async () => {
		const blob = await textToAudio(
			{
				accessToken: HF_TOKEN,
				provider: "fal-ai",
				model: "stabilityai/stable-audio-open-1.0",
				inputs: "rain",
				parameters: { seconds_total: 5 },
			},
			{ ...FAST, fetch: server().fetch },
		);
		expect(blob.type).toBe("audio/wav");
		await expect(
			textToAudio(
				{ accessToken: PROVIDER_KEY, provider: "fal-ai", model: "org/t2a-bad", inputs: "x" },
				{ ...FAST, fetch: server().fetch },
			),
		).rejects.toBeInstanceOf(InferenceOutputError);
	});

	it("audio-to-audio: audio/wav is labelled audio/x-wav (what fal decodes); the answer comes back base64", async () => {
		const output = await audioToAudio(
			{
				accessToken: PROVIDER_KEY,
				provider: "fal-ai",
				model: "org/enhancer",
				inputs: new Blob([MP3], { type: "audio/wav" }),
			},
			{ ...FAST, fetch: server().fetch },
		);
		expect(output).toEqual([
			{ blob: Buffer.from(MP3).toString("base64"), "content-type": "audio/wav", label: "enhanced" },
		]);
	});

	it("audio-to-audio: a type fal cannot decode is refused before any request", async () => {
		await expect(
			audioToAudio({
				accessToken: PROVIDER_KEY,
				provider: "fal-ai",
				model: "org/enhancer",
				inputs: new Blob([MP3], { type: "audio/ogg" }),
			}),
		).rejects.toBeInstanceOf(InferenceInputError);
	});
});
