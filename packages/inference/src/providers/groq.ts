import { generatedTextHelper, openaiChatHelper } from "./openai-compatible.js";
import type { ProviderDefinition } from "./types.js";

export const groq: ProviderDefinition = { id: "groq", baseUrl: "https://api.groq.com" };

export const groqConversational = /* @__PURE__ */ openaiChatHelper(groq, "/openai/v1/chat/completions");

/** 3.12.1 sends the generic {inputs, parameters, model} body here and expects `generated_text` back. */
export const groqTextGeneration = /* @__PURE__ */ generatedTextHelper(groq, "/openai/v1/chat/completions");
