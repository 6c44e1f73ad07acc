/**
 * The playground's view logic, independent of React and of the inference client: which form a model's
 * task gets, the example it is pre-filled with, the call it makes, how a captured HTTP request is shown
 * (token redacted), and how an output is rendered.
 */
import { getModelInputExample } from "@modelhub/tasks";
import type { ModelData, ModelInputExample } from "@modelhub/tasks";
import {
	functionForPipeline,
	TASK_REGISTRY,
	type TaskAnswer,
	type TaskInput,
} from "@modelhub/inference/catalog";
import type { TaskFunctionName } from "../inference/adapter";
import { chartBars, type Bar } from "./demo";

export type PlaygroundKind =
	| "chat"
	| "text"
	| "question-answering"
	| "zero-shot"
	| "sentence-similarity"
	| "image"
	| "audio"
	| "unsupported";

/** The form each kind of task input gets; inputs without one (tables, image edits…) are not offered. */
const FORMS: Partial<Record<TaskInput, PlaygroundKind>> = {
	text: "text",
	"question-context": "question-answering",
	"text-labels": "zero-shot",
	"sentence-pair": "sentence-similarity",
	image: "image",
	"image-labels": "image",
	audio: "audio",
};

/** The answers the playground shows (JSON as labels, bars, boxes or text; an image; an audio player). */
const SHOWN_ANSWERS: ReadonlySet<TaskAnswer> = new Set(["json", "image", "audio"]);

/**
 * The client function a pipeline's model is called with and the form it needs, from the client's task
 * registry (`@modelhub/inference/catalog`): offered when the playground has a form for its input and
 * shows its answer.
 */
export function playgroundTask(pipeline: string): { fn: TaskFunctionName; kind: PlaygroundKind } | undefined {
	const fn = functionForPipeline(pipeline);
	if (!fn) return undefined;
	const declaration = TASK_REGISTRY[fn];
	const kind = FORMS[declaration.input];
	if (!kind || !SHOWN_ANSWERS.has(declaration.answer)) return undefined;
	// A one-shot function (functionForPipeline never names a streaming or raw one): the adapter's kind.
	return { fn: fn as TaskFunctionName, kind };
}

export interface PlaygroundPlan {
	kind: PlaygroundKind;
	/** Name of the `@modelhub/inference` task function. */
	fn?: TaskFunctionName | "chatCompletionStream";
	task?: string;
}

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
export function parseLabels(text: string): string[] {
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
			if (plan.task === "zero-shot-image-classification") {
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

// ---- Conversation ---------------------------------------------------------------------------------

/** Why a run ended without an answer, as shown next to the Send button. */
export interface RunError {
	kind: "provider" | "network" | "timeout" | "stopped" | "other";
	message: string;
	/** The provider's HTTP status, when it answered with an error. */
	status?: number;
}

export interface ChatTurn {
	id: number;
	user: string;
	answer: string;
	status: "streaming" | "done" | "failed" | "stopped";
	error?: RunError;
}

/**
 * The messages of the next request: the completed turns (question and answer), then `next`. Failed and
 * stopped turns stay on screen (to retry or remove) but are never sent, so a request never carries two
 * user turns in a row.
 */
export function conversation(turns: readonly ChatTurn[], next?: string): ChatMessage[] {
	const messages: ChatMessage[] = [];
	for (const turn of turns) {
		if (turn.status !== "done") continue;
		messages.push({ role: "user", content: turn.user }, { role: "assistant", content: turn.answer });
	}
	if (next !== undefined && next.trim()) messages.push({ role: "user", content: next });
	return messages;
}

// ---- Requests -------------------------------------------------------------------------------------

export interface CapturedRequest {
	method: string;
	url: string;
	headers: Array<[string, string]>;
	/** The body as text (JSON, pretty-printed when it parses), or a description of binary data. */
	body?: string;
	/** The body exactly as sent, for comparison. */
	rawBody?: string;
}

const SECRET_HEADERS = /^(authorization|x-api-key|api-key|x-key|proxy-authorization)$/i;

/** Hides the secret part of a credential header but keeps its scheme ("Bearer [redacted]"). */
export function redactHeader(name: string, value: string): string {
	if (!SECRET_HEADERS.test(name)) return value;
	const match = /^(\w+)\s+\S/.exec(value);
	return match ? `${match[1]} [redacted]` : "[redacted]";
}

/** How a binary body (or an embedded file) is shown instead of its bytes. */
export function binaryLabel(bytes: number, type?: string): string {
	return `<binary: ${bytes} bytes${type ? `, ${type}` : ""}>`;
}

const DATA_URL = /^data:([\w.+-]+\/[\w.+-]+)?(?:;[\w=-]+)*;base64,([A-Za-z0-9+/=]*)$/;
/** Long enough that no prompt or id looks like it; base64 of a 192-byte file. */
const BARE_BASE64 = /^[A-Za-z0-9+/]{256,}={0,2}$/;

function base64Size(text: string): number {
	const padding = text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0;
	return Math.max(0, Math.floor((text.length * 3) / 4) - padding);
}

/**
 * A JSON payload with every embedded file (a `data:…;base64,` URL, or a long bare base64 string) replaced
 * by `<binary: N bytes, type>`: a speech-recognition request carries its clip as ~140 KB of base64,
 * which says nothing to a reader and slows the page. `fileType` names bare base64 of the input file.
 */
export function elideBinary(value: unknown, fileType?: string): unknown {
	if (typeof value === "string") {
		const dataUrl = DATA_URL.exec(value);
		if (dataUrl) return binaryLabel(base64Size(dataUrl[2] ?? ""), dataUrl[1] ?? fileType);
		if (BARE_BASE64.test(value)) return binaryLabel(base64Size(value), fileType);
		return value;
	}
	if (Array.isArray(value)) return value.map((item) => elideBinary(item, fileType));
	if (typeof value === "object" && value !== null) {
		return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, elideBinary(item, fileType)]));
	}
	return value;
}

function describeText(text: string, fileType?: string): { body: string; rawBody: string } {
	try {
		return { body: JSON.stringify(elideBinary(JSON.parse(text), fileType), null, 2), rawBody: text };
	} catch {
		return { body: text, rawBody: text };
	}
}

async function describeBody(body: unknown, fileType?: string): Promise<{ body?: string; rawBody?: string }> {
	if (body === undefined || body === null) return {};
	if (typeof body === "string") return describeText(body, fileType);
	if (body instanceof Blob) return { body: binaryLabel(body.size, body.type || fileType) };
	if (body instanceof ArrayBuffer) return { body: binaryLabel(body.byteLength, fileType) };
	if (ArrayBuffer.isView(body)) return { body: binaryLabel(body.byteLength, fileType) };
	if (body instanceof FormData) {
		const parts: string[] = [];
		body.forEach((value, name) => {
			parts.push(
				`${name}: ${typeof value === "string" ? value : binaryLabel(value.size, value.type || fileType)}`,
			);
		});
		return { body: `<multipart form data>\n${parts.join("\n")}` };
	}
	if (body instanceof URLSearchParams) return { body: body.toString(), rawBody: body.toString() };
	return { body: "<streamed body>" };
}

/** A request prepared by the client's dry run, as the playground shows it (credentials redacted). */
export async function describePrepared(
	prepared: { method: string; url: string; headers: Record<string, string>; body?: unknown },
	fileType?: string,
): Promise<CapturedRequest> {
	const headers = Object.entries(prepared.headers).map(
		([name, value]) => [name.toLowerCase(), redactHeader(name, value)] as [string, string],
	);
	return {
		method: prepared.method.toUpperCase(),
		url: prepared.url,
		headers,
		...(await describeBody(prepared.body, fileType)),
	};
}

/** Reads what a `fetch(input, init)` call would send, with credentials redacted. */
export async function captureFetchCall(
	input: RequestInfo | URL,
	init?: RequestInit,
	fileType?: string,
): Promise<CapturedRequest> {
	const request = input instanceof Request ? input : undefined;
	const url = request ? request.url : String(input);
	const method = (init?.method ?? request?.method ?? "GET").toUpperCase();
	const headers = new Headers(request?.headers);
	new Headers(init?.headers).forEach((value, name) => headers.set(name, value));
	const list: Array<[string, string]> = [];
	headers.forEach((value, name) => list.push([name, redactHeader(name, value)]));
	let body: unknown = init?.body;
	if (body === undefined && request && request.body) body = await request.clone().text();
	return { method, url, headers: list, ...(await describeBody(body, fileType)) };
}

/** The request as text, the way the playground shows it. */
export function formatRequest(request: CapturedRequest): string {
	const lines = [
		`${request.method} ${request.url}`,
		...request.headers.map(([name, value]) => `${name}: ${value}`),
	];
	return request.body === undefined ? lines.join("\n") : `${lines.join("\n")}\n\n${request.body}`;
}

/** A fetch that records every non-hub request it sends (so the page can show what was really sent). */
export function recordingFetch(
	hubOrigin: string,
	baseFetch: typeof fetch,
	onRequest: (request: CapturedRequest) => void,
	fileType?: string,
): typeof fetch {
	return async (input, init) => {
		const url = input instanceof Request ? input.url : String(input);
		if (!isHubRequest(url, hubOrigin)) onRequest(await captureFetchCall(input, init, fileType));
		return baseFetch(input, init);
	};
}

export function isHubRequest(url: string, hubOrigin: string): boolean {
	const base = hubOrigin.replace(/\/+$/, "");
	return url.startsWith(`${base}/api/`);
}

// ---- Outputs --------------------------------------------------------------------------------------

export interface DetectedBox {
	label: string;
	score: number;
	xmin: number;
	ymin: number;
	xmax: number;
	ymax: number;
}

export type RenderedOutput =
	| { kind: "labels"; bars: Bar[] }
	| { kind: "boxes"; boxes: DetectedBox[] }
	| {
			kind: "entities";
			entities: Array<{ label: string; word: string; score: number; start?: number; end?: number }>;
	  }
	| { kind: "text"; text: string }
	| { kind: "image"; blob: Blob }
	| { kind: "audio"; blob: Blob }
	| { kind: "json"; json: string };

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Chooses how to show a task function's output. */
export function renderOutput(task: string | undefined, output: unknown): RenderedOutput {
	if (output instanceof Blob) {
		return output.type.startsWith("audio/") || task === "text-to-speech" || task === "text-to-audio"
			? { kind: "audio", blob: output }
			: { kind: "image", blob: output };
	}
	if (typeof output === "string") return { kind: "text", text: output };
	if (Array.isArray(output) && output.length > 0 && output.every(isRecord)) {
		const first = output[0] as Record<string, unknown>;
		if (isRecord(first.box)) {
			return {
				kind: "boxes",
				boxes: output.map((item) => {
					const box = (item as { box: Record<string, number> }).box;
					return {
						label: String(item.label ?? ""),
						score: Number(item.score ?? 0),
						xmin: Number(box.xmin ?? 0),
						ymin: Number(box.ymin ?? 0),
						xmax: Number(box.xmax ?? 0),
						ymax: Number(box.ymax ?? 0),
					};
				}),
			};
		}
		if ("entity_group" in first || ("word" in first && "start" in first)) {
			return {
				kind: "entities",
				entities: output.map((item) => ({
					label: String(item.entity_group ?? item.entity ?? ""),
					word: String(item.word ?? ""),
					score: Number(item.score ?? 0),
					start: typeof item.start === "number" ? item.start : undefined,
					end: typeof item.end === "number" ? item.end : undefined,
				})),
			};
		}
		if ("score" in first && ("label" in first || "token_str" in first)) {
			return {
				kind: "labels",
				bars: chartBars(
					output.map((item) => ({
						label: String(item.label ?? item.token_str ?? ""),
						score: Number(item.score),
					})),
				),
			};
		}
		if ("generated_text" in first) return { kind: "text", text: String(first.generated_text) };
	}
	if (isRecord(output)) {
		for (const key of ["generated_text", "summary_text", "translation_text", "text", "answer"]) {
			if (typeof output[key] === "string") return { kind: "text", text: output[key] as string };
		}
	}
	return { kind: "json", json: JSON.stringify(output, null, 2) ?? String(output) };
}

/** Sentence-similarity scores paired with their sentences, as bars. */
export function similarityBars(sentences: string[], scores: unknown): Bar[] | undefined {
	if (!Array.isArray(scores) || !scores.every((score) => typeof score === "number")) return undefined;
	return chartBars(
		sentences
			.slice(0, scores.length)
			.map((sentence, index) => ({ label: sentence, score: scores[index] as number })),
	);
}
