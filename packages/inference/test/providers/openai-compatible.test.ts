/**
 * Every provider's OpenAI-compatible routes as one table (support/openai-compatible.ts): each row is
 * the provider, the hub model and its id on the provider's side, the two chat URLs, and its
 * text-generation route when it has one. Each provider gets its own 127.0.0.1 protocol server.
 *   routed: POST https://router.huggingface.co/{provider}/…/chat/completions  (Authorization: Bearer hf_…)
 *   direct: POST the provider's own …/chat/completions                        (Authorization: Bearer {key})
 *   body: {model: providerId (first), messages, …}; SSE when stream: true; answer: ChatCompletion, shape-checked.
 */
import { describe } from "vitest";
import { chatChecks, chatRows } from "../support/chat.js";
import { hubModel } from "../support/fixtures.js";
import { OPENAI_COMPATIBLE_PROVIDERS } from "../support/openai-compatible.js";
import { useServer } from "../support/setup.js";
import { textGenerationChecks, textGenerationRows } from "../support/text-generation.js";

for (const row of OPENAI_COMPATIBLE_PROVIDERS) {
	describe(row.provider, () => {
		const textGeneration = row.textGeneration ? { provider: row.provider, ...row.textGeneration } : undefined;
		const server = useServer([
			hubModel(row.model, {
				[row.provider]: { providerId: row.providerId, status: "live", task: "conversational" },
			}),
			hubModel("org/malformed", {
				[row.provider]: { providerId: "malformed", status: "live", task: "conversational" },
			}),
			...(textGeneration ? textGenerationRows(textGeneration) : []),
			...chatRows({ routed: row.routed, direct: row.direct, providerId: row.providerId }),
		]);
		chatChecks(server, {
			provider: row.provider,
			model: row.model,
			routed: true,
			malformedModel: "org/malformed",
		});
		if (textGeneration) textGenerationChecks(server, textGeneration);
	});
}
