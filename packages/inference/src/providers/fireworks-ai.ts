import { openaiChatHelper } from "./openai-compatible.js";
import type { ProviderDefinition } from "./types.js";

export const fireworksAi: ProviderDefinition = { id: "fireworks-ai", baseUrl: "https://api.fireworks.ai" };

export const fireworksAiConversational = /* @__PURE__ */ openaiChatHelper(
	fireworksAi,
	"/inference/v1/chat/completions",
);
