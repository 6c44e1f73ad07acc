/** The providers that serve only OpenAI-compatible chat: the rows of providers/openai-compatible.test.ts. */
import type { InferenceProvider } from "../../src/index.js";

export interface ChatOnlyProvider {
	provider: InferenceProvider;
	model: string;
	providerId: string;
	routed: string;
	direct: string;
}

export const CHAT_ONLY_PROVIDERS: readonly ChatOnlyProvider[] = [
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
];
