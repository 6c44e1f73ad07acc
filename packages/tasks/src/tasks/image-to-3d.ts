import type { TaskDataCustom } from "./types.js";

const taskData: TaskDataCustom = {
	datasets: [
		{
			description:
				"Objaverse-XL: more than ten million 3D objects; their renders give image-to-3D models matching pairs of pictures and shapes to learn from.",
			id: "allenai/objaverse-xl",
		},
		{
			description:
				"A small collection of single-object images on plain backgrounds, meant as inputs for testing and comparing image-to-3D models.",
			id: "dylanebert/iso3d",
		},
	],
	demo: {
		inputs: [{ type: "img", filename: "image-to-3d-image-input.svg" }],
		outputs: [
			{
				type: "text",
				label: "Result",
				content:
					"A textured 3D mesh (.glb) of the cottage, with the hidden back walls and roof filled in, ready to rotate in any 3D viewer.",
			},
		],
	},
	metrics: [],
	models: [
		{
			description:
				"InstantMesh: generates several consistent views of the object with a diffusion model, then rebuilds a textured mesh from them with a large reconstruction model, in seconds.",
			id: "TencentARC/InstantMesh",
		},
		{
			description:
				"TripoSR, from Stability AI and Tripo AI: a feed-forward transformer that reconstructs a mesh from a single image in a fraction of a second on a GPU.",
			id: "stabilityai/TripoSR",
		},
		{
			description:
				"Real3D: a single-image reconstruction model that improves by also learning from real-world photos, not only from synthetic renders.",
			id: "hwjiang/Real3D",
		},
		{
			description:
				"SPAR3D (Stable Point Aware 3D): first predicts a point cloud and then a mesh, so that the point cloud can be edited before the final mesh is made.",
			id: "stabilityai/stable-point-aware-3d",
		},
	],
	spaces: [
		{
			description:
				"An arena where people vote between 3D models generated from the same image, producing a ranking of image-to-3D methods.",
			id: "dylanebert/3d-arena",
		},
		{
			description: "Upload an image and get InstantMesh's generated views plus a downloadable mesh.",
			id: "TencentARC/InstantMesh",
		},
		{
			description: "Turn an image into a mesh with SPAR3D and look at the intermediate point cloud.",
			id: "stabilityai/stable-point-aware-3d",
		},
		{
			description: "Reconstruct a 3D object from a single photo with Real3D.",
			id: "hwjiang/Real3D",
		},
		{
			description: "A lightweight LGM demo that turns an image into 3D Gaussian splats.",
			id: "dylanebert/LGM-mini",
		},
	],
	summary:
		"Image-to-3D builds a 3D model of an object from one or a few photos. The model has to infer the sides it cannot see, which it learns from large collections of 3D assets.",
	widgetModels: [],
	youtubeId: "",
};

export default taskData;
