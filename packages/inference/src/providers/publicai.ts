import { chatHelper } from "./openai-compatible.js";
import type { ProviderDefinition } from "./types.js";

/** Public AI's OpenAI-compatible chat (huggingface.js 4.13.28, huggingface_hub 2.0.0). */
const publicai: ProviderDefinition = { id: "publicai", baseUrl: "https://api.publicai.co" };

export const publicaiConversational = /* @__PURE__ */ chatHelper(publicai, "v1/chat/completions");
