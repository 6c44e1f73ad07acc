import type { TaskDataCustom } from "./types.js";

const taskData: TaskDataCustom = {
	datasets: [
		{
			description:
				"CIFAR-100: 60,000 colour images of 32×32 pixels spread over 100 classes; for unconditional generation the labels are simply ignored.",
			id: "cifar100",
		},
		{
			description:
				"CelebA: more than 200,000 photos of celebrity faces annotated with 40 attributes; a long-standing benchmark for face generation.",
			id: "CelebA",
		},
	],
	demo: {
		inputs: [
			{ type: "text", label: "Seed", content: "42" },
			{ type: "text", label: "Number of images to generate:", content: "4" },
		],
		outputs: [{ type: "img", filename: "unconditional-image-generation-output.svg" }],
	},
	metrics: [
		{
			description:
				"Scores generated images with an ImageNet Inception classifier: high when each image is recognised confidently and the whole set covers many classes. Higher is better.",
			id: "Inception score (IS)",
		},
		{
			description:
				"Measures the distance between the Inception-feature distributions of generated and real images; lower values mean the samples look more like the training data.",
			id: "Frećhet Inception Distance (FID)",
		},
	],
	models: [
		{
			description:
				"The original denoising diffusion probabilistic model (DDPM) trained on CIFAR-10; it samples small 32×32 images resembling the ten CIFAR classes from pure noise.",
			id: "google/ddpm-cifar10-32",
		},
		{
			description:
				"A DDPM trained on the high-quality CelebA-HQ face set that generates 256×256 portraits from noise.",
			id: "google/ddpm-celebahq-256",
		},
	],
	spaces: [
		{
			description: "Samples random face images with a latent diffusion model trained on CelebA-HQ.",
			id: "CompVis/celeba-latent-diffusion",
		},
	],
	summary:
		"Unconditional image generation creates new images with no prompt or label: the model draws samples that resemble its training data, starting from random noise. Fixing the random seed makes the results reproducible.",
	widgetModels: [""],
	youtubeId: "",
};

export default taskData;
