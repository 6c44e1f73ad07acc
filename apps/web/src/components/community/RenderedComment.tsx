import { useMemo } from "react";
import { renderCard } from "../model/ModelCard";
import { useRepoType } from "../../hooks/useRepoType";

/**
 * A comment's Markdown, rendered as the model card is (marked, then DOMPurify: no scripts, styles or
 * forms; relative links to the repository's files), with its headings under the thread's. A chunk of
 * its own with the renderer (src/components/community/CommentBody.tsx loads it).
 */
export default function RenderedComment({
	markdown,
	repoId,
	label,
}: {
	markdown: string;
	repoId: string;
	label: string;
}) {
	const repoType = useRepoType();
	const html = useMemo(
		() => renderCard(markdown, repoId, window.location.origin, { repoType, comment: { label } }),
		[markdown, repoId, repoType, label],
	);
	// Sanitised by DOMPurify in renderCard.
	return <div className="markdown comment-body" dangerouslySetInnerHTML={{ __html: html }} />;
}
