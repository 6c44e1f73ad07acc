import { chatHelper } from "./openai-compatible.js";
import type { ProviderDefinition } from "./types.js";

/** Baseten's OpenAI-compatible Model APIs (huggingface.js 4.13.28, huggingface_hub 2.0.0). */
const baseten: ProviderDefinition = { id: "baseten", baseUrl: "https://inference.baseten.co" };

export const basetenConversational = /* @__PURE__ */ chatHelper(baseten, "v1/chat/completions");
