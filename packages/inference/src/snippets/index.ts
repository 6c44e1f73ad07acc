/**
 * Usage snippets for calling a model through a provider, in python, js and sh. Each snippet shows
 * the request our client builds (see request-preview.ts), written by plain template functions whose
 * inserted values all go through the literal builders of `@modelhub/tasks`.
 */
import { getModelInputExample } from "@modelhub/tasks/inputs";
import type { ModelDataMinimal } from "@modelhub/tasks";
import type { TaskHelper } from "../providers/types.js";
import type { InferenceProvider, InferenceProviderMappingEntry, InferenceTask } from "../types.js";
import { chatInputs, extraExample, taskInputs } from "./inputs.js";
import { CHAT_PIPELINES, PIPELINE_KINDS, hasOwn, rawAnswerOf } from "./kinds.js";
import { chooseTokenSource, findHelper, previewRequest } from "./request-preview.js";
import type {
	InferenceSnippet,
	InferenceSnippetOptions,
	SnippetClient,
	SnippetContext,
	TemplateKind,
} from "./types.js";
import { huggingfaceHub } from "./python/huggingface-hub.js";
import { falClient } from "./python/fal-client.js";
import { requests } from "./python/requests.js";
import { openai as pythonOpenai } from "./python/openai.js";
import { fetchClient } from "./js/fetch.js";
import { huggingfaceJs } from "./js/huggingface-js.js";
import { openai as jsOpenai } from "./js/openai.js";
import { curl } from "./sh/curl.js";

export type { InferenceSnippet, InferenceSnippetLanguage, InferenceSnippetOptions } from "./types.js";

/** Output order: python (huggingface_hub, fal_client, requests, openai), js (fetch, huggingface.js, openai), sh (curl). */
const CLIENTS: readonly SnippetClient[] = [
	huggingfaceHub,
	falClient,
	requests,
	pythonOpenai,
	fetchClient,
	huggingfaceJs,
	jsOpenai,
	curl,
];

/**
 * The snippets for `model` served by `provider`. `[]` (with a console.error) when the provider does
 * not serve the model's task; throws the client's error for an hf_ token with a provider that
 * refuses them (openai). Pure: no network, nothing kept between calls.
 */
export function getInferenceSnippets(
	model: ModelDataMinimal,
	accessToken: string | undefined,
	provider: InferenceProvider,
	inferenceProviderMapping?: InferenceProviderMappingEntry,
	opts: InferenceSnippetOptions = {},
): InferenceSnippet[] {
	const pipeline = model.pipeline_tag;
	if (!pipeline || !hasOwn(PIPELINE_KINDS, pipeline)) return [];
	const chat = CHAT_PIPELINES.has(pipeline) && (model.tags ?? []).includes("conversational");
	const kind: TemplateKind = chat
		? opts.streaming
			? "conversationalStream"
			: "conversational"
		: (PIPELINE_KINDS[pipeline] as TemplateKind);
	const task = (chat ? "conversational" : pipeline) as InferenceTask;

	let helper: TaskHelper;
	try {
		helper = findHelper(provider, task);
	} catch (error) {
		console.error(`Failed to get provider helper for ${provider} (${task})`, error);
		return [];
	}
	const example = getModelInputExample(model) ?? extraExample(pipeline);
	if (!example) return [];

	const inputs = chat ? chatInputs(example, opts) : taskInputs(pipeline, example, helper);
	const token = chooseTokenSource(helper, accessToken, opts.directRequest === true);
	const billTo = opts.billTo ? opts.billTo : undefined;
	const streaming = kind === "conversationalStream";
	const request = previewRequest({
		helper,
		provider,
		task,
		modelId: model.id,
		mapping: inferenceProviderMapping,
		args: inputs.requestArgs,
		token,
		billTo,
		streaming,
	});
	const providerModelId = request.providerModelId;

	const ctx: SnippetContext = {
		model,
		pipeline,
		kind,
		task,
		provider: helper.provider.id as InferenceProvider,
		providerModelId,
		mapping: inferenceProviderMapping,
		example,
		args: inputs.args,
		file: inputs.file,
		request,
		token,
		billTo,
		streaming,
		polls: helper.polls === true,
		answer: chat ? "json" : rawAnswerOf(helper, pipeline, model),
	};

	const snippets: InferenceSnippet[] = [];
	for (const client of CLIENTS) {
		const template = client.templates[kind];
		if (!template || (client.offers && !client.offers(ctx))) continue;
		const body = template(ctx).trim();
		if (!body) continue;
		const content = client.setup ? `${client.setup(ctx, body)}\n\n${body}` : body;
		snippets.push({ language: client.language, client: client.client, content: content.trim() });
	}
	return snippets;
}
