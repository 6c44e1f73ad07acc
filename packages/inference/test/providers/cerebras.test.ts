/**
 * Cerebras — OpenAI-compatible chat.
 *   routed: POST https://router.huggingface.co/cerebras/v1/chat/completions  (Authorization: Bearer hf_…)
 *   direct: POST https://api.cerebras.ai/v1/chat/completions                 (Authorization: Bearer {key})
 *   body: the chat arguments + model = mapping.providerId; SSE when stream: true.
 */
import { describe } from "vitest";
import { chatChecks, chatRows } from "../support/chat.js";
import { hubModel } from "../support/fixtures.js";
import { useServer } from "../support/setup.js";

const MODEL = "meta-llama/Llama-3.3-70B-Instruct";

const table = [
	hubModel(MODEL, { cerebras: { providerId: "llama-3.3-70b", status: "live", task: "conversational" } }),
	hubModel("org/malformed", {
		cerebras: { providerId: "malformed", status: "live", task: "conversational" },
	}),
	...chatRows({
		routed: "/router.huggingface.co/cerebras/v1/chat/completions",
		direct: "/api.cerebras.ai/v1/chat/completions",
		providerId: "llama-3.3-70b",
	}),
];

describe("cerebras", () => {
	const server = useServer(table);
	chatChecks(server, { provider: "cerebras", model: MODEL, routed: true, malformedModel: "org/malformed" });
});
