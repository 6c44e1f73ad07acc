import type { TaskDataCustom } from "./types.js";

const taskData: TaskDataCustom = {
	datasets: [
		{
			description:
				"A curated collection of real-world classification and regression tables, assembled to compare tree ensembles and deep networks on tabular data fairly.",
			id: "inria-soda/tabular-benchmark",
		},
	],
	demo: {
		inputs: [
			{
				type: "tabular",
				table: [
					["Glucose", "Blood Pressure ", "Skin Thickness", "Insulin", "BMI"],
					["156", "78", "32", "120", "34.2"],
					["92", "66", "18", "76", "23.9"],
					["181", "84", "40", "210", "38.5"],
				],
			},
		],
		outputs: [
			{
				type: "tabular",
				table: [["Diabetes"], ["1"], ["0"], ["1"]],
			},
		],
	},
	metrics: [
		{
			description: "Share of rows whose predicted class equals the true class.",
			id: "accuracy",
		},
		{
			description:
				"Share of the truly positive rows that the model labels positive; matters when missing a case is costly.",
			id: "recall",
		},
		{
			description: "Share of the rows the model labels positive that are truly positive.",
			id: "precision",
		},
		{
			description:
				"Harmonic mean of precision and recall; more telling than accuracy when the classes are imbalanced.",
			id: "f1",
		},
	],
	models: [
		{
			description:
				"A scikit-learn decision tree that predicts a cancer diagnosis from tabular measurements, shared with skops along with its evaluation plots.",
			id: "scikit-learn/cancer-prediction-trees",
		},
	],
	spaces: [
		{
			description:
				"Edit rows in a small table and see a scikit-learn classifier from the Hub label each one.",
			id: "scikit-learn/tabular-playground",
		},
		{
			description: "A small app for trying scikit-learn classifiers on tabular data.",
			id: "scikit-learn/classification",
		},
	],
	summary:
		"Tabular classification predicts a category for each row of a table from its columns, for example whether a patient is likely to have diabetes given a few clinical measurements.",
	widgetModels: ["scikit-learn/tabular-playground"],
	youtubeId: "",
};

export default taskData;
