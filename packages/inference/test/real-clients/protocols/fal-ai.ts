/**
 * fal.ai: every model is an app called by id, synchronously at `fal.run/{app}` or through the queue at
 * `queue.fal.run/{app}` (the router reaches the queue with `?_subdomain=queue`). The queue answers a
 * `request_id` and `response_url`; `…/requests/{id}/status` reports `IN_QUEUE`/`IN_PROGRESS`/`COMPLETED`,
 * `…/requests/{id}` the result. Keys are sent as `Authorization: Key {key}`. Audio must be a format the
 * app decodes (WAV, MP3, MP4, WebM — not FLAC), whatever its `data:` URL says.
 */
import type { IncomingHttpHeaders } from "node:http";
import { type JsonObject, knownModel, mediaUrl, stringField } from "./checks.js";
import { detailError } from "./common.js";
import { addJob, postJson, readJob } from "./endpoints.js";
import { mediaHost } from "./media-host.js";
import { parseDataUrl } from "./media.js";
import { json } from "./replies.js";
import { Refusal, type Endpoint, type ProtocolState, type ProviderProtocol } from "./types.js";

const MEDIA_HOST = "v3.fal.media";
const AUDIO_FORMATS = ["wav", "mp3", "mp4", "webm"] as const;
const IMAGE_FORMATS = ["png", "jpeg"] as const;
/**
 * fal's decoder picks a file extension from a data: URL's label and has none for these spellings: it
 * refuses WAV labelled audio/wav (decoding the same bytes labelled audio/x-wav) and WebM labelled audio/webm.
 */
const UNDECODABLE_AUDIO_LABELS = ["audio/wav", "audio/wave", "audio/webm"];

/** An audio input fal decodes: accepted bytes under a label its decoder maps to an extension. */
function falAudio(value: unknown): void {
	mediaUrl(value, "audio_url", AUDIO_FORMATS);
	const label = parseDataUrl(value)?.type.toLowerCase();
	if (label !== undefined && UNDECODABLE_AUDIO_LABELS.includes(label)) {
		throw new Refusal(422, `audio_url: cannot decode audio labelled ${label}`);
	}
}

/** What each kind of app needs and answers. */
const APPS: Record<string, (body: JsonObject, state: ProtocolState) => unknown> = {
	"text-to-image": (body, state) => {
		stringField(body, "prompt");
		return {
			images: [
				{ url: state.mediaUrl(MEDIA_HOST, "image.png"), width: 1024, height: 768, content_type: "image/png" },
			],
			seed: 42,
			has_nsfw_concepts: [false],
			prompt: body.prompt,
		};
	},
	"text-to-speech": (body, state) => {
		stringField(body, "text");
		return { audio: { url: state.mediaUrl(MEDIA_HOST, "audio.wav"), content_type: "audio/wav" } };
	},
	"text-to-audio": (body, state) => {
		stringField(body, "prompt");
		return { audio_file: { url: state.mediaUrl(MEDIA_HOST, "audio.wav") } };
	},
	"automatic-speech-recognition": (body) => {
		falAudio(body.audio_url);
		return {
			text: "Hello from the harbour.",
			chunks: [{ timestamp: [0, 1.2], text: "Hello from the harbour." }],
		};
	},
	"audio-to-audio": (body, state) => {
		falAudio(body.audio_url);
		return { audio: { url: state.mediaUrl(MEDIA_HOST, "audio.wav") } };
	},
	"text-to-video": (body, state) => {
		stringField(body, "prompt");
		return { video: { url: state.mediaUrl(MEDIA_HOST, "video.mp4") }, seed: 42 };
	},
	"image-to-image": (body, state) => {
		mediaUrl(body.image_url, "image_url", IMAGE_FORMATS);
		return { images: [{ url: state.mediaUrl(MEDIA_HOST, "image.png"), content_type: "image/png" }] };
	},
	"image-to-video": (body, state) => {
		mediaUrl(body.image_url, "image_url", IMAGE_FORMATS);
		return { video: { url: state.mediaUrl(MEDIA_HOST, "video.mp4") } };
	},
	"image-segmentation": (body, state) => {
		mediaUrl(body.image_url, "image_url", IMAGE_FORMATS);
		return { image: { url: state.mediaUrl(MEDIA_HOST, "image.png") } };
	},
};

function run(app: string, body: JsonObject, state: ProtocolState): unknown {
	const task = state.taskOf("fal-ai", app);
	const handler = task ? APPS[task] : undefined;
	if (!handler) throw new Refusal(404, `Application '${app}' not found`);
	return handler(body, state);
}

const queueEndpoints: Endpoint[] = [
	readJob("fal-ai", "queue status", /^\/(?<model>.+)\/requests\/(?<id>[^/]+)\/status$/, (job, id) => {
		if (job.pendingPolls === 0) return json({ status: "COMPLETED", request_id: id });
		job.pendingPolls -= 1;
		return json({ status: "IN_PROGRESS", request_id: id }, 202);
	}),
	readJob("fal-ai", "queue result", /^\/(?<model>.+)\/requests\/(?<id>[^/]+)$/, (job) => json(job.result)),
	postJson("queue submit", "/{model}", (submission) => {
		const app = knownModel(submission.state, "fal-ai", submission.params.model);
		const id = addJob("fal-ai", submission, app, run(app, submission.body, submission.state));
		const base = `https://queue.fal.run/${app}/requests/${id}`;
		return json({
			status: "IN_QUEUE",
			request_id: id,
			response_url: base,
			status_url: `${base}/status`,
			cancel_url: `${base}/cancel`,
			queue_position: 0,
		});
	}),
];

export const falAi: ProviderProtocol = {
	provider: "fal-ai",
	hosts: [
		{
			host: "fal.run",
			endpoints: [
				postJson("run app", "/{model}", ({ body, params, state }) =>
					json(run(knownModel(state, "fal-ai", params.model), body, state)),
				),
			],
		},
		{ host: "queue.fal.run", routerSubdomain: "queue", endpoints: queueEndpoints },
		mediaHost(MEDIA_HOST),
	],
	routed: true,
	direct: true,
	keyScheme: {
		describe: "Authorization: Key {key}",
		read: (headers: IncomingHttpHeaders) => /^Key (.+)$/.exec(String(headers.authorization ?? ""))?.[1],
	},
	providerModelId: (hubModelId) => `fal-ai/${hubModelId.slice(hubModelId.indexOf("/") + 1)}`,
	errorBody: detailError,
};
