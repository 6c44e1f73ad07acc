/**
 * Z.ai: chat at `/api/paas/v4/chat/completions`; image generation as an async task
 * (`/api/paas/v4/async/images/generations`, then `/api/paas/v4/async-result/{id}` until
 * `task_status` is `SUCCESS`); document layout parsing of a `data:` URL file (providers-current.md §4, §6).
 */
import { knownModel, mediaUrl, stringField } from "./checks.js";
import { BEARER, openaiError } from "./common.js";
import { addJob, postJson, readJob } from "./endpoints.js";
import { mediaHost } from "./media-host.js";
import { chatCompletions } from "./openai-style.js";
import { json } from "./replies.js";
import type { ProviderProtocol } from "./types.js";

const MEDIA_HOST = "aigc-files.z.ai";

export const zaiOrg: ProviderProtocol = {
	provider: "zai-org",
	hosts: [
		{
			host: "api.z.ai",
			endpoints: [
				chatCompletions("zai-org", "/api/paas/v4/chat/completions"),
				postJson("image generation (async)", "/api/paas/v4/async/images/generations", (submission) => {
					const { body, state } = submission;
					stringField(body, "prompt");
					const model = knownModel(state, "zai-org", body.model);
					const images = { image_result: [{ url: state.mediaUrl(MEDIA_HOST, "image.png") }] };
					const id = addJob("zai-org", submission, model, images);
					return json({ id, model, request_id: id, task_status: "PROCESSING" });
				}),
				readJob("zai-org", "async result", "/api/paas/v4/async-result/{id}", (job, id) =>
					json({ id, model: job.model, task_status: "SUCCESS", ...(job.result as object) }),
				),
				postJson("layout parsing", "/api/paas/v4/layout_parsing", ({ body, state }) => {
					mediaUrl(body.file, "file", ["png", "jpeg"]);
					const model = knownModel(state, "zai-org", body.model);
					return json({ id: "layout-1", model, md_results: "# A cat\n\nA cat sits on a mat." });
				}),
			],
		},
		mediaHost(MEDIA_HOST),
	],
	routed: true,
	direct: true,
	keyScheme: BEARER,
	providerModelId: () => "glm-4.6",
	errorBody: openaiError,
};
