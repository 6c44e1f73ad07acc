import { describe, expect, it } from "vitest";
import { TASK_REGISTRY, type TaskFunctionName } from "@modelhub/inference/catalog";
import { OUTPUT_VIEWS, renderOutput, type OutputContext } from "./output";
import { isPlaygroundFunction } from "./plan";

const context: OutputContext = { text: "My name is Clara.", sentences: ["a", "b"], file: undefined };

describe("renderOutput", () => {
	it("has one view for each task function the playground calls", () => {
		const offered = (Object.keys(TASK_REGISTRY) as TaskFunctionName[]).filter(isPlaygroundFunction);
		expect(Object.keys(OUTPUT_VIEWS).sort()).toEqual([...offered].sort());
	});

	it("shows each answer by the function that gave it", () => {
		expect(renderOutput("textClassification", [{ label: "POSITIVE", score: 0.9 }], context).kind).toBe(
			"labels",
		);
		expect(
			renderOutput("fillMask", [{ token_str: "capital", score: 0.8, sequence: "", token: 1 }], context),
		).toEqual({ kind: "labels", bars: [{ label: "capital", score: 0.8, percent: 80 }], caption: "Scores" });
		const image = new Blob(["png"], { type: "image/png" });
		expect(
			renderOutput(
				"objectDetection",
				[{ label: "cat", score: 0.9, box: { xmin: 1, ymin: 2, xmax: 3, ymax: 4 } }],
				{ ...context, file: image },
			),
		).toEqual({
			kind: "boxes",
			boxes: [{ label: "cat", score: 0.9, xmin: 1, ymin: 2, xmax: 3, ymax: 4 }],
			image,
		});
		expect(
			renderOutput(
				"tokenClassification",
				[{ entity_group: "PER", word: "Clara", score: 0.99, start: 11, end: 16 }],
				context,
			),
		).toEqual({
			kind: "entities",
			text: "My name is Clara.",
			entities: [{ label: "PER", word: "Clara", score: 0.99, start: 11, end: 16 }],
		});
		expect(renderOutput("summarization", { summary_text: "short" }, context)).toEqual({
			kind: "text",
			text: "short",
		});
		expect(renderOutput("textGeneration", { generated_text: "go" }, context)).toEqual({
			kind: "text",
			text: "go",
		});
		expect(renderOutput("translation", [{ translation_text: "Bonjour" }], context)).toEqual({
			kind: "text",
			text: "Bonjour",
		});
		expect(renderOutput("automaticSpeechRecognition", { text: "hello" }, context)).toEqual({
			kind: "text",
			text: "hello",
		});
		expect(renderOutput("textToImage", image, context)).toEqual({ kind: "image", image });
		const clip = new Blob([""], { type: "audio/wav" });
		expect(renderOutput("textToSpeech", clip, context)).toEqual({ kind: "audio", blob: clip });
		expect(renderOutput("featureExtraction", [0.1, 0.2], context)).toEqual({
			kind: "json",
			json: "[\n  0.1,\n  0.2\n]",
		});
	});

	it("pairs similarity scores with the sentences sent, and zero-shot scores with their labels", () => {
		const similarity = renderOutput("sentenceSimilarity", [0.2, 0.9], context);
		expect(similarity.kind === "labels" && similarity.bars.map((bar) => bar.label)).toEqual(["b", "a"]);
		expect(
			renderOutput(
				"zeroShotClassification",
				[{ sequence: "s", labels: ["refund", "praise"], scores: [0.3, 0.7] }],
				context,
			),
		).toEqual({
			kind: "labels",
			bars: [
				{ label: "praise", score: 0.7, percent: 70 },
				{ label: "refund", score: 0.3, percent: 30 },
			],
			caption: "Scores",
		});
	});
});
