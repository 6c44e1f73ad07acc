/**
 * WaveSpeedAI — image and video generation (new in today's clients).
 *   submit: POST {router}/wavespeed/api/v3/{providerId} | https://api.wavespeed.ai/api/v3/{providerId}
 *     text tasks: {…other arguments, …parameters (but `images`), prompt = inputs, loras?}
 *     image tasks: the image as bare base64 in `image` and in `images` (unless the caller gives a list), the
 *       prompt from the parameters; image+text tasks without an image send a 1×1 transparent PNG
 *     LoRA adapters: loras [{path: hub model id, scale: 1}]
 *   → {data: {id, urls: {get}}}; GET {same base}{path of urls.get} every 500 ms while data.status is
 *     created/processing; completed → data.outputs[0] downloaded without credentials (text-to-image with
 *     outputType "url": the URL itself); failed → data.error
 */
import { describe, expect, it } from "vitest";
import {
	imageTextToImage,
	imageTextToVideo,
	imageToImage,
	imageToVideo,
	InferenceInputError,
	InferenceOutputError,
	InferenceProviderApiError,
	textToImage,
	textToVideo,
} from "../../src/index.js";
import { B64_IMAGE, FAST, HF_TOKEN, hubModel, PNG_BYTES, PROVIDER_KEY } from "../support/fixtures.js";
import type { Route } from "../support/servers.js";
import { useServer } from "../support/setup.js";

const ROUTED = "/router.huggingface.co/wavespeed";
const DIRECT = "/api.wavespeed.ai";
const OUTPUT = "https://d1q70pf5vjeyhc.cloudfront.example/out.png";
const BLANK_PNG =
	"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

const submitted = (id: string, host = "api.wavespeed.ai") => ({
	json: {
		code: 200,
		message: "success",
		data: { id, urls: { get: `https://${host}/api/v3/predictions/${id}/result` } },
	},
});
const status = (value: string, extra: Record<string, unknown> = {}) => ({
	json: { code: 200, message: "success", data: { status: value, ...extra } },
});

/** A task: submit, then polls answering `statuses` in turn (the last one repeats). */
function task(
	base: string,
	providerId: string,
	id: string,
	expectJson: Record<string, unknown> | undefined,
	statuses: Array<ReturnType<typeof status>>,
	auth: string,
	host?: string,
): Route[] {
	return [
		{
			path: `${base}/api/v3/${providerId}`,
			expect: { headers: { authorization: auth }, ...(expectJson ? { json: expectJson } : {}) },
			respond: submitted(id, host),
		},
		{
			method: "GET",
			path: `${base}/api/v3/predictions/${id}/result`,
			expect: { headers: { authorization: auth } },
			respond: (_request, hit) => statuses[Math.min(hit, statuses.length - 1)] as ReturnType<typeof status>,
		},
	];
}

const done = status("completed", { outputs: [OUTPUT] });
const BEARER_HUB = `Bearer ${HF_TOKEN}`;
const BEARER_KEY = `Bearer ${PROVIDER_KEY}`;

const table: Route[] = [
	hubModel("black-forest-labs/FLUX.1-dev", {
		wavespeed: { providerId: "wavespeed-ai/flux-dev", status: "live", task: "text-to-image" },
	}),
	hubModel("org/flux-lora", {
		wavespeed: {
			providerId: "wavespeed-ai/flux-dev-lora",
			status: "live",
			task: "text-to-image",
			adapter: "lora",
		},
	}),
	hubModel("org/t2i-failed", {
		wavespeed: { providerId: "t2i-failed", status: "live", task: "text-to-image" },
	}),
	hubModel("org/t2i-refused", {
		wavespeed: { providerId: "t2i-refused", status: "live", task: "text-to-image" },
	}),
	hubModel("org/t2i-odd", { wavespeed: { providerId: "t2i-odd", status: "live", task: "text-to-image" } }),
	hubModel("org/t2i-hostile", {
		wavespeed: { providerId: "t2i-hostile", status: "live", task: "text-to-image" },
	}),
	hubModel("Wan-AI/Wan2.1-T2V-14B", {
		wavespeed: { providerId: "wavespeed-ai/wan-2.1/t2v-480p", status: "live", task: "text-to-video" },
	}),
	hubModel("black-forest-labs/FLUX.1-Kontext-dev", {
		wavespeed: { providerId: "wavespeed-ai/flux-kontext-dev", status: "live", task: "image-to-image" },
	}),
	hubModel("Wan-AI/Wan2.1-I2V-14B-480P", {
		wavespeed: { providerId: "wavespeed-ai/wan-2.1/i2v-480p", status: "live", task: "image-to-video" },
	}),
	hubModel("Qwen/Qwen-Image-Edit", {
		wavespeed: { providerId: "wavespeed-ai/qwen-image/edit", status: "live", task: "image-text-to-image" },
	}),
	hubModel("Wan-AI/Wan2.2-TI2V-5B", {
		wavespeed: { providerId: "wavespeed-ai/wan-2.2/ti2v", status: "live", task: "image-text-to-video" },
	}),
	...task(
		ROUTED,
		"wavespeed-ai/flux-dev",
		"t2i",
		{ seed: 1, prompt: "a fox" },
		[status("created"), status("processing"), done],
		BEARER_HUB,
	),
	...task(
		ROUTED,
		"wavespeed-ai/flux-dev-lora",
		"lora",
		{ prompt: "a fox", loras: [{ path: "org/flux-lora", scale: 1 }] },
		[done],
		BEARER_HUB,
	),
	...task(
		DIRECT,
		"t2i-failed",
		"failed",
		undefined,
		[status("failed", { error: "NSFW content" })],
		BEARER_KEY,
	),
	// WaveSpeedAI's error body is {code, message, data}: the message must reach the caller.
	{
		path: `${DIRECT}/api/v3/t2i-refused`,
		respond: { status: 400, json: { code: 400, message: "prompt must not be empty", data: null } },
	},
	...task(DIRECT, "t2i-odd", "odd", undefined, [status("paused")], BEARER_KEY),
	...task(DIRECT, "t2i-hostile", "hostile", undefined, [done], BEARER_KEY, "evil.example"),
	...task(
		DIRECT,
		"wavespeed-ai/wan-2.1/t2v-480p",
		"t2v",
		{ duration: 5, prompt: "a storm" },
		[status("processing"), done],
		BEARER_KEY,
	),
	...task(
		ROUTED,
		"wavespeed-ai/flux-kontext-dev",
		"i2i",
		{ image: B64_IMAGE, images: [B64_IMAGE], prompt: "snow", guidance_scale: 2 },
		[done],
		BEARER_HUB,
	),
	...task(
		DIRECT,
		"wavespeed-ai/wan-2.1/i2v-480p",
		"i2v",
		{ image: B64_IMAGE, images: ["https://example.com/a.png"], prompt: "it moves" },
		[done],
		BEARER_KEY,
	),
	...task(
		DIRECT,
		"wavespeed-ai/qwen-image/edit",
		"it2i",
		{ image: BLANK_PNG, images: [BLANK_PNG], prompt: "a red circle" },
		[done],
		BEARER_KEY,
	),
	...task(
		ROUTED,
		"wavespeed-ai/wan-2.2/ti2v",
		"it2v",
		{ image: B64_IMAGE, images: [B64_IMAGE], prompt: "it moves" },
		[done],
		BEARER_HUB,
	),
	{
		method: "GET",
		path: "/d1q70pf5vjeyhc.cloudfront.example/out.png",
		expect: { headers: { authorization: null } },
		respond: { headers: { "content-type": "image/png" }, body: PNG_BYTES },
	},
];

describe("wavespeed", () => {
	const server = useServer(table);
	const image = () => new Blob([PNG_BYTES], { type: "image/png" });
	const run = { ...FAST };

	it("text-to-image (routed): polled on the router while created/processing; the output downloaded", async () => {
		const blob = await textToImage(
			{
				accessToken: HF_TOKEN,
				provider: "wavespeed",
				model: "black-forest-labs/FLUX.1-dev",
				inputs: "a fox",
				parameters: { seed: 1 },
			},
			{ ...run, fetch: server().fetch },
		);
		expect(new Uint8Array(await blob.arrayBuffer())).toEqual(PNG_BYTES);
		expect(server().requestsTo(`${ROUTED}/api/v3/predictions/t2i/result`)).toHaveLength(3);
	});

	it("text-to-image: outputType url returns the output URL without downloading it; LoRA adapters add loras", async () => {
		const url = await textToImage(
			{ accessToken: HF_TOKEN, provider: "wavespeed", model: "org/flux-lora", inputs: "a fox" },
			{ ...run, fetch: server().fetch, outputType: "url" },
		);
		expect(url).toBe(OUTPUT);
		expect(server().requestsTo("/d1q70pf5vjeyhc.cloudfront.example")).toEqual([]);
	});

	it("text-to-image: failed, and unknown statuses, are output errors", async () => {
		const call = (model: string) =>
			textToImage(
				{ accessToken: PROVIDER_KEY, provider: "wavespeed", model, inputs: "x" },
				{ ...run, fetch: server().fetch },
			);
		await expect(call("org/t2i-failed")).rejects.toThrow(new InferenceOutputError("NSFW content"));
		await expect(call("org/t2i-odd")).rejects.toThrow('Unexpected WaveSpeed AI task status: "paused"');
	});

	it("text-to-image: a refused submission is an API error carrying WaveSpeedAI's own message", async () => {
		const error = await textToImage(
			{ accessToken: PROVIDER_KEY, provider: "wavespeed", model: "org/t2i-refused", inputs: "x" },
			{ ...run, fetch: server().fetch },
		).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(InferenceProviderApiError);
		expect((error as InferenceProviderApiError).message).toBe("prompt must not be empty");
		expect((error as InferenceProviderApiError).status).toBe(400);
		expect(JSON.stringify((error as InferenceProviderApiError).request)).not.toContain(PROVIDER_KEY);
	});

	it("text-to-image: a result URL on another host is polled on WaveSpeedAI itself (the key never leaves it)", async () => {
		await textToImage(
			{ accessToken: PROVIDER_KEY, provider: "wavespeed", model: "org/t2i-hostile", inputs: "x" },
			{ ...run, fetch: server().fetch },
		);
		expect(server().requestsTo("/evil.example")).toEqual([]);
		expect(server().requestsTo(`${DIRECT}/api/v3/predictions/hostile/result`)).toHaveLength(1);
	});

	it("text-to-video (direct): provider key on submit and polls", async () => {
		const blob = await textToVideo(
			{
				accessToken: PROVIDER_KEY,
				provider: "wavespeed",
				model: "Wan-AI/Wan2.1-T2V-14B",
				inputs: "a storm",
				parameters: { duration: 5 } as never,
			},
			{ ...run, fetch: server().fetch },
		);
		expect(blob.size).toBe(PNG_BYTES.length);
	});

	it("image-to-image (routed): bare base64 in image and images, the prompt from the parameters", async () => {
		const blob = await imageToImage(
			{
				accessToken: HF_TOKEN,
				provider: "wavespeed",
				model: "black-forest-labs/FLUX.1-Kontext-dev",
				inputs: image(),
				parameters: { prompt: "snow", guidance_scale: 2 },
			},
			{ ...run, fetch: server().fetch },
		);
		expect(blob.size).toBe(PNG_BYTES.length);
	});

	it("image-to-video (direct): the caller's own images list is kept", async () => {
		const blob = await imageToVideo(
			{
				accessToken: PROVIDER_KEY,
				provider: "wavespeed",
				model: "Wan-AI/Wan2.1-I2V-14B-480P",
				inputs: image(),
				parameters: { prompt: "it moves", images: ["https://example.com/a.png"] },
			},
			{ ...run, fetch: server().fetch },
		);
		expect(blob.size).toBe(PNG_BYTES.length);
	});

	it("image-text-to-image without an image: a 1×1 transparent PNG stands in", async () => {
		const blob = await imageTextToImage(
			{
				accessToken: PROVIDER_KEY,
				provider: "wavespeed",
				model: "Qwen/Qwen-Image-Edit",
				parameters: { prompt: "a red circle" },
			},
			{ ...run, fetch: server().fetch },
		);
		expect(blob.size).toBe(PNG_BYTES.length);
	});

	it("image-text-to-video (routed) with an image", async () => {
		const blob = await imageTextToVideo(
			{
				accessToken: HF_TOKEN,
				provider: "wavespeed",
				model: "Wan-AI/Wan2.2-TI2V-5B",
				inputs: image(),
				parameters: { prompt: "it moves" },
			},
			{ ...run, fetch: server().fetch },
		);
		expect(blob.size).toBe(PNG_BYTES.length);
	});

	it("image-to-image: a text input is refused before any request", async () => {
		await expect(
			imageToImage({
				accessToken: PROVIDER_KEY,
				provider: "wavespeed",
				model: "black-forest-labs/FLUX.1-Kontext-dev",
				inputs: "cat.png" as never,
				parameters: { prompt: "x" },
			}),
		).rejects.toBeInstanceOf(InferenceInputError);
	});
});
