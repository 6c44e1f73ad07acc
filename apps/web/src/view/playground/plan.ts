/**
 * The playground's plan and form, independent of React and of the inference client: which form a
 * model's task gets, the example it is pre-filled with and the call it makes.
 */
import { getModelInputExample } from "@modelhub/tasks";
import type { ModelData, ModelInputExample } from "@modelhub/tasks";
import {
	functionForPipeline,
	TASK_REGISTRY,
	type TaskFunctionName,
	type TaskRegistry,
} from "@modelhub/inference/catalog";

/** The form each kind of task input gets; inputs without one (tables, image edits…) are not offered. */
const FORMS = {
	text: "text",
	"question-context": "question-answering",
	"text-labels": "zero-shot",
	"sentence-pair": "sentence-similarity",
	image: "image",
	"image-labels": "image",
	audio: "audio",
} as const;

/** The answers the playground shows (JSON as labels, bars, boxes or text; an image; an audio player). */
const SHOWN_ANSWERS = ["json", "image", "audio"] as const;

type FormInput = keyof typeof FORMS;
type ShownAnswer = (typeof SHOWN_ANSWERS)[number];
export type FormKind = (typeof FORMS)[FormInput];

/**
 * The task functions the playground calls with one of its forms, derived from the client's task
 * registry: those whose input has a form and whose answer it shows.
 */
export type PlaygroundFunction = {
	[Name in TaskFunctionName]: TaskRegistry[Name] extends { input: FormInput; answer: ShownAnswer }
		? Name
		: never;
}[TaskFunctionName];

/** The run-time side of `PlaygroundFunction`: the same test on the registry's declaration. */
export function isPlaygroundFunction(name: TaskFunctionName): name is PlaygroundFunction {
	const declaration = TASK_REGISTRY[name];
	return (
		Object.hasOwn(FORMS, declaration.input) &&
		(SHOWN_ANSWERS as readonly string[]).includes(declaration.answer)
	);
}

/**
 * The client function a pipeline's model is called with and the form it needs, from the client's task
 * registry (`@modelhub/inference/catalog`): offered when the playground has a form for its input and
 * shows its answer.
 */
export function playgroundTask(pipeline: string): { fn: PlaygroundFunction; kind: FormKind } | undefined {
	const fn = functionForPipeline(pipeline);
	if (!fn || !isPlaygroundFunction(fn)) return undefined;
	return { fn, kind: FORMS[TASK_REGISTRY[fn].input] };
}

export type PlaygroundPlan =
	| { kind: "chat"; fn: "chatCompletionStream"; task: string | undefined }
	/** `fn`: the `@modelhub/inference` task function the form calls. */
	| { kind: FormKind; fn: PlaygroundFunction; task: string | undefined }
	| { kind: "unsupported"; fn?: undefined; task: string | undefined };

export function playgroundPlan(model: Pick<ModelData, "pipeline_tag" | "tags">): PlaygroundPlan {
	const task = model.pipeline_tag;
	const chatCapable = task === "text-generation" || task === "image-text-to-text";
	if (chatCapable && model.tags?.includes("conversational"))
		return { kind: "chat", fn: "chatCompletionStream", task };
	const entry = task ? playgroundTask(task) : undefined;
	return entry ? { kind: entry.kind, fn: entry.fn, task } : { kind: "unsupported", task };
}

export interface ChatMessage {
	role: "system" | "user" | "assistant";
	content: string;
}

/** The form's state; which members matter depends on the plan's kind. */
export interface PlaygroundInput {
	text: string;
	context: string;
	candidateLabels: string;
	sentences: string[];
	messages: ChatMessage[];
	maxTokens: number;
}

function widgetText(model: ModelData): Record<string, unknown> | undefined {
	const first = model.widgetData?.[0];
	return first && typeof first === "object" ? (first as Record<string, unknown>) : undefined;
}

function exampleText(example: ModelInputExample | undefined): string {
	if (!example) return "";
	switch (example.kind) {
		case "text":
			return example.text;
		case "messages": {
			const content = example.messages[0]?.content;
			if (typeof content === "string") return content;
			return content?.find((part) => part.type === "text")?.text ?? "";
		}
		default:
			return "";
	}
}

/** The form pre-filled with the task's example (the one the snippets show), completed by the model's widget example. */
export function initialInput(model: ModelData): PlaygroundInput {
	const example = getModelInputExample(model);
	const widget = widgetText(model);
	const input: PlaygroundInput = {
		text: exampleText(example),
		context: "",
		candidateLabels: "",
		sentences: [],
		messages: [],
		maxTokens: 512,
	};
	if (example?.kind === "object") {
		const value = example.value;
		if (typeof value.question === "string") input.text = value.question;
		if (typeof value.context === "string") input.context = value.context;
		if (typeof value.source_sentence === "string") input.text = value.source_sentence;
		if (Array.isArray(value.sentences))
			input.sentences = value.sentences.filter((s): s is string => typeof s === "string");
	}
	if (model.pipeline_tag === "zero-shot-classification") input.candidateLabels = "refund, shipping, praise";
	if (model.pipeline_tag === "zero-shot-image-classification") input.candidateLabels = "cat, dog, bird";
	// The task's example comes first, since the inference and library snippets show it too (one input
	// across the page); the model's own widget example fills only what the task's example leaves empty.
	if (widget) {
		if (!input.text && typeof widget.text === "string") input.text = widget.text;
		if (!input.text && typeof widget.source_sentence === "string") input.text = widget.source_sentence;
		if (!input.context && typeof widget.context === "string") input.context = widget.context;
		if (input.sentences.length === 0 && Array.isArray(widget.sentences))
			input.sentences = widget.sentences.filter((s): s is string => typeof s === "string");
		if (typeof widget.candidate_labels === "string") input.candidateLabels = widget.candidate_labels;
	}
	if (example?.kind === "messages" || playgroundPlan(model).kind === "chat") {
		input.messages = [{ role: "user", content: input.text || "Hello!" }];
	}
	return input;
}

/** Splits "a, b,c" into trimmed, non-empty labels. */
function parseLabels(text: string): string[] {
	return text
		.split(",")
		.map((label) => label.trim())
		.filter(Boolean);
}

/** The arguments of the task function call (without accessToken, model and provider). */
export function buildArgs(
	plan: PlaygroundPlan,
	input: PlaygroundInput,
	file?: Blob,
): Record<string, unknown> {
	switch (plan.kind) {
		case "chat":
			return {
				messages: input.messages.map(({ role, content }) => ({ role, content })),
				max_tokens: input.maxTokens,
			};
		case "question-answering":
			return { inputs: { question: input.text, context: input.context } };
		case "zero-shot":
			return { inputs: input.text, parameters: { candidate_labels: parseLabels(input.candidateLabels) } };
		case "sentence-similarity":
			return { inputs: { source_sentence: input.text, sentences: input.sentences.filter(Boolean) } };
		case "image":
			if (plan.fn === "zeroShotImageClassification") {
				return {
					inputs: { image: file },
					parameters: { candidate_labels: parseLabels(input.candidateLabels) },
				};
			}
			return { data: file };
		case "audio":
			return { data: file };
		case "text":
			return { inputs: input.text };
		default:
			return {};
	}
}
