import { b64JsonImageHelper, generatedTextHelper, openaiChatHelper } from "./openai-compatible.js";
import type { ProviderDefinition } from "./types.js";

export const nebius: ProviderDefinition = { id: "nebius", baseUrl: "https://api.studio.nebius.ai" };

export const nebiusTextToImage = /* @__PURE__ */ b64JsonImageHelper(
	nebius,
	"Expected Nebius text-to-image response format",
);

export const nebiusConversational = /* @__PURE__ */ openaiChatHelper(nebius, "v1/chat/completions");

/** Completions route with the generic body; `generated_text` expected back (as in 3.12.1). */
export const nebiusTextGeneration = /* @__PURE__ */ generatedTextHelper(nebius, "v1/completions");
