/**
 * Every snippet the package offers, found through its public surface: each pipeline type of
 * `@modelhub/tasks` for which the generator writes snippets (its example from `@modelhub/tasks`, or
 * the generator's own for pipelines the catalogue has none for, e.g. image-to-video) × each provider of `INFERENCE_PROVIDERS` for which `getInferenceSnippets`
 * returns snippets × each credential the provider takes (a hub token through the router, the
 * provider's own key directly) × the token given literally or read from the environment × streaming
 * off and on (where that changes the snippets). Providers without a protocol server are reported.
 */
import {
	PIPELINE_TYPES,
	getModelInputExample,
	type ModelDataMinimal,
	type ModelInputExample,
} from "@modelhub/tasks";
import { INFERENCE_PROVIDERS, snippets, type InferenceSnippet } from "../../../src/index.js";
import { extraExample } from "../../../src/snippets/inputs.js";
import type { InferenceProviderMappingEntry, InferenceTask } from "../../../src/types.js";
import { protocolOf } from "../protocols/index.js";
import type { HubModel, ProviderProtocol } from "../protocols/types.js";
import { HUB_TOKEN, providerKey } from "./credentials.js";

type CredentialKind = "hub" | "key";
type TokenSource = "literal" | "env";

export interface SnippetCase {
	id: string;
	label: string;
	pipeline: string;
	tags: string[];
	/** The client task: the pipeline, or `conversational` for chat models. */
	task: InferenceTask;
	provider: string;
	model: ModelDataMinimal;
	/** The example every snippet of the case and the client call send. */
	example: ModelInputExample;
	mapping?: InferenceProviderMappingEntry;
	providerModelId: string;
	credential: CredentialKind;
	tokenSource: TokenSource;
	streaming: boolean;
	billTo?: string;
	/** The token the call is made with (what the environment holds for env snippets). */
	token: string;
	snippets: InferenceSnippet[];
}

export interface CaseSet {
	cases: SnippetCase[];
	hubModels: HubModel[];
	/** Provider-side models the hub does not map (openai). */
	unmappedModels: Array<{ provider: string; providerModelId: string; task: string }>;
	/** Providers the client offers that have no protocol server (each is a failure). */
	missingProtocols: string[];
	/** Generator calls that threw instead of returning snippets (each is a failure). */
	generatorErrors: string[];
}

const BILL_TO = "acme-billing";
const OWNER = "acme-labs";
const CHAT_TAGS = ["conversational"];

/** Errors the generator threw, by call (each is a failure: the credential is one the provider takes). */
const generatorErrors: string[] = [];

function generate(
	model: ModelDataMinimal,
	token: string | undefined,
	provider: string,
	mapping: InferenceProviderMappingEntry | undefined,
	opts: Record<string, unknown>,
): InferenceSnippet[] {
	const original = console.error;
	// The generator reports unsupported (provider, task) pairs on console.error and returns [].
	console.error = () => undefined;
	try {
		return snippets.getInferenceSnippets(model, token, provider as never, mapping, opts);
	} catch (error) {
		generatorErrors.push(
			`${model.id} @ ${provider} (${token ? "token given" : "token from the environment"}): ${String(error)}`,
		);
		return [];
	} finally {
		console.error = original;
	}
}

interface Variant {
	tags: string[];
	task: InferenceTask;
	libraryName?: string;
	/** Added to the hub id and the label. */
	suffix: string;
}

/**
 * Model variants of a pipeline: plain, and each of these where it changes the snippets for some
 * provider — tagged `conversational` (chat), and of the transformers library (whose speech and audio
 * models hf-inference answers with the file itself, the others with JSON samples).
 */
function variants(pipeline: string): Variant[] {
	const plain: Variant = { tags: [], task: pipeline as InferenceTask, suffix: "" };
	const candidates: Variant[] = [
		{ tags: CHAT_TAGS, task: "conversational", suffix: "chat" },
		{ tags: [], task: pipeline as InferenceTask, libraryName: "transformers", suffix: "transformers" },
	];
	const probe = (variant: Variant) =>
		({
			id: `${OWNER}/probe`,
			pipeline_tag: pipeline,
			tags: variant.tags,
			...(variant.libraryName ? { library_name: variant.libraryName } : {}),
		}) as ModelDataMinimal;
	const changes = (variant: Variant) =>
		INFERENCE_PROVIDERS.some((provider) => {
			const token = protocolOf(provider)?.routed === false ? providerKey(provider) : HUB_TOKEN;
			const a = JSON.stringify(generate(probe(plain), token, provider, undefined, {}));
			return a !== JSON.stringify(generate(probe(variant), token, provider, undefined, {}));
		});
	return [plain, ...candidates.filter(changes)];
}

export function collectCases(): CaseSet {
	generatorErrors.length = 0;
	const cases: SnippetCase[] = [];
	const hubModels = new Map<string, HubModel>();
	const unmappedModels: CaseSet["unmappedModels"] = [];
	const missingProtocols = new Set<string>();
	let counter = 0;

	for (const pipeline of PIPELINE_TYPES) {
		for (const { tags, task, libraryName, suffix } of variants(pipeline)) {
			const hubId = `${OWNER}/${pipeline}${suffix ? `-${suffix}` : ""}`;
			const base: ModelDataMinimal = {
				id: hubId,
				pipeline_tag: pipeline,
				tags,
				...(libraryName ? { library_name: libraryName } : {}),
			} as ModelDataMinimal;
			// As the generator picks it (index.ts): the catalogue's example, else its own.
			const example = getModelInputExample(base) ?? extraExample(pipeline);
			if (!example) continue;
			for (const provider of INFERENCE_PROVIDERS) {
				const protocol = protocolOf(provider);
				const providerModelId = protocol?.providerModelId(hubId) ?? `${provider}/${hubId}`;
				const unmapped = protocol?.unmappedHubModelId !== undefined;
				const model = unmapped
					? { ...base, id: (protocol as ProviderProtocol).unmappedHubModelId!(providerModelId) }
					: base;
				const mapping: InferenceProviderMappingEntry | undefined = unmapped
					? undefined
					: { hfModelId: hubId, providerId: providerModelId, status: "live", task };
				const probeToken = protocol?.routed === false ? providerKey(provider) : HUB_TOKEN;
				if (generate(model, probeToken, provider, mapping, {}).length === 0) continue;
				if (!protocol) {
					missingProtocols.add(provider);
					continue;
				}
				if (unmapped) unmappedModels.push({ provider, providerModelId, task });
				else {
					const hubModel = hubModels.get(hubId) ?? {
						id: hubId,
						pipeline_tag: pipeline,
						tags,
						library_name: base.library_name,
						inferenceProviderMapping: {},
					};
					hubModel.inferenceProviderMapping[provider] = { providerId: providerModelId, status: "live", task };
					hubModels.set(hubId, hubModel);
				}
				const credentials: CredentialKind[] = [
					...(protocol.routed ? (["hub"] as const) : []),
					...(protocol.direct ? (["key"] as const) : []),
				];
				for (const credential of credentials) {
					const token = credential === "hub" ? HUB_TOKEN : providerKey(provider);
					for (const tokenSource of ["literal", "env"] as const) {
						// Billing an organisation with the token written out, not with the environment's: both
						// shapes of every snippet (with and without X-HF-Bill-To) run, for both credentials.
						const billTo = tokenSource === "literal" ? BILL_TO : undefined;
						const opts = { billTo, directRequest: tokenSource === "env" && credential === "key" };
						const snippetToken = tokenSource === "literal" ? token : undefined;
						const plain = generate(model, snippetToken, provider, mapping, { ...opts, streaming: false });
						const streamed = generate(model, snippetToken, provider, mapping, { ...opts, streaming: true });
						const streams = JSON.stringify(plain) !== JSON.stringify(streamed) ? [false, true] : [false];
						for (const streaming of streams) {
							const id = `c${(counter++).toString().padStart(4, "0")}`;
							cases.push({
								id,
								label: `${pipeline}${suffix ? ` (${suffix})` : ""} @ ${provider} | ${credential === "hub" ? "hub token" : "provider key"}, ${tokenSource}${streaming ? " | streaming" : ""}`,
								pipeline,
								tags,
								task,
								provider,
								model,
								example,
								mapping,
								providerModelId,
								credential,
								tokenSource,
								streaming,
								billTo,
								token,
								snippets: streaming ? streamed : plain,
							});
						}
					}
				}
			}
		}
	}
	return {
		cases,
		hubModels: [...hubModels.values()],
		unmappedModels,
		missingProtocols: [...missingProtocols],
		generatorErrors: [...generatorErrors],
	};
}
