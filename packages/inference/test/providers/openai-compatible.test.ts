/**
 * The providers that serve only OpenAI-compatible chat, as one table: each row is the provider, the
 * hub model and its id on the provider's side, and the two URLs.
 *   routed: POST https://router.huggingface.co/{provider}/…/chat/completions  (Authorization: Bearer hf_…)
 *   direct: POST the provider's own …/chat/completions                        (Authorization: Bearer {key})
 *   body: {model: providerId (first), messages, …}; SSE when stream: true; answer: ChatCompletion, shape-checked.
 * Baseten and Public AI are new in huggingface.js 4.13.28 and huggingface_hub 2.0.0.
 */
import { describe } from "vitest";
import { chatChecks, chatRows } from "../support/chat.js";
import { hubModel } from "../support/fixtures.js";
import { CHAT_ONLY_PROVIDERS } from "../support/openai-compatible.js";
import { useServer } from "../support/setup.js";

for (const row of CHAT_ONLY_PROVIDERS) {
	describe(row.provider, () => {
		const server = useServer([
			hubModel(row.model, {
				[row.provider]: { providerId: row.providerId, status: "live", task: "conversational" },
			}),
			hubModel("org/malformed", {
				[row.provider]: { providerId: "malformed", status: "live", task: "conversational" },
			}),
			...chatRows({ routed: row.routed, direct: row.direct, providerId: row.providerId }),
		]);
		chatChecks(server, {
			provider: row.provider,
			model: row.model,
			routed: true,
			malformedModel: "org/malformed",
		});
	});
}
