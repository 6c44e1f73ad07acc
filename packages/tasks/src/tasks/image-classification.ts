import type { TaskDataCustom } from "./types.js";

const taskData: TaskDataCustom = {
	datasets: [
		{
			description:
				"CIFAR-100: 60,000 small 32×32 colour images in 100 fine-grained classes, grouped into 20 broader superclasses.",
			id: "cifar100",
		},
		{
			description:
				"Fashion-MNIST: 70,000 greyscale 28×28 pictures of clothing and shoes in 10 classes; a harder drop-in replacement for MNIST digits.",
			id: "fashion_mnist",
		},
	],
	demo: {
		inputs: [{ type: "img", filename: "image-classification-input.svg" }],
		outputs: [
			{
				type: "chart",
				data: [
					{ label: "Egyptian cat", score: 0.52 },
					{ label: "Tabby cat", score: 0.31 },
					{ label: "Tiger cat", score: 0.11 },
				],
			},
		],
	},
	metrics: [
		{
			description: "Share of images whose top predicted class is the reference class.",
			id: "accuracy",
		},
		{
			description: "For each class, the share of its images that the model labelled correctly.",
			id: "recall",
		},
		{
			description:
				"For each class, the share of the images predicted as that class that really belong to it.",
			id: "precision",
		},
		{
			description:
				"Harmonic mean of precision and recall, usually averaged over classes; useful when classes are unbalanced.",
			id: "f1",
		},
	],
	models: [
		{
			description:
				"The original Vision Transformer, base size with 16×16 patches: pre-trained on ImageNet-21k and fine-tuned on ImageNet-1k at 224×224.",
			id: "google/vit-base-patch16-224",
		},
		{
			description:
				"DeiT base: a Vision Transformer trained on ImageNet-1k alone, with an extra distillation token that learns from a convolutional teacher.",
			id: "facebook/deit-base-distilled-patch16-224",
		},
		{
			description:
				"ConvNeXt large: a purely convolutional network modernised with ideas from Transformers, classifying ImageNet images at 224×224.",
			id: "facebook/convnext-large-224",
		},
	],
	spaces: [
		{
			description: "Compare timm image models by ImageNet accuracy, speed and size in one sortable table.",
			id: "timm/leaderboard",
		},
	],
	summary:
		"Image classification assigns a label, or a ranked list of labels, to a whole image. It is used to sort photos, moderate content, inspect products and recognise species, and its models often serve as backbones for other vision tasks.",
	widgetModels: ["google/vit-base-patch16-224"],
	youtubeId: "tjAIM7BOYhw",
};

export default taskData;
