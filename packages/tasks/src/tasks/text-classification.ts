import type { TaskDataCustom } from "./types.js";

const taskData: TaskDataCustom = {
	datasets: [
		{
			description:
				"GLUE bundles nine English understanding tasks, among them sentiment (SST-2), paraphrase detection and natural language inference, into one benchmark.",
			id: "nyu-mll/glue",
		},
		{
			description:
				"Stanford NLI: about 570,000 sentence pairs written by crowd workers and labelled entailment, contradiction or neutral.",
			id: "stanfordnlp/snli",
		},
	],
	demo: {
		inputs: [
			{
				type: "text",
				label: "Input",
				content: "The room was spotless and the staff went out of their way to help us. We'll be back!",
			},
		],
		outputs: [
			{
				type: "chart",
				data: [
					{ label: "POSITIVE", score: 0.97 },
					{ label: "NEUTRAL", score: 0.02 },
					{ label: "NEGATIVE", score: 0.01 },
				],
			},
		],
	},
	metrics: [
		{
			description: "Share of texts given the correct label.",
			id: "accuracy",
		},
		{
			description: "For a label, the share of texts that truly carry it which the model found.",
			id: "recall",
		},
		{
			description: "For a label, the share of the model's predictions of it that are correct.",
			id: "precision",
		},
		{
			description:
				"Harmonic mean of precision and recall, often macro-averaged over labels when classes are imbalanced.",
			id: "f1",
		},
	],
	models: [
		{
			description:
				"DistilBERT fine-tuned on SST-2 for positive/negative sentiment on English text; small, fast and a common default.",
			id: "distilbert/distilbert-base-uncased-finetuned-sst-2-english",
		},
		{
			description: "FinBERT rates financial text such as news and reports as positive, negative or neutral.",
			id: "ProsusAI/finbert",
		},
		{
			description:
				"A RoBERTa-base model trained on a large corpus of tweets and fine-tuned for three-way sentiment on social media text.",
			id: "cardiffnlp/twitter-roberta-base-sentiment-latest",
		},
		{
			description: "XLM-RoBERTa fine-tuned to tell which of 20 languages a text is written in.",
			id: "papluca/xlm-roberta-base-language-detection",
		},
		{
			description:
				"Meta's small Prompt Guard classifier flags prompt-injection and jailbreak attempts in text sent to LLM applications.",
			id: "meta-llama/Prompt-Guard-86M",
		},
	],
	spaces: [
		{
			description:
				"Scores the sentiment of recent news about technology stocks to help inform trading decisions.",
			id: "IoannisTr/Tech_Stocks_Trading_Assistant",
		},
		{
			description:
				"Runs several NLP models on the same text at once, including sentiment and emotion classifiers.",
			id: "miesnerjacob/Multi-task-NLP",
		},
		{
			description:
				"spaCy's Healthsea pipeline reads reviews of dietary supplements and classifies the health effects they report.",
			id: "spacy/healthsea-demo",
		},
	],
	summary:
		"Text classification assigns one or more labels to a whole piece of text. Common uses are sentiment analysis, topic tagging, spam filtering, language identification and deciding whether one sentence follows from another.",
	widgetModels: ["distilbert/distilbert-base-uncased-finetuned-sst-2-english"],
	youtubeId: "leNG9fN9FQU",
};

export default taskData;
