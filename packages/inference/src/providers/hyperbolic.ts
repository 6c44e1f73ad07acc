import { InferenceOutputError } from "../core/errors.js";
import { base64ToJpegBlob } from "../internal/base64.js";
import { isRecord, isString } from "./checks.js";
import { chatHelper, flatPromptBody, promptChatHelper } from "./openai-compatible.js";
import type { ProviderDefinition, TaskHelper } from "./types.js";

/** Not served by the public router since 2026-07-01: use a Hyperbolic key. */
const hyperbolic: ProviderDefinition = { id: "hyperbolic", baseUrl: "https://api.hyperbolic.xyz" };

export const hyperbolicTextToImage: TaskHelper<Blob | string> = {
	provider: hyperbolic,
	task: "text-to-image",
	makeRoute: () => "/v1/images/generations",
	makeBody: (params) => ({ ...flatPromptBody(params), model_name: params.model }),
	getResponse: (raw, { outputType }) => {
		const first = isRecord(raw) && Array.isArray(raw.images) ? (raw.images[0] as unknown) : undefined;
		if (isRecord(first) && isString(first.image)) {
			return outputType === "url" ? `data:image/jpeg;base64,${first.image}` : base64ToJpegBlob(first.image);
		}
		throw new InferenceOutputError("Expected Hyperbolic text-to-image response format");
	},
};

export const hyperbolicConversational = /* @__PURE__ */ chatHelper(hyperbolic, "v1/chat/completions");

/** Text generation through the chat route: the prompt becomes one user message. */
export const hyperbolicTextGeneration = /* @__PURE__ */ promptChatHelper(
	hyperbolic,
	"v1/chat/completions",
	"Expected Hyperbolic text generation response format",
);
