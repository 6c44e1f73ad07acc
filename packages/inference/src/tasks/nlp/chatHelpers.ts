import { cerebrasConversational } from "../../providers/cerebras.js";
import { cohereConversational } from "../../providers/cohere.js";
import { featherlessAiConversational } from "../../providers/featherless-ai.js";
import { fireworksAiConversational } from "../../providers/fireworks-ai.js";
import { groqConversational } from "../../providers/groq.js";
import { hfInferenceConversational } from "../../providers/hf-inference.js";
import { hyperbolicConversational } from "../../providers/hyperbolic.js";
import { nebiusConversational } from "../../providers/nebius.js";
import { novitaConversational } from "../../providers/novita.js";
import { nscaleConversational } from "../../providers/nscale.js";
import { openaiConversational } from "../../providers/openai.js";
import { ovhcloudConversational } from "../../providers/ovhcloud.js";
import { sambanovaConversational } from "../../providers/sambanova.js";
import { togetherConversational } from "../../providers/together.js";
import type { HelperTable } from "../../providers/types.js";

/** The 14 chat providers, shared by chatCompletion and chatCompletionStream. */
export const CHAT_HELPERS: HelperTable = {
	cerebras: cerebrasConversational,
	cohere: cohereConversational,
	"featherless-ai": featherlessAiConversational,
	"fireworks-ai": fireworksAiConversational,
	groq: groqConversational,
	"hf-inference": hfInferenceConversational,
	hyperbolic: hyperbolicConversational,
	nebius: nebiusConversational,
	novita: novitaConversational,
	nscale: nscaleConversational,
	openai: openaiConversational,
	ovhcloud: ovhcloudConversational,
	sambanova: sambanovaConversational,
	together: togetherConversational,
};
