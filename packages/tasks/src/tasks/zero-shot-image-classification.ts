import type { TaskDataCustom } from "./types.js";

const taskData: TaskDataCustom = {
	datasets: [
		{
			description:
				"No specific repository: models for this task learn from very large collections of image–caption pairs, typically images scraped from the web with their alt-text.",
			id: "",
		},
	],
	demo: {
		inputs: [
			{ type: "img", filename: "zero-shot-image-classification-input.svg" },
			{ type: "text", label: "Classes", content: "Cat, Dog, Bird" },
		],
		outputs: [
			{
				type: "chart",
				data: [
					{ label: "Cat", score: 0.96 },
					{ label: "Dog", score: 0.03 },
					{ label: "Bird", score: 0.01 },
				],
			},
		],
	},
	metrics: [
		{
			description:
				"Share of images whose true class is among the K labels the model ranks highest (typically top-1 and top-5), measured on benchmarks such as ImageNet without any fine-tuning.",
			id: "top-K accuracy",
		},
	],
	models: [
		{
			description:
				"Pairs the multilingual MEXMA text encoder with a SigLIP image encoder, so that class names can be written in many languages.",
			id: "visheratin/mexma-siglip",
		},
		{
			description:
				"SigLIP 2 base (ViT-B/16, 224 px): Google's sigmoid-loss image–text model, with extra training objectives that improve multilingual understanding and localisation.",
			id: "google/siglip2-base-patch16-224",
		},
		{
			description:
				"mmE5: a multimodal embedding model built on Llama 3.2 11B Vision that places images and instruction-prefixed text in one space, in many languages.",
			id: "intfloat/mmE5-mllama-11b-instruct",
		},
		{
			description:
				"Jina CLIP v2: a multilingual CLIP-style model whose embeddings can be truncated to smaller sizes to save storage and compute.",
			id: "jinaai/jina-clip-v2",
		},
		{
			description:
				"BiomedCLIP: trained on figure–caption pairs from PubMed Central articles, for zero-shot labelling of biomedical images such as radiology scans and microscopy.",
			id: "microsoft/BiomedCLIP-PubMedBERT_256-vit_base_patch16_224",
		},
	],
	spaces: [
		{
			description:
				"Writes a text prompt that describes an uploaded image by combining a captioner with CLIP-ranked style, medium and artist terms.",
			id: "pharma/CLIP-Interrogator",
		},
		{
			description: "Scores one image against your own labels with CLIP and SigLIP side by side.",
			id: "merve/compare_clip_siglip",
		},
	],
	summary:
		"Zero-shot image classification assigns an image to classes that are given as free text at inference time, without training on them. Models such as CLIP embed the image and each label in a shared space and pick the labels that lie closest.",
	widgetModels: ["google/siglip-so400m-patch14-224"],
	youtubeId: "",
};

export default taskData;
