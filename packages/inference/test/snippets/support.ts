/** Models, provider pairs and request expectations shared by the snippet tests. */
import { PIPELINES_WITH_INPUT_EXAMPLE, type ModelDataMinimal } from "@modelhub/tasks";
import { loadFacts } from "../../../../test-support/facts.js";
import { buildRequest } from "../../src/lib/resolve.js";
import { HELPERS_BY_TASK } from "../../src/providers/by-task.js";
import type { HelperTable } from "../../src/providers/types.js";
import type { InferenceProvider, InferenceProviderMappingEntry, InferenceTask } from "../../src/types.js";
import { PIPELINE_KINDS } from "../../src/snippets/kinds.js";

export const HF_TOKEN = "hf_snippet_token_0123456789";
export const PROVIDER_KEY = "sk-snippet-key-0123456789";

interface ProvidersFacts {
	provider_table_order: InferenceProvider[];
	providers: Record<string, { tasks: Record<string, unknown> }>;
}

interface CurrentFacts {
	droppedOn20260701: InferenceProvider[];
	providers: Record<string, { python: string[]; js: string[] }>;
}

const baseline = loadFacts<ProvidersFacts>("providers.json");
const current = loadFacts<CurrentFacts>("providers-current.json");

/**
 * The providers serving `task`, from the facts (checked against the client's registry in a test):
 * huggingface.js 4.13.28's pairs, plus 3.12.1's for the providers it dropped.
 */
export function providersFor(task: string): InferenceProvider[] {
	const today = Object.entries(current.providers)
		.filter(([, tasks]) => tasks.js.includes(task))
		.map(([provider]) => provider as InferenceProvider);
	const dropped = current.droppedOn20260701.filter(
		(provider) => task in (baseline.providers[provider]?.tasks ?? {}),
	);
	return [...today, ...dropped].sort();
}

/** The pairs huggingface_hub 2.0.0 serves (the facts). */
export function pythonServes(provider: string, task: string): boolean {
	return current.providers[provider]?.python.includes(task) === true;
}

const tables = HELPERS_BY_TASK as Readonly<Record<string, HelperTable>>;

/** The same list as the client's own registry has it. */
export function registryProvidersFor(task: string): InferenceProvider[] {
	return (Object.keys(tables[task] ?? {}) as InferenceProvider[]).sort();
}

export interface Case {
	label: string;
	model: ModelDataMinimal;
	task: InferenceTask;
	provider: InferenceProvider;
	mapping?: InferenceProviderMappingEntry;
}

export function modelFor(
	pipeline: string,
	tags: string[] = [],
	extra: Partial<ModelDataMinimal> = {},
): ModelDataMinimal {
	return { id: `acme/${pipeline}-model`, pipeline_tag: pipeline, tags, ...extra } as ModelDataMinimal;
}

export function mappingFor(
	model: ModelDataMinimal,
	provider: InferenceProvider,
	task: InferenceTask,
	providerId = `${provider}-side/${model.id.split("/").pop() ?? "model"}`,
): InferenceProviderMappingEntry | undefined {
	// openai models are not mapped on the hub: the client derives the provider id from "openai/{id}".
	if (provider === "openai") return undefined;
	return { provider, hfModelId: model.id, providerId, status: "live", task };
}

/** Every pipeline that has an example × every provider serving its task (chat models: the chat providers). */
export function servedCases(): Case[] {
	const cases: Case[] = [];
	// image-to-video has no example in the task catalogue; the snippets bring their own.
	for (const pipeline of [...PIPELINES_WITH_INPUT_EXAMPLE, "image-to-video"]) {
		if (!(pipeline in PIPELINE_KINDS)) continue;
		const variants: Array<{ tags: string[]; task: InferenceTask }> =
			pipeline === "text-generation" || pipeline === "image-text-to-text"
				? [
						{ tags: ["conversational"], task: "conversational" },
						{ tags: [], task: pipeline as InferenceTask },
					]
				: [{ tags: [], task: pipeline as InferenceTask }];
		for (const { tags, task } of variants) {
			for (const provider of providersFor(task)) {
				const base = modelFor(
					pipeline,
					tags,
					pipeline === "text-to-speech" ? { library_name: "transformers" } : {},
				);
				const model = provider === "openai" ? { ...base, id: `openai/${pipeline}-model` } : base;
				cases.push({
					label: `${pipeline}${tags.length ? "+chat" : ""} @ ${provider}`,
					model,
					task,
					provider,
					mapping: mappingFor(model, provider, task),
				});
			}
		}
	}
	return cases;
}

/** What the client itself builds for `args` (its real `buildRequest`), read back as data. */
export function clientRequest(params: {
	provider: InferenceProvider;
	task: InferenceTask;
	providerModelId: string;
	mapping?: InferenceProviderMappingEntry;
	args: Record<string, unknown>;
	accessToken?: string;
	billTo?: string;
	streaming?: boolean;
}): { url: string; headers: Record<string, string>; json?: unknown } {
	const helper = tables[params.task]?.[params.provider];
	if (!helper) throw new Error(`no helper for ${params.provider} ${params.task}`);
	const prepared = buildRequest({
		helper,
		resolvedModel: params.providerModelId,
		args: { ...params.args, accessToken: params.accessToken },
		task: params.task,
		mapping: params.mapping,
		options: params.billTo ? { billTo: params.billTo } : {},
		routerUrl: "https://router.huggingface.co",
		streaming: params.streaming,
	});
	const body = prepared.init.body;
	return {
		url: prepared.url,
		headers: prepared.init.headers,
		json: typeof body === "string" ? (JSON.parse(body) as unknown) : undefined,
	};
}

/** All string values inside a JSON-like value, and its object keys when `keys` is set. */
export function stringLeaves(value: unknown, keys = false, out: string[] = []): string[] {
	if (typeof value === "string") out.push(value);
	else if (Array.isArray(value)) for (const item of value) stringLeaves(item, keys, out);
	else if (value && typeof value === "object") {
		for (const [key, item] of Object.entries(value)) {
			if (keys) out.push(key);
			stringLeaves(item, keys, out);
		}
	}
	return out;
}

/** Reads a curl command's words: URL, method, headers and the -d / --data-binary value. */
export function readCurl(words: string[]): {
	url?: string;
	method?: string;
	headers: Record<string, string>;
	data?: string;
	dataBinary?: string;
} {
	const result: ReturnType<typeof readCurl> = { headers: {} };
	const start = words.indexOf("curl");
	for (let i = start + 1; i < words.length; i++) {
		const word = words[i] as string;
		const next = words[i + 1];
		if (word === "-X") {
			result.method = next;
			i++;
		} else if (word === "-H" && next !== undefined) {
			const colon = next.indexOf(":");
			result.headers[next.slice(0, colon)] = next.slice(colon + 1).replace(/^ /, "");
			i++;
		} else if (word === "-d") {
			result.data = next;
			i++;
		} else if (word === "--data-binary") {
			result.dataBinary = next;
			i++;
		} else if (!word.startsWith("-") && result.url === undefined) {
			result.url = word;
		}
	}
	return result;
}
