import type { PipelineType } from "../pipelines.js";
import type { ModelDataMinimal } from "../libraries/types.js";

/** One chat message as sent to an OpenAI-compatible chat completion route. */
export interface ChatCompletionInputMessage {
	role: string;
	content: string | Array<{ type: "text"; text: string } | { type: "image_url"; image_url: { url: string } }>;
}

/**
 * A task's example input as data, before it is written in any language. Snippet generators encode it
 * with their own literal builders, so example text can never break out of a literal.
 */
export type ModelInputExample =
	| { kind: "text"; text: string }
	| { kind: "file"; fileName: string; mediaType: "audio" | "image" }
	| { kind: "object"; value: Record<string, unknown> }
	/** Shown as single-quoted one-line JSON: the form scikit-learn style tabular widgets take. */
	| { kind: "table"; value: Record<string, Array<string | number>> }
	| { kind: "messages"; messages: ChatCompletionInputMessage[] };

export const NO_INPUT_EXAMPLE_TEXT = "No input example has been defined for this model task.";

export const CONVERSATIONAL_TEXT_EXAMPLE = "What is the capital of France?";
export const CONVERSATIONAL_IMAGE_EXAMPLE_TEXT = "Describe this image in one sentence.";
export const CONVERSATIONAL_IMAGE_EXAMPLE_URL =
	"https://cdn.britannica.com/61/93061-050-99147DCE/Statue-of-Liberty-Island-New-York-Bay.jpg";

const AUDIO_FILE = "sample1.flac";
const IMAGE_FILE = "cats.jpg";
const IMAGE_WITH_PROMPT_FILE = "cat.png";

const text = (value: string): ModelInputExample => ({ kind: "text", text: value });
const audioFile: ModelInputExample = { kind: "file", fileName: AUDIO_FILE, mediaType: "audio" };
const imageFile: ModelInputExample = { kind: "file", fileName: IMAGE_FILE, mediaType: "image" };

const tabularExample: ModelInputExample = {
	kind: "table",
	value: { Height: [11.52, 12.48], Length1: [23.2, 24], Length2: [25.4, 26.3], Species: ["Bream", "Bream"] },
};

const documentQuestion: ModelInputExample = {
	kind: "object",
	value: { image: IMAGE_WITH_PROMPT_FILE, question: "What is in this image?" },
};

function maskExample(model: ModelDataMinimal): ModelInputExample {
	// A model without a known mask token gets the most common one rather than the text "undefined".
	const mask = model.mask_token ?? "[MASK]";
	return text(`Paris is the ${mask} of France.`);
}

function chatExample(model: ModelDataMinimal, withImage: boolean): ModelInputExample {
	if (!model.tags?.includes("conversational")) {
		return text(
			withImage ? "A short caption for this picture:" : "Once upon a time, in a quiet mountain village,",
		);
	}
	const messages: ChatCompletionInputMessage[] = withImage
		? [
				{
					role: "user",
					content: [
						{ type: "text", text: CONVERSATIONAL_IMAGE_EXAMPLE_TEXT },
						{ type: "image_url", image_url: { url: CONVERSATIONAL_IMAGE_EXAMPLE_URL } },
					],
				},
			]
		: [{ role: "user", content: CONVERSATIONAL_TEXT_EXAMPLE }];
	return { kind: "messages", messages };
}

const EXAMPLES: Partial<Record<PipelineType, (model: ModelDataMinimal) => ModelInputExample>> = {
	"audio-to-audio": () => audioFile,
	"audio-classification": () => audioFile,
	"automatic-speech-recognition": () => audioFile,
	"document-question-answering": () => documentQuestion,
	"feature-extraction": () => text("The library opens at nine on weekdays and at ten on Saturdays."),
	"fill-mask": maskExample,
	"image-classification": () => imageFile,
	"image-to-text": () => imageFile,
	"image-to-image": () => ({
		kind: "object",
		value: { image: IMAGE_WITH_PROMPT_FILE, prompt: "Paint the cat in the style of a watercolour." },
	}),
	"image-segmentation": () => imageFile,
	"object-detection": () => imageFile,
	"question-answering": () => ({
		kind: "object",
		value: {
			question: "Where does the morning ferry leave from?",
			context: "The morning ferry to the island leaves from Pier 4 at seven o'clock.",
		},
	}),
	"sentence-similarity": () => ({
		kind: "object",
		value: {
			source_sentence: "The cat sleeps on the warm windowsill.",
			sentences: [
				"A kitten is napping in the sun by the window.",
				"The stock market closed higher today.",
				"A dog is barking at the mail carrier.",
			],
		},
	}),
	summarization: () =>
		text(
			"The city council met on Tuesday to discuss the new cycling plan. After three hours of debate, members agreed to build twelve kilometres of protected bike lanes over the next two years, paid for by a mix of regional grants and parking revenue. Shop owners on the main street had worried about losing parking spaces, so the plan keeps loading zones on every block and adds short-stay parking on side streets. Construction starts in the spring, beginning with the route between the station and the university.",
		),
	"table-question-answering": () => ({
		kind: "object",
		value: {
			query: "Which repository has the most contributors?",
			table: {
				Repository: ["Transformers", "Datasets", "Tokenizers"],
				Stars: ["142000", "19800", "9600"],
				Contributors: ["2900", "610", "120"],
				"Programming language": ["Python", "Python", "Rust, Python and NodeJS"],
			},
		},
	}),
	"tabular-classification": () => tabularExample,
	"tabular-regression": () => tabularExample,
	"text-classification": () => text("The update made the app twice as fast. I love it!"),
	"text-generation": (model) => chatExample(model, false),
	"image-text-to-text": (model) => chatExample(model, true),
	"text-to-image": () => text("A lighthouse on a rocky cliff at sunset, oil painting"),
	"text-to-video": () => text("A red kite dancing over a windy beach"),
	"text-to-speech": () => text("Welcome to ModelHub. This sentence was read aloud by a model."),
	"text-to-audio": () => text("lo-fi hip hop, warm piano chords, vinyl crackle, slow tempo"),
	"text2text-generation": () => text("Rewrite more formally: the meeting got moved to Thursday."),
	"token-classification": () => text("My name is Clara Oswald and I work with Daniel Okafor in Lisbon."),
	translation: () => text("Сегодня в парке расцвели первые тюльпаны."),
	"zero-shot-classification": () =>
		text("My order arrived two weeks late and the box was crushed. Can I get my money back?"),
	"zero-shot-image-classification": () => imageFile,
};

/** The pipelines that have an example input. */
export const PIPELINES_WITH_INPUT_EXAMPLE = Object.keys(EXAMPLES) as PipelineType[];

/** The example input for a model's task as data; `undefined` when its task has none (or no task). */
export function getModelInputExample(model: ModelDataMinimal): ModelInputExample | undefined {
	const pipeline = model.pipeline_tag;
	if (!pipeline) return undefined;
	return EXAMPLES[pipeline]?.(model);
}

/**
 * The example input as display text, compatible with the incumbent's helper: strings come back as a
 * JSON string literal (with its quotes), objects as pretty JSON, tables as one-line JSON in single
 * quotes, chat examples as the messages array. `noWrap` folds line breaks into spaces and `noQuotes`
 * drops one outer pair of double quotes; neither touches a messages array.
 */
export function getModelInputSnippet(
	model: ModelDataMinimal,
	noWrap = false,
	noQuotes = false,
): string | ChatCompletionInputMessage[] {
	const example = getModelInputExample(model);
	if (example?.kind === "messages") return example.messages;
	let rendered = example ? renderExample(example) : NO_INPUT_EXAMPLE_TEXT;
	if (noWrap) rendered = rendered.replace(/(?:(?:\r?\n|\r)\t*)|\t+/g, " ");
	if (noQuotes && rendered.length >= 2 && rendered.startsWith('"') && rendered.endsWith('"')) {
		rendered = rendered.slice(1, -1);
	}
	return rendered;
}

function renderExample(example: Exclude<ModelInputExample, { kind: "messages" }>): string {
	switch (example.kind) {
		case "text":
			return JSON.stringify(example.text);
		case "file":
			return JSON.stringify(example.fileName);
		case "object":
			return JSON.stringify(example.value, null, 4);
		case "table":
			return `'${JSON.stringify(example.value)}'`;
	}
}

export interface StringifyMessagesOptions {
	/** Text inserted after every line break, to indent the block inside surrounding code. */
	indent?: string;
	/** Keep the double quotes around keys (JSON / Python dict style) instead of JS object style. */
	attributeKeyQuotes?: boolean;
	/** Applied last to the whole text. */
	customContentEscaper?: (text: string) => string;
}

/** Chat messages as a pretty-printed literal (JSON with tabs), for embedding in code. */
export function stringifyMessages(
	messages: ChatCompletionInputMessage[],
	opts: StringifyMessagesOptions = {},
): string {
	let text = JSON.stringify(messages, null, "\t");
	if (opts.indent) text = text.replace(/\n/g, `\n${opts.indent}`);
	// Only keys that are plain identifiers lose their quotes, so the result stays a valid JS literal.
	if (!opts.attributeKeyQuotes) text = text.replace(/"([A-Za-z_$][A-Za-z0-9_$]*)":/g, "$1:");
	if (opts.customContentEscaper) text = opts.customContentEscaper(text);
	return text;
}

export interface GenerationConfigOptions {
	indent: string;
	attributeValueConnector: string;
	attributeKeyQuotes?: boolean;
}

/** Generation parameters as `key=value` / `"key": value` lines, for embedding in code. */
export function stringifyGenerationConfig(
	config: Record<string, unknown>,
	opts: GenerationConfigOptions,
): string {
	const quote = opts.attributeKeyQuotes ? '"' : "";
	return Object.entries(config)
		.map(([key, value]) => `${quote}${key}${quote}${opts.attributeValueConnector}${JSON.stringify(value)},`)
		.join(`${opts.indent}`);
}
