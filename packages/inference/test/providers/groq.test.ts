/**
 * Groq — chat, and text generation through the same chat route.
 *   routed: POST https://router.huggingface.co/groq/openai/v1/chat/completions
 *   direct: POST https://api.groq.com/openai/v1/chat/completions
 *   text-generation: the prompt as one user message, mapped parameters (3.12.1 sent {inputs, parameters},
 *     which the route refuses); the answer's message content → {generated_text}
 */
import { describe } from "vitest";
import { chatChecks, chatRows } from "../support/chat.js";
import { hubModel } from "../support/fixtures.js";
import { useServer } from "../support/setup.js";
import {
	textGenerationChecks,
	textGenerationRows,
	type TextGenerationSpec,
} from "../support/text-generation.js";

const MODEL = "meta-llama/Llama-3.3-70B-Instruct";
const TEXT_GENERATION: TextGenerationSpec = {
	provider: "groq",
	routed: "/router.huggingface.co/groq/openai/v1/chat/completions",
	direct: "/api.groq.com/openai/v1/chat/completions",
	style: "chat",
	malformed: "Expected Array<{generated_text: string}>",
};

const table = [
	hubModel(MODEL, {
		groq: { providerId: "llama-3.3-70b-versatile", status: "live", task: "conversational" },
	}),
	hubModel("org/malformed", { groq: { providerId: "malformed", status: "live", task: "conversational" } }),
	...textGenerationRows(TEXT_GENERATION),
	...chatRows({
		routed: "/router.huggingface.co/groq/openai/v1/chat/completions",
		direct: "/api.groq.com/openai/v1/chat/completions",
		providerId: "llama-3.3-70b-versatile",
	}),
];

describe("groq", () => {
	const server = useServer(table);
	chatChecks(server, { provider: "groq", model: MODEL, routed: true, malformedModel: "org/malformed" });
	textGenerationChecks(server, TEXT_GENERATION);
});
