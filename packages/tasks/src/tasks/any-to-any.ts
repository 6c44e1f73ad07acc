import type { TaskDataCustom } from "./types.js";

const taskData: TaskDataCustom = {
	datasets: [
		{
			description:
				"Instruction and human-preference data that mixes text, images, audio and video on both the input and the output side, collected to align all-modality models.",
			id: "PKU-Alignment/align-anything",
		},
	],
	demo: {
		inputs: [
			{ type: "img", filename: "any-to-any-input.svg" },
			{
				type: "text",
				label: "Text Prompt",
				content: "Describe this picture in one sentence, then read your description out loud.",
			},
		],
		outputs: [
			{
				type: "text",
				label: "Generated Text",
				content: "A red bicycle is leaning on a tree beside a calm lake.",
			},
			// Spoken version of the generated text: espeak-ng (en-us, 165 wpm), resampled with sox to 16 kHz mono 16-bit.
			{ type: "audio", filename: "any-to-any-output.wav" },
		],
	},
	metrics: [],
	models: [
		{
			description:
				"End-to-end omni model that takes text, images, audio and video and answers with text or a natural-sounding voice, streaming both as it goes.",
			id: "Qwen/Qwen2.5-Omni-7B",
		},
		{
			description:
				"A single autoregressive model that both understands images (captioning, visual questions) and generates new images from text, using separate visual encoders for the two jobs.",
			id: "deepseek-ai/Janus-Pro-7B",
		},
		{
			description:
				"Compact omni model built to run on end-user devices: it sees images and video, listens to speech and can reply out loud in real time.",
			id: "openbmb/MiniCPM-o-2_6",
		},
		{
			description:
				"Masked multimodal model trained on 21 modalities, from RGB and depth to segmentation, captions and feature maps; it can predict any of them from any subset of the others.",
			id: "EPFL-VILAB/4M-21_XL",
		},
	],
	spaces: [
		{
			description:
				"Chat with Janus-Pro about an uploaded image, or ask it to draw a new one from a text prompt.",
			id: "deepseek-ai/Janus-Pro-7B",
		},
	],
	summary:
		"Any-to-any models accept a mix of modalities, such as text, images, audio or video, and can produce one or more of them in return. One model can thus describe a photo, answer a spoken question aloud or turn a sentence into a picture.",
	widgetModels: [],
	youtubeId: "",
};

export default taskData;
