import type { TaskDataCustom } from "./types.js";

const taskData: TaskDataCustom = {
	datasets: [
		{
			description:
				"Objaverse-XL: more than ten million 3D objects gathered from sources such as GitHub, Sketchfab and Thingiverse, used to pre-train 3D generators.",
			id: "allenai/objaverse-xl",
		},
		{
			description:
				"Cap3D: text descriptions of Objaverse objects, written automatically by captioning several rendered views and merging the captions with a language model.",
			id: "tiange/Cap3D",
		},
	],
	demo: {
		inputs: [
			{ type: "text", label: "Prompt", content: "a wooden treasure chest with iron bands and a domed lid" },
		],
		outputs: [
			{
				type: "text",
				label: "Result",
				content:
					"A textured 3D mesh (.glb) of the treasure chest that can be rotated in any 3D viewer or imported into a game engine.",
			},
		],
	},
	metrics: [],
	models: [
		{
			description:
				"OpenAI's Shap-E: a conditional generative model that outputs the parameters of an implicit 3D function, which can be rendered as a textured mesh or a radiance field.",
			id: "openai/shap-e",
		},
		{
			description:
				"LGM (Large Multi-View Gaussian Model): produces a 3D Gaussian-splat object within seconds from multi-view images that a diffusion model generates from text or an image.",
			id: "ashawkey/LGM",
		},
	],
	spaces: [
		{
			description: "Generate a 3D object from a text prompt with Shap-E and inspect it in the browser.",
			id: "hysts/Shap-E",
		},
		{
			description:
				"The LGM demo: create Gaussian splats from a prompt or an image and export them as a mesh.",
			id: "ashawkey/LGM",
		},
	],
	summary:
		"Text-to-3D generates a 3D asset, such as a mesh, point cloud, radiance field or set of Gaussians, from a text description. Many methods first create consistent views of the object with a diffusion model and then reconstruct it in 3D.",
	widgetModels: [],
	youtubeId: "",
};

export default taskData;
