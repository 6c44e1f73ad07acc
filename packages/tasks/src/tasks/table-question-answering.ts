import type { TaskDataCustom } from "./types.js";

const taskData: TaskDataCustom = {
	datasets: [
		{
			description:
				"WikiTableQuestions: about 22,000 questions over some 2,000 Wikipedia tables that need lookups, comparisons and arithmetic; only the final answer is given, not how to reach it.",
			id: "wikitablequestions",
		},
		{
			description:
				"WikiSQL: around 80,000 questions over Wikipedia tables, each paired with the SQL query that answers it.",
			id: "wikisql",
		},
	],
	demo: {
		inputs: [
			{
				type: "tabular",
				table: [
					["Rank", "Name", "No.of reigns", "Combined days"],
					["1", "Rosa Delgado", "5", "1842"],
					["2", "Kenji Mori", "3", "1265"],
					["3", "Aiyana Brooks", "4", "977"],
				],
			},
			{ type: "text", label: "Question", content: "How many times has Kenji Mori held the title?" },
		],
		outputs: [{ type: "text", label: "Result", content: "3" }],
	},
	metrics: [
		{
			description:
				"Share of questions whose predicted answer equals the reference answer, however the model arrived at it (cells picked, query run or text generated).",
			id: "Denotation Accuracy",
		},
	],
	models: [
		{
			description:
				"Microsoft's TAPEX pre-trains BART to execute SQL queries over tables, which teaches it to reason about table contents; this base checkpoint is meant for fine-tuning.",
			id: "microsoft/tapex-base",
		},
		{
			description:
				"Google's TAPAS, a BERT-style model that selects table cells and can count, sum or average them; fine-tuned on WikiTableQuestions.",
			id: "google/tapas-base-finetuned-wtq",
		},
	],
	spaces: [
		{
			description:
				"Ask questions about a table in plain language and get the answer from a table question answering model.",
			id: "katanaml/table-query",
		},
	],
	summary:
		"Table question answering answers questions written in natural language from the contents of a table, picking the relevant cells and, when needed, combining them with operations such as counting, summing or averaging.",
	widgetModels: ["google/tapas-base-finetuned-wtq"],
};

export default taskData;
