/**
 * Fireworks AI — OpenAI-compatible chat.
 *   routed: POST https://router.huggingface.co/fireworks-ai/inference/v1/chat/completions  (Authorization: Bearer hf_…)
 *   direct: POST https://api.fireworks.ai/inference/v1/chat/completions                 (Authorization: Bearer {key})
 *   body: the chat arguments + model = mapping.providerId; SSE when stream: true.
 */
import { describe } from "vitest";
import { chatChecks, chatRows } from "../support/chat.js";
import { hubModel } from "../support/fixtures.js";
import { useServer } from "../support/setup.js";

const MODEL = "meta-llama/Llama-3.3-70B-Instruct";

const table = [
	hubModel(MODEL, {
		"fireworks-ai": {
			providerId: "accounts/fireworks/models/llama-v3p3-70b-instruct",
			status: "live",
			task: "conversational",
		},
	}),
	hubModel("org/malformed", {
		"fireworks-ai": { providerId: "malformed", status: "live", task: "conversational" },
	}),
	...chatRows({
		routed: "/router.huggingface.co/fireworks-ai/inference/v1/chat/completions",
		direct: "/api.fireworks.ai/inference/v1/chat/completions",
		providerId: "accounts/fireworks/models/llama-v3p3-70b-instruct",
	}),
];

describe("fireworks-ai", () => {
	const server = useServer(table);
	chatChecks(server, {
		provider: "fireworks-ai",
		model: MODEL,
		routed: true,
		malformedModel: "org/malformed",
	});
});
