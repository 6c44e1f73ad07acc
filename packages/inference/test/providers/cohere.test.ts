/**
 * Cohere — OpenAI-compatible chat.
 *   routed: POST https://router.huggingface.co/cohere/compatibility/v1/chat/completions  (Authorization: Bearer hf_…)
 *   direct: POST https://api.cohere.com/compatibility/v1/chat/completions                 (Authorization: Bearer {key})
 *   body: the chat arguments + model = mapping.providerId; SSE when stream: true.
 */
import { describe } from "vitest";
import { chatChecks, chatRows } from "../support/chat.js";
import { hubModel } from "../support/fixtures.js";
import { useServer } from "../support/setup.js";

const MODEL = "meta-llama/Llama-3.3-70B-Instruct";

const table = [
	hubModel(MODEL, { cohere: { providerId: "command-a-03-2025", status: "live", task: "conversational" } }),
	hubModel("org/malformed", { cohere: { providerId: "malformed", status: "live", task: "conversational" } }),
	...chatRows({
		routed: "/router.huggingface.co/cohere/compatibility/v1/chat/completions",
		direct: "/api.cohere.com/compatibility/v1/chat/completions",
		providerId: "command-a-03-2025",
	}),
];

describe("cohere", () => {
	const server = useServer(table);
	chatChecks(server, { provider: "cohere", model: MODEL, routed: true, malformedModel: "org/malformed" });
});
