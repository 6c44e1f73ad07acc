import type { TaskDataCustom } from "./types.js";

const taskData: TaskDataCustom = {
	datasets: [
		{
			description:
				"The GLUE benchmark; its entailment subsets such as MNLI, RTE and QNLI supply the kind of data that NLI-based zero-shot classifiers are trained on.",
			id: "nyu-mll/glue",
		},
		{
			description:
				"MultiNLI: about 433,000 sentence pairs from many genres labelled as entailment, neutral or contradiction; the main training set behind NLI-based zero-shot classifiers.",
			id: "nyu-mll/multi_nli",
		},
		{
			description:
				"FEVER: claims written from Wikipedia and labelled as supported, refuted or not verifiable, often added as extra entailment-style training data.",
			id: "fever/fever",
		},
	],
	demo: {
		inputs: [
			{
				type: "text",
				label: "Text Input",
				content:
					"The director's new feature premiered at the festival last night, and critics praised its striking cinematography.",
			},
			{ type: "text", label: "Candidate Labels", content: "CINEMA, ART, MUSIC" },
		],
		outputs: [
			{
				type: "chart",
				data: [
					{ label: "CINEMA", score: 0.91 },
					{ label: "ART", score: 0.07 },
					{ label: "MUSIC", score: 0.02 },
				],
			},
		],
	},
	metrics: [],
	models: [
		{
			description:
				'BART-large fine-tuned on MultiNLI: each candidate label is turned into a hypothesis such as "This text is about cinema." and scored by its entailment probability. The classic default.',
			id: "facebook/bart-large-mnli",
		},
		{
			description:
				"ModernBERT-large trained for general-purpose zero-shot classification on entailment-style data; faster than BART and able to read longer texts.",
			id: "MoritzLaurer/ModernBERT-large-zeroshot-v2.0",
		},
		{
			description:
				"A GLiClass model on a ModernBERT base that scores all candidate labels in a single forward pass, which stays fast even with many labels.",
			id: "knowledgator/gliclass-modern-base-v2.0-init",
		},
	],
	spaces: [],
	summary:
		"Zero-shot classification sorts text into labels that are chosen only at inference time, without training on them. A common approach treats each label as a hypothesis and uses a natural-language inference model to score how strongly the text supports it.",
	widgetModels: ["facebook/bart-large-mnli"],
};

export default taskData;
