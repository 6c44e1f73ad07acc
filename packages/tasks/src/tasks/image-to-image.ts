import type { TaskDataCustom } from "./types.js";

const taskData: TaskDataCustom = {
	datasets: [
		{
			description:
				"VIDIT: synthetic scenes rendered under many light directions and colour temperatures, used to train and test image relighting.",
			id: "VIDIT",
		},
		{
			description:
				"Aligned celebrity face photos from CelebA, handy for face generation, editing and restoration.",
			id: "huggan/CelebA-faces",
		},
		{
			description:
				"Around twelve million public-domain and openly licensed images with captions, suited to training image models without copyright concerns.",
			id: "Spawning/PD12M",
		},
	],
	demo: {
		inputs: [{ type: "img", filename: "image-to-image-input.svg" }],
		outputs: [{ type: "img", filename: "image-to-image-output.svg" }],
	},
	isPlaceholder: false,
	metrics: [
		{
			description:
				"Peak signal-to-noise ratio, in decibels: how close the output's pixels are to a reference image; higher is better.",
			id: "PSNR",
		},
		{
			description:
				"Structural similarity: compares local brightness, contrast and structure with a reference, which tracks perceived quality better than pixel error.",
			id: "SSIM",
		},
		{
			description:
				"Inception Score: uses an ImageNet classifier to reward outputs that are each clearly recognisable and varied as a set; needs no reference images.",
			id: "IS",
		},
	],
	models: [
		{
			description:
				"AuraSR v2: a GAN-based upscaler that enlarges images four times while adding plausible detail.",
			id: "fal/AuraSR-v2",
		},
		{
			description:
				"Small Keras network that upscales low-resolution images with sub-pixel convolutions; a simple super-resolution example.",
			id: "keras-io/super-resolution",
		},
		{
			description:
				"OminiControl: a lightweight add-on that conditions FLUX on an image, for subject-driven generation or spatial controls like edges and depth.",
			id: "Yuanshi/OminiControl",
		},
		{
			description:
				"ControlNet for Stable Diffusion conditioned on Segment Anything masks, so new images follow a given layout of regions.",
			id: "mfidabel/controlnet-segment-anything",
		},
		{
			description:
				"FLUX.1 Fill: inpaints and outpaints, filling a masked area of an image to match a text prompt and the surrounding content.",
			id: "black-forest-labs/FLUX.1-Fill-dev",
		},
		{
			description:
				"LoRA for FLUX.1 dev that follows a depth map, keeping a scene's structure while the prompt changes its look.",
			id: "black-forest-labs/FLUX.1-Depth-dev-lora",
		},
	],
	spaces: [
		{
			description: "Brightens and cleans up photos taken in poor light with a Keras model.",
			id: "keras-io/low-light-image-enhancement",
		},
		{
			description: "Repaints a photo in the style of a chosen artwork.",
			id: "keras-io/neural-style-transfer",
		},
		{
			description:
				"Generate images whose layout follows Segment Anything masks taken from a reference picture.",
			id: "mfidabel/controlnet-segment-anything",
		},
		{
			description:
				"Guide Stable Diffusion with edges, scribbles, poses or depth extracted from your own image.",
			id: "hysts/ControlNet",
		},
		{
			description:
				"ControlNet driven by a brightness map, for recolouring old photos or hiding patterns in generated images.",
			id: "ioclab/brightness-controlnet",
		},
		{
			description:
				"Edit a picture by writing an instruction, such as turning day into night, with InstructPix2Pix.",
			id: "timbrooks/instruct-pix2pix",
		},
	],
	summary:
		"Image-to-image models turn one image into another: upscaling, restoring, colourising, relighting, changing style, filling in missing regions or editing according to a prompt. The output keeps the input's structure while changing what the task asks for.",
	widgetModels: ["stabilityai/stable-diffusion-2-inpainting"],
	youtubeId: "",
};

export default taskData;
