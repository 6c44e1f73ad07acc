import type { TaskDataCustom } from "./types.js";

const taskData: TaskDataCustom = {
	datasets: [
		{
			description:
				"Training pairs for ColPali: queries matched to the document page images that answer them, drawn from academic datasets and synthetic questions over crawled PDFs.",
			id: "vidore/colpali_train_set",
		},
	],
	demo: {
		inputs: [
			{ type: "img", filename: "input.svg" },
			{ type: "text", label: "Question", content: "Which quarter brought in the most revenue in 2023?" },
		],
		outputs: [
			{
				type: "chart",
				data: [
					{ label: "Page 10", score: 0.87 },
					{ label: "Page 11", score: 0.64 },
					{ label: "Page 9", score: 0.52 },
				],
			},
		],
	},
	isPlaceholder: false,
	metrics: [
		{
			description:
				"Scores the top K results of a ranking, giving more credit to relevant pages placed higher and dividing by the score of the ideal order, so 1 is perfect.",
			id: "Normalized Discounted Cumulative Gain at K",
		},
	],
	models: [
		{
			description:
				"ColQwen2: embeds page screenshots as many patch vectors with a Qwen2-VL backbone and matches them to queries by late interaction, with no OCR needed.",
			id: "vidore/colqwen2-v1.0",
		},
		{
			description:
				"Multilingual document-screenshot embedder built on a 2B Qwen2-VL model; it gives one vector per page and query, which can be shortened to save storage.",
			id: "marco/mcdse-2b-v1",
		},
	],
	spaces: [
		{
			description: "Leaderboard of visual document retrievers scored on the ViDoRe benchmark.",
			id: "vidore/vidore-leaderboard",
		},
	],
	summary:
		"Visual document retrieval finds the pages of a document collection that best answer a text query, working from images of the pages rather than extracted text. Charts, tables and layout therefore count, and the retrieved pages can be handed to a vision-language model to answer.",
	widgetModels: [""],
	youtubeId: "",
};

export default taskData;
