import type { TaskDataCustom } from "./types.js";

const taskData: TaskDataCustom = {
	datasets: [
		{
			description:
				"Video-MME: multiple-choice questions about short, medium and hour-long videos from many domains, used to benchmark how well multimodal models understand video.",
			id: "lmms-lab/Video-MME",
		},
		{
			description:
				"The Video-ChatGPT evaluation set: questions about videos with reference answers, used to grade generated answers on correctness, detail, context and temporal understanding.",
			id: "lmms-lab/VideoChatGPT",
		},
		{
			description:
				"FineVideo: tens of thousands of Creative Commons YouTube videos with rich metadata such as scene splits, characters, mood and question–answer pairs.",
			id: "HuggingFaceFV/finevideo",
		},
	],
	demo: {
		inputs: [
			{ type: "img", filename: "video-text-to-text-input.svg" },
			{ type: "text", label: "Text Prompt", content: "Describe what happens in this clip." },
		],
		outputs: [
			{
				type: "text",
				label: "Answer",
				content:
					"A red car drives from left to right along a country road. It passes a white windmill whose sails keep turning, while a small cloud drifts across the sky.",
			},
		],
	},
	metrics: [],
	models: [
		{
			description:
				"LongVU: a video-language model on a Qwen2-7B backbone that compresses frames adaptively in space and time, so that hour-long videos fit in its context.",
			id: "Vision-CAIR/LongVU_Qwen2_7B",
		},
		{
			description:
				"A 7B model from the Apollo family of video-language models, which came out of a systematic study of design choices for video understanding.",
			id: "GoodiesHere/Apollo-LMMs-Apollo-7B-t32",
		},
		{
			description:
				"SmolVLM2 2.2B: a compact vision-language model that accepts video, several images and text, small enough for a laptop.",
			id: "HuggingFaceTB/SmolVLM2-2.2B-Instruct",
		},
	],
	spaces: [
		{
			description: "Chat with Video-LLaVA about a video or image you upload.",
			id: "llava-hf/video-llava",
		},
		{
			description:
				"OpenCompass leaderboard that ranks vision-language models on video-understanding benchmarks.",
			id: "opencompass/openvlm_video_leaderboard",
		},
		{
			description:
				"Uses SmolVLM2 to watch a long video and cut its most interesting moments into a short highlight reel.",
			id: "HuggingFaceTB/SmolVLM2-HighlightGenerator",
		},
	],
	summary:
		"Video-text-to-text models take a video together with a text prompt and reply in text: they describe the clip, answer questions about it or point out when something happens. Most are vision-language models that sample frames and pass their visual tokens to a language model.",
	widgetModels: [""],
	youtubeId: "",
};

export default taskData;
