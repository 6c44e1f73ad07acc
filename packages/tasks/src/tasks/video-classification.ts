import type { TaskDataCustom } from "./types.js";

const taskData: TaskDataCustom = {
	datasets: [
		{
			description:
				"DeepMind's Kinetics-400: hundreds of thousands of roughly ten-second YouTube clips, each labelled with one of 400 human actions; the standard benchmark for action recognition.",
			id: "kinetics400",
		},
	],
	demo: {
		inputs: [{ type: "img", filename: "video-classification-input.svg" }],
		outputs: [
			{
				type: "chart",
				data: [
					{ label: "Playing Guitar", score: 0.91 },
					{ label: "Playing Tennis", score: 0.04 },
					{ label: "Cooking", score: 0.02 },
				],
			},
		],
	},
	metrics: [
		{
			description: "Share of clips whose top predicted label is the reference label.",
			id: "accuracy",
		},
		{
			description: "For a class, the share of its clips that the model labelled with that class.",
			id: "recall",
		},
		{
			description: "For a class, the share of clips predicted as that class that really belong to it.",
			id: "precision",
		},
		{
			description:
				"Harmonic mean of precision and recall, useful when some actions are much rarer than others.",
			id: "f1",
		},
	],
	models: [
		{
			description:
				"Google's ViViT cuts a clip into spatio-temporal tubelets and processes them with a Vision Transformer; this base model is fine-tuned on Kinetics-400.",
			id: "google/vivit-b-16x2-kinetics400",
		},
		{
			description:
				"Microsoft's X-CLIP extends CLIP to video, so a clip can be scored against any list of label texts for zero-shot classification or retrieval.",
			id: "microsoft/xclip-base-patch32",
		},
	],
	spaces: [
		{
			description:
				"Writes free-text narrations of what happens in a video clip with LaViLa, a video-language model.",
			id: "nateraw/lavila",
		},
		{
			description: "Upload a video and see which action categories transformer video models assign to it.",
			id: "fcakyon/video-classification",
		},
	],
	summary:
		"Video classification assigns one or more labels, such as the action being performed, to a whole video clip. Models look at what the frames show and at how they change over time.",
	widgetModels: [],
	youtubeId: "",
};

export default taskData;
