import { generatedTextHelper, openaiChatHelper } from "./openai-compatible.js";
import type { ProviderDefinition } from "./types.js";

export const novita: ProviderDefinition = { id: "novita", baseUrl: "https://api.novita.ai" };

export const novitaConversational = /* @__PURE__ */ openaiChatHelper(novita, "/v3/openai/chat/completions");

/** 3.12.1 sends the generic {inputs, parameters, model} body here and expects `generated_text` back. */
export const novitaTextGeneration = /* @__PURE__ */ generatedTextHelper(
	novita,
	"/v3/openai/chat/completions",
);
