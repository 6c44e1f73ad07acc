import { chatHelper } from "./openai-compatible.js";
import type { ProviderDefinition } from "./types.js";

const cerebras: ProviderDefinition = { id: "cerebras", baseUrl: "https://api.cerebras.ai" };

/** Cerebras refuses OpenAI's proprietary `store` field with a 400 (huggingface.js 4.13.28 drops it). */
function withoutStore({ store: _store, ...body }: Record<string, unknown>): Record<string, unknown> {
	return body;
}

export const cerebrasConversational = /* @__PURE__ */ chatHelper(
	cerebras,
	"v1/chat/completions",
	withoutStore,
);
