/**
 * Every provider's protocol server, one file each. A provider the client offers must be here; a
 * provider here that the client does not offer yet is simply not exercised.
 */
import { baseten } from "./baseten.js";
import { blackForestLabs } from "./black-forest-labs.js";
import { cerebras } from "./cerebras.js";
import { cohere } from "./cohere.js";
import { deepinfra } from "./deepinfra.js";
import { falAi } from "./fal-ai.js";
import { featherlessAi } from "./featherless-ai.js";
import { fireworksAi } from "./fireworks-ai.js";
import { groq } from "./groq.js";
import { hfInference } from "./hf-inference.js";
import { hyperbolic } from "./hyperbolic.js";
import { nebius } from "./nebius.js";
import { novita } from "./novita.js";
import { nscale } from "./nscale.js";
import { openai } from "./openai.js";
import { ovhcloud } from "./ovhcloud.js";
import { publicai } from "./publicai.js";
import { replicate } from "./replicate.js";
import { sambanova } from "./sambanova.js";
import { scaleway } from "./scaleway.js";
import { together } from "./together.js";
import type { ProviderProtocol } from "./types.js";
import { wavespeed } from "./wavespeed.js";
import { zaiOrg } from "./zai-org.js";

export const PROTOCOLS: readonly ProviderProtocol[] = [
	baseten,
	blackForestLabs,
	cerebras,
	cohere,
	deepinfra,
	falAi,
	featherlessAi,
	fireworksAi,
	groq,
	hfInference,
	hyperbolic,
	nebius,
	novita,
	nscale,
	openai,
	ovhcloud,
	publicai,
	replicate,
	sambanova,
	scaleway,
	together,
	wavespeed,
	zaiOrg,
];

export function protocolOf(provider: string): ProviderProtocol | undefined {
	return PROTOCOLS.find((protocol) => protocol.provider === provider);
}
