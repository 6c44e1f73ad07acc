import { describe, expect, it } from "vitest";
import { TASK_REGISTRY } from "@modelhub/inference/catalog";
import { PIPELINE_DATA, type ModelData } from "@modelhub/tasks";
import { buildArgs, initialInput, playgroundPlan, playgroundTask } from "./plan";

const chatModel: ModelData = { id: "acme/chat", pipeline_tag: "text-generation", tags: ["conversational"] };

describe("playground plan and inputs", () => {
	it("chooses chat for conversational models and a form for other tasks", () => {
		expect(playgroundPlan(chatModel)).toEqual({
			kind: "chat",
			fn: "chatCompletionStream",
			task: "text-generation",
		});
		expect(playgroundPlan({ pipeline_tag: "text-generation", tags: [] }).fn).toBe("textGeneration");
		expect(playgroundPlan({ pipeline_tag: "object-detection", tags: [] })).toEqual({
			kind: "image",
			fn: "objectDetection",
			task: "object-detection",
		});
		expect(playgroundPlan({ pipeline_tag: "graph-ml", tags: [] }).kind).toBe("unsupported");
		expect(playgroundPlan({ tags: [] }).kind).toBe("unsupported");
	});

	it("takes its task list from the client's task registry, which must know each function it calls", () => {
		const offered = Object.keys(PIPELINE_DATA).flatMap((pipeline) => {
			const task = playgroundTask(pipeline);
			return task ? [[pipeline, task.fn, task.kind]] : [];
		});
		for (const [, fn] of offered) expect(Object.keys(TASK_REGISTRY)).toContain(fn);
		expect(Object.fromEntries(offered.map(([pipeline, fn, kind]) => [pipeline, `${fn} ${kind}`]))).toEqual({
			"text-classification": "textClassification text",
			"token-classification": "tokenClassification text",
			"fill-mask": "fillMask text",
			summarization: "summarization text",
			translation: "translation text",
			"text2text-generation": "textGeneration text",
			"text-generation": "textGeneration text",
			"feature-extraction": "featureExtraction text",
			"text-to-image": "textToImage text",
			"text-to-speech": "textToSpeech text",
			// The text-to-audio task's own function (the mapping's task is text-to-audio), not textToSpeech.
			"text-to-audio": "textToAudio text",
			"question-answering": "questionAnswering question-answering",
			"zero-shot-classification": "zeroShotClassification zero-shot",
			"sentence-similarity": "sentenceSimilarity sentence-similarity",
			"image-classification": "imageClassification image",
			"object-detection": "objectDetection image",
			"image-segmentation": "imageSegmentation image",
			"image-to-text": "imageToText image",
			"zero-shot-image-classification": "zeroShotImageClassification image",
			"automatic-speech-recognition": "automaticSpeechRecognition audio",
			"audio-classification": "audioClassification audio",
		});
	});

	it("pre-fills from the task's example (the snippets' one), the widget data filling only gaps", () => {
		expect(initialInput(chatModel).messages).toEqual([
			{ role: "user", content: "What is the capital of France?" },
		]);
		const classifier: ModelData = { id: "a/b", pipeline_tag: "text-classification", tags: [] };
		expect(initialInput(classifier).text).toBe("The update made the app twice as fast. I love it!");
		expect(initialInput({ ...classifier, widgetData: [{ text: "Own example" }] }).text).toBe(
			"The update made the app twice as fast. I love it!",
		);
		const noExample: ModelData = {
			id: "a/c",
			pipeline_tag: "text-to-3d",
			tags: [],
			widgetData: [{ text: "Own" }],
		};
		expect(initialInput(noExample).text).toBe("Own");
		const qa = initialInput({ id: "a/qa", pipeline_tag: "question-answering", tags: [] });
		expect(qa.text).toMatch(/ferry/);
		expect(qa.context).toMatch(/Pier 4/);
		const similarity = initialInput({ id: "a/s", pipeline_tag: "sentence-similarity", tags: [] });
		expect(similarity.sentences).toHaveLength(3);
	});

	it("builds the task function's arguments", () => {
		const input = { ...initialInput(chatModel), maxTokens: 64 };
		expect(buildArgs(playgroundPlan(chatModel), input)).toEqual({
			messages: [{ role: "user", content: "What is the capital of France?" }],
			max_tokens: 64,
		});
		const zeroShot = playgroundPlan({ pipeline_tag: "zero-shot-classification", tags: [] });
		expect(buildArgs(zeroShot, { ...input, text: "t", candidateLabels: " a, b ,, c" })).toEqual({
			inputs: "t",
			parameters: { candidate_labels: ["a", "b", "c"] },
		});
		const blob = new Blob(["x"]);
		expect(
			buildArgs(playgroundPlan({ pipeline_tag: "image-classification", tags: [] }), input, blob),
		).toEqual({ data: blob });
	});
});
