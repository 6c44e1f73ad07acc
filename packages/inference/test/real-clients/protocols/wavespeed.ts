/**
 * WaveSpeedAI: every model is an async task at `/api/v3/{model}`; the answer's `data.urls.get` is
 * polled until `data.status` is `completed`, then `data.outputs[0]` is downloaded
 * (providers-current.md §4, §6). Clients take the poll path from the answer, never build it. An input
 * image (`image`, and each of `images`) is a URL, a data: URL (huggingface_hub 2.0.0) or bare base64
 * (huggingface.js 4.13.28, whose WaveSpeed support came from WaveSpeed): both clients' forms are read.
 */
import { knownModel, mediaUrlOrBase64 } from "./checks.js";
import { BEARER } from "./common.js";
import { addJob, postJson, readJob } from "./endpoints.js";
import { mediaHost } from "./media-host.js";
import { json } from "./replies.js";
import { Refusal, type MediaFile, type ProviderProtocol } from "./types.js";

const API_HOST = "api.wavespeed.ai";
const MEDIA_HOST = "d1q70pf5vjeyhc.wavespeed.ai";

const OUTPUT: Record<string, MediaFile> = {
	"text-to-image": "image.png",
	"image-to-image": "image.png",
	"text-to-video": "video.mp4",
	"image-to-video": "video.mp4",
};

export const wavespeed: ProviderProtocol = {
	provider: "wavespeed",
	hosts: [
		{
			host: API_HOST,
			endpoints: [
				readJob("wavespeed", "prediction result", "/api/v3/predictions/{id}/result", (job, id) =>
					json({
						code: 200,
						message: "success",
						data: { id, model: job.model, status: "completed", ...(job.result as object) },
					}),
				),
				postJson("submit task", "/api/v3/{model}", (submission) => {
					const { body, params, state } = submission;
					const model = knownModel(state, "wavespeed", params.model);
					const task = state.taskOf("wavespeed", model) ?? "text-to-image";
					if (task.startsWith("image-to-")) {
						mediaUrlOrBase64(body.image, "image", ["png", "jpeg"]);
						if (body.images !== undefined) {
							if (!Array.isArray(body.images)) throw new Refusal(422, "'images' must be a list");
							for (const image of body.images) mediaUrlOrBase64(image, "images", ["png", "jpeg"]);
						}
					} else if (typeof body.prompt !== "string") throw new Refusal(400, "'prompt' is required");
					const outputs = { outputs: [state.mediaUrl(MEDIA_HOST, OUTPUT[task] ?? "image.png")] };
					const id = addJob("wavespeed", submission, model, outputs);
					const get = `https://${API_HOST}/api/v3/predictions/${id}/result`;
					return json({
						code: 200,
						message: "success",
						data: { id, model, status: "created", urls: { get } },
					});
				}),
			],
		},
		mediaHost(MEDIA_HOST),
	],
	routed: true,
	direct: true,
	keyScheme: BEARER,
	providerModelId: (hubModelId) => `wavespeed-ai/${hubModelId.slice(hubModelId.indexOf("/") + 1)}`,
	errorBody: (status, message) => ({ code: status, message }),
};
