import { MAPPING_DEFAULT_WIDGET } from "@modelhub/tasks";
import { isRecord } from "./json.js";

/** Widget examples a card may carry (the public hub returns the card's `widget` as `widgetData`). */
const MAX_WIDGET_EXAMPLES = 50;
/** How the default fill-mask inputs write the mask; replaced with the model's own mask token. */
const DEFAULT_MASK = "<mask>";

/** The card's own widget examples, when it has any. */
export function cardWidget(card: Record<string, unknown> | undefined): unknown[] | undefined {
	const widget = card?.widget;
	if (!Array.isArray(widget)) return undefined;
	const examples = widget.filter(isRecord).slice(0, MAX_WIDGET_EXAMPLES);
	return examples.length > 0 ? examples : undefined;
}

/**
 * The task's default inputs (packages/tasks MAPPING_DEFAULT_WIDGET) in the card's first language that
 * has them, else English: what the public hub shows as `widgetData` for a model whose card has no
 * `widget` (bert-base-uncased: `[{text: "Paris is the [MASK] of France."}]`, with its own mask token).
 * A model with a chat template gets the conversational inputs.
 */
export function defaultWidget(options: {
	pipelineTag: string | undefined;
	languages: readonly string[];
	maskToken: string | undefined;
	conversational: boolean;
}): unknown[] | undefined {
	if (!options.pipelineTag) return undefined;
	const widgetType =
		options.conversational && options.pipelineTag === "text-generation"
			? "conversational"
			: options.pipelineTag;
	for (const language of [...options.languages, "en"]) {
		const examples = (
			MAPPING_DEFAULT_WIDGET.get(language) as ReadonlyMap<string, readonly unknown[]> | undefined
		)?.get(widgetType);
		if (!examples) continue;
		return examples.map((example) => {
			if (typeof example !== "string") return example;
			const text = options.maskToken ? example.replaceAll(DEFAULT_MASK, options.maskToken) : example;
			return { text };
		});
	}
	return undefined;
}
