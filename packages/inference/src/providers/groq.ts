import { chatHelper, promptChatHelper } from "./openai-compatible.js";
import type { ProviderDefinition } from "./types.js";

const groq: ProviderDefinition = { id: "groq", baseUrl: "https://api.groq.com" };

export const groqConversational = /* @__PURE__ */ chatHelper(groq, "/openai/v1/chat/completions");

/** Groq's only text route is chat: the prompt goes as one user message (3.12.1 sent `inputs`, refused). */
export const groqTextGeneration = /* @__PURE__ */ promptChatHelper(
	groq,
	"/openai/v1/chat/completions",
	"Expected Array<{generated_text: string}>",
);
