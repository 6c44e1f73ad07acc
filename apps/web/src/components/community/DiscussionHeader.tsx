import { Link } from "react-router";
import type { DiscussionDetails } from "@modelhub/hub/api";
import { useRepoType } from "../../hooks/useRepoType";
import { browseHref } from "../../view/browse";
import { kindLabel, statusLabel } from "../../view/discussions";
import { formatDate, formatRelative } from "../../view/format";

/**
 * A discussion's title, number, status and author, and for a pull request the links between its
 * conversation and its changed files (`/discussions/{num}` and `/discussions/{num}/files`).
 */
export function DiscussionHeader({
	repoId,
	details,
	current,
}: {
	repoId: string;
	details: DiscussionDetails;
	current: "conversation" | "files";
}) {
	const repoType = useRepoType();
	const branch = details.changes?.base.replace(/^refs\/heads\//, "");
	return (
		<header className="discussion-header">
			<p className="small">
				<Link to={browseHref(repoId, { kind: "discussions" }, repoType)}>← All discussions</Link>
			</p>
			<h2 id="discussion-title" className="browse-heading">
				{details.title} <span className="muted">#{details.num}</span>
			</h2>
			<p className="muted discussion-meta">
				<span className={`badge discussion-status status-${details.status}`}>
					{statusLabel(details.status)}
				</span>{" "}
				<span className="badge">{kindLabel(details.isPullRequest)}</span> {details.author.name} opened this{" "}
				<time dateTime={details.createdAt} title={formatDate(details.createdAt)}>
					{formatRelative(details.createdAt)}
				</time>
				{details.isPullRequest && branch ? (
					<>
						{" "}
						· wants to merge <code>refs/pr/{details.num}</code> into <code>{branch}</code>
					</>
				) : null}
			</p>
			{details.isPullRequest ? (
				<nav aria-label="Pull request" className="browse-nav">
					<Link
						className="btn btn-small"
						aria-current={current === "conversation" ? "page" : undefined}
						to={browseHref(repoId, { kind: "discussion", num: details.num }, repoType)}
					>
						Conversation
					</Link>
					<Link
						className="btn btn-small"
						aria-current={current === "files" ? "page" : undefined}
						to={browseHref(repoId, { kind: "discussion-files", num: details.num }, repoType)}
					>
						Files changed
					</Link>
				</nav>
			) : null}
		</header>
	);
}
