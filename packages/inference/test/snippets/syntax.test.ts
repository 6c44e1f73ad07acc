/**
 * The matrix: every pipeline with an example × every provider serving it × token kinds × streaming ×
 * bill-to, plus adversarial model ids, provider ids, messages, mask tokens, bill-to values and tokens.
 * Every python snippet must parse with python3 `ast`, every js snippet as an ES module (acorn), every
 * sh snippet must pass `bash -n`; every inserted value must come back exactly out of its literal, and
 * the curl body must be the JSON our client sends. The parsers run once per language, batched.
 */
import { getModelInputExample, type ModelDataMinimal, type ModelInputExample } from "@modelhub/tasks";
import { beforeAll, describe, expect, it, vi } from "vitest";
import {
	ADVERSARIAL_TEXTS,
	bashSyntaxErrors,
	parseJsModule,
	parsePython,
	shellWords,
	type ParseResult,
} from "../../../../test-support/parsers.js";
import {
	getInferenceSnippets,
	type InferenceSnippet,
	type InferenceSnippetOptions,
} from "../../src/snippets/index.js";
import { extraExample } from "../../src/snippets/inputs.js";
import type { InferenceProvider, InferenceProviderMappingEntry, InferenceTask } from "../../src/types.js";
import {
	HF_TOKEN,
	PROVIDER_KEY,
	clientRequest,
	mappingFor,
	modelFor,
	readCurl,
	servedCases,
	stringLeaves,
	type Case,
} from "./support.js";

interface Expectation {
	/** Strings that must be literals of the snippet (python / js). */
	strings: string[];
	url: string;
	/** Authorization header as the client sends it (literal tokens), or prefix + $VAR for env tokens. */
	authorization?: string;
	billTo?: string;
	/** The client's JSON body, when it carries no file contents. */
	body?: unknown;
}

interface Generated {
	label: string;
	snippet: InferenceSnippet;
	expect: Expectation;
}

const ZERO_SHOT_TEXT = ["refund", "legal", "faq"];
const ZERO_SHOT_IMAGE = ["cat", "dog", "llama"];
const BILL_TO = "acme-billing";
const noNul = (text: string) => text.replaceAll("\u0000", "");

/** The task arguments as the client's task functions receive them, written from the client's own input types. */
function clientArgs(
	pipeline: string,
	chat: boolean,
	example: ModelInputExample,
	opts: InferenceSnippetOptions,
	provider: InferenceProvider,
): { args: Record<string, unknown>; withFile: boolean } {
	if (chat) {
		const args: Record<string, unknown> = {
			messages: opts.messages ?? (example.kind === "messages" ? example.messages : []),
		};
		for (const key of ["temperature", "max_tokens", "top_p"] as const)
			if (opts[key] !== undefined) args[key] = opts[key];
		return { args, withFile: false };
	}
	switch (example.kind) {
		case "text":
			return pipeline === "zero-shot-classification"
				? {
						args: { inputs: example.text, parameters: { candidate_labels: ZERO_SHOT_TEXT } },
						withFile: false,
					}
				: { args: { inputs: example.text }, withFile: false };
		case "table":
			return { args: { inputs: { data: example.value } }, withFile: false };
		case "object":
			if (
				pipeline === "document-question-answering" ||
				pipeline === "image-to-image" ||
				pipeline === "image-to-video"
			) {
				return { args: { inputs: "file", parameters: {} }, withFile: true };
			}
			return { args: { inputs: example.value }, withFile: false };
		case "file":
			if (pipeline === "zero-shot-image-classification") {
				return {
					args: { inputs: { image: "file" }, parameters: { candidate_labels: ZERO_SHOT_IMAGE } },
					withFile: true,
				};
			}
			if (pipeline === "automatic-speech-recognition" && provider === "fal-ai") {
				return { args: { audio_url: "data:" }, withFile: true };
			}
			return { args: { data: new Uint8Array(1) }, withFile: true };
		default:
			return { args: {}, withFile: true };
	}
}

function exampleStrings(example: ModelInputExample, opts: InferenceSnippetOptions): string[] {
	switch (example.kind) {
		case "text":
			return [example.text];
		case "file":
			return [example.fileName];
		case "object":
		case "table":
			return stringLeaves(Object.values(example.value));
		case "messages":
			return stringLeaves(opts.messages ?? example.messages);
	}
}

function generate(
	label: string,
	model: ModelDataMinimal,
	provider: InferenceProvider,
	task: InferenceTask,
	mapping: InferenceProviderMappingEntry | undefined,
	token: string | undefined,
	opts: InferenceSnippetOptions,
): Generated[] {
	const snippets = getInferenceSnippets(model, token, provider, mapping, opts);
	const example = (getModelInputExample(model) ??
		extraExample(model.pipeline_tag as string)) as ModelInputExample;
	const chat = task === "conversational";
	const providerModelId =
		mapping?.providerId ?? (provider === "openai" ? model.id.replace(/^openai\//, "") : model.id);
	const { args, withFile } = clientArgs(model.pipeline_tag as string, chat, example, opts, provider);
	const envName =
		provider === "openai" || (opts.directRequest && provider !== "hf-inference")
			? `${provider.toUpperCase().replace(/-/g, "_")}_API_KEY`
			: "HF_TOKEN";
	const sentToken = token ? token : envName === "HF_TOKEN" ? "hf_$X" : "$X";
	const request = clientRequest({
		provider,
		task,
		providerModelId,
		mapping,
		args,
		accessToken: sentToken,
		billTo: opts.billTo,
		streaming: opts.streaming && chat,
	});
	const authorization = token
		? request.headers.Authorization
		: request.headers.Authorization?.replace(envName === "HF_TOKEN" ? "hf_$X" : "$X", `$${envName}`);
	const billTo = opts.billTo ? opts.billTo : undefined;
	const body = withFile ? undefined : request.json;

	return snippets.map((snippet) => {
		const strings: string[] = [];
		const client = `${snippet.language}/${snippet.client}`;
		if (billTo && client !== "python/fal_client") strings.push(billTo);
		switch (client) {
			case "python/huggingface_hub":
			case "js/huggingface.js": {
				let examples = exampleStrings(example, opts);
				// Our client sends fal.ai a WAV (fal.ai takes no FLAC), so both snippets read the .wav twin.
				if (provider === "fal-ai" && example.kind === "file") {
					examples = examples.map((name) => name.replace(/\.flac$/, ".wav"));
				}
				// huggingface_hub 2.0.0 takes the OpenAI model id as it is (no "openai/" prefix).
				const id = client === "python/huggingface_hub" && provider === "openai" ? providerModelId : model.id;
				strings.push(id, provider, ...examples);
				if (token) strings.push(token);
				break;
			}
			case "python/openai":
			case "js/openai":
				strings.push(
					providerModelId,
					request.url.replace(/\/chat\/completions$/, ""),
					...exampleStrings(example, opts),
				);
				if (token) strings.push(token);
				break;
			case "python/fal_client":
				strings.push(providerModelId, ...exampleStrings(example, opts));
				if (token && !token.startsWith("hf_")) strings.push(token);
				break;
			case "python/requests":
			case "js/fetch":
				// JS object keys are bare identifiers where possible, so only python checks the keys.
				strings.push(request.url, ...stringLeaves(body ?? [], snippet.language === "python"));
				if (token && request.headers.Authorization) strings.push(request.headers.Authorization);
				if (!withFile) strings.push(...exampleStrings(example, opts));
				break;
		}
		return { label, snippet, expect: { strings, url: request.url, authorization, billTo, body } };
	});
}

const TOKENS: Array<{ name: string; token?: string; directRequest?: boolean }> = [
	{ name: "hub token", token: HF_TOKEN },
	{ name: "provider key", token: PROVIDER_KEY },
	{ name: "no token", token: undefined },
	{ name: "no token, direct", token: undefined, directRequest: true },
];

function matrix(): Generated[] {
	const out: Generated[] = [];
	for (const c of servedCases()) {
		for (const { name, token, directRequest } of TOKENS) {
			if (c.provider === "openai" && token === HF_TOKEN) continue;
			for (const streaming of [false, true]) {
				for (const billTo of [undefined, BILL_TO]) {
					const opts: InferenceSnippetOptions = { streaming, billTo, directRequest };
					const label = `${c.label} | ${name}${streaming ? " | streaming" : ""}${billTo ? " | billTo" : ""}`;
					out.push(...generate(label, c.model, c.provider, c.task, c.mapping, token, opts));
				}
			}
		}
	}
	return out;
}

/** Adversarial values in every place a caller or the hub controls. */
function adversarial(): Generated[] {
	const out: Generated[] = [];
	const chat = (id: string) => modelFor("text-generation", ["conversational"], { id });
	const at = (
		base: Case["model"],
		provider: InferenceProvider,
		task: InferenceTask,
		providerId?: string,
	) => ({
		model: base,
		provider,
		task,
		mapping: mappingFor(base, provider, task, providerId),
	});
	for (const [index, text] of ADVERSARIAL_TEXTS.entries()) {
		const tag = `adversarial #${index}`;
		const targets = [
			at(chat(`org/${text}`), "together", "conversational"),
			at(chat(`org/${text}`), "hf-inference", "conversational"),
			at(modelFor("text-classification", [], { id: `org/${text}` }), "hf-inference", "text-classification"),
			at(
				modelFor("automatic-speech-recognition", [], { id: `org/${text}` }),
				"fal-ai",
				"automatic-speech-recognition",
				text,
			),
			at(
				modelFor("automatic-speech-recognition", [], { id: `org/${text}` }),
				"hf-inference",
				"automatic-speech-recognition",
			),
			at(modelFor("text-to-image", [], { id: `org/${text}` }), "fal-ai", "text-to-image", text),
			at(modelFor("text-to-speech", [], { id: `org/${text}` }), "replicate", "text-to-speech", text),
			at(modelFor("fill-mask", [], { id: "org/bert", mask_token: text }), "hf-inference", "fill-mask"),
			at(
				modelFor("zero-shot-classification", [], { id: `org/${text}` }),
				"hf-inference",
				"zero-shot-classification",
			),
			at(
				modelFor("document-question-answering", [], { id: `org/${text}` }),
				"hf-inference",
				"document-question-answering",
			),
			at(chat(`openai/${text}`), "openai", "conversational"),
			at(chat("org/chat"), "groq", "conversational", text),
		];
		for (const target of targets) {
			for (const streaming of [false, true]) {
				const messages = [
					{ role: "system", content: text },
					{ role: "user", content: `Say ${text} twice` },
				];
				const isChat = target.task === "conversational";
				const optionSets: InferenceSnippetOptions[] = [
					{ streaming, billTo: text, ...(isChat ? { messages } : {}) },
					{ streaming, billTo: text, directRequest: true, ...(isChat ? { messages } : {}) },
				];
				for (const opts of optionSets) {
					const tokens =
						target.provider === "openai"
							? [`sk-${text}`, undefined]
							: [`hf_${text}`, `key-${text}`, undefined];
					for (const token of tokens) {
						const label = `${tag} ${target.task} @ ${target.provider} token=${JSON.stringify(token)}`;
						out.push(
							...generate(label, target.model, target.provider, target.task, target.mapping, token, opts),
						);
					}
				}
			}
		}
	}
	return out;
}

let generated: Generated[] = [];
let pythonResults: ParseResult[] = [];
let shellResults: ParseResult[] = [];
let bashResults: Array<string | null> = [];
const byLanguage = (language: string) => generated.filter((g) => g.snippet.language === language);

beforeAll(() => {
	vi.spyOn(console, "error").mockImplementation(() => undefined);
	generated = [...matrix(), ...adversarial()];
	const python = byLanguage("python").map((g) => g.snippet.content);
	const shell = byLanguage("sh").map((g) => g.snippet.content);
	pythonResults = parsePython(python);
	shellResults = shellWords(shell);
	bashResults = bashSyntaxErrors(shell);
	vi.restoreAllMocks();
}, 120_000);

function missing(strings: string[], expected: string[]): string[] {
	const have = new Set(strings);
	return expected.filter((value) => !have.has(value));
}

describe("snippet matrix", () => {
	it("covers every client and a few thousand snippets", () => {
		const clients = new Set(generated.map((g) => `${g.snippet.language}/${g.snippet.client}`));
		expect([...clients].sort()).toEqual([
			"js/fetch",
			"js/huggingface.js",
			"js/openai",
			"python/fal_client",
			"python/huggingface_hub",
			"python/openai",
			"python/requests",
			"sh/curl",
		]);
		expect(generated.length).toBeGreaterThan(3000);
	});

	it("100% of python snippets parse with ast, and every inserted value round-trips", () => {
		const failures: string[] = [];
		byLanguage("python").forEach((g, index) => {
			const result = pythonResults[index];
			if (!result?.ok) {
				failures.push(`${g.label} ${g.snippet.client}: ${result?.ok === false ? result.error : "no result"}`);
				return;
			}
			const lost = missing(result.strings, g.expect.strings);
			if (lost.length) failures.push(`${g.label} ${g.snippet.client}: lost ${JSON.stringify(lost)}`);
		});
		expect(failures.slice(0, 20)).toEqual([]);
	});

	it("100% of js snippets parse as ES modules, and every inserted value round-trips", () => {
		const failures: string[] = [];
		for (const g of byLanguage("js")) {
			const result = parseJsModule(g.snippet.content);
			if (!result.ok) {
				failures.push(`${g.label} ${g.snippet.client}: ${result.error}`);
				continue;
			}
			const lost = missing(result.strings, g.expect.strings);
			if (lost.length) failures.push(`${g.label} ${g.snippet.client}: lost ${JSON.stringify(lost)}`);
		}
		expect(failures.slice(0, 20)).toEqual([]);
	});

	it("100% of sh snippets pass bash -n", () => {
		const failures = byLanguage("sh")
			.map((g, index) => [g, bashResults[index]] as const)
			.filter(([, error]) => error !== null)
			.map(([g, error]) => `${g.label}: ${error}`);
		expect(failures.slice(0, 20)).toEqual([]);
	});

	it("curl: URL, Authorization, bill-to and the JSON body come back exactly as the client sends them", () => {
		const failures: string[] = [];
		byLanguage("sh").forEach((g, index) => {
			const result = shellResults[index];
			if (!result?.ok) {
				failures.push(`${g.label}: ${result?.ok === false ? result.error : "no result"}`);
				return;
			}
			const curl = readCurl(result.strings);
			const problems: string[] = [];
			if (curl.url !== noNul(g.expect.url)) problems.push(`url ${JSON.stringify(curl.url)}`);
			if (curl.headers.Authorization !== noNul(g.expect.authorization ?? "")) {
				problems.push(`authorization ${JSON.stringify(curl.headers.Authorization)}`);
			}
			if (
				curl.headers["X-HF-Bill-To"] !== (g.expect.billTo === undefined ? undefined : noNul(g.expect.billTo))
			) {
				problems.push(`bill-to ${JSON.stringify(curl.headers["X-HF-Bill-To"])}`);
			}
			if (g.expect.body !== undefined) {
				try {
					expect(JSON.parse(curl.data ?? "null")).toEqual(g.expect.body);
				} catch {
					problems.push(`body ${curl.data}`);
				}
			}
			if (problems.length) failures.push(`${g.label}: ${problems.join("; ")}`);
		});
		expect(failures.slice(0, 20)).toEqual([]);
	});
});

describe("adversarial provider ids and pipelines", () => {
	it("pipelines named like Object.prototype members give []", () => {
		for (const pipeline of ["__proto__", "constructor", "toString", "hasOwnProperty"]) {
			expect(getInferenceSnippets(modelFor(pipeline), HF_TOKEN, "hf-inference")).toEqual([]);
		}
	});

	it("are refused by the client's helper lookup: [] and a console.error, never a snippet", () => {
		const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
		const ids = [...ADVERSARIAL_TEXTS, "__proto__", "constructor", "toString", "auto"];
		for (const text of ids) {
			const model = modelFor("text-generation", ["conversational"]);
			expect(getInferenceSnippets(model, HF_TOKEN, text as InferenceProvider)).toEqual([]);
		}
		expect(errors).toHaveBeenCalledTimes(ids.length);
		vi.restoreAllMocks();
	});
});
