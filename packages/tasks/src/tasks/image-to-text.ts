import type { TaskDataCustom } from "./types.js";

const taskData: TaskDataCustom = {
	datasets: [
		{
			description:
				"About 12 million image and caption pairs gathered from Reddit, where the caption is the title a person gave their photo; broad, casual and diverse.",
			id: "red_caps",
		},
		{
			description:
				"Google's Conceptual Captions: roughly 3.3 million web images whose alt-text was cleaned and generalised into plain captions, a classic pre-training set for captioners.",
			id: "datasets/conceptual_captions",
		},
	],
	demo: {
		inputs: [{ type: "img", filename: "savanna.svg" }],
		outputs: [
			{
				type: "text",
				label: "Detailed description",
				content:
					"A tall giraffe stands in golden grass beside a flat-topped acacia tree, while two zebras graze on the right under a low, glowing sun.",
			},
		],
	},
	metrics: [],
	models: [
		{
			description:
				"Salesforce's BLIP-2 links a frozen image encoder to the frozen OPT-2.7B language model through a small querying transformer; it writes captions and answers questions about images.",
			id: "Salesforce/blip2-opt-2.7b",
		},
		{
			description:
				"Microsoft's Kosmos-2 is a multimodal language model that grounds what it says: its descriptions tie phrases to bounding boxes in the image.",
			id: "microsoft/kosmos-2-patch14-224",
		},
		{
			description:
				"Meta's Nougat turns page images of scientific papers into markup text, keeping equations and tables, so PDFs become machine-readable.",
			id: "facebook/nougat-base",
		},
		{
			description:
				"LLaVA 1.5 with 7B parameters joins a CLIP vision encoder to a Vicuna language model, so it can describe a picture in detail and chat about it.",
			id: "llava-hf/llava-1.5-7b-hf",
		},
	],
	spaces: [
		{
			description:
				"Captions one image with several models at once so you can compare their wording and accuracy.",
			id: "nielsr/comparing-captioning-models",
		},
		{
			description:
				"Captioning demo from the Flax/JAX community week that pairs a vision encoder with a text decoder.",
			id: "flax-community/image-captioning",
		},
		{
			description: "Reads a line of handwriting from an image with Microsoft's TrOCR model.",
			id: "nielsr/TrOCR-handwritten",
		},
		{
			description: "The BLIP demo from Salesforce: caption an image or ask a question about it.",
			id: "Salesforce/BLIP",
		},
		{
			description: "The BLIP-2 demo from Salesforce for captioning images and chatting about what they show.",
			id: "Salesforce/BLIP2",
		},
		{
			description:
				"CapDec writes captions with a decoder trained on text alone, relying on CLIP's shared image-text embedding space with added noise.",
			id: "johko/capdec-image-captioning",
		},
	],
	summary:
		"Image-to-text models look at an image and write text about it: a short caption, a detailed description, or the words printed or handwritten in the picture (OCR).",
	widgetModels: ["Salesforce/blip-image-captioning-large"],
	youtubeId: "",
};

export default taskData;
