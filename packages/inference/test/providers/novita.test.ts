/**
 * Novita — chat, text generation on the completions route, and videos through the async task API.
 *   routed: POST https://router.huggingface.co/novita/v3/openai/chat/completions
 *   direct: POST https://api.novita.ai/v3/openai/chat/completions
 *   text-generation: POST …/v3/openai/completions {model, prompt, mapped parameters} → {generated_text, details}
 *     (huggingface_hub 2.0.0's route; 3.12.1 sent {inputs, parameters} to the chat route, which refuses it)
 *   text-to-video: POST …/v3/async/{providerId}  body {…parameters (num_inference_steps → steps), prompt}
 *     → {task_id}; GET …/v3/async/task-result?task_id=… every 500 ms until task.status is
 *     TASK_STATUS_SUCCEED (or _FAILED) → videos[0].video_url downloaded
 */
import { describe, expect, it } from "vitest";
import { InferenceOutputError, InferenceProviderApiError, textToVideo } from "../../src/index.js";
import { chatChecks, chatRows } from "../support/chat.js";
import { FAST, HF_TOKEN, hubModel, PROVIDER_KEY } from "../support/fixtures.js";
import type { Route } from "../support/servers.js";
import { useServer } from "../support/setup.js";
import {
	textGenerationChecks,
	textGenerationRows,
	type TextGenerationSpec,
} from "../support/text-generation.js";

const MODEL = "meta-llama/Llama-3.3-70B-Instruct";
const VIDEO_MODEL = "Wan-AI/Wan2.1-T2V-14B";
const VIDEO_URL = "https://faas-output-video.s3.example/video.mp4";
const MP4 = new Uint8Array([0, 0, 0, 24, 0x66, 0x74, 0x79, 0x70]);
const TEXT_GENERATION: TextGenerationSpec = {
	provider: "novita",
	routed: "/router.huggingface.co/novita/v3/openai/completions",
	direct: "/api.novita.ai/v3/openai/completions",
	style: "completions",
	malformed: "Expected Array<{generated_text: string}>",
	details: true,
};

const task = (status: string, extra: Record<string, unknown> = {}) => ({
	json: { task: { status }, ...extra },
});

const table: Route[] = [
	hubModel(MODEL, {
		novita: { providerId: "meta-llama/llama-3.3-70b-instruct", status: "live", task: "conversational" },
	}),
	hubModel("org/malformed", { novita: { providerId: "malformed", status: "live", task: "conversational" } }),
	hubModel(VIDEO_MODEL, { novita: { providerId: "wan-t2v", status: "live", task: "text-to-video" } }),
	hubModel("org/video-fails", { novita: { providerId: "wan-fails", status: "live", task: "text-to-video" } }),
	hubModel("org/video-no-id", { novita: { providerId: "wan-no-id", status: "live", task: "text-to-video" } }),
	hubModel("org/video-500", { novita: { providerId: "wan-500", status: "live", task: "text-to-video" } }),
	...textGenerationRows(TEXT_GENERATION),
	...chatRows({
		routed: "/router.huggingface.co/novita/v3/openai/chat/completions",
		direct: "/api.novita.ai/v3/openai/chat/completions",
		providerId: "meta-llama/llama-3.3-70b-instruct",
	}),
	{
		path: "/router.huggingface.co/novita/v3/async/wan-t2v",
		expect: {
			headers: { authorization: `Bearer ${HF_TOKEN}` },
			json: { seed: 1, steps: 20, prompt: "a kite" },
		},
		respond: { json: { task_id: "task-1" } },
	},
	{
		method: "GET",
		path: "/router.huggingface.co/novita/v3/async/task-result?task_id=task-1",
		expect: { headers: { authorization: `Bearer ${HF_TOKEN}` } },
		respond: (_request, hit) =>
			hit < 2
				? task("TASK_STATUS_PROCESSING")
				: task("TASK_STATUS_SUCCEED", { videos: [{ video_url: VIDEO_URL }] }),
	},
	{
		path: "/api.novita.ai/v3/async/wan-t2v",
		expect: { headers: { authorization: `Bearer ${PROVIDER_KEY}` }, json: { prompt: "a kite" } },
		respond: { json: { task_id: "task-2" } },
	},
	{
		method: "GET",
		path: "/api.novita.ai/v3/async/task-result?task_id=task-2",
		expect: { headers: { authorization: `Bearer ${PROVIDER_KEY}` } },
		respond: task("TASK_STATUS_SUCCEED", { videos: [{ video_url: VIDEO_URL }] }),
	},
	{ path: "/api.novita.ai/v3/async/wan-fails", respond: { json: { task_id: "task-3" } } },
	{
		method: "GET",
		path: "/api.novita.ai/v3/async/task-result?task_id=task-3",
		respond: task("TASK_STATUS_FAILED"),
	},
	{ path: "/api.novita.ai/v3/async/wan-no-id", respond: { json: { id: "x" } } },
	{ path: "/api.novita.ai/v3/async/wan-500", respond: { json: { task_id: "task-4" } } },
	{
		method: "GET",
		path: "/api.novita.ai/v3/async/task-result?task_id=task-4",
		respond: { status: 500, json: { error: "down" } },
	},
	{
		method: "GET",
		path: "/faas-output-video.s3.example/video.mp4",
		expect: { headers: { authorization: null } },
		respond: { headers: { "content-type": "video/mp4" }, body: MP4 },
	},
];

describe("novita", () => {
	const server = useServer(table);
	chatChecks(server, { provider: "novita", model: MODEL, routed: true, malformedModel: "org/malformed" });
	textGenerationChecks(server, TEXT_GENERATION);

	it("text-to-video (routed): async task polled on the router until it succeeds; video downloaded without credentials", async () => {
		const blob = await textToVideo(
			{
				accessToken: HF_TOKEN,
				provider: "novita",
				model: VIDEO_MODEL,
				inputs: "a kite",
				parameters: { seed: 1, num_inference_steps: 20 },
			},
			{ ...FAST, fetch: server().fetch },
		);
		expect(blob.type).toBe("video/mp4");
		expect(new Uint8Array(await blob.arrayBuffer())).toEqual(MP4);
		expect(server().requestsTo("/router.huggingface.co/novita/v3/async/task-result")).toHaveLength(3);
	});

	it("text-to-video (direct): provider key, polled on api.novita.ai", async () => {
		const blob = await textToVideo(
			{ accessToken: PROVIDER_KEY, provider: "novita", model: VIDEO_MODEL, inputs: "a kite" },
			{ ...FAST, fetch: server().fetch },
		);
		expect(blob.size).toBe(MP4.length);
	});

	it("text-to-video: a failed task, a missing task id, a failing poll", async () => {
		const call = (model: string) =>
			textToVideo(
				{ accessToken: PROVIDER_KEY, provider: "novita", model, inputs: "x" },
				{ ...FAST, fetch: server().fetch },
			);
		await expect(call("org/video-fails")).rejects.toThrow("Novita text-to-video task failed");
		await expect(call("org/video-no-id")).rejects.toBeInstanceOf(InferenceOutputError);
		const error = await call("org/video-500").catch((e: unknown) => e);
		expect(error).toBeInstanceOf(InferenceProviderApiError);
		expect((error as InferenceProviderApiError).status).toBe(500);
		expect((error as InferenceProviderApiError).request.headers.Authorization).toBe("Bearer [redacted]");
	});
});
