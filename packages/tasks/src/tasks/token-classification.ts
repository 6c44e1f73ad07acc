import type { TaskDataCustom } from "./types.js";

const demoSentence = "Ada Lovelace wrote the first published algorithm in London in 1843.";

const taskData: TaskDataCustom = {
	datasets: [
		{
			description:
				"English news wire sentences from the CoNLL-2003 shared task, tagged with person, organisation, location and miscellaneous entities; the classic NER benchmark.",
			id: "eriktks/conll2003",
		},
		{
			description:
				"Named-entity annotations for Wikipedia articles in 176 languages, derived automatically from links; useful for multilingual and low-resource NER.",
			id: "unimelb-nlp/wikiann",
		},
	],
	demo: {
		inputs: [{ type: "text", label: "Input", content: demoSentence }],
		outputs: [
			{
				type: "text-with-tokens",
				text: demoSentence,
				tokens: [
					{ type: "PERSON", start: 0, end: 12 },
					{ type: "GPE", start: 52, end: 58 },
				],
			},
		],
	},
	metrics: [
		{
			description:
				"Share of tokens whose predicted tag equals the reference tag, including the many 'outside' tokens.",
			id: "accuracy",
		},
		{
			description: "Share of the reference entities that the model found with the right span and type.",
			id: "recall",
		},
		{
			description: "Share of the entities the model predicted that are right in both span and type.",
			id: "precision",
		},
		{
			description:
				"Harmonic mean of entity-level precision and recall; the headline number on most NER leaderboards.",
			id: "f1",
		},
	],
	models: [
		{
			description:
				"BERT-base fine-tuned on CoNLL-2003: a fast, dependable English tagger for people, places and organisations.",
			id: "dslim/bert-base-NER",
		},
		{
			description:
				"XLM-RoBERTa large fine-tuned on English CoNLL-2003 that transfers well to entities in other languages.",
			id: "FacebookAI/xlm-roberta-large-finetuned-conll03-english",
		},
		{
			description:
				"Tags clinical text with dozens of medical entity types such as symptoms, medications and procedures.",
			id: "blaze999/Medical-NER",
		},
		{
			description: "Flair's contextual string-embedding tagger for the four CoNLL-2003 entity classes.",
			id: "flair/ner-english",
		},
	],
	spaces: [
		{
			description: "Runs spaCy pipelines on your text and draws the entities and dependency parse it finds.",
			id: "spacy/gradio_pipeline_visualizer",
		},
	],
	summary:
		"Token classification assigns a label to every word or sub-word in a text. Named-entity recognition (people, places, dates) and part-of-speech tagging are the most common forms.",
	widgetModels: ["FacebookAI/xlm-roberta-large-finetuned-conll03-english"],
	youtubeId: "wVHdVlPScxA",
};

export default taskData;
