import type { TaskDataCustom } from "./types.js";

const taskData: TaskDataCustom = {
	datasets: [
		{
			description:
				"The COCO 2017 images with their annotations: everyday scenes whose objects carry instance masks and boxes across 80 categories.",
			id: "merve/coco2017",
		},
		{
			description:
				"Brain MRI scans from the BraTS challenge with masks of tumour regions; a test of how well masks hold up on medical images.",
			id: "rocky93/BraTS_segmentation",
		},
	],
	demo: {
		inputs: [{ type: "img", filename: "mask-generation-input.svg" }],
		outputs: [{ type: "img", filename: "mask-generation-output.svg" }],
	},
	metrics: [
		{
			description:
				"Area shared by the predicted and reference masks divided by the area they cover together; 1 means a perfect match, 0 no overlap.",
			id: "Intersection over Union (IoU)",
		},
	],
	models: [
		{
			description:
				"SlimSAM is a Segment Anything model pruned to a fraction of its size and retrained on little data; this uniformly pruned 50% variant runs far cheaper than the original.",
			id: "Zigeng/SlimSAM-uniform-50",
		},
		{
			description:
				"Meta's SAM 2 with the large Hiera encoder segments objects from point, box or mask prompts, and keeps a memory of past frames to follow them through video.",
			id: "facebook/sam2-hiera-large",
		},
	],
	spaces: [
		{
			description:
				"Type what to look for: OWLv2 finds matching objects from the text and SAM 2 turns each box into a mask.",
			id: "merve/OWLSAM2",
		},
		{
			description: "Click on an image or draw a box and get a mask back from the compressed SlimSAM model.",
			id: "merve/slimsam",
		},
		{
			description: "Playground for SAM 2 that segments images from point and box prompts.",
			id: "SkalskiP/segment-anything-model-2",
		},
		{
			description:
				"Pick an object in a video with SAM, then erase it from every frame with ProPainter inpainting.",
			id: "SkalskiP/SAM_and_ProPainter",
		},
	],
	summary:
		"Mask generation outputs pixel masks for regions of an image, usually without naming what they are. Promptable models such as SAM return the mask selected by a point, box or text hint, or cover the whole image with masks automatically.",
	widgetModels: [],
	youtubeId: "",
};

export default taskData;
