import { memo } from "react";
import { CopyButton } from "../CopyButton";
import { tokenize } from "./tokenize";

export interface CodeBlockProps {
	code: string;
	language: string;
	/** Shown above the code; defaults to the language. */
	title?: string;
	copy?: boolean;
}

const LANGUAGE_NAMES: Record<string, string> = {
	python: "Python",
	js: "JavaScript",
	javascript: "JavaScript",
	sh: "Shell",
	shell: "Shell",
	bash: "Shell",
	json: "JSON",
	csharp: "C#",
};

export function languageName(language: string): string {
	return LANGUAGE_NAMES[language.toLowerCase()] ?? language;
}

/** A highlighted code block with a copy button. Loaded lazily together with the tokenizer. */
function CodeBlockImpl({ code, language, title, copy = true }: CodeBlockProps) {
	const tokens = tokenize(code, language);
	const heading = title ?? languageName(language);
	return (
		<figure className="code-block" data-language={language}>
			<figcaption className="code-block-header">
				<span className="code-block-title">{heading}</span>
				{copy ? <CopyButton text={code} label="Copy" /> : null}
			</figcaption>
			<pre tabIndex={0} aria-label={`${heading} code`}>
				<code>
					{tokens.map((token, index) =>
						token.type === "text" ? (
							token.text
						) : (
							<span key={index} className={`tok-${token.type}`}>
								{token.text}
							</span>
						),
					)}
				</code>
			</pre>
		</figure>
	);
}

const CodeBlock = memo(CodeBlockImpl);
export default CodeBlock;
