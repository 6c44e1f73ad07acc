/**
 * The one place the web app touches `@modelhub/inference`. Pages call these wrappers; the client itself
 * is loaded on demand (a dynamic import), so it stays out of every page's first load. Only types are
 * imported statically.
 */
import type * as InferenceClient from "@modelhub/inference";
import type {
	BaseArgs,
	ChatCompletionInput,
	InferenceProvider,
	InferenceProviderMappingEntry,
	InferenceSnippet,
	InferenceSnippetOptions,
	Options,
	PreparedInferenceRequest,
	TaskFunctionName,
	TaskOutput,
} from "@modelhub/inference";
import type { ModelData } from "@modelhub/tasks";

export type { InferenceSnippet, PreparedInferenceRequest, TaskFunctionName, TaskOutput };

/** A provider mapping entry as the snippet generator takes it. */
export interface SnippetProviderMapping {
	hfModelId: string;
	providerId: string;
	status: "live" | "staging";
	task: string;
	adapter?: string;
	adapterWeightsPath?: string;
}

/** The options the app passes to the client's task functions. */
export type ClientOptions = Pick<Options, "fetch" | "signal" | "billTo" | "hubUrl" | "routerUrl">;

type Client = typeof InferenceClient;

let loading: Promise<Client> | undefined;

function loadClient(): Promise<Client> {
	loading ??= import("@modelhub/inference");
	return loading;
}

/** The inference snippets for a model and provider. */
export async function getInferenceSnippets(
	model: ModelData,
	provider: string,
	mapping: SnippetProviderMapping | undefined,
	opts: InferenceSnippetOptions,
): Promise<InferenceSnippet[]> {
	const client = await loadClient();
	// No token: the snippets show a placeholder, so real tokens never end up in code people copy.
	return client.snippets.getInferenceSnippets(
		model,
		undefined,
		provider as InferenceProvider,
		mapping as InferenceProviderMappingEntry | undefined,
		opts,
	);
}

/**
 * Calls a task function of the client by name (e.g. "textClassification"); the answer has the type
 * the client gives that function (`TaskOutput`, derived from its task registry).
 */
export async function callTask<Name extends TaskFunctionName>(
	name: Name,
	args: Record<string, unknown>,
	options: ClientOptions,
): Promise<TaskOutput<Name>> {
	const client = await loadClient();
	// The playground builds the arguments from its form, so they are checked by the client at run time.
	const fn = client[name] as unknown as (
		args: Record<string, unknown>,
		options?: Options,
	) => Promise<TaskOutput<Name>>;
	return fn(args, options);
}

/** Streams a chat completion, yielding the text of each token as it arrives. */
export async function* streamChat(
	args: Record<string, unknown>,
	options: ClientOptions,
): AsyncGenerator<string> {
	const client = await loadClient();
	for await (const chunk of client.chatCompletionStream(args as BaseArgs & ChatCompletionInput, options)) {
		const text = chunk.choices[0]?.delta.content;
		if (text) yield text;
	}
}

/**
 * The exact request a task function would send, with nothing sent: the client's public dry run
 * (`prepareRequest`). `mapping` is the hub's mapping field of the model, so no look-up is made.
 */
export async function prepareCall(
	name: TaskFunctionName | "chatCompletionStream",
	args: Record<string, unknown>,
	options: ClientOptions & { inferenceProviderMapping?: unknown },
): Promise<PreparedInferenceRequest> {
	const client = await loadClient();
	const target = client[name] as unknown as Parameters<typeof client.prepareRequest>[0];
	return client.prepareRequest(target, args as never, options as never);
}

/** The status of a provider's error answer, when the error is one (else undefined). */
export async function providerErrorStatus(error: unknown): Promise<number | undefined> {
	const client = await loadClient();
	return error instanceof client.InferenceProviderApiError ? error.status : undefined;
}
