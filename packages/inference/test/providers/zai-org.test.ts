/**
 * Z.ai — chat, async image generation, layout parsing (new in today's clients).
 *   every request: Bearer, plus x-source-channel: hugging_face and accept-language: en-US,en
 *   chat: POST {router}/zai-org/api/paas/v4/chat/completions | https://api.z.ai/api/paas/v4/chat/completions
 *   text-to-image: POST …/api/paas/v4/async/images/generations  {…parameters (width+height → size "{w}x{h}"), model, prompt}
 *     → {id, task_status} (FAIL → error); GET …/api/paas/v4/async-result/{id} every 5 s (≤ 60) until SUCCESS
 *     → image_result[0].url downloaded without credentials (outputType "url": the URL)
 *   image-to-text: POST …/api/paas/v4/layout_parsing  {model, file: data URL} → md_results → {generated_text}
 *     (an http(s) URL input is downloaded first, without credentials)
 */
import { describe, expect, it } from "vitest";
import { chatCompletion, imageToText, InferenceOutputError, textToImage } from "../../src/index.js";
import { chatChecks, chatRows } from "../support/chat.js";
import {
	B64_IMAGE,
	CHAT_OUTPUT,
	FAST,
	HF_TOKEN,
	hubModel,
	MESSAGES,
	notStreaming,
	PNG_BYTES,
	PROVIDER_KEY,
} from "../support/fixtures.js";
import type { RecordedRequest, Route } from "../support/servers.js";
import { useServer } from "../support/setup.js";

const MODEL = "zai-org/GLM-4.6";
const ROUTED = "/router.huggingface.co/zai-org/api/paas/v4";
const DIRECT = "/api.z.ai/api/paas/v4";
const IMAGE_URL = "https://aigc-files.bigmodel.example/out.png";
const SOURCE = { "x-source-channel": "hugging_face", "accept-language": "en-US,en" };
const modelIs = (model: string) => (request: RecordedRequest) =>
	(request.json as { model?: string } | undefined)?.model === model;

const table: Route[] = [
	hubModel(MODEL, { "zai-org": { providerId: "glm-4.6", status: "live", task: "conversational" } }),
	hubModel("org/malformed", {
		"zai-org": { providerId: "malformed", status: "live", task: "conversational" },
	}),
	hubModel("zai-org/CogView-4", {
		"zai-org": { providerId: "cogview-4", status: "live", task: "text-to-image" },
	}),
	hubModel("org/t2i-fail", { "zai-org": { providerId: "t2i-fail", status: "live", task: "text-to-image" } }),
	hubModel("org/t2i-slow", { "zai-org": { providerId: "t2i-slow", status: "live", task: "text-to-image" } }),
	hubModel("zai-org/GLM-OCR", {
		"zai-org": { providerId: "glm-ocr", status: "live", task: "image-to-text" },
	}),
	hubModel("org/ocr-bad", { "zai-org": { providerId: "ocr-bad", status: "live", task: "image-to-text" } }),
	{
		path: `${DIRECT}/chat/completions`,
		when: (r) => modelIs("glm-4.6")(r) && notStreaming(r),
		expect: { headers: { authorization: `Bearer ${PROVIDER_KEY}`, ...SOURCE } },
		respond: { json: CHAT_OUTPUT },
	},
	...chatRows({
		routed: `${ROUTED}/chat/completions`,
		direct: `${DIRECT}/chat/completions`,
		providerId: "glm-4.6",
	}),
	{
		path: `${ROUTED}/async/images/generations`,
		when: modelIs("cogview-4"),
		expect: {
			headers: { authorization: `Bearer ${HF_TOKEN}`, ...SOURCE },
			json: { quality: "hd", size: "1024x768", model: "cogview-4", prompt: "a harbour" },
		},
		respond: { json: { id: "img-1", task_status: "PROCESSING", model: "cogview-4" } },
	},
	{
		method: "GET",
		path: `${ROUTED}/async-result/img-1`,
		expect: { headers: { authorization: `Bearer ${HF_TOKEN}`, ...SOURCE } },
		respond: (_request, hit) => ({
			json:
				hit === 0
					? { task_status: "PROCESSING" }
					: { task_status: "SUCCESS", image_result: [{ url: IMAGE_URL }] },
		}),
	},
	{
		path: `${DIRECT}/async/images/generations`,
		when: modelIs("t2i-fail"),
		respond: { json: { id: "img-2", task_status: "FAIL" } },
	},
	{
		path: `${DIRECT}/async/images/generations`,
		when: modelIs("t2i-slow"),
		respond: { json: { id: "img-3", task_status: "PROCESSING" } },
	},
	{ method: "GET", path: `${DIRECT}/async-result/img-3`, respond: { json: { task_status: "PROCESSING" } } },
	{
		method: "GET",
		path: "/aigc-files.bigmodel.example/out.png",
		expect: { headers: { authorization: null } },
		respond: { headers: { "content-type": "image/png" }, body: PNG_BYTES },
	},
	{
		path: `${DIRECT}/layout_parsing`,
		when: modelIs("glm-ocr"),
		expect: {
			headers: { authorization: `Bearer ${PROVIDER_KEY}`, ...SOURCE },
			json: { model: "glm-ocr", file: `data:image/png;base64,${B64_IMAGE}` },
		},
		respond: { json: { md_results: "# Invoice\n\nTotal: 12 €" } },
	},
	{ path: `${DIRECT}/layout_parsing`, when: modelIs("ocr-bad"), respond: { json: { results: [] } } },
	{
		method: "GET",
		path: "/example.com/scan.png",
		expect: { headers: { authorization: null } },
		respond: { headers: { "content-type": "image/png" }, body: PNG_BYTES },
	},
];

describe("zai-org", () => {
	const server = useServer(table);
	chatChecks(server, { provider: "zai-org", model: MODEL, routed: true, malformedModel: "org/malformed" });

	it("conversational: the source-channel and language headers go with every request", async () => {
		await chatCompletion(
			{ accessToken: PROVIDER_KEY, provider: "zai-org", model: MODEL, messages: MESSAGES },
			{ fetch: server().fetch },
		);
		expect(server().requests.at(-1)?.headers["x-source-channel"]).toBe("hugging_face");
	});

	it("text-to-image (routed): width and height as size; polled on the router until SUCCESS; the image downloaded", async () => {
		const blob = await textToImage(
			{
				accessToken: HF_TOKEN,
				provider: "zai-org",
				model: "zai-org/CogView-4",
				inputs: "a harbour",
				parameters: { width: 1024, height: 768, quality: "hd" },
			},
			{ ...FAST, fetch: server().fetch },
		);
		expect(new Uint8Array(await blob.arrayBuffer())).toEqual(PNG_BYTES);
		expect(server().requestsTo(`${ROUTED}/async-result/img-1`)).toHaveLength(2);
	});

	it("text-to-image: outputType url returns the image URL", async () => {
		const url = await textToImage(
			{
				accessToken: HF_TOKEN,
				provider: "zai-org",
				model: "zai-org/CogView-4",
				inputs: "a harbour",
				parameters: { width: 1024, height: 768, quality: "hd" },
			},
			{ ...FAST, fetch: server().fetch, outputType: "url" },
		);
		expect(url).toBe(IMAGE_URL);
	});

	it("text-to-image: FAIL at submit is an error at once; a task that never finishes stops after 60 polls", async () => {
		const call = (model: string) =>
			textToImage(
				{ accessToken: PROVIDER_KEY, provider: "zai-org", model, inputs: "x" },
				{ ...FAST, fetch: server().fetch },
			);
		await expect(call("org/t2i-fail")).rejects.toThrow("Z.ai text-to-image task failed");
		await expect(call("org/t2i-slow")).rejects.toThrow("aborting after 60 attempts");
		expect(server().requestsTo(`${DIRECT}/async-result/img-3`)).toHaveLength(60);
	});

	it("image-to-text (direct): the image as a data URL in `file`; the Markdown is the generated text", async () => {
		const output = await imageToText(
			{
				accessToken: PROVIDER_KEY,
				provider: "zai-org",
				model: "zai-org/GLM-OCR",
				inputs: new Blob([PNG_BYTES], { type: "image/png" }),
			},
			{ fetch: server().fetch },
		);
		expect(output).toEqual({ generated_text: "# Invoice\n\nTotal: 12 €" });
	});

	it("image-to-text: an image URL is downloaded first, without credentials", async () => {
		const output = await imageToText(
			{
				accessToken: PROVIDER_KEY,
				provider: "zai-org",
				model: "zai-org/GLM-OCR",
				inputs: "https://example.com/scan.png" as never,
			},
			{ fetch: server().fetch },
		);
		expect(output.generated_text).toContain("Invoice");
	});

	it("image-to-text: a malformed answer", async () => {
		await expect(
			imageToText(
				{
					accessToken: PROVIDER_KEY,
					provider: "zai-org",
					model: "org/ocr-bad",
					inputs: new Blob([PNG_BYTES]),
				},
				{ fetch: server().fetch },
			),
		).rejects.toBeInstanceOf(InferenceOutputError);
	});
});
