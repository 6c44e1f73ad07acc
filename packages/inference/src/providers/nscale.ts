import { b64JsonImageHelper, chatHelper } from "./openai-compatible.js";
import type { ProviderDefinition } from "./types.js";

const nscale: ProviderDefinition = { id: "nscale", baseUrl: "https://inference.api.nscale.com" };

export const nscaleTextToImage = /* @__PURE__ */ b64JsonImageHelper(
	nscale,
	"Expected Nscale text-to-image response format",
);

export const nscaleConversational = /* @__PURE__ */ chatHelper(nscale, "v1/chat/completions");
