/**
 * Golden snippets: one representative case per client × template kind (plus a few variants), kept
 * in __golden__/ after being read by eye. Regenerate with UPDATE_GOLDEN=1 and review the diff.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ModelDataMinimal } from "@modelhub/tasks";
import { describe, expect, it } from "vitest";
import { getInferenceSnippets, type InferenceSnippetOptions } from "../../src/snippets/index.js";
import { PIPELINE_KINDS } from "../../src/snippets/kinds.js";
import type { InferenceProvider, InferenceProviderMappingEntry, InferenceTask } from "../../src/types.js";

const GOLDEN_DIR = join(dirname(fileURLToPath(import.meta.url)), "__golden__");
const UPDATE = process.env.UPDATE_GOLDEN === "1";

interface GoldenCase {
	model: ModelDataMinimal;
	provider: InferenceProvider;
	token?: string;
	providerId?: string;
	opts?: InferenceSnippetOptions;
	/** Written under its own name even when its client × kind already has a golden file. */
	variant?: string;
}

const model = (id: string, pipeline_tag: string, extra: Partial<ModelDataMinimal> = {}) =>
	({ id, pipeline_tag, tags: [], ...extra }) as ModelDataMinimal;
const chat = (id: string, pipeline_tag: string) => model(id, pipeline_tag, { tags: ["conversational"] });

/** In order: the first case that produces a client × kind is its golden case. */
const CASES: GoldenCase[] = [
	{
		model: model("distilbert/distilbert-base-uncased-finetuned-sst-2-english", "text-classification"),
		provider: "hf-inference",
	},
	{
		model: model("deepset/roberta-base-squad2", "question-answering"),
		provider: "hf-inference",
		variant: "object-input",
	},
	{
		model: model("openai/whisper-large-v3", "automatic-speech-recognition"),
		provider: "hf-inference",
		opts: { billTo: "acme" },
	},
	{
		model: model("openai/whisper-large-v3", "automatic-speech-recognition"),
		provider: "fal-ai",
		providerId: "fal-ai/whisper",
		variant: "fal-ai-data-url",
	},
	{
		model: model("google/vit-base-patch16-224", "image-classification"),
		provider: "hf-inference",
		token: "hf_xxxxxxxxxxxxxxxx",
	},
	{
		model: chat("meta-llama/Llama-3.1-8B-Instruct", "text-generation"),
		provider: "together",
		providerId: "meta-llama/Meta-Llama-3.1-8B-Instruct-Turbo",
		opts: { billTo: "acme", max_tokens: 512 },
	},
	{
		model: chat("Qwen/Qwen2.5-VL-7B-Instruct", "image-text-to-text"),
		provider: "hyperbolic",
		providerId: "Qwen/Qwen2.5-VL-7B-Instruct",
		opts: { streaming: true, directRequest: true },
	},
	// huggingface_hub 2.0.0 no longer serves hyperbolic: its streaming chat golden comes from novita.
	{
		model: chat("Qwen/Qwen2.5-VL-7B-Instruct", "image-text-to-text"),
		provider: "novita",
		providerId: "qwen/qwen2.5-vl-72b-instruct",
		opts: { streaming: true },
	},
	// huggingface_hub 2.0.0's table_question_answering gets its model on the client (see huggingface-hub.ts).
	{
		model: model("google/tapas-base-finetuned-wtq", "table-question-answering"),
		provider: "hf-inference",
		variant: "model-on-client",
	},
	{ model: model("impira/layoutlm-document-qa", "document-question-answering"), provider: "hf-inference" },
	{ model: model("timbrooks/instruct-pix2pix", "image-to-image"), provider: "hf-inference" },
	{ model: model("julien-c/wine-quality", "tabular-classification"), provider: "hf-inference" },
	{
		model: model("facebook/musicgen-small", "text-to-audio", { library_name: "transformers" }),
		provider: "hf-inference",
	},
	{
		model: model("black-forest-labs/FLUX.1-dev", "text-to-image"),
		provider: "fal-ai",
		providerId: "fal-ai/flux/dev",
	},
	{ model: model("stabilityai/stable-diffusion-xl-base-1.0", "text-to-image"), provider: "hf-inference" },
	{
		model: model("black-forest-labs/FLUX.1-schnell", "text-to-image"),
		provider: "black-forest-labs",
		providerId: "flux-schnell",
		token: "bfl-key-xxxxxxxx",
		variant: "provider-key",
	},
	{
		model: model("facebook/mms-tts-eng", "text-to-speech", { library_name: "transformers" }),
		provider: "hf-inference",
	},
	{
		model: model("Lightricks/LTX-Video", "text-to-video"),
		provider: "fal-ai",
		providerId: "fal-ai/ltx-video",
	},
	{ model: model("facebook/bart-large-mnli", "zero-shot-classification"), provider: "hf-inference" },
	{
		model: model("Wan-AI/Wan2.2-I2V-A14B", "image-to-video"),
		provider: "together",
		providerId: "Wan-AI/Wan2.2-I2V-A14B",
	},
	// Today's providers: a multipart upload, a data: URL input, speech answered as a file, text generation
	// on a chat route, extra provider headers.
	{
		model: model("openai/whisper-large-v3-turbo", "automatic-speech-recognition"),
		provider: "deepinfra",
		providerId: "openai/whisper-large-v3-turbo",
		variant: "multipart",
	},
	{
		model: model("timbrooks/instruct-pix2pix", "image-to-image"),
		provider: "replicate",
		providerId: "timothybrooks/instruct-pix2pix",
		variant: "data-url",
	},
	{
		model: model("hexgrad/Kokoro-82M", "text-to-speech"),
		provider: "deepinfra",
		providerId: "hexgrad/Kokoro-82M",
		variant: "audio-file",
	},
	{
		model: model("meta-llama/Llama-3.1-8B", "text-generation"),
		provider: "groq",
		providerId: "llama-3.1-8b-instant",
		variant: "chat-route",
	},
	{
		model: chat("zai-org/GLM-4.6", "text-generation"),
		provider: "zai-org",
		providerId: "glm-4.6",
		variant: "provider-headers",
	},
	{
		model: model("openai/clip-vit-large-patch14", "zero-shot-image-classification"),
		provider: "hf-inference",
	},
];

function kindOf(c: GoldenCase): string {
	const pipeline = c.model.pipeline_tag as string;
	if (c.model.tags?.includes("conversational"))
		return c.opts?.streaming ? "conversationalStream" : "conversational";
	return PIPELINE_KINDS[pipeline] as string;
}

function goldenFiles(): Map<string, string> {
	const files = new Map<string, string>();
	for (const c of CASES) {
		const mapping: InferenceProviderMappingEntry | undefined = c.providerId
			? {
					hfModelId: c.model.id,
					providerId: c.providerId,
					status: "live",
					task: c.model.tags?.includes("conversational")
						? "conversational"
						: (c.model.pipeline_tag as InferenceTask),
				}
			: undefined;
		for (const snippet of getInferenceSnippets(c.model, c.token, c.provider, mapping, c.opts)) {
			const name = `${kindOf(c)}${c.variant ? `.${c.variant}` : ""}--${snippet.language}-${snippet.client}.txt`;
			if (!files.has(name)) files.set(name, `${snippet.content}\n`);
		}
	}
	return files;
}

describe("golden snippets", () => {
	const files = goldenFiles();

	if (UPDATE) {
		mkdirSync(GOLDEN_DIR, { recursive: true });
		for (const [name, content] of files) writeFileSync(join(GOLDEN_DIR, name), content);
	}

	it("there is one golden file per client × kind the generator can produce (57) and a few variants", () => {
		const plain = [...files.keys()].filter((name) => !name.split("--")[0]?.includes("."));
		expect(plain).toHaveLength(57);
		expect(existsSync(GOLDEN_DIR) ? readdirSync(GOLDEN_DIR).sort() : []).toEqual([...files.keys()].sort());
	});

	for (const [name, content] of files) {
		it(name, () => {
			expect(content).toBe(readFileSync(join(GOLDEN_DIR, name), "utf8"));
		});
	}
});
