import type { TaskDataCustom } from "./types.js";

const taskData: TaskDataCustom = {
	datasets: [
		{
			description:
				"LLaVA's visual instruction data: conversations, detailed descriptions and reasoning questions about COCO images, written by GPT-4 from image annotations.",
			id: "liuhaotian/LLaVA-Instruct-150K",
		},
		{
			description:
				"Interleaved image-text 'textbook' built from instructional videos, pairing keyframes with transcribed speech and on-screen text for vision-language pre-training.",
			id: "DAMO-NLP-SG/multimodal_textbook",
		},
		{
			description:
				"The Cauldron: about fifty vision-language datasets converted to one question-answer format, used to fine-tune Idefics2.",
			id: "HuggingFaceM4/the_cauldron",
		},
		{
			description:
				"WebSight: synthetic screenshots of web pages paired with their HTML and CSS, for teaching models to turn designs into code.",
			id: "HuggingFaceM4/WebSight",
		},
	],
	demo: {
		inputs: [
			{ type: "img", filename: "image-text-to-text-input.svg" },
			{
				type: "text",
				label: "Text Prompt",
				content: "How many hot-air balloons are in the sky, and what colours are they?",
			},
		],
		outputs: [
			{
				type: "text",
				label: "Answer",
				content:
					"There are three hot-air balloons: a red one on the left, a large yellow one in the middle and a smaller blue one with white stripes on the right.",
			},
		],
	},
	metrics: [],
	models: [
		{
			description:
				"SmolVLM: a compact, memory-efficient vision-language model that answers questions about one or several images and runs on modest hardware.",
			id: "HuggingFaceTB/SmolVLM-Instruct",
		},
		{
			description:
				"OmniParser: parses screenshots into a list of interactive elements with captions, so that language models can operate graphical interfaces.",
			id: "microsoft/OmniParser-v2.0",
		},
		{
			description:
				"Ai2's Molmo 7B: an open vision-language model that describes images in detail and can point at the things it mentions.",
			id: "allenai/Molmo-7B-D-0924",
		},
		{
			description:
				"Moondream: a tiny vision-language model for captions, visual questions, object detection and pointing on edge devices.",
			id: "vikhyatk/moondream2",
		},
		{
			description:
				"Qwen2.5-VL 7B: a strong all-round vision-language model for documents, charts, long videos, object localisation and agent tasks.",
			id: "Qwen/Qwen2.5-VL-7B-Instruct",
		},
		{
			description:
				"Magma: a multimodal agent model that understands images and video and plans actions for interface navigation and robot manipulation.",
			id: "microsoft/Magma-8B",
		},
		{
			description:
				"olmOCR: a vision-language model fine-tuned to turn PDF page images into clean text in natural reading order, including tables and equations.",
			id: "allenai/olmOCR-7B-0225-preview",
		},
		{
			description:
				"IBM's small Granite Vision model, focused on understanding documents: tables, charts, infographics and forms.",
			id: "ibm-granite/granite-vision-3.2-2b",
		},
	],
	spaces: [
		{
			description: "Leaderboard that ranks vision-language models on many public benchmarks.",
			id: "opencompass/open_vlm_leaderboard",
		},
		{
			description:
				"Blind side-by-side comparison of vision-language models; your votes feed a public ranking.",
			id: "WildVision/vision-arena",
		},
		{
			description: "Chat with Molmo 7B about an uploaded image.",
			id: "akhaliq/Molmo-7B-D-0924",
		},
		{
			description: "Ask SmolVLM2 questions about images and short videos.",
			id: "HuggingFaceTB/SmolVLM2",
		},
		{
			description: "Chat with Qwen2-VL 7B about images.",
			id: "GanymedeNil/Qwen2-VL-7B",
		},
		{
			description: "Give ShowUI a screenshot and an instruction and it shows where on the screen to click.",
			id: "showlab/ShowUI",
		},
		{
			description: "Finds the faces in a picture and draws where each person is looking, using Moondream.",
			id: "moondream/gaze-demo",
		},
	],
	summary:
		"Image-text-to-text models, also called vision-language models, take images together with a text prompt and write text in reply. They caption pictures, answer visual questions, read documents and charts, and can act as the eyes of agents.",
	widgetModels: ["Qwen/Qwen2-VL-7B-Instruct"],
	youtubeId: "IoGaGfU1CIg",
};

export default taskData;
