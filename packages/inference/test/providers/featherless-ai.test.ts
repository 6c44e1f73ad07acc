/**
 * Featherless AI — chat, and completions for text generation.
 *   chat:   POST {router}/featherless-ai/v1/chat/completions | https://api.featherless.ai/v1/chat/completions
 *   text-generation: POST …/v1/completions  body {model, prompt, mapped parameters}
 *     (3.12.1 also sent inputs and parameters) → {choices: [{text}]} → {generated_text}
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

const MODEL = "meta-llama/Llama-3.1-8B-Instruct";
const TEXT_GENERATION: TextGenerationSpec = {
	provider: "featherless-ai",
	routed: "/router.huggingface.co/featherless-ai/v1/completions",
	direct: "/api.featherless.ai/v1/completions",
	style: "completions",
	malformed: "Expected Featherless AI text generation response format",
};

const table = [
	hubModel(MODEL, {
		"featherless-ai": {
			providerId: "meta-llama/Meta-Llama-3.1-8B-Instruct",
			status: "live",
			task: "conversational",
		},
	}),
	hubModel("org/malformed", {
		"featherless-ai": { providerId: "malformed", status: "live", task: "conversational" },
	}),
	...textGenerationRows(TEXT_GENERATION),
	...chatRows({
		routed: "/router.huggingface.co/featherless-ai/v1/chat/completions",
		direct: "/api.featherless.ai/v1/chat/completions",
		providerId: "meta-llama/Meta-Llama-3.1-8B-Instruct",
	}),
];

describe("featherless-ai", () => {
	const server = useServer(table);
	chatChecks(server, {
		provider: "featherless-ai",
		model: MODEL,
		routed: true,
		malformedModel: "org/malformed",
	});
	textGenerationChecks(server, TEXT_GENERATION);
});
