import type { TaskDataCustom } from "./types.js";

const taskData: TaskDataCustom = {
	datasets: [
		{
			description:
				"Cleaned article text from Wikipedia dumps in many languages; a staple corpus for pre-training text encoders.",
			id: "wikipedia",
		},
	],
	demo: {
		inputs: [
			{
				type: "text",
				label: "Input",
				content: "Embeddings place sentences with similar meanings close together.",
			},
		],
		outputs: [
			{
				type: "tabular",
				table: [
					["Dimension 1", "Dimension 2", "Dimension 3"],
					["0.214", "-0.587", "0.031"],
					["-0.102", "0.349", "0.776"],
					["0.468", "0.055", "-0.293"],
					["-0.731", "0.128", "0.402"],
				],
			},
		],
	},
	metrics: [],
	models: [
		{
			description:
				"GTE large: a BERT-sized English embedding model trained with contrastive learning, good for search, clustering and similarity.",
			id: "thenlper/gte-large",
		},
		{
			description:
				"Embedding model built on the Qwen1.5 7B language model; queries take a short task instruction, and it handles long inputs and many languages.",
			id: "Alibaba-NLP/gte-Qwen1.5-7B-instruct",
		},
	],
	spaces: [
		{
			description:
				"The MTEB leaderboard: compares embedding models across retrieval, clustering, classification and other tasks in many languages.",
			id: "mteb/leaderboard",
		},
		{
			description:
				"Blind arena where you compare two embedding models' results on your own queries and vote for the better one.",
			id: "mteb/arena",
		},
	],
	summary:
		"Feature extraction turns text into vectors of numbers, called embeddings, that capture its meaning. Embeddings feed semantic search, clustering, recommendation and retrieval-augmented generation, or serve as inputs to other models.",
	widgetModels: ["facebook/bart-base"],
};

export default taskData;
