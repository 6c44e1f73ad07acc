import { lazy, Suspense } from "react";
import type { CodeBlockProps } from "./CodeBlock";

const LazyCodeBlock = lazy(() => import("./CodeBlock"));

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
	return (
		<Suspense fallback={<PlainCode {...props} />}>
			<LazyCodeBlock {...props} />
		</Suspense>
	);
}

export type { CodeBlockProps };
