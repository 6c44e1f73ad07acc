import { lazy, Suspense } from "react";
import type CodeBlockComponentValue from "./CodeBlock";
import type { CodeBlockProps } from "./CodeBlock";

type CodeBlockComponent = typeof CodeBlockComponentValue;

let loaded: CodeBlockComponent | undefined;

/** Loads the highlighter chunk; once it is in, code blocks render highlighted at once (no fallback). */
export function preloadCodeBlock(): Promise<{ default: CodeBlockComponent }> {
	return import("./CodeBlock").then((module) => {
		loaded = module.default;
		return module;
	});
}

const LazyCodeBlock = lazy(preloadCodeBlock);

/** Plain code shown while the highlighter chunk loads, so the text is readable at once. */
function PlainCode({ code, language, title }: CodeBlockProps) {
	return (
		<figure className="code-block" data-language={language}>
			<figcaption className="code-block-header">
				<span className="code-block-title">{title ?? language}</span>
			</figcaption>
			<pre tabIndex={0} aria-label={`${title ?? language} code`}>
				<code>{code}</code>
			</pre>
		</figure>
	);
}

export function Code(props: CodeBlockProps) {
	if (loaded) {
		const Loaded = loaded;
		return <Loaded {...props} />;
	}
	return (
		<Suspense fallback={<PlainCode {...props} />}>
			<LazyCodeBlock {...props} />
		</Suspense>
	);
}

export type { CodeBlockProps };
