/**
 * Hyperbolic: OpenAI-compatible chat and completions; image generation takes `model_name` and answers
 * `{images: [{image: <base64>}]}`.
 */
import { BEARER, openaiError } from "./common.js";
import { PNG } from "./media.js";
import { chatCompletions, completions, imageGenerations } from "./openai-style.js";
import { json } from "./replies.js";
import type { ProviderProtocol } from "./types.js";

export const hyperbolic: ProviderProtocol = {
	provider: "hyperbolic",
	hosts: [
		{
			host: "api.hyperbolic.xyz",
			endpoints: [
				chatCompletions("hyperbolic", "/v1/chat/completions"),
				completions("hyperbolic", "/v1/completions"),
				imageGenerations("hyperbolic", "/v1/images/generations", {
					modelKey: "model_name",
					reply: () => json({ images: [{ image: PNG.toString("base64"), index: 0 }], inference_time: 1.2 }),
				}),
			],
		},
	],
	routed: true,
	direct: true,
	keyScheme: BEARER,
	providerModelId: (hubModelId) => `hyperbolic/${hubModelId}`,
	errorBody: openaiError,
};
