import type { CodeBlock } from "@modelhub/tasks";
import { highlightLanguage, snippetTabLabels } from "../view/snippets";
import { Code } from "./code";
import { Tabs } from "./Tabs";

/** A library's code blocks, one tab each, every one with its copy button. */
export function SnippetTabs({ label, blocks }: { label: string; blocks: CodeBlock[] }) {
	const labels = snippetTabLabels(blocks);
	return (
		<Tabs
			label={label}
			items={blocks.map((block, index) => ({
				id: `snippet-${index}`,
				label: labels[index],
				content: (
					<Code code={block.code} language={highlightLanguage(block.language)} title={labels[index]} />
				),
			}))}
		/>
	);
}
