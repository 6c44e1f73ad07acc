import { lazy, Suspense } from "react";

// The Markdown renderer (marked and DOMPurify, ~27 KB gzip) loads after the thread: until it is there,
// each comment shows its text as written, so a thread opened by its address stays within the 120 KB
// first-load budget (apps/web/bench) and is readable at once.
const RenderedComment = lazy(() => import("./RenderedComment"));

/** A comment's text: as written while the renderer loads, then rendered as safe Markdown. */
export function CommentBody({
	markdown,
	repoId,
	label,
}: {
	markdown: string;
	repoId: string;
	label: string;
}) {
	return (
		<Suspense fallback={<div className="markdown comment-body comment-raw">{markdown}</div>}>
			<RenderedComment markdown={markdown} repoId={repoId} label={label} />
		</Suspense>
	);
}
