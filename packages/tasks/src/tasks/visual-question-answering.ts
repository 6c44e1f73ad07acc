import type { TaskDataCustom } from "./types.js";

const taskData: TaskDataCustom = {
	datasets: [
		{
			description:
				"VQA v2: open-ended questions about COCO images, each with ten human answers, balanced so that similar images lead to different answers.",
			id: "Graphcore/vqa",
		},
		{
			description:
				"TextVQA: questions that can only be answered by reading text in the image, such as signs, labels and brand names.",
			id: "facebook/textvqa",
		},
	],
	demo: {
		inputs: [
			{ type: "img", filename: "elephant.svg" },
			{ type: "text", label: "Question", content: "Which animal is standing in the water?" },
		],
		outputs: [
			{
				type: "chart",
				data: [
					{ label: "elephant", score: 0.93 },
					{ label: "elephants", score: 0.04 },
					{ label: "animal", score: 0.01 },
				],
			},
		],
	},
	isPlaceholder: false,
	metrics: [
		{
			description:
				"VQA accuracy: an answer counts as fully correct when at least three of the ten annotators gave it, and earns partial credit when fewer did.",
			id: "accuracy",
		},
		{
			description:
				"Wu-Palmer similarity (WUPS) gives partial credit to answers that are close in meaning to the reference, based on where both words sit in the WordNet hierarchy.",
			id: "wu-palmer similarity",
		},
	],
	models: [
		{
			description:
				"DePlot: a Pix2Struct model that converts a chart or plot into its underlying data table, which a language model can then reason over to answer questions.",
			id: "google/deplot",
		},
		{
			description:
				"MatCha base: Pix2Struct further pre-trained on chart de-rendering and numerical reasoning; a starting point for fine-tuning on chart and plot questions.",
			id: "google/matcha-base",
		},
		{
			description:
				"Pix2Struct large fine-tuned on OCR-VQA, which asks about book covers (title, author, genre) and so requires reading text in the image.",
			id: "google/pix2struct-ocrvqa-large",
		},
	],
	spaces: [
		{
			description:
				"Compare several Pix2Struct checkpoints on your own images and questions, from charts to screenshots.",
			id: "merve/pix2struct",
		},
		{
			description: "Ask a question about an image and get ranked answers from ViLT fine-tuned on VQA v2.",
			id: "nielsr/vilt-vqa",
		},
		{
			description: "Salesforce's BLIP demo for captioning images and answering questions about them.",
			id: "Salesforce/BLIP",
		},
		{
			description:
				"Answers visual questions with a frozen language model by first turning the image into captions and example question–answer prompts.",
			id: "vumichien/Img2Prompt",
		},
	],
	summary:
		"Visual question answering (VQA) answers a free-form question about an image. The model has to connect what it sees with what is asked, for example counting objects, naming colours or reading a sign.",
	widgetModels: ["dandelin/vilt-b32-finetuned-vqa"],
	youtubeId: "",
};

export default taskData;
