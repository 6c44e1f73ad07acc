/**
 * Which clients are offered for which pipeline and provider: the rows of the facts' offer table
 * (inference-snippets.md §5, hf_ token, mapping given), the `[]` cases, errors and statelessness.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getInferenceSnippets } from "../../src/snippets/index.js";
import { INFERENCE_PROVIDERS } from "../../src/providers/ids.js";
import type { InferenceProvider, InferenceTask } from "../../src/types.js";
import {
	HF_TOKEN,
	PROVIDER_KEY,
	mappingFor,
	modelFor,
	providersFor,
	registryProvidersFor,
} from "./support.js";

const HH = "python/huggingface_hub";
const FAL = "python/fal_client";
const REQ = "python/requests";
const PY_OPENAI = "python/openai";
const FETCH = "js/fetch";
const HFJS = "js/huggingface.js";
const JS_OPENAI = "js/openai";
const CURL = "sh/curl";

interface Row {
	pipelines: string[];
	tags?: string[];
	providers: InferenceProvider[];
	clients: string[];
	/** Per-provider exceptions to `clients`. */
	only?: Partial<Record<InferenceProvider, string[]>>;
}

const BASIC_ALL = [HH, REQ, FETCH, HFJS, CURL];
const CHAT_CLIENTS = [HH, REQ, PY_OPENAI, HFJS, JS_OPENAI, CURL];
const CHAT_PROVIDERS: InferenceProvider[] = [
	"cerebras",
	"cohere",
	"featherless-ai",
	"fireworks-ai",
	"groq",
	"hf-inference",
	"hyperbolic",
	"nebius",
	"novita",
	"nscale",
	"openai",
	"ovhcloud",
	"sambanova",
	"together",
];

/** inference-snippets.md §5, "Resulting offer per pipeline and provider". */
const OFFER: Row[] = [
	{
		pipelines: ["audio-classification", "audio-to-audio"],
		providers: ["hf-inference"],
		clients: [HH, REQ, FETCH, CURL],
	},
	{ pipelines: ["automatic-speech-recognition"], providers: ["hf-inference", "fal-ai"], clients: BASIC_ALL },
	{ pipelines: ["document-question-answering"], providers: ["hf-inference"], clients: [HH, REQ] },
	{ pipelines: ["feature-extraction"], providers: ["hf-inference", "sambanova"], clients: BASIC_ALL },
	{
		pipelines: [
			"fill-mask",
			"question-answering",
			"sentence-similarity",
			"summarization",
			"table-question-answering",
			"text-classification",
			"token-classification",
			"translation",
			"image-classification",
		],
		providers: ["hf-inference"],
		clients: BASIC_ALL,
	},
	{
		pipelines: ["image-segmentation", "image-to-text", "object-detection"],
		providers: ["hf-inference"],
		clients: [HH, REQ, FETCH, CURL],
	},
	{ pipelines: ["image-to-image"], providers: ["hf-inference"], clients: [HH, REQ] },
	{
		pipelines: ["tabular-classification", "tabular-regression"],
		providers: ["hf-inference"],
		clients: [REQ],
	},
	{
		pipelines: ["text-generation"],
		providers: [
			"hf-inference",
			"featherless-ai",
			"groq",
			"hyperbolic",
			"nebius",
			"novita",
			"ovhcloud",
			"together",
		],
		clients: BASIC_ALL,
	},
	{
		pipelines: ["text-generation", "image-text-to-text"],
		tags: ["conversational"],
		providers: CHAT_PROVIDERS,
		clients: CHAT_CLIENTS,
	},
	{ pipelines: ["text-to-audio"], providers: ["hf-inference"], clients: [REQ, FETCH] },
	{
		pipelines: ["text-to-image"],
		providers: [
			"hf-inference",
			"fal-ai",
			"black-forest-labs",
			"hyperbolic",
			"nebius",
			"nscale",
			"replicate",
			"together",
		],
		clients: [HH, FETCH, HFJS],
		only: { "hf-inference": [HH, REQ, FETCH, HFJS], "fal-ai": [HH, FAL, FETCH, HFJS] },
	},
	{
		pipelines: ["text-to-speech"],
		providers: ["hf-inference", "fal-ai", "replicate"],
		clients: [HH, REQ, FETCH, HFJS],
	},
	{ pipelines: ["text-to-video"], providers: ["fal-ai", "replicate"], clients: [HH, HFJS] },
	{ pipelines: ["zero-shot-classification"], providers: ["hf-inference"], clients: [REQ, FETCH, CURL] },
	{ pipelines: ["zero-shot-image-classification"], providers: ["hf-inference"], clients: [REQ] },
];

function offered(
	pipeline: string,
	tags: string[],
	provider: InferenceProvider,
	streaming = false,
): string[] | "error" {
	const model = modelFor(pipeline, tags);
	const task = (tags.includes("conversational") ? "conversational" : pipeline) as InferenceTask;
	// openai refuses hub tokens (tested below), so its row is checked with its own key.
	const token = provider === "openai" ? PROVIDER_KEY : HF_TOKEN;
	try {
		return getInferenceSnippets(model, token, provider, mappingFor(model, provider, task), { streaming }).map(
			(snippet) => `${snippet.language}/${snippet.client}`,
		);
	} catch {
		return "error";
	}
}

let errors: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
	errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
});
afterEach(() => {
	vi.restoreAllMocks();
});

describe("offer table (facts §5)", () => {
	for (const row of OFFER) {
		for (const pipeline of row.pipelines) {
			const tags = row.tags ?? [];
			for (const streaming of tags.length ? [false, true] : [false]) {
				const name = `${pipeline}${tags.length ? " + conversational" : ""}${streaming ? " (streaming)" : ""}`;
				it(`${name}: the listed providers get the listed clients, every other provider []`, () => {
					for (const provider of INFERENCE_PROVIDERS) {
						const expected = row.providers.includes(provider) ? (row.only?.[provider] ?? row.clients) : [];
						expect(offered(pipeline, tags, provider, streaming), provider).toEqual(expected);
					}
				});
			}
		}
	}

	it("pipelines without snippets give [] for every provider", () => {
		for (const provider of INFERENCE_PROVIDERS) {
			expect(offered("image-text-to-text", [], provider)).toEqual([]);
			expect(offered("text2text-generation", [], provider)).toEqual([]);
			expect(offered("visual-question-answering", [], provider)).toEqual([]);
			expect(offered("depth-estimation", [], provider)).toEqual([]);
		}
		expect(getInferenceSnippets({ id: "a/b", tags: [] } as never, HF_TOKEN, "hf-inference")).toEqual([]);
	});

	it("the facts' provider × task table and the client's registry agree", () => {
		const tasks = new Set(OFFER.flatMap((row) => row.pipelines));
		tasks.add("conversational");
		for (const task of tasks) expect(registryProvidersFor(task), task).toEqual(providersFor(task));
	});
});

describe("errors", () => {
	it("an unsupported provider/task logs 3.12.1's message and returns []", () => {
		const model = modelFor("text-classification");
		expect(getInferenceSnippets(model, HF_TOKEN, "together")).toEqual([]);
		expect(errors).toHaveBeenCalledTimes(1);
		expect(errors.mock.calls[0]?.[0]).toBe(
			"Failed to get provider helper for together (text-classification)",
		);
		expect(errors.mock.calls[0]?.[1]).toBeInstanceOf(Error);
	});

	it("an unknown provider id logs and returns []", () => {
		const model = modelFor("text-classification");
		expect(getInferenceSnippets(model, HF_TOKEN, "not-a-provider" as InferenceProvider)).toEqual([]);
		expect(errors.mock.calls[0]?.[0]).toBe(
			"Failed to get provider helper for not-a-provider (text-classification)",
		);
	});

	it("openai with a hub token throws the client's message", () => {
		const model = modelFor("text-generation", ["conversational"]);
		expect(() => getInferenceSnippets(model, HF_TOKEN, "openai")).toThrow(
			"Provider openai is closed-source and does not support HF tokens.",
		);
	});
});

describe("statelessness", () => {
	it("a conversational call does not change the next call for the same pipeline", () => {
		const plain = modelFor("text-generation");
		const chat = modelFor("text-generation", ["conversational"]);
		const before = getInferenceSnippets(plain, HF_TOKEN, "hf-inference");
		getInferenceSnippets(chat, HF_TOKEN, "hf-inference", undefined, { streaming: true });
		getInferenceSnippets(chat, HF_TOKEN, "hf-inference");
		const after = getInferenceSnippets(plain, HF_TOKEN, "hf-inference");
		expect(after).toEqual(before);
		expect(after.map((s) => s.client)).toEqual([
			"huggingface_hub",
			"requests",
			"fetch",
			"huggingface.js",
			"curl",
		]);
		expect(after[0]?.content).toContain("client.text_generation(");
	});

	it("the same arguments always give the same snippets, and the inputs are not modified", () => {
		const model = modelFor("text-generation", ["conversational"]);
		const messages = [{ role: "user", content: "hello" }];
		const opts = { messages, billTo: "acme", streaming: true, temperature: 0 };
		const frozen = JSON.stringify({ model, opts });
		const first = getInferenceSnippets(model, "", "together", undefined, opts);
		expect(getInferenceSnippets(model, "", "together", undefined, opts)).toEqual(first);
		expect(JSON.stringify({ model, opts })).toBe(frozen);
	});
});

describe("streaming and options", () => {
	it("streaming only changes chat snippets", () => {
		const model = modelFor("text-classification");
		expect(getInferenceSnippets(model, HF_TOKEN, "hf-inference", undefined, { streaming: true })).toEqual(
			getInferenceSnippets(model, HF_TOKEN, "hf-inference"),
		);
		const chat = modelFor("text-generation", ["conversational"]);
		const plain = getInferenceSnippets(chat, HF_TOKEN, "together");
		const streamed = getInferenceSnippets(chat, HF_TOKEN, "together", undefined, { streaming: true });
		for (const [index, snippet] of streamed.entries()) {
			expect(snippet.content, snippet.client).not.toEqual(plain[index]?.content);
		}
		const curl = streamed.find((s) => s.client === "curl")?.content ?? "";
		expect(curl).toContain('"stream": true');
	});

	it("messages, temperature, max_tokens and top_p reach every chat client (0 included)", () => {
		const chat = modelFor("text-generation", ["conversational"]);
		const snippets = getInferenceSnippets(chat, HF_TOKEN, "together", undefined, {
			messages: [{ role: "system", content: "Be brief." }],
			temperature: 0,
			max_tokens: 64,
			top_p: 0.5,
		});
		for (const snippet of snippets) {
			expect(snippet.content, snippet.client).toContain("Be brief.");
			expect(snippet.content, snippet.client).toMatch(/temperature["=:\s]+0\b/);
			expect(snippet.content, snippet.client).toMatch(/max_tokens["=:\s]+64/);
			expect(snippet.content, snippet.client).toMatch(/top_p["=:\s]+0\.5/);
			expect(snippet.content, snippet.client).not.toContain("What is the capital of France?");
		}
	});

	it("content is trimmed", () => {
		for (const snippet of getInferenceSnippets(modelFor("text-to-image"), HF_TOKEN, "fal-ai")) {
			expect(snippet.content).toBe(snippet.content.trim());
		}
	});
});
