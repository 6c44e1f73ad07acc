/**
 * Black Forest Labs: POST `/v1/{model}` with a `prompt` answers `{id, polling_url}`; the polling URL
 * answers `status: "Ready"` with `result.sample`, the image's URL. The key travels as
 * `Authorization: X-Key {key}` (the form @huggingface/inference 3.12.1 sends) or in an `x-key` header.
 */
import type { IncomingHttpHeaders } from "node:http";
import { knownModel, stringField } from "./checks.js";
import { detailError } from "./common.js";
import { addJob, postJson, readJob } from "./endpoints.js";
import { mediaHost } from "./media-host.js";
import { json } from "./replies.js";
import type { ProviderProtocol } from "./types.js";

const API_HOST = "api.us1.bfl.ai";
const MEDIA_HOST = "delivery-us1.bfl.ai";

export const blackForestLabs: ProviderProtocol = {
	provider: "black-forest-labs",
	hosts: [
		{
			host: API_HOST,
			endpoints: [
				readJob(
					"black-forest-labs",
					"get result",
					"/v1/get_result",
					(job, id) => json({ id, status: "Ready", result: job.result }),
					{
						id: (request) => request.query.get("id") ?? "",
						// 3.12.1 polls without credentials; the id in the URL is the capability.
						public: true,
					},
				),
				postJson("generate", "/v1/{model}", (submission) => {
					const { body, params, state } = submission;
					stringField(body, "prompt");
					const model = knownModel(state, "black-forest-labs", params.model);
					const result = { sample: state.mediaUrl(MEDIA_HOST, "image.png"), prompt: body.prompt };
					const id = addJob("black-forest-labs", submission, model, result);
					return json({ id, polling_url: `https://${API_HOST}/v1/get_result?id=${id}` });
				}),
			],
		},
		mediaHost(MEDIA_HOST),
	],
	routed: true,
	direct: true,
	keyScheme: {
		describe: "Authorization: X-Key {key} (or an x-key header)",
		read: (headers: IncomingHttpHeaders) =>
			/^X-Key (.+)$/.exec(String(headers.authorization ?? ""))?.[1] ??
			(typeof headers["x-key"] === "string" ? headers["x-key"] : undefined),
	},
	providerModelId: (hubModelId) => `flux-${hubModelId.slice(hubModelId.indexOf("/") + 1)}`,
	errorBody: detailError,
};
