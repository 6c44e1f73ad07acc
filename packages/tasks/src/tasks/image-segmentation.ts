import type { TaskDataCustom } from "./types.js";

const taskData: TaskDataCustom = {
	datasets: [
		{
			description:
				"The ADE20K scene-parsing benchmark: indoor and outdoor scenes labelled pixel by pixel with 150 categories such as wall, sky, road, person and car.",
			id: "scene_parse_150",
		},
	],
	demo: {
		inputs: [{ type: "img", filename: "image-segmentation-input.svg" }],
		outputs: [{ type: "img", filename: "image-segmentation-output.svg" }],
	},
	metrics: [
		{
			description:
				"Area under the precision-recall curve for predicted masks of one class, counting a mask as correct above a chosen overlap with the reference.",
			id: "Average Precision",
		},
		{
			description:
				"Average Precision averaged over classes, and often over several overlap thresholds; the headline instance-segmentation score.",
			id: "Mean Average Precision",
		},
		{
			description:
				"For each class, the overlap between the predicted and reference pixels divided by their union, then averaged over classes; the main semantic-segmentation score.",
			id: "Mean Intersection over Union",
		},
		{
			description:
				"Average Precision at one fixed overlap threshold α, for example AP50 or AP75; higher thresholds demand tighter masks.",
			id: "APα",
		},
	],
	models: [
		{
			description:
				"UperNet head on a small ConvNeXt backbone, trained for semantic segmentation of ADE20K scenes.",
			id: "openmmlab/upernet-convnext-small",
		},
		{
			description:
				"BRIA's background-removal model: separates the main subject from the background in photos, product shots and graphics.",
			id: "briaai/RMBG-1.4",
		},
		{
			description:
				"BiRefNet: high-resolution foreground segmentation that keeps fine details such as hair and thin structures; popular for cut-outs.",
			id: "ZhengPeng7/BiRefNet",
		},
		{
			description:
				"Meta's human-centric Sapiens model, 1B parameters, fine-tuned to segment body parts and clothing of people.",
			id: "facebook/sapiens-seg-1b",
		},
		{
			description:
				"Mask2Former with a large Swin backbone trained on COCO panoptic: labels every pixel and separates individual objects in one model.",
			id: "facebook/mask2former-swin-large-coco-panoptic",
		},
	],
	spaces: [
		{
			description: "Open-vocabulary segmentation: type any class names and get masks for them.",
			id: "facebook/ov-seg",
		},
		{
			description: "Segment Anything: click or draw a box on an image to cut out any object.",
			id: "jbrinkma/segment-anything",
		},
		{
			description: "Estimates human body keypoints with Meta's Sapiens models.",
			id: "facebook/sapiens-pose",
		},
		{
			description: "Instance segmentation of individual cells in microscopy images.",
			id: "rashmi/sartorius-cell-instance-segmentation",
		},
		{
			description: "Applies Segment Anything to video to segment and follow objects across frames.",
			id: "ArtGAN/Segment-Anything-Video",
		},
		{
			description:
				"Panoptic segmentation without training: text-prompted boxes from a detector are turned into masks by Segment Anything.",
			id: "segments/panoptic-segment-anything",
		},
	],
	summary:
		"Image segmentation labels every pixel of an image. Semantic segmentation gives each pixel a class, instance segmentation separates individual objects, and panoptic segmentation does both; uses range from self-driving and medical imaging to background removal.",
	widgetModels: ["nvidia/segformer-b0-finetuned-ade-512-512"],
	youtubeId: "dKE8SIt9C-w",
};

export default taskData;
