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
 * What a code block does, from its first comment line ("# Use a pipeline as a high-level helper" →
 * "Use a pipeline as a high-level helper"), else "Install" for an install command, else the language
 * name. Blocks show one under another with these captions, never as "Python 1 / Python 2" tabs.
 */
export function blockTitle(block: Pick<CodeBlock, "language" | "code">): string {
	const first =
		block.code
			.split("\n")
			.find((line) => line.trim() !== "")
			?.trim() ?? "";
	const comment = /^(?:#|\/\/)\s*(.+)$/.exec(first)?.[1];
	if (comment && !comment.startsWith("!")) {
		const text = comment.replace(/^(?:Option \d+:\s*)/i, "").replace(/[:.]\s*$/, "");
		return text.length > 80 ? `${text.slice(0, 77)}…` : text.charAt(0).toUpperCase() + text.slice(1);
	}
	if (
		block.language === "shell" &&
		/^(pip|npm|uv|conda|brew|apt(-get)?|cargo|go) (install|add|get)\b/.test(first)
	) {
		return "Install";
	}
	return NAMES[block.language] ?? block.language;
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
