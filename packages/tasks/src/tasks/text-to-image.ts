import type { TaskDataCustom } from "./types.js";

const taskData: TaskDataCustom = {
	datasets: [
		{
			description:
				"RedCaps: about 12 million image–caption pairs gathered from image-centred Reddit communities, with captions written by the people who posted the pictures.",
			id: "red_caps",
		},
		{
			description:
				"Google's Conceptual Captions: around 3.3 million web images whose alt-text was filtered and simplified into clean, general-purpose captions.",
			id: "conceptual_captions",
		},
		{
			description:
				"Public Domain 12M: roughly 12 million openly licensed or public-domain images paired with synthetic captions, for training image generators without copyright worries.",
			id: "Spawning/PD12M",
		},
	],
	demo: {
		inputs: [
			{
				type: "text",
				label: "Input",
				content:
					"A small red sailboat on a calm lake at sunset, pine-covered hills behind it, soft flat illustration",
			},
		],
		outputs: [{ type: "img", filename: "image.svg" }],
	},
	metrics: [
		{
			description:
				"Inception Score: runs generated images through an ImageNet classifier and is high when each image is classified confidently and the set covers many classes. Higher is better, but it never looks at real images.",
			id: "IS",
		},
		{
			description:
				"Fréchet Inception Distance: compares the statistics of Inception features of generated images with those of real images. Lower is better; it reflects both realism and variety.",
			id: "FID",
		},
		{
			description:
				"Checks prompt faithfulness by using a text–image encoder to test whether a generated image retrieves its own prompt ahead of distractor captions. Higher is better.",
			id: "R-Precision",
		},
	],
	models: [
		{
			description:
				"The open-weight, guidance-distilled member of Black Forest Labs' FLUX.1 family: a 12-billion-parameter rectified-flow transformer with strong prompt following and legible text in images.",
			id: "black-forest-labs/FLUX.1-dev",
		},
		{
			description:
				"A latent-consistency LoRA that lets Stable Diffusion XL produce usable images in only a handful of sampling steps instead of dozens.",
			id: "latent-consistency/lcm-lora-sdxl",
		},
		{
			description:
				"Kuaishou's Kolors, a latent diffusion model that understands prompts in both Chinese and English and aims at photorealistic output.",
			id: "Kwai-Kolors/Kolors",
		},
		{
			description:
				"Stable Diffusion 3 Medium in diffusers format: a two-billion-parameter multimodal diffusion transformer that handles typography and complex prompts better than earlier Stable Diffusion releases.",
			id: "stabilityai/stable-diffusion-3-medium-diffusers",
		},
	],
	spaces: [
		{
			description:
				"Stability AI's demo for generating images with Stable Diffusion 3 Medium and tuning its sampling settings.",
			id: "stabilityai/stable-diffusion-3-medium",
		},
		{
			description:
				"Turns a short story idea into a comic page: a language model plans the panels and a text-to-image model draws them.",
			id: "jbilcke-hf/ai-comic-factory",
		},
		{
			description: "A playground for applying and mixing community LoRA style adapters on top of FLUX.",
			id: "multimodalart/flux-lora-lab",
		},
		{
			description:
				"Shows SDXL with the latent-consistency LoRA producing images in a few steps, almost in real time.",
			id: "latent-consistency/lcm-lora-for-sdxl",
		},
		{
			description:
				"Browse a gallery of SDXL LoRA styles, pick one and generate an image with it from your prompt.",
			id: "multimodalart/LoraTheExplorer",
		},
		{
			description:
				"A web interface for Stable Diffusion with ControlNet, so that edges, depth maps or poses can steer the composition.",
			id: "ArtGAN/Stable-Diffusion-ControlNet-WebUI",
		},
		{
			description:
				"Generates stylised pictures of a person that keep the identity of the face in a single reference photo, without any fine-tuning.",
			id: "InstantX/InstantID",
		},
	],
	summary:
		"Text-to-image models create a new picture from a written description, the prompt. Most current models are diffusion or flow-matching models that start from random noise and refine it step by step, guided by a text encoder.",
	widgetModels: ["black-forest-labs/FLUX.1-dev"],
	youtubeId: "",
};

export default taskData;
