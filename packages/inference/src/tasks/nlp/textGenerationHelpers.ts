import { featherlessAiTextGeneration } from "../../providers/featherless-ai.js";
import { groqTextGeneration } from "../../providers/groq.js";
import { hfInferenceTextGeneration } from "../../providers/hf-inference.js";
import { hyperbolicTextGeneration } from "../../providers/hyperbolic.js";
import { nebiusTextGeneration } from "../../providers/nebius.js";
import { novitaTextGeneration } from "../../providers/novita.js";
import { ovhcloudTextGeneration } from "../../providers/ovhcloud.js";
import { togetherTextGeneration } from "../../providers/together.js";
import type { HelperTable } from "../../providers/types.js";

/** The 8 text-generation providers, shared by textGeneration and textGenerationStream. */
export const TEXT_GENERATION_HELPERS: HelperTable = {
	"featherless-ai": featherlessAiTextGeneration,
	groq: groqTextGeneration,
	"hf-inference": hfInferenceTextGeneration,
	hyperbolic: hyperbolicTextGeneration,
	nebius: nebiusTextGeneration,
	novita: novitaTextGeneration,
	ovhcloud: ovhcloudTextGeneration,
	together: togetherTextGeneration,
};
