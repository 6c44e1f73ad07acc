/**
 * Replicate: a prediction is created at `/v1/models/{owner}/{name}/predictions` (or `/v1/predictions`
 * with a `version` for `owner/name:version` ids) with the model's arguments under `input`. With
 * `Prefer: wait` the answer holds the finished prediction; without, it is `starting` and its
 * `urls.get` is polled. `output` is a file URL (a list of them for images) or text.
 */
import { type JsonObject, field, knownModel, mediaUrl, stringField } from "./checks.js";
import { BEARER } from "./common.js";
import { type Submission, addJob, postJson, readJob } from "./endpoints.js";
import { mediaHost } from "./media-host.js";
import { json } from "./replies.js";
import { Refusal, type Job, type ProtocolState, type ProviderProtocol } from "./types.js";

const MEDIA_HOST = "replicate.delivery";

/** What each kind of model needs in `input`, and its `output`. */
const MODELS: Record<string, (input: JsonObject, state: ProtocolState) => unknown> = {
	"text-to-image": (input, state) => (
		stringField(input, "prompt"),
		[state.mediaUrl(MEDIA_HOST, "image.png")]
	),
	"image-to-image": (input, state) => {
		mediaUrl(input.image ?? input.input_image, "input.image", ["png", "jpeg"]);
		return [state.mediaUrl(MEDIA_HOST, "image.png")];
	},
	"text-to-speech": (input, state) => (stringField(input, "text"), state.mediaUrl(MEDIA_HOST, "audio.wav")),
	"text-to-video": (input, state) => (stringField(input, "prompt"), state.mediaUrl(MEDIA_HOST, "video.mp4")),
	"automatic-speech-recognition": (input) => {
		mediaUrl(input.audio, "input.audio", ["wav", "mp3", "flac", "ogg", "mp4", "webm"]);
		return "Hello from the harbour.";
	},
};

function prediction(id: string, job: Job, status: string): unknown {
	return {
		id,
		model: job.model,
		version: "5c7d5dc6dd8bf75c1acaa8565735e7986bc5b66206b55cca93cb72c9bf15ccaa",
		status,
		output: status === "succeeded" ? job.result : null,
		error: null,
		urls: {
			get: `https://api.replicate.com/v1/predictions/${id}`,
			cancel: `https://api.replicate.com/v1/predictions/${id}/cancel`,
		},
	};
}

function create(submission: Submission, model: string) {
	const { body, request, state } = submission;
	const input = field(body, "input", "object") as JsonObject;
	const task = state.taskOf("replicate", model);
	const makeOutput = task ? MODELS[task] : undefined;
	if (!makeOutput) throw new Refusal(422, `Model ${model} cannot be run`);
	const id = addJob("replicate", submission, model, makeOutput(input, state));
	const waits = /\bwait\b/.test(String(request.headers.prefer ?? ""));
	return json(prediction(id, state.job("replicate", id) as Job, waits ? "succeeded" : "starting"), 201);
}

export const replicate: ProviderProtocol = {
	provider: "replicate",
	hosts: [
		{
			host: "api.replicate.com",
			endpoints: [
				postJson(
					"create prediction (model)",
					/^\/v1\/models\/(?<model>[^/]+\/[^/]+)\/predictions$/,
					(submission) =>
						create(submission, knownModel(submission.state, "replicate", submission.params.model)),
				),
				postJson("create prediction (version)", "/v1/predictions", (submission) => {
					const version = stringField(submission.body, "version");
					const model = submission.state.models("replicate").find((id) => id.endsWith(`:${version}`));
					if (!model) throw new Refusal(422, `Invalid version or not permitted: ${version}`);
					return create(submission, model);
				}),
				readJob("replicate", "get prediction", "/v1/predictions/{id}", (job, id) =>
					json(prediction(id, job, "succeeded")),
				),
			],
		},
		mediaHost(MEDIA_HOST),
	],
	routed: true,
	direct: true,
	keyScheme: BEARER,
	providerModelId: (hubModelId) => `replicate-${hubModelId}`,
	errorBody: (status, message) => ({
		title: status === 404 ? "Not found" : "Invalid input",
		detail: message,
		status,
	}),
};
