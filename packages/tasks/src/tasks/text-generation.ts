import type { TaskDataCustom } from "./types.js";

const taskData: TaskDataCustom = {
	datasets: [
		{
			description:
				"MMLU translated into 42 languages, reviewed by native speakers and tagged for questions that depend on cultural knowledge; for multilingual evaluation.",
			id: "CohereForAI/Global-MMLU",
		},
		{
			description:
				"FineWeb 2: a large, filtered and deduplicated web-text corpus covering more than a thousand languages, for pre-training multilingual models.",
			id: "HuggingFaceFW/fineweb-2",
		},
		{
			description:
				"A filtered subset of about 200,000 multi-turn synthetic dialogues from UltraChat, used for supervised chat fine-tuning.",
			id: "HuggingFaceH4/ultrachat_200k",
		},
		{
			description:
				"The math portion of OpenThoughts-114k: problems with long step-by-step solutions written by a reasoning model, for distilling reasoning into smaller models.",
			id: "open-r1/OpenThoughts-114k-math",
		},
		{
			description:
				"AI2's supervised fine-tuning mixture for the Tülu 3 models, blending instruction following, math, coding, safety and multilingual data.",
			id: "allenai/tulu-3-sft-mixture",
		},
		{
			description:
				"A synthetic instruction and conversation dataset used to fine-tune the SmolLM2 chat models.",
			id: "HuggingFaceTB/smoltalk",
		},
		{
			description:
				"Math-rich web pages filtered from Common Crawl for quality, for pre-training models on mathematical reasoning.",
			id: "HuggingFaceTB/finemath",
		},
	],
	demo: {
		inputs: [
			{
				type: "text",
				label: "Input",
				content: "When the last train had left the station, the old clockmaker",
			},
		],
		outputs: [
			{
				type: "text",
				label: "Output",
				content:
					"When the last train had left the station, the old clockmaker locked his shop, wound the great clock above the platform one final time, and walked home along the empty tracks, counting his steps in seconds.",
			},
		],
	},
	metrics: [
		{
			description:
				"Average negative log-probability the model gives to each actual next token of a text; lower means the model predicts the text better.",
			id: "Cross Entropy",
		},
		{
			description:
				"The exponential of the cross-entropy: roughly how many tokens the model is choosing between at each step. Lower is better.",
			id: "Perplexity",
		},
	],
	models: [
		{
			description:
				"Google's instruction-tuned Gemma 2 with 2 billion parameters: a small chat model that runs on modest hardware.",
			id: "google/gemma-2-2b-it",
		},
		{
			description:
				"A 1.5B Qwen-based model fine-tuned on reasoning traces from DeepSeek-R1, so it works through problems step by step despite its size.",
			id: "deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B",
		},
		{
			description:
				"Meta's Llama 3.1 8B instruction model: a multilingual chat model with a long context window and support for tool use.",
			id: "meta-llama/Meta-Llama-3.1-8B-Instruct",
		},
		{
			description:
				"Microsoft's 14B Phi-4, trained largely on curated and synthetic data; strong at math and reasoning for its size.",
			id: "microsoft/phi-4",
		},
		{
			description:
				"A 32B reasoning model fine-tuned from Qwen2.5 on about a thousand curated reasoning examples; the s1 work shows how to trade extra thinking time for accuracy.",
			id: "simplescaling/s1.1-32B",
		},
		{
			description: "A 7B Qwen2.5 instruction model extended to read contexts of up to a million tokens.",
			id: "Qwen/Qwen2.5-7B-Instruct-1M",
		},
		{
			description:
				"Alibaba's 32B code model tuned to follow instructions: writes, fixes and explains code in many languages.",
			id: "Qwen/Qwen2.5-Coder-32B-Instruct",
		},
		{
			description:
				"DeepSeek's large mixture-of-experts reasoning model, trained with reinforcement learning to think through long chains of reasoning before answering.",
			id: "deepseek-ai/DeepSeek-R1",
		},
	],
	spaces: [
		{
			description:
				"Ranks open language models on a shared set of benchmarks, all run with the same evaluation setup.",
			id: "open-llm-leaderboard/open_llm_leaderboard",
		},
		{
			description:
				"Measures how much reasoning in a chain of thought improves each model's accuracy on logic tasks.",
			id: "logikon/open_cot_leaderboard",
		},
		{
			description: "Chat with Llama 2 served through Text Generation Inference.",
			id: "ysharma/Explore_llamav2_with_TGI",
		},
		{
			description:
				"Chat with Zephyr, a Mistral-based assistant aligned with preference data by Hugging Face's H4 team.",
			id: "HuggingFaceH4/zephyr-chat",
		},
		{
			description: "Ranks chat models by ratings computed from crowd-sourced, side-by-side human votes.",
			id: "lmsys/chatbot-arena-leaderboard",
		},
		{
			description:
				"Chat with phixtral, a mixture-of-experts model merged from several fine-tuned Phi-2 models.",
			id: "mlabonne/phixtral-chat",
		},
	],
	summary:
		"Text generation models continue a prompt one token at a time to produce new text. Once instruction-tuned, the same models power chat assistants, coding help, reasoning and writing tools.",
	widgetModels: ["mistralai/Mistral-Nemo-Instruct-2407"],
	youtubeId: "e9gNEAlsOvU",
};

export default taskData;
