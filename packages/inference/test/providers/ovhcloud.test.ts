/**
 * OVHcloud AI Endpoints — chat, and completions for text generation.
 *   chat:   POST {router}/ovhcloud/v1/chat/completions | https://oai.endpoints.kepler.ai.cloud.ovh.net/v1/chat/completions
 *   text-generation: POST …/v1/completions  body {model, prompt, max_tokens (= max_new_tokens), other parameters}
 *     (3.12.1 also sent max_new_tokens next to max_tokens) → {choices: [{text}]} → {generated_text}
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
	provider: "ovhcloud",
	routed: "/router.huggingface.co/ovhcloud/v1/completions",
	direct: "/oai.endpoints.kepler.ai.cloud.ovh.net/v1/completions",
	style: "completions",
	malformed: "Expected OVHcloud text generation response format",
};

const table = [
	hubModel(MODEL, {
		ovhcloud: { providerId: "Llama-3.1-8B-Instruct", status: "live", task: "conversational" },
	}),
	hubModel("org/malformed", {
		ovhcloud: { providerId: "malformed", status: "live", task: "conversational" },
	}),
	...textGenerationRows(TEXT_GENERATION),
	...chatRows({
		routed: "/router.huggingface.co/ovhcloud/v1/chat/completions",
		direct: "/oai.endpoints.kepler.ai.cloud.ovh.net/v1/chat/completions",
		providerId: "Llama-3.1-8B-Instruct",
	}),
];

describe("ovhcloud", () => {
	const server = useServer(table);
	chatChecks(server, { provider: "ovhcloud", model: MODEL, routed: true, malformedModel: "org/malformed" });
	textGenerationChecks(server, TEXT_GENERATION);
});
