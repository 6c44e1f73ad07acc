import { b64JsonImageHelper, chatHelper, completionsHelper } from "./openai-compatible.js";
import type { ProviderDefinition } from "./types.js";

/** Not served by the public router since 2026-07-01: use a Nebius key. */
const nebius: ProviderDefinition = { id: "nebius", baseUrl: "https://api.studio.nebius.ai" };

export const nebiusTextToImage = /* @__PURE__ */ b64JsonImageHelper(
	nebius,
	"Expected Nebius text-to-image response format",
);

export const nebiusConversational = /* @__PURE__ */ chatHelper(nebius, "v1/chat/completions");

/** Completions route: `prompt` (3.12.1 sent `inputs`/`parameters`, which the route refuses). */
export const nebiusTextGeneration = /* @__PURE__ */ completionsHelper(
	nebius,
	"v1/completions",
	"Expected Array<{generated_text: string}>",
);
