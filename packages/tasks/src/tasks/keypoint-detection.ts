import type { TaskDataCustom } from "./types.js";

const taskData: TaskDataCustom = {
	datasets: [
		{
			description:
				"Hand-gesture photos from the HaGRID collection paired with hand-landmark skeletons extracted by MediaPipe; useful for hand-pose models and pose-conditioned image generation.",
			id: "Vincent-luo/hagrid-mediapipe-hands",
		},
	],
	demo: {
		inputs: [{ type: "img", filename: "keypoint-detection-input.svg" }],
		outputs: [{ type: "img", filename: "keypoint-detection-output.svg" }],
	},
	metrics: [],
	models: [
		{
			description:
				"Magic Leap's SuperPoint finds interest points and computes a descriptor for each in a single pass; it was trained self-supervised and is a common front end for image matching.",
			id: "magic-leap-community/superpoint",
		},
		{
			description:
				"SuperGlue matches the keypoints of two images with an attention-based graph neural network; these weights are tuned for outdoor scenes.",
			id: "magic-leap-community/superglue_outdoor",
		},
		{
			description:
				"Meta's Sapiens pose model with 1B parameters predicts a dense set of body, hand, foot and face keypoints on high-resolution photos of people.",
			id: "facebook/sapiens-pose-1b",
		},
		{
			description:
				"ViTPose+ base estimates human body pose with a plain Vision Transformer backbone trained jointly on several pose datasets.",
			id: "usyd-community/vitpose-plus-base",
		},
	],
	spaces: [
		{
			description: "Tracks the landmarks of your hands live from a webcam stream.",
			id: "datasciencedojo/Hand-Keypoint-Detection-Realtime",
		},
		{
			description: "Upload a picture and see the interest points SuperPoint detects drawn on top of it.",
			id: "merve/SuperPoint",
		},
	],
	summary:
		"Keypoint detection finds specific, repeatable points in an image and returns their coordinates. The points can be body joints for pose estimation, hand or face landmarks, or generic interest points used to match two views of a scene.",
	widgetModels: [],
	youtubeId: "",
};

export default taskData;
