/**
 * Public AI — OpenAI-compatible chat (new in huggingface.js 4.13.28 and huggingface_hub 2.0.0).
 *   routed: POST https://router.huggingface.co/publicai/v1/chat/completions
 *   direct: POST https://api.publicai.co/v1/chat/completions
 *   body: {model: providerId (first), messages, …}; answer: ChatCompletion, shape-checked
 */
import { describe } from "vitest";
import { chatChecks, chatRows } from "../support/chat.js";
import { hubModel } from "../support/fixtures.js";
import { useServer } from "../support/setup.js";

const MODEL = "swiss-ai/Apertus-70B-Instruct-2509";

const table = [
	hubModel(MODEL, {
		publicai: { providerId: "swiss-ai/apertus-70b-instruct", status: "live", task: "conversational" },
	}),
	hubModel("org/malformed", {
		publicai: { providerId: "malformed", status: "live", task: "conversational" },
	}),
	...chatRows({
		routed: "/router.huggingface.co/publicai/v1/chat/completions",
		direct: "/api.publicai.co/v1/chat/completions",
		providerId: "swiss-ai/apertus-70b-instruct",
	}),
];

describe("publicai", () => {
	const server = useServer(table);
	chatChecks(server, { provider: "publicai", model: MODEL, routed: true, malformedModel: "org/malformed" });
});
