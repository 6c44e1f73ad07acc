import type { TaskDataCustom } from "./types.js";

const taskData: TaskDataCustom = {
	datasets: [
		{
			description:
				"Millions of PDF page images paired with question-answer pairs generated from their text by a language model; made to fine-tune vision-language models on documents.",
			id: "HuggingFaceM4/Docmatix",
		},
		{
			description:
				"DocVQA: questions about scanned business documents (letters, forms, reports), with the answers written as text found on the page.",
			id: "eliolio/docvqa",
		},
	],
	demo: {
		inputs: [
			{ type: "text", label: "Question", content: "What is the total amount due on this invoice?" },
			{ type: "img", filename: "document-question-answering-input.svg" },
		],
		outputs: [{ type: "text", label: "Answer", content: "$1,278.72" }],
	},
	metrics: [
		{
			description:
				"Average Normalized Levenshtein Similarity: gives partial credit when the answer is spelled almost like the reference, and none when it is too far off; the standard DocVQA score.",
			id: "anls",
		},
		{
			description: "Share of answers that match a reference answer character for character.",
			id: "exact-match",
		},
	],
	models: [
		{
			description:
				"LayoutLM fine-tuned for extractive question answering over documents, reading both the OCR words and their position on the page.",
			id: "impira/layoutlm-document-qa",
		},
		{
			description:
				"LayoutLM tuned on invoices and similar forms to pull out fields such as totals, dates and invoice numbers.",
			id: "impira/layoutlm-invoices",
		},
		{
			description:
				"Microsoft's UDOP: one encoder-decoder that models the page image, text and layout together and handles question answering, classification and layout tasks.",
			id: "microsoft/udop-large",
		},
		{
			description:
				"Pix2Struct fine-tuned on DocVQA: reads the page pixels directly, with no separate OCR step, and writes the answer.",
			id: "google/pix2struct-docvqa-large",
		},
	],
	spaces: [
		{
			description: "Upload a PDF or image, or give a URL, and ask questions about its contents.",
			id: "impira/docquery",
		},
		{
			description: "Extracts key fields from an invoice by asking a document model a list of questions.",
			id: "impira/invoices",
		},
		{
			description:
				"Asks several document question answering models the same question about a page and shows their answers side by side.",
			id: "merve/compare_docvqa_models",
		},
	],
	summary:
		"Document question answering answers a natural-language question about a document image, such as an invoice, form or report. Models use the text on the page together with its layout, so they can find values like totals, dates or names.",
	widgetModels: ["impira/layoutlm-invoices"],
	youtubeId: "",
};

export default taskData;
