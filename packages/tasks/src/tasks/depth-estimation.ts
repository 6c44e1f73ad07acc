import type { TaskDataCustom } from "./types.js";

const taskData: TaskDataCustom = {
	datasets: [
		{
			description:
				"NYU Depth V2: indoor rooms filmed with a Microsoft Kinect, pairing colour frames with dense depth maps; a standard indoor benchmark.",
			id: "sayakpaul/nyu_depth_v2",
		},
		{
			description:
				"Relative-depth benchmark from the Depth Anything V2 authors: varied high-resolution images with point pairs annotated by which point is closer.",
			id: "depth-anything/DA-2K",
		},
	],
	demo: {
		inputs: [{ type: "img", filename: "depth-estimation-input.svg" }],
		outputs: [{ type: "img", filename: "depth-estimation-output.svg" }],
	},
	metrics: [],
	models: [
		{
			description:
				"Large Depth Anything V2: robust relative depth for almost any photo, with fine detail, trained on synthetic labels and pseudo-labelled real images.",
			id: "depth-anything/Depth-Anything-V2-Large",
		},
		{
			description:
				"Lotus: a Stable Diffusion model repurposed to predict depth in one step, giving detailed maps with little training data.",
			id: "jingheya/lotus-depth-g-v1-0",
		},
		{
			description:
				"Video diffusion model that estimates depth for long open-world videos while keeping it consistent from frame to frame.",
			id: "tencent/DepthCrafter",
		},
		{
			description:
				"Apple's Depth Pro: sharp metric depth in metres from a single image without camera intrinsics, fast enough for interactive use.",
			id: "apple/DepthPro-hf",
		},
	],
	spaces: [
		{
			description: "Estimates depth with DPT and rebuilds the photo as a 3D voxel model you can rotate.",
			id: "radames/dpt-depth-estimation-3d-voxels",
		},
		{
			description:
				"Produces a metric depth map and a focal-length estimate for an uploaded image with Depth Pro.",
			id: "akhaliq/depth-pro",
		},
		{
			description: "Turns an uploaded video into a temporally consistent depth video with DepthCrafter.",
			id: "tencent/DepthCrafter",
		},
		{
			description: "Depth estimation focused on people, using Meta's human-centric Sapiens models.",
			id: "facebook/sapiens-depth",
		},
	],
	summary:
		"Depth estimation predicts how far each pixel of an image is from the camera, producing a depth map from a single photo or video. It is used for 3D reconstruction, robotics, augmented reality and photo effects such as background blur.",
	widgetModels: [""],
	youtubeId: "",
};

export default taskData;
