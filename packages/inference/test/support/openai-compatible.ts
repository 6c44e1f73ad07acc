/**
 * Every provider's OpenAI-compatible chat route (and, where it has one, its text-generation route):
 * the rows of providers/openai-compatible.test.ts, one line per provider instead of one copied test
 * file each. A provider's other tasks stay in its own file (providers/{provider}.test.ts).
 */
import type { InferenceProvider } from "../../src/index.js";
import type { TextGenerationSpec } from "./text-generation.js";

export interface OpenAiCompatibleProvider {
	provider: InferenceProvider;
	/** The hub model mapped to the provider's `providerId` for the conversational task. */
	model: string;
	providerId: string;
	/** "/{host}{path}" of the routed chat URL (hub token). */
	routed: string;
	/** "/{host}{path}" of the direct chat URL (provider key). */
	direct: string;
	/** Its text-generation route: a completions route (`prompt`) or the chat route (one user message). */
	textGeneration?: Omit<TextGenerationSpec, "provider">;
}

export const OPENAI_COMPATIBLE_PROVIDERS: readonly OpenAiCompatibleProvider[] = [
	// Baseten and Public AI are new in huggingface.js 4.13.28 and huggingface_hub 2.0.0.
	{
		provider: "baseten",
		model: "deepseek-ai/DeepSeek-V3.1",
		providerId: "deepseek-ai/DeepSeek-V3.1",
		routed: "/router.huggingface.co/baseten/v1/chat/completions",
		direct: "/inference.baseten.co/v1/chat/completions",
	},
	{
		provider: "cerebras",
		model: "meta-llama/Llama-3.3-70B-Instruct",
		providerId: "llama-3.3-70b",
		routed: "/router.huggingface.co/cerebras/v1/chat/completions",
		direct: "/api.cerebras.ai/v1/chat/completions",
	},
	{
		provider: "cohere",
		model: "meta-llama/Llama-3.3-70B-Instruct",
		providerId: "command-a-03-2025",
		routed: "/router.huggingface.co/cohere/compatibility/v1/chat/completions",
		direct: "/api.cohere.com/compatibility/v1/chat/completions",
	},
	{
		provider: "publicai",
		model: "swiss-ai/Apertus-70B-Instruct-2509",
		providerId: "swiss-ai/apertus-70b-instruct",
		routed: "/router.huggingface.co/publicai/v1/chat/completions",
		direct: "/api.publicai.co/v1/chat/completions",
	},
	{
		provider: "fireworks-ai",
		model: "meta-llama/Llama-3.3-70B-Instruct",
		providerId: "accounts/fireworks/models/llama-v3p3-70b-instruct",
		routed: "/router.huggingface.co/fireworks-ai/inference/v1/chat/completions",
		direct: "/api.fireworks.ai/inference/v1/chat/completions",
	},
	// Text generation through the chat route: the prompt as one user message, mapped parameters (3.12.1
	// sent {inputs, parameters}, which the route refuses); the message content → {generated_text}.
	{
		provider: "groq",
		model: "meta-llama/Llama-3.3-70B-Instruct",
		providerId: "llama-3.3-70b-versatile",
		routed: "/router.huggingface.co/groq/openai/v1/chat/completions",
		direct: "/api.groq.com/openai/v1/chat/completions",
		textGeneration: {
			routed: "/router.huggingface.co/groq/openai/v1/chat/completions",
			direct: "/api.groq.com/openai/v1/chat/completions",
			style: "chat",
			malformed: "Expected Array<{generated_text: string}>",
		},
	},
	{
		provider: "hyperbolic",
		model: "meta-llama/Llama-3.3-70B-Instruct",
		providerId: "meta-llama/Llama-3.3-70B-Instruct",
		routed: "/router.huggingface.co/hyperbolic/v1/chat/completions",
		direct: "/api.hyperbolic.xyz/v1/chat/completions",
		textGeneration: {
			routed: "/router.huggingface.co/hyperbolic/v1/chat/completions",
			direct: "/api.hyperbolic.xyz/v1/chat/completions",
			style: "chat",
			malformed: "Expected Hyperbolic text generation response format",
		},
	},
	// Text generation through …/v1/completions: {model, prompt, max_tokens (= max_new_tokens), other
	// parameters} (3.12.1 also sent inputs and parameters) → {choices: [{text}]} → {generated_text}.
	{
		provider: "featherless-ai",
		model: "meta-llama/Llama-3.1-8B-Instruct",
		providerId: "meta-llama/Meta-Llama-3.1-8B-Instruct",
		routed: "/router.huggingface.co/featherless-ai/v1/chat/completions",
		direct: "/api.featherless.ai/v1/chat/completions",
		textGeneration: {
			routed: "/router.huggingface.co/featherless-ai/v1/completions",
			direct: "/api.featherless.ai/v1/completions",
			style: "completions",
			malformed: "Expected Featherless AI text generation response format",
		},
	},
	{
		provider: "nebius",
		model: "meta-llama/Llama-3.3-70B-Instruct",
		providerId: "meta-llama/Llama-3.3-70B-Instruct-fast",
		routed: "/router.huggingface.co/nebius/v1/chat/completions",
		direct: "/api.studio.nebius.ai/v1/chat/completions",
		textGeneration: {
			routed: "/router.huggingface.co/nebius/v1/completions",
			direct: "/api.studio.nebius.ai/v1/completions",
			style: "completions",
			malformed: "Expected Array<{generated_text: string}>",
		},
	},
	{
		provider: "ovhcloud",
		model: "meta-llama/Llama-3.1-8B-Instruct",
		providerId: "Llama-3.1-8B-Instruct",
		routed: "/router.huggingface.co/ovhcloud/v1/chat/completions",
		direct: "/oai.endpoints.kepler.ai.cloud.ovh.net/v1/chat/completions",
		textGeneration: {
			routed: "/router.huggingface.co/ovhcloud/v1/completions",
			direct: "/oai.endpoints.kepler.ai.cloud.ovh.net/v1/completions",
			style: "completions",
			malformed: "Expected OVHcloud text generation response format",
		},
	},
	{
		provider: "scaleway",
		model: "meta-llama/Llama-3.3-70B-Instruct",
		providerId: "llama-3.3-70b-instruct",
		routed: "/router.huggingface.co/scaleway/v1/chat/completions",
		direct: "/api.scaleway.ai/v1/chat/completions",
		textGeneration: {
			routed: "/router.huggingface.co/scaleway/v1/completions",
			direct: "/api.scaleway.ai/v1/completions",
			style: "completions",
			malformed: "Expected Scaleway text generation response format",
		},
	},
	{
		provider: "nscale",
		model: "meta-llama/Llama-3.1-8B-Instruct",
		providerId: "meta-llama/Llama-3.1-8B-Instruct",
		routed: "/router.huggingface.co/nscale/v1/chat/completions",
		direct: "/inference.api.nscale.com/v1/chat/completions",
	},
	{
		provider: "sambanova",
		model: "meta-llama/Llama-3.1-8B-Instruct",
		providerId: "Meta-Llama-3.1-8B-Instruct",
		routed: "/router.huggingface.co/sambanova/v1/chat/completions",
		direct: "/api.sambanova.ai/v1/chat/completions",
	},
];
