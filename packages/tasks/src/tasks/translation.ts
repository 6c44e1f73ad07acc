import type { TaskDataCustom } from "./types.js";

const taskData: TaskDataCustom = {
	canonicalId: "text2text-generation",
	datasets: [
		{
			description:
				"Sentence pairs aligned from copyright-free books, available for many language pairs in the OPUS collection; small enough for quick fine-tuning experiments.",
			id: "Helsinki-NLP/opus_books",
		},
		{
			description:
				"The CodeXGLUE code-to-code task: pairs of equivalent Java and C# functions, for translating between programming languages.",
			id: "google/code_x_glue_cc_code_to_code_trans",
		},
	],
	demo: {
		inputs: [
			{
				type: "text",
				label: "Input",
				content: "The library opens at nine, but the café downstairs is already serving coffee.",
			},
		],
		outputs: [
			{
				type: "text",
				label: "Output",
				content: "Die Bibliothek öffnet um neun, aber das Café im Erdgeschoss serviert bereits Kaffee.",
			},
		],
	},
	metrics: [
		{
			description:
				"BLEU counts how many word n-grams of the output also appear in one or more reference translations, with a penalty for outputs that are too short.",
			id: "bleu",
		},
		{
			description:
				"A standard implementation of BLEU with fixed tokenisation and a version signature, so that scores reported by different papers can be compared.",
			id: "sacrebleu",
		},
	],
	models: [
		{
			description:
				"Meta's No Language Left Behind model with 1.3 billion parameters; it translates directly between any two of 200 languages, including many low-resource ones.",
			id: "facebook/nllb-200-1.3B",
		},
		{
			description:
				'T5-base, a text-to-text model whose pre-training mix included English-to-German, French and Romanian translation, triggered with a prefix such as "translate English to German:".',
			id: "google-t5/t5-base",
		},
	],
	spaces: [
		{
			description: "Pick a source and a target language among about a hundred and translate a piece of text.",
			id: "Iker/Translate-100-languages",
		},
		{
			description: "Translate text between any of the 200 languages covered by NLLB-200.",
			id: "Geonmo/nllb-translation-demo",
		},
	],
	summary:
		"Translation rewrites a text in another language while keeping its meaning. It is treated as a sequence-to-sequence problem, and a single multilingual model can cover hundreds of language pairs.",
	widgetModels: ["facebook/mbart-large-50-many-to-many-mmt"],
	youtubeId: "1JvfrvZgi6c",
};

export default taskData;
