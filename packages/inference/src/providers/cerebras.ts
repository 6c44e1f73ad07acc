import { openaiChatHelper } from "./openai-compatible.js";
import type { ProviderDefinition } from "./types.js";

export const cerebras: ProviderDefinition = { id: "cerebras", baseUrl: "https://api.cerebras.ai" };

export const cerebrasConversational = /* @__PURE__ */ openaiChatHelper(cerebras, "v1/chat/completions");
