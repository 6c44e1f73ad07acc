import { chatHelper } from "./openai-compatible.js";
import type { ProviderDefinition } from "./types.js";

const fireworksAi: ProviderDefinition = { id: "fireworks-ai", baseUrl: "https://api.fireworks.ai" };

export const fireworksAiConversational = /* @__PURE__ */ chatHelper(
	fireworksAi,
	"/inference/v1/chat/completions",
);
