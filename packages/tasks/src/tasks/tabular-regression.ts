import type { TaskDataCustom } from "./types.js";

const taskData: TaskDataCustom = {
	datasets: [
		{
			description:
				"A curated collection of real-world regression and classification tables, assembled to compare tree ensembles and deep networks on tabular data fairly.",
			id: "inria-soda/tabular-benchmark",
		},
	],
	demo: {
		inputs: [
			{
				type: "tabular",
				table: [
					["Car Name", "Horsepower", "Weight"],
					["toyota corolla", "75", "2155"],
					["chevrolet impala", "165", "4274"],
					["volkswagen rabbit", "71", "1925"],
				],
			},
		],
		outputs: [
			{
				type: "tabular",
				table: [["MPG (miles per gallon)"], ["31.4"], ["14.2"], ["32.8"]],
			},
		],
	},
	metrics: [
		{
			description:
				"Mean of the squared differences between predicted and true values; large errors weigh heavily, and lower is better.",
			id: "mse",
		},
		{
			description:
				"Share of the variance in the target that the model explains: 1 is a perfect fit, 0 is no better than always predicting the mean.",
			id: "r-squared",
		},
	],
	models: [
		{
			description:
				"A scikit-learn regressor that estimates a fish's weight from its species and body measurements.",
			id: "scikit-learn/Fish-Weight",
		},
	],
	spaces: [
		{
			description:
				"Enter a fish's species and measurements and get a weight estimate from the Fish-Weight model.",
			id: "scikit-learn/fish-weight-prediction",
		},
	],
	summary:
		"Tabular regression predicts a continuous number for each row of a table from its other columns, such as a price, a weight or a car's fuel consumption.",
	widgetModels: ["scikit-learn/Fish-Weight"],
	youtubeId: "",
};

export default taskData;
