import type { TaskDataCustom } from "./types.js";

const taskData: TaskDataCustom = {
	datasets: [
		{
			description:
				"MSR-VTT web video clips with their human-written captions, packaged with CLIP features of the frames for text–video retrieval and evaluation.",
			id: "iejMac/CLIP-MSR-VTT",
		},
		{
			description:
				"UCF101 as zip archives: short YouTube clips of 101 human actions, a common benchmark for class-conditional video generation scored with FVD and IS.",
			id: "quchenyuan/UCF101-ZIP",
		},
		{
			description:
				"Kinetics: a large set of roughly ten-second YouTube clips labelled with hundreds of human action classes, used for pre-training and evaluating video models.",
			id: "nateraw/kinetics",
		},
		{
			description:
				'Something-Something v2: clips of people doing templated actions with everyday objects ("pushing something from left to right"), which stresses fine-grained motion.',
			id: "HuggingFaceM4/something_something_v2",
		},
		{
			description:
				"WebVid: millions of stock-footage clips with their captions, one of the most widely used text–video pre-training sets.",
			id: "HuggingFaceM4/webvid",
		},
		{
			description:
				"DiDeMo: Flickr videos in which specific moments are described in natural language, packaged with CLIP features of the frames.",
			id: "iejMac/CLIP-DiDeMo",
		},
	],
	demo: {
		inputs: [
			{
				type: "text",
				label: "Input",
				content:
					"A striped hot-air balloon rising slowly over green hills on a sunny morning, clouds drifting by",
			},
		],
		outputs: [{ type: "img", filename: "text-to-video-output.svg" }],
	},
	metrics: [
		{
			description:
				"Inception Score adapted to video: a pretrained action classifier (commonly C3D on UCF101) rates how recognisable and varied the generated clips are. Higher is better.",
			id: "is",
		},
		{
			description:
				"Fréchet Inception Distance computed on individual frames against real frames; it measures per-frame image quality but ignores motion. Lower is better.",
			id: "fid",
		},
		{
			description:
				"Fréchet Video Distance: compares features of generated and real clips taken from an I3D action-recognition network, so both appearance and temporal dynamics count. Lower is better.",
			id: "fvd",
		},
		{
			description:
				"CLIP similarity between each generated frame and the prompt, averaged over the clip; it measures how well the video matches the text.",
			id: "clipsim",
		},
	],
	models: [
		{
			description:
				"Tencent's HunyuanVideo: an open video model of about 13 billion parameters that pairs a diffusion transformer with a multimodal language model as text encoder.",
			id: "tencent/HunyuanVideo",
		},
		{
			description:
				"Lightricks' LTX-Video: a diffusion transformer built for speed that produces short clips from text, or from an image plus text, in seconds on a strong GPU.",
			id: "Lightricks/LTX-Video",
		},
		{
			description:
				"A 7B diffusion world model from NVIDIA Cosmos that generates physically plausible video from a text prompt, aimed at simulation for robotics and driving.",
			id: "nvidia/Cosmos-1.0-Diffusion-7B-Text2World",
		},
		{
			description:
				"The small 1.3B text-to-video variant of Wan 2.1, light enough to run on a consumer graphics card.",
			id: "Wan-AI/Wan2.1-T2V-1.3B",
		},
	],
	spaces: [
		{
			description: "Try the open VideoCrafter diffusion models, which turn a prompt into a short clip.",
			id: "VideoCrafter/VideoCrafter",
		},
		{
			description: "The Wan 2.1 demo: generate video from a text prompt or animate a still image.",
			id: "Wan-AI/Wan2.1",
		},
		{
			description:
				"Pyramid Flow generates video autoregressively with flow matching, working up through increasing resolutions to save compute.",
			id: "Pyramid-Flow/pyramid-flow",
		},
	],
	summary:
		"Text-to-video models generate a short video clip from a text description. Compared with image generation they must also keep objects consistent and motion plausible from frame to frame.",
	widgetModels: ["Wan-AI/Wan2.1-T2V-14B"],
	youtubeId: undefined,
};

export default taskData;
