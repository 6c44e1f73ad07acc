import type { TaskDataCustom } from "./types.js";

const taskData: TaskDataCustom = {
	datasets: [
		{
			description:
				"Cleaned article text from Wikipedia dumps in many languages; a classic corpus for masked-language-model pre-training.",
			id: "wikipedia",
		},
		{
			description:
				"C4, the Colossal Clean Crawled Corpus: a large amount of English web text from Common Crawl with boilerplate and low-quality pages filtered out.",
			id: "c4",
		},
	],
	demo: {
		inputs: [{ type: "text", label: "Input", content: "The <mask> howled at the full moon all night long." }],
		outputs: [
			{
				type: "chart",
				data: [
					{ label: "wolf", score: 0.62 },
					{ label: "dog", score: 0.23 },
					{ label: "cat", score: 0.05 },
					{ label: "fox", score: 0.04 },
					{ label: "squirrel", score: 0.01 },
				],
			},
		],
	},
	metrics: [
		{
			description:
				"Average negative log-probability the model gives the hidden token at each masked position; lower means better guesses.",
			id: "cross_entropy",
		},
		{
			description:
				"The exponential of the cross-entropy: roughly how many candidate words the model is torn between on average; lower is better.",
			id: "perplexity",
		},
	],
	models: [
		{
			description:
				"ModernBERT large: an encoder rebuilt with recent architecture ideas, trained on text and code, that reads up to 8,192 tokens and runs efficiently.",
			id: "answerdotai/ModernBERT-large",
		},
		{
			description:
				"XLM-RoBERTa base: a RoBERTa-style model pre-trained on filtered web text in 100 languages; a common multilingual starting point.",
			id: "FacebookAI/xlm-roberta-base",
		},
	],
	spaces: [],
	summary:
		"Fill-mask models predict which words best fit a hidden position in a sentence. The same masked-word training is how encoder models like BERT learn language, before they are fine-tuned for classification, tagging or search.",
	widgetModels: ["distilroberta-base"],
	youtubeId: "mqElG5QJWUg",
};

export default taskData;
