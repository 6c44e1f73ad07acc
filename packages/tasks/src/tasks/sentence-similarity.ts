import type { TaskDataCustom } from "./types.js";

const closeMatch = "The gallery opens every day except Monday.";
const paraphrase = "You can't visit the museum at the start of the week.";
const unrelated = "Monday is the busiest day at the airport.";

const taskData: TaskDataCustom = {
	datasets: [
		{
			description:
				"Microsoft's MS MARCO: real Bing search queries paired with web passages that people judged relevant; a common source of training pairs and a retrieval benchmark.",
			id: "microsoft/ms_marco",
		},
	],
	demo: {
		inputs: [
			{ type: "text", label: "Source sentence", content: "The museum is closed on Mondays." },
			{ type: "text", label: "Sentences to compare to", content: closeMatch },
			{ type: "text", label: "", content: paraphrase },
			{ type: "text", label: "", content: unrelated },
		],
		outputs: [
			{
				type: "chart",
				data: [
					{ label: closeMatch, score: 0.82 },
					{ label: paraphrase, score: 0.64 },
					{ label: unrelated, score: 0.17 },
				],
			},
		],
	},
	metrics: [
		{
			description:
				"For each query, one over the rank of the first relevant result, averaged over all queries; 1 means the right answer always comes first.",
			id: "Mean Reciprocal Rank",
		},
		{
			description:
				"Cosine of the angle between two embedding vectors: close to 1 for texts with the same meaning, near 0 for unrelated ones.",
			id: "Cosine Similarity",
		},
	],
	models: [
		{
			description:
				"A sentence-transformers model built on MPNet and trained contrastively on over a billion sentence pairs; a strong general-purpose English embedder.",
			id: "sentence-transformers/all-mpnet-base-v2",
		},
		{
			description:
				"BAAI's BGE-M3 embeds text in more than 100 languages and inputs of up to 8,192 tokens, and can return dense, sparse and multi-vector representations.",
			id: "BAAI/bge-m3",
		},
		{
			description:
				"A compact multilingual embedding model from the KaLM-Embedding family that accepts task instructions, giving good retrieval quality for its size.",
			id: "HIT-TMG/KaLM-embedding-multilingual-mini-instruct-v1.5",
		},
	],
	spaces: [
		{
			description:
				"Transcribes a YouTube video and finds the passages of the transcript that best answer your question.",
			id: "Gradio-Blocks/Ask_Questions_To_YouTube_Videos",
		},
		{
			description:
				"Finds PubMed abstracts whose meaning is close to your query, not just those sharing its keywords.",
			id: "Gradio-Blocks/pubmed-abstract-retriever",
		},
		{
			description: "Summarises an article you paste in or link to, working on the text sentence by sentence.",
			id: "nickmuchi/article-text-summarizer",
		},
		{
			description:
				"Type a query and see the closest passages from a collection, ranked by sentence-transformer embeddings.",
			id: "sentence-transformers/Sentence_Transformers_for_semantic_search",
		},
	],
	summary:
		"Sentence similarity scores how close two texts are in meaning. Models map each text to an embedding vector, and the similarity between vectors, usually their cosine, ranks candidates for search, clustering or duplicate detection.",
	widgetModels: ["BAAI/bge-small-en-v1.5"],
	youtubeId: "VCZq5AkbNEU",
};

export default taskData;
