import type { TaskDataCustom } from "./types.js";

const taskData: TaskDataCustom = {
	canonicalId: "text2text-generation",
	datasets: [
		{
			description:
				"MLSUM: more than a million news articles with their summaries in French, German, Spanish, Russian and Turkish, for summarisation beyond English.",
			id: "mlsum",
		},
		{
			description:
				"About 16,000 messenger-style chat conversations, each with a short summary written by linguists; the usual benchmark for dialogue summarisation.",
			id: "samsum",
		},
	],
	demo: {
		inputs: [
			{
				type: "text",
				label: "Input",
				content:
					"The town council of Ashford voted on Tuesday to turn the disused quarry north of the ring road into a solar farm. The project, run with a local energy cooperative, will cover about 40 hectares and should supply enough electricity for 9,000 homes once it is connected in 2027. Residents will be able to buy shares in the cooperative, and part of the income will fund a new footpath and wildlife area around the site. Two councillors voted against the plan, citing the cost of the grid connection.",
			},
		],
		outputs: [
			{
				type: "text",
				label: "Output",
				content:
					"Ashford council approved a community-owned solar farm on an old quarry that should power 9,000 homes from 2027, with residents able to invest and profits funding local nature projects.",
			},
		],
	},
	metrics: [
		{
			description:
				"ROUGE counts the words, word pairs and longest common word sequences a generated summary shares with reference summaries; higher means closer to the references.",
			id: "rouge",
		},
	],
	models: [
		{
			description:
				"Meta's BART-large fine-tuned on CNN/Daily Mail news articles; writes fluent abstractive summaries of news-style text.",
			id: "facebook/bart-large-cnn",
		},
		{
			description: "A T5 model fine-tuned to condense medical documents into short summaries.",
			id: "Falconsai/medical_summarization",
		},
	],
	spaces: [
		{
			description: "Summarises long documents by running long-context models over the text in chunks.",
			id: "pszemraj/summarize-long-text",
		},
		{
			description: "Condenses website terms of service into their key points with a DistilBART model.",
			id: "ml6team/distilbart-tos-summarizer-tosdr",
		},
		{
			description:
				"Upload a document or paste text and get a summary from one of several summarisation models.",
			id: "pszemraj/document-summarization",
		},
		{
			description:
				"Checks a generated summary against its article and flags named entities that appear only in the summary, a typical sign of hallucination.",
			id: "ml6team/post-processing-summarization",
		},
	],
	summary:
		"Summarization turns a long text into a shorter one that keeps its main points. Extractive methods pick sentences from the source, while abstractive models write new sentences of their own.",
	widgetModels: ["facebook/bart-large-cnn"],
	youtubeId: "yHnr5Dk2zCI",
};

export default taskData;
