import type { CodeBlock } from "@modelhub/tasks";

const NAMES: Record<string, string> = {
	python: "Python",
	shell: "Shell",
	javascript: "JavaScript",
	csharp: "C#",
};

/** "python" → "Python", "shell" → "Shell", … */
export function languageLabel(language: string): string {
	return NAMES[language] ?? language;
}

/**
 * One tab per code block: the language name, numbered when several blocks share a language
 * ("Python 1", "Python 2", "Shell").
 */
export function snippetTabLabels(blocks: Array<Pick<CodeBlock, "language">>): string[] {
	const totals = new Map<string, number>();
	for (const block of blocks) totals.set(block.language, (totals.get(block.language) ?? 0) + 1);
	const seen = new Map<string, number>();
	return blocks.map((block) => {
		const name = NAMES[block.language] ?? block.language;
		const index = (seen.get(block.language) ?? 0) + 1;
		seen.set(block.language, index);
		return (totals.get(block.language) ?? 0) > 1 ? `${name} ${index}` : name;
	});
}

/** The tokenizer's language for a catalogue code-block language. */
export function highlightLanguage(language: string): string {
	switch (language) {
		case "shell":
			return "sh";
		case "javascript":
			return "js";
		default:
			return language;
	}
}
