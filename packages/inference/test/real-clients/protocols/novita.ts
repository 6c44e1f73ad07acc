/**
 * Novita AI: OpenAI-compatible chat and completions under `/v3/openai` (no `/v1`); text-to-video either
 * synchronously at `/v3/hf/{model}` (answers `video.video_url`) or as an async task at
 * `/v3/async/{model}` polled at `/v3/async/task-result?task_id=` (providers-current.md §5–6).
 */
import { knownModel, stringField } from "./checks.js";
import { BEARER, openaiError } from "./common.js";
import { addJob, postJson, readJob } from "./endpoints.js";
import { mediaHost } from "./media-host.js";
import { chatCompletions, completions } from "./openai-style.js";
import { json } from "./replies.js";
import type { ProviderProtocol } from "./types.js";

const MEDIA_HOST = "faas-output.novita.ai";

export const novita: ProviderProtocol = {
	provider: "novita",
	hosts: [
		{
			host: "api.novita.ai",
			endpoints: [
				chatCompletions("novita", "/v3/openai/chat/completions"),
				completions("novita", "/v3/openai/completions"),
				postJson("video generation (sync)", "/v3/hf/{model}", ({ body, params, state }) => {
					stringField(body, "prompt");
					knownModel(state, "novita", params.model, "text-to-video");
					return json({ video: { video_url: state.mediaUrl(MEDIA_HOST, "video.mp4") } });
				}),
				readJob(
					"novita",
					"task result",
					"/v3/async/task-result",
					(job, id) =>
						json({ task: { task_id: id, status: "TASK_STATUS_SUCCEED" }, ...(job.result as object) }),
					{ id: (request) => request.query.get("task_id") ?? "" },
				),
				postJson("video generation (async)", "/v3/async/{model}", (submission) => {
					const { body, params, state } = submission;
					stringField(body, "prompt");
					const model = knownModel(state, "novita", params.model, "text-to-video");
					const videos = { videos: [{ video_url: state.mediaUrl(MEDIA_HOST, "video.mp4") }] };
					return json({ task_id: addJob("novita", submission, model, videos) });
				}),
			],
		},
		mediaHost(MEDIA_HOST),
	],
	routed: true,
	direct: true,
	keyScheme: BEARER,
	providerModelId: (hubModelId) => `novita/${hubModelId.toLowerCase()}`,
	errorBody: openaiError,
};
