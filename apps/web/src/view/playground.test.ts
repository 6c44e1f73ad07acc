import { describe, expect, it } from "vitest";
import { TASK_REGISTRY } from "@modelhub/inference/catalog";
import { PIPELINE_DATA, type ModelData } from "@modelhub/tasks";
import {
	buildArgs,
	captureFetchCall,
	conversation,
	describePrepared,
	elideBinary,
	formatRequest,
	initialInput,
	isHubRequest,
	playgroundPlan,
	playgroundTask,
	recordingFetch,
	redactHeader,
	renderOutput,
	similarityBars,
} from "./playground";

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

describe("requests", () => {
	it("redacts credentials but keeps the scheme", () => {
		expect(redactHeader("Authorization", "Bearer hf_secret")).toBe("Bearer [redacted]");
		expect(redactHeader("authorization", "Key abc")).toBe("Key [redacted]");
		expect(redactHeader("X-API-Key", "abc")).toBe("[redacted]");
		expect(redactHeader("Content-Type", "application/json")).toBe("application/json");
	});

	it("captures a fetch call with its JSON body, pretty-printed, and never the token", async () => {
		const request = await captureFetchCall("https://router.example/together/v1/chat/completions", {
			method: "POST",
			headers: { Authorization: "Bearer hf_secret", "Content-Type": "application/json" },
			body: JSON.stringify({ model: "m", stream: true }),
		});
		const text = formatRequest(request);
		expect(text).not.toContain("hf_secret");
		expect(text).toBe(
			[
				"POST https://router.example/together/v1/chat/completions",
				"authorization: Bearer [redacted]",
				"content-type: application/json",
				"",
				'{\n  "model": "m",\n  "stream": true\n}',
			].join("\n"),
		);
		expect(request.rawBody).toBe('{"model":"m","stream":true}');
		const binary = await captureFetchCall(new URL("https://p.example/x"), {
			method: "POST",
			body: new Blob(["abc"], { type: "image/png" }),
		});
		expect(binary.body).toBe("<binary: 3 bytes, image/png>");
	});

	it("records the requests that leave for a provider, not the hub look-ups", async () => {
		const base = (async () => new Response("{}")) as typeof fetch;
		expect(isHubRequest("http://hub.local/apix", "http://hub.local")).toBe(false);
		const recorded: string[] = [];
		const recorder = recordingFetch("http://hub.local", base, (request) => recorded.push(request.url));
		await recorder("http://hub.local/api/tasks");
		await recorder("https://provider.example/v1", { method: "POST" });
		expect(recorded).toEqual(["https://provider.example/v1"]);
	});

	it("shows embedded files as <binary: N bytes, type>, never their base64", async () => {
		const clip = "A".repeat(4000);
		expect(elideBinary({ audio_url: `data:audio/flac;base64,${clip}`, task: "transcribe" })).toEqual({
			audio_url: "<binary: 3000 bytes, audio/flac>",
			task: "transcribe",
		});
		expect(elideBinary({ inputs: `${"QUJD".repeat(100)}` }, "audio/wav")).toEqual({
			inputs: "<binary: 300 bytes, audio/wav>",
		});
		// Ordinary text, even long, stays.
		const prose = "word ".repeat(100);
		expect(elideBinary({ inputs: prose })).toEqual({ inputs: prose });
		const shown = await describePrepared({
			method: "post",
			url: "https://p.example/x",
			headers: { Authorization: "Key secret-key", "Content-Type": "application/json" },
			body: JSON.stringify({ audio_url: `data:audio/flac;base64,${clip}==` }),
		});
		expect(formatRequest(shown)).toBe(
			[
				"POST https://p.example/x",
				"authorization: Key [redacted]",
				"content-type: application/json",
				"",
				'{\n  "audio_url": "<binary: 2999 bytes, audio/flac>"\n}',
			].join("\n"),
		);
		const form = new FormData();
		form.append("file", new Blob(["abcd"], { type: "audio/mpeg" }));
		form.append("model", "whisper");
		expect((await describePrepared({ method: "POST", url: "u", headers: {}, body: form })).body).toBe(
			"<multipart form data>\nfile: <binary: 4 bytes, audio/mpeg>\nmodel: whisper",
		);
	});
});

describe("the conversation sent", () => {
	it("sends completed turns only, so failed or stopped ones never make two user turns in a row", () => {
		const turns = [
			{ id: 1, user: "Hi", answer: "Hello!", status: "done" as const },
			{ id: 2, user: "Lost", answer: "", status: "failed" as const },
			{ id: 3, user: "Cut", answer: "Par", status: "stopped" as const },
		];
		expect(conversation(turns, "Next")).toEqual([
			{ role: "user", content: "Hi" },
			{ role: "assistant", content: "Hello!" },
			{ role: "user", content: "Next" },
		]);
		expect(conversation(turns, "  ")).toHaveLength(2);
	});
});

describe("renderOutput", () => {
	it("recognises each output shape", () => {
		expect(renderOutput("text-classification", [{ label: "POSITIVE", score: 0.9 }]).kind).toBe("labels");
		expect(renderOutput("fill-mask", [{ token_str: "capital", score: 0.8, sequence: "", token: 1 }])).toEqual(
			{
				kind: "labels",
				bars: [{ label: "capital", score: 0.8, percent: 80 }],
			},
		);
		expect(
			renderOutput("object-detection", [
				{ label: "cat", score: 0.9, box: { xmin: 1, ymin: 2, xmax: 3, ymax: 4 } },
			]),
		).toEqual({
			kind: "boxes",
			boxes: [{ label: "cat", score: 0.9, xmin: 1, ymin: 2, xmax: 3, ymax: 4 }],
		});
		expect(
			renderOutput("token-classification", [
				{ entity_group: "PER", word: "Clara", score: 0.99, start: 11, end: 16 },
			]).kind,
		).toBe("entities");
		expect(renderOutput("summarization", { summary_text: "short" })).toEqual({ kind: "text", text: "short" });
		expect(renderOutput("text-generation", [{ generated_text: "go" }])).toEqual({ kind: "text", text: "go" });
		expect(renderOutput("text-to-image", new Blob([""], { type: "image/png" })).kind).toBe("image");
		expect(renderOutput("text-to-speech", new Blob([""], { type: "audio/wav" })).kind).toBe("audio");
		expect(renderOutput("feature-extraction", [0.1, 0.2])).toEqual({
			kind: "json",
			json: "[\n  0.1,\n  0.2\n]",
		});
	});

	it("pairs similarity scores with sentences", () => {
		expect(similarityBars(["a", "b"], [0.2, 0.9])?.map((bar) => bar.label)).toEqual(["b", "a"]);
		expect(similarityBars(["a"], { nope: true })).toBeUndefined();
	});
});
