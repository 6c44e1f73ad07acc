import type { TaskDataCustom } from "./types.js";

const query = "How do bees make honey?";
const passageA =
	"Honey bees live in colonies made up of one queen, thousands of workers and a few hundred drones.";
const passageB =
	"Maple syrup is made by boiling down the sap collected from sugar maple trees in early spring.";
const passageC =
	"Worker bees swallow flower nectar, break its sugars down with enzymes and fan it in the comb until enough water evaporates to turn it into honey.";

const taskData: TaskDataCustom = {
	datasets: [
		{
			description:
				"Microsoft's MS MARCO collection of real Bing search queries paired with web passages that annotators marked as relevant; the standard training and evaluation set for passage re-rankers.",
			id: "microsoft/ms_marco",
		},
	],
	demo: {
		inputs: [
			{ type: "text", label: "Source sentence", content: query },
			{ type: "text", label: "Sentences to compare to", content: passageA },
			{ type: "text", label: "", content: passageB },
			{ type: "text", label: "", content: passageC },
		],
		outputs: [
			{
				type: "chart",
				data: [
					{ label: passageC, score: 0.97 },
					{ label: passageA, score: 0.28 },
					{ label: passageB, score: 0.03 },
				],
			},
		],
	},
	metrics: [
		{
			description:
				"Rewards putting highly relevant documents near the top: graded gains are discounted by the logarithm of their rank and divided by the score of the ideal ordering. Usually reported at a cutoff, such as nDCG@10.",
			id: "Normalized Discounted Cumulative Gain",
		},
		{
			description:
				"Averages, over all queries, one divided by the rank of the first relevant result. MRR@10 is the official metric of the MS MARCO passage ranking task.",
			id: "Mean Reciprocal Rank",
		},
		{
			description:
				"For each query, averages the precision measured at every position where a relevant document appears, then takes the mean over queries; it rewards ranking all relevant documents early.",
			id: "Mean Average Precision",
		},
	],
	models: [
		{
			description:
				"A six-layer MiniLM cross-encoder trained on MS MARCO that reads the query and a passage together and outputs one relevance score; small enough to re-rank search hits on a CPU.",
			id: "cross-encoder/ms-marco-MiniLM-L6-v2",
		},
		{
			description:
				"A multilingual reranker from Alibaba's GTE family that scores query–document pairs in many languages and accepts long documents.",
			id: "Alibaba-NLP/gte-multilingual-reranker-base",
		},
		{
			description:
				"An English GTE reranker built on ModernBERT-base, so it benefits from that encoder's speed and long context window.",
			id: "Alibaba-NLP/gte-reranker-modernbert-base",
		},
	],
	spaces: [],
	summary:
		"Text ranking scores how relevant each of several texts is to a query and sorts them by that score. It is usually the second stage of a search or retrieval-augmented generation pipeline, re-ordering the candidates that a fast retriever returned.",
	widgetModels: ["cross-encoder/ms-marco-MiniLM-L6-v2"],
	youtubeId: "",
};

export default taskData;
