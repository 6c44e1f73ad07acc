/**
 * Baseten — OpenAI-compatible chat (new in huggingface.js 4.13.28 and huggingface_hub 2.0.0).
 *   routed: POST https://router.huggingface.co/baseten/v1/chat/completions   (Bearer hf_…)
 *   direct: POST https://inference.baseten.co/v1/chat/completions           (Bearer {Baseten key})
 *   body: {model: providerId (first), messages, …}; answer: ChatCompletion, shape-checked
 */
import { describe } from "vitest";
import { chatChecks, chatRows } from "../support/chat.js";
import { hubModel } from "../support/fixtures.js";
import { useServer } from "../support/setup.js";

const MODEL = "deepseek-ai/DeepSeek-V3.1";

const table = [
	hubModel(MODEL, {
		baseten: { providerId: "deepseek-ai/DeepSeek-V3.1", status: "live", task: "conversational" },
	}),
	hubModel("org/malformed", { baseten: { providerId: "malformed", status: "live", task: "conversational" } }),
	...chatRows({
		routed: "/router.huggingface.co/baseten/v1/chat/completions",
		direct: "/inference.baseten.co/v1/chat/completions",
		providerId: "deepseek-ai/DeepSeek-V3.1",
	}),
];

describe("baseten", () => {
	const server = useServer(table);
	chatChecks(server, { provider: "baseten", model: MODEL, routed: true, malformedModel: "org/malformed" });
});
