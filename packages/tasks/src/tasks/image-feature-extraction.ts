import type { TaskDataCustom } from "./types.js";

const taskData: TaskDataCustom = {
	datasets: [
		{
			description:
				"ImageNet-1k: about 1.3 million training images across 1,000 object classes; the usual data for pre-training and linear-probe tests of vision backbones.",
			id: "imagenet-1k",
		},
	],
	demo: {
		inputs: [{ type: "img", filename: "image-feature-extraction-input.svg" }],
		outputs: [
			{
				type: "tabular",
				table: [
					["Dimension 1", "Dimension 2", "Dimension 3"],
					["0.412", "-0.128", "0.903"],
					["-0.367", "0.581", "0.046"],
					["0.094", "-0.742", "0.215"],
					["0.688", "0.033", "-0.459"],
				],
			},
		],
	},
	metrics: [],
	models: [
		{
			description:
				"DINOv2 ViT-L/14 in timm: self-supervised on a large curated image set, with general-purpose features that work well frozen for retrieval, classification and dense tasks.",
			id: "timm/vit_large_patch14_dinov2.lvd142m",
		},
		{
			description:
				"MambaVision tiny: a hybrid backbone mixing Mamba state-space blocks with self-attention, trained on ImageNet-1k.",
			id: "nvidia/MambaVision-T-1K",
		},
		{
			description:
				"DINO ViT-B/16: self-supervised Vision Transformer whose features and attention maps separate objects without any labels.",
			id: "facebook/dino-vitb16",
		},
		{
			description:
				"AIMv2 large: a vision encoder pre-trained to generate both image patches and caption text, here at 336 px and distilled; strong for multimodal use.",
			id: "apple/aimv2-large-patch14-336-distilled",
		},
		{
			description:
				"InternViT: a 6-billion-parameter vision encoder at 448 px, used as the image backbone of the InternVL chat models.",
			id: "OpenGVLab/InternViT-6B-448px-V1-2",
		},
	],
	spaces: [
		{
			description: "Compare timm image backbones by ImageNet accuracy, speed and size in one sortable table.",
			id: "timm/leaderboard",
		},
	],
	summary:
		"Image feature extraction turns an image into a vector of numbers, an embedding, that describes its content. Embeddings are used for image search, deduplication, clustering, and as inputs to lightweight classifiers or larger multimodal models.",
	widgetModels: [],
};

export default taskData;
