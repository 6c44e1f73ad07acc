import type { TaskDataCustom } from "./types.js";

const taskData: TaskDataCustom = {
	datasets: [],
	demo: {
		inputs: [
			{ type: "img", filename: "zero-shot-object-detection-input.svg" },
			{ type: "text", label: "Classes", content: "laptop, potted plant, coffee mug" },
		],
		outputs: [{ type: "img", filename: "zero-shot-object-detection-output.svg" }],
	},
	metrics: [
		{
			description:
				"Area under the precision–recall curve for one class, where a predicted box counts as correct when it overlaps a ground-truth box above an intersection-over-union threshold.",
			id: "Average Precision",
		},
		{
			description:
				"Average precision averaged over all classes, and on COCO-style benchmarks also over IoU thresholds from 0.5 to 0.95; the headline detection number.",
			id: "Mean Average Precision",
		},
		{
			description:
				"Average precision at one IoU threshold α, such as AP50 or AP75; a lower α forgives loosely placed boxes.",
			id: "APα",
		},
	],
	models: [
		{
			description:
				"Grounding DINO base: a transformer detector trained on grounding data that finds the objects named by arbitrary text phrases.",
			id: "IDEA-Research/grounding-dino-base",
		},
		{
			description:
				"OWLv2: an open-vocabulary detector built on a CLIP ViT-B/16 backbone and scaled up with self-training on web images; it also supports searching with an example image.",
			id: "google/owlv2-base-patch16-ensemble",
		},
	],
	spaces: [
		{
			description: "Type a comma-separated list of object names and see the boxes OWLv2 finds in your image.",
			id: "merve/owlv2",
		},
		{
			description: "Chains OWLv2 detection with Segment Anything to get masks for objects described in text.",
			id: "merve/OWLSAM",
		},
	],
	summary:
		"Zero-shot object detection locates and boxes objects named by free-text labels chosen at inference time, including categories that were never annotated in the detector's training data. Open-vocabulary detectors do this by matching region features with text embeddings.",
	widgetModels: [],
	youtubeId: "",
};

export default taskData;
