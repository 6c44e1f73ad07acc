/**
 * Together AI: OpenAI-compatible chat, completions, embeddings, speech and transcriptions under `/v1`;
 * image generation answers base64 (`response_format` `base64`/`b64_json`) or a URL (`url`); videos are
 * jobs under `/v2/videos` polled by id until `completed`.
 */
import { knownModel, optionalField, stringField } from "./checks.js";
import { BEARER, openaiError } from "./common.js";
import { addJob, postJson, readJob } from "./endpoints.js";
import { mediaHost } from "./media-host.js";
import { PNG } from "./media.js";
import {
	audioSpeech,
	audioTranscriptions,
	chatCompletions,
	completions,
	embeddingsEndpoint,
} from "./openai-style.js";
import { json } from "./replies.js";
import { Refusal, type ProviderProtocol } from "./types.js";

const MEDIA_HOST = "api.together.ai";

export const together: ProviderProtocol = {
	provider: "together",
	hosts: [
		{
			host: "api.together.xyz",
			endpoints: [
				chatCompletions("together", "/v1/chat/completions"),
				completions("together", "/v1/completions"),
				embeddingsEndpoint("together", "/v1/embeddings"),
				// Together's speech API requires a model-specific `voice` (docs.together.ai, text-to-speech).
				audioSpeech("together", "/v1/audio/speech", { voiceRequired: true }),
				audioTranscriptions("together", "/v1/audio/transcriptions"),
				postJson("image generations", "/v1/images/generations", ({ body, state }) => {
					stringField(body, "prompt");
					const model = knownModel(state, "together", body.model);
					const format = optionalField(body, "response_format", "string") ?? "url";
					if (!["url", "base64", "b64_json"].includes(format as string)) {
						throw new Refusal(400, `'response_format' must be url or base64, got ${String(format)}`);
					}
					const image =
						format === "url"
							? { index: 0, url: state.mediaUrl(MEDIA_HOST, "image.png") }
							: { index: 0, b64_json: PNG.toString("base64") };
					return json({ id: "img-1", model, object: "list", data: [image] });
				}),
				postJson("video generation", "/v2/videos", (submission) => {
					const { body, state } = submission;
					if (body.prompt === undefined && body.frame_images === undefined) {
						throw new Refusal(400, "'prompt' or 'frame_images' is required");
					}
					const model = knownModel(state, "together", body.model);
					const video = { outputs: { video_url: state.mediaUrl(MEDIA_HOST, "video.mp4") } };
					const id = addJob("together", submission, model, video);
					return json({ id, object: "video", status: "queued", model });
				}),
				readJob("together", "video status", "/v2/videos/{id}", (job, id) =>
					json({ id, object: "video", model: job.model, status: "completed", ...(job.result as object) }),
				),
			],
		},
		mediaHost(MEDIA_HOST),
	],
	routed: true,
	direct: true,
	keyScheme: BEARER,
	// Together's speech models are Kokoro's (and Orpheus's, which need a voice named by the caller): the
	// speech cases are mapped to a Kokoro id, for which the client and the snippets send a default voice.
	providerModelId: (hubModelId) =>
		hubModelId.includes("text-to-speech") ? `${hubModelId}-Kokoro` : `${hubModelId}-Turbo`,
	errorBody: openaiError,
};
