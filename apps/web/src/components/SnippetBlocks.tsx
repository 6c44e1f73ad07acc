import type { CodeBlock } from "@modelhub/tasks";
import { blockTitle, highlightLanguage } from "../view/snippets";
import { Code } from "./code";

/** A library's code blocks one under another, each captioned with what it does and copyable. */
export function SnippetBlocks({ blocks }: { blocks: CodeBlock[] }) {
	return (
		<div className="snippet-blocks">
			{blocks.map((block, index) => (
				<Code
					key={index}
					code={block.code}
					language={highlightLanguage(block.language)}
					title={blockTitle(block)}
				/>
			))}
		</div>
	);
}
