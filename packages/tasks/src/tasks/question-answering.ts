import type { TaskDataCustom } from "./types.js";

const taskData: TaskDataCustom = {
	datasets: [
		{
			description:
				"SQuAD 2.0 mixes the answerable Wikipedia reading-comprehension questions of SQuAD 1.1 with over 50,000 unanswerable ones, so a model must also learn when to give no answer.",
			id: "squad_v2",
		},
		{
			description:
				"Google's Natural Questions: real, anonymised search queries paired with a Wikipedia page and annotated with a long paragraph answer and, where possible, a short one.",
			id: "natural_questions",
		},
	],
	demo: {
		inputs: [
			{ type: "text", label: "Question", content: "Which river runs through Budapest?" },
			{
				type: "text",
				label: "Context",
				content:
					"Budapest, the capital of Hungary, was formed in 1873 when Buda and Óbuda on the west bank of the Danube were joined with Pest on the east bank.",
			},
		],
		outputs: [{ type: "text", label: "Answer", content: "the Danube" }],
	},
	metrics: [
		{
			description:
				"Share of predictions that match one of the reference answers exactly, after lower-casing and stripping punctuation and articles.",
			id: "exact-match",
		},
		{
			description:
				"Word overlap between the predicted and reference answer, as the harmonic mean of precision and recall; gives partial credit for near misses.",
			id: "f1",
		},
	],
	models: [
		{
			description:
				"deepset's RoBERTa-base fine-tuned on SQuAD 2.0: a dependable extractive reader that can also say that the context holds no answer.",
			id: "deepset/roberta-base-squad2",
		},
		{
			description:
				"A cased DistilBERT distilled and fine-tuned on SQuAD; much smaller and faster than BERT while staying close in accuracy.",
			id: "distilbert/distilbert-base-cased-distilled-squad",
		},
		{
			description:
				"Google's TAPAS answers questions over tables by picking cells and, if needed, aggregating them; fine-tuned on WikiTableQuestions.",
			id: "google/tapas-base-finetuned-wtq",
		},
	],
	spaces: [
		{
			description:
				"Ask a question in plain English and get answers drawn from Wikipedia by a Haystack retrieval-and-reading pipeline.",
			id: "deepset/wikipedia-assistant",
		},
	],
	summary:
		"Question answering models reply to a question written in natural language. Extractive models copy the answer span out of a given context passage; generative models write the answer themselves, possibly after retrieving documents.",
	widgetModels: ["deepset/roberta-base-squad2"],
	youtubeId: "ajPx5LwJD-I",
};

export default taskData;
