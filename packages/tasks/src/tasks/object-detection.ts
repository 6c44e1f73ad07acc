import type { TaskDataCustom } from "./types.js";

const taskData: TaskDataCustom = {
	datasets: [
		{
			description:
				"The COCO 2017 images with boxes and masks for 80 everyday object categories; the reference benchmark for detection.",
			id: "merve/coco2017",
		},
		{
			description:
				"PASCAL VOC images annotated with boxes for 20 common classes such as person, car, dog and bottle; smaller than COCO and quick to train on.",
			id: "merve/pascal-voc",
		},
	],
	demo: {
		inputs: [{ type: "img", filename: "object-detection-input.svg" }],
		outputs: [{ type: "img", filename: "object-detection-output.svg" }],
	},
	metrics: [
		{
			description:
				"Area under the precision-recall curve for one class, where a detection counts as correct when its box overlaps a reference box enough.",
			id: "Average Precision",
		},
		{
			description:
				"Average precision averaged over all classes (and, in the COCO protocol, over several overlap thresholds); the headline detection score.",
			id: "Mean Average Precision",
		},
		{
			description:
				"Average precision at one fixed IoU threshold α, for example AP50 (lenient) or AP75 (strict about box placement).",
			id: "APα",
		},
	],
	models: [
		{
			description:
				"Meta's DETR pairs a ResNet-50 backbone with a transformer that predicts the set of objects directly, with no anchors or non-maximum suppression; trained on COCO.",
			id: "facebook/detr-resnet-50",
		},
		{
			description:
				"DAB-DETR uses dynamic anchor boxes as decoder queries and refines them layer by layer, so DETR-style training converges faster.",
			id: "IDEA-Research/dab-detr-resnet-50",
		},
		{
			description:
				"RT-DETRv2 is a real-time detection transformer; this ResNet-50-vd version balances speed and COCO accuracy well.",
			id: "PekingU/rtdetr_v2_r50vd",
		},
		{
			description:
				"WALDO 3.0 finds objects such as vehicles, people and buildings in overhead imagery, for example footage from drones.",
			id: "StephanST/WALDO30",
		},
	],
	spaces: [
		{
			description:
				"Compares open detection models on the same COCO evaluation so you can pick one by accuracy.",
			id: "hf-vision/object_detection_leaderboard",
		},
		{
			description:
				"Runs the DETR and YOLOS transformer detectors on your image so you can compare their boxes.",
			id: "Gradio-Blocks/Object-Detection-With-DETR-and-YOLOS",
		},
		{
			description:
				"Detects objects in images and videos with YOLOv12, a YOLO variant built around attention.",
			id: "sunsmarterjieleaf/yolov12",
		},
		{
			description: "Click an object in a video and it is segmented and tracked across the frames.",
			id: "VIPLab/Track-Anything",
		},
		{
			description: "Detects COCO objects with RT-DETR and follows them from frame to frame in a video.",
			id: "merve/RT-DETR-tracking-coco",
		},
	],
	summary:
		"Object detection finds every instance of known object classes in an image and returns, for each one, a bounding box, a class label and a confidence score.",
	widgetModels: ["facebook/detr-resnet-50"],
	youtubeId: "WdAeKSOpxhw",
};

export default taskData;
