/**
 * Which clients are offered for which pipeline and provider (hf_ token, mapping given): 3.12.1's
 * offer (inference-snippets.md §5) with today's pairs, and rules of our own —
 * python/huggingface_hub only for the pairs huggingface_hub 2.0.0 serves (providers-current.json),
 * less those where it sends another request than our client (src/snippets/offers.ts; the real-client
 * run checks both against the installed library), high-level clients not where hf-inference answers
 * JSON samples instead of an audio file (speech models outside the transformers library),
 * raw HTTP clients (requests, fetch, curl) only where the provider answers with the result rather
 * than a job to poll, and js/huggingface.js (our client) for every pair. Plus the `[]` cases, errors
 * and statelessness.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getInferenceSnippets } from "../../src/snippets/index.js";
import { HUGGINGFACE_HUB_PAIRS } from "../../src/snippets/python/huggingface-hub-pairs.js";
import { INFERENCE_PROVIDERS } from "../../src/providers/catalog.js";
import type { InferenceProvider, InferenceTask } from "../../src/types.js";
import {
	HF_TOKEN,
	PROVIDER_KEY,
	mappingFor,
	modelFor,
	providersFor,
	pythonServes,
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
const RAW_AND_OURS = [REQ, FETCH, HFJS, CURL];
const CHAT_CLIENTS = [HH, REQ, PY_OPENAI, HFJS, JS_OPENAI, CURL];
const CHAT_PROVIDERS: InferenceProvider[] = [
	"baseten",
	"cerebras",
	"cohere",
	"deepinfra",
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
	"publicai",
	"sambanova",
	"scaleway",
	"together",
	"zai-org",
];
/** huggingface_hub 2.0.0 dropped these chat providers. */
const CHAT_WITHOUT_HUB = [REQ, PY_OPENAI, HFJS, JS_OPENAI, CURL];

const OFFER: Row[] = [
	{
		pipelines: ["audio-classification"],
		providers: ["hf-inference"],
		clients: [HH, REQ, FETCH, HFJS, CURL],
	},
	{
		pipelines: ["audio-to-audio"],
		providers: ["fal-ai", "hf-inference"],
		clients: [HH, REQ, FETCH, HFJS, CURL],
		// fal.ai answers through its queue, and huggingface_hub has no fal.ai audio-to-audio.
		only: { "fal-ai": [HFJS] },
	},
	{
		pipelines: ["automatic-speech-recognition"],
		providers: ["deepinfra", "fal-ai", "hf-inference", "replicate", "together"],
		clients: BASIC_ALL,
		only: { together: RAW_AND_OURS },
	},
	{ pipelines: ["document-question-answering"], providers: ["hf-inference"], clients: [HH, REQ, HFJS] },
	{
		pipelines: ["feature-extraction"],
		providers: ["deepinfra", "hf-inference", "sambanova", "scaleway", "together"],
		clients: BASIC_ALL,
		only: { sambanova: RAW_AND_OURS },
	},
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
			"object-detection",
		],
		providers: ["hf-inference"],
		clients: BASIC_ALL,
	},
	{
		pipelines: ["image-segmentation"],
		providers: ["fal-ai", "hf-inference"],
		clients: BASIC_ALL,
		only: { "fal-ai": [HH, HFJS] },
	},
	{
		pipelines: ["image-to-text"],
		providers: ["hf-inference", "zai-org"],
		clients: BASIC_ALL,
		only: { "zai-org": RAW_AND_OURS },
	},
	{
		pipelines: ["image-to-image"],
		providers: ["fal-ai", "hf-inference", "replicate", "together", "wavespeed"],
		clients: [HH, REQ, HFJS],
		// huggingface_hub sends WaveSpeed no `images` (offers.ts).
		only: { "fal-ai": [HH, HFJS], wavespeed: [HFJS] },
	},
	{
		pipelines: ["image-to-video"],
		providers: ["fal-ai", "together", "wavespeed"],
		clients: [HH, HFJS],
		only: { wavespeed: [HFJS] },
	},
	{
		pipelines: ["tabular-classification", "tabular-regression"],
		providers: ["hf-inference"],
		clients: [REQ, HFJS],
	},
	{
		pipelines: ["text-generation"],
		providers: [
			"deepinfra",
			"featherless-ai",
			"groq",
			"hf-inference",
			"hyperbolic",
			"nebius",
			"novita",
			"ovhcloud",
			"scaleway",
			"together",
		],
		clients: BASIC_ALL,
		// huggingface_hub sends deepinfra and featherless-ai `"max_tokens": null` (offers.ts).
		only: {
			deepinfra: RAW_AND_OURS,
			"featherless-ai": RAW_AND_OURS,
			groq: RAW_AND_OURS,
			hyperbolic: RAW_AND_OURS,
			nebius: RAW_AND_OURS,
			ovhcloud: RAW_AND_OURS,
			scaleway: RAW_AND_OURS,
		},
	},
	{
		pipelines: ["text-generation", "image-text-to-text"],
		tags: ["conversational"],
		providers: CHAT_PROVIDERS,
		clients: CHAT_CLIENTS,
		only: { hyperbolic: CHAT_WITHOUT_HUB, nebius: CHAT_WITHOUT_HUB, sambanova: CHAT_WITHOUT_HUB },
	},
	{
		pipelines: ["text-to-audio"],
		providers: ["fal-ai", "hf-inference"],
		clients: [REQ, FETCH, HFJS],
		// A model outside the transformers library answers JSON samples, not the file textToAudio returns.
		only: { "fal-ai": [HFJS], "hf-inference": [REQ, FETCH] },
	},
	{
		pipelines: ["text-to-image"],
		providers: [
			"black-forest-labs",
			"fal-ai",
			"hf-inference",
			"hyperbolic",
			"nebius",
			"nscale",
			"replicate",
			"together",
			"wavespeed",
			"zai-org",
		],
		clients: [HH, FETCH, HFJS],
		only: {
			"black-forest-labs": [HFJS],
			"fal-ai": [HH, FAL, FETCH, HFJS],
			"hf-inference": [HH, REQ, FETCH, HFJS],
			hyperbolic: [FETCH, HFJS],
			nebius: [FETCH, HFJS],
			wavespeed: [HH, HFJS],
			"zai-org": [HH, HFJS],
		},
	},
	{
		pipelines: ["text-to-speech"],
		providers: ["deepinfra", "fal-ai", "hf-inference", "replicate", "together"],
		clients: [HH, REQ, FETCH, HFJS],
		// As text-to-audio: see the transformers test below for the file-answering models.
		only: { "hf-inference": [REQ, FETCH] },
	},
	{
		pipelines: ["text-to-video"],
		providers: ["fal-ai", "novita", "replicate", "together", "wavespeed"],
		clients: [HH, HFJS],
		// huggingface_hub calls Novita's synchronous route (offers.ts).
		only: { novita: [HFJS] },
	},
	{ pipelines: ["zero-shot-classification"], providers: ["hf-inference"], clients: [REQ, FETCH, HFJS, CURL] },
	{ pipelines: ["zero-shot-image-classification"], providers: ["hf-inference"], clients: [REQ, HFJS] },
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

describe("offer table", () => {
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

	it("hf-inference speech and audio models of the transformers library answer the file: every client is offered", () => {
		const clients = (pipeline: string) => {
			const model = modelFor(pipeline, [], { library_name: "transformers" });
			return getInferenceSnippets(
				model,
				HF_TOKEN,
				"hf-inference",
				mappingFor(model, "hf-inference", pipeline as InferenceTask),
			).map((snippet) => `${snippet.language}/${snippet.client}`);
		};
		expect(clients("text-to-speech")).toEqual([HH, REQ, FETCH, HFJS]);
		// huggingface_hub 2.0.0 has no hf-inference text-to-audio.
		expect(clients("text-to-audio")).toEqual([REQ, FETCH, HFJS]);
	});

	it("pipelines without snippets give [] for every provider", () => {
		for (const provider of INFERENCE_PROVIDERS) {
			expect(offered("image-text-to-text", [], provider)).toEqual([]);
			expect(offered("text2text-generation", [], provider)).toEqual([]);
			expect(offered("visual-question-answering", [], provider)).toEqual([]);
			expect(offered("depth-estimation", [], provider)).toEqual([]);
		}
		expect(getInferenceSnippets({ id: "a/b", tags: [] } as never, HF_TOKEN, "hf-inference")).toEqual([]);
	});

	it("the facts' provider × task table, the client's registry and this table agree", () => {
		const tasks = new Set(OFFER.flatMap((row) => row.pipelines));
		tasks.add("conversational");
		for (const task of tasks) expect(registryProvidersFor(task), task).toEqual(providersFor(task));
		for (const row of OFFER) {
			const task = row.tags ? "conversational" : (row.pipelines[0] as string);
			expect([...row.providers].sort(), task).toEqual(providersFor(task));
		}
	});

	it("huggingface_hub is offered exactly for the pairs huggingface_hub 2.0.0 serves (the facts)", () => {
		for (const [provider, tasks] of Object.entries(HUGGINGFACE_HUB_PAIRS)) {
			for (const task of tasks) expect(pythonServes(provider, task), `${provider} ${task}`).toBe(true);
		}
		const declared = Object.values(HUGGINGFACE_HUB_PAIRS).flat().length;
		expect(declared).toBe(74);
		for (const row of OFFER) {
			for (const provider of row.providers) {
				const task = row.tags ? "conversational" : (row.pipelines[0] as string);
				const clients = row.only?.[provider] ?? row.clients;
				if (clients.includes(HH)) expect(pythonServes(provider, task), `${provider} ${task}`).toBe(true);
			}
		}
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
