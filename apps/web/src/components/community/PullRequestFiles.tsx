import { useMemo } from "react";
import { ApiError } from "../../api/http";
import { useDiscussion } from "../../hooks/useDiscussion";
import { useDocumentTitle } from "../../hooks/useDocumentTitle";
import { browseTitle } from "../../view/browse";
import { parsePullRequestDiff, type PullRequestFileDiff } from "../../view/pr-diff";
import NotFound from "../../pages/NotFound";
import { DiffTable } from "../browse/DiffTable";
import { ErrorNotice, Loading } from "../Status";
import { DiscussionHeader } from "./DiscussionHeader";

const STATUS_LABEL: Record<PullRequestFileDiff["status"], string> = {
	added: "Added",
	modified: "Modified",
	deleted: "Deleted",
};

/** Diffs opened with the page; the others open on demand. */
const OPEN_DIFFS = 20;

/** A pull request's changed files (`/{id}/discussions/{num}/files`), from the hub's git-style diff. */
export function PullRequestFiles({ repoId, num }: { repoId: string; num: number }) {
	const { details } = useDiscussion(repoId, num, true);
	const files = useMemo(
		() => (details.status === "ready" ? parsePullRequestDiff(details.data.diff ?? "") : []),
		[details],
	);
	useDocumentTitle(
		browseTitle(
			repoId,
			{ kind: "discussion-files", num },
			undefined,
			details.data ? { title: details.data.title } : undefined,
		),
	);
	if (details.status === "loading") return <Loading label="Loading the changes" />;
	if (details.status === "error") {
		if (details.error instanceof ApiError && details.error.status === 404)
			return <NotFound title="Pull request not found" message={`${repoId} has no pull request #${num}.`} />;
		return <ErrorNotice title="Could not load the changes">{details.error.message}</ErrorNotice>;
	}
	if (!details.data.isPullRequest)
		return (
			<NotFound
				title="Pull request not found"
				message={`#${num} of ${repoId} is a discussion, not a pull request.`}
			/>
		);
	if (details.data.diffWithheld)
		return (
			<section aria-labelledby="discussion-title" className="discussion">
				<DiscussionHeader repoId={repoId} details={details.data} current="files" />
				<p className="muted">
					The changes are not shown: {repoId} is gated, and its files (the changes among them) are shown only
					to those with access. Ask for access on the repository&apos;s page.
				</p>
			</section>
		);
	return (
		<section aria-labelledby="discussion-title" className="discussion">
			<DiscussionHeader repoId={repoId} details={details.data} current="files" />
			<h3 className="browse-subheading">
				{files.length === 1 ? "1 file changed" : `${files.length.toLocaleString("en-US")} files changed`}
			</h3>
			{details.data.diffTruncated ? (
				<p className="muted">The diff is cut short: it is larger than the hub shows.</p>
			) : null}
			<ul className="changed-files">
				{files.map((file, index) => (
					<li key={file.path}>
						<details className="file-diff" open={index < OPEN_DIFFS}>
							<summary>
								<span className={`change-status change-${file.status}`}>{STATUS_LABEL[file.status]}</span>{" "}
								<span className="change-path">{file.path}</span>
							</summary>
							{file.binary ? (
								<p className="muted diff-note">Binary file: not compared.</p>
							) : file.rows.length === 0 ? (
								<p className="muted diff-note">No text changes.</p>
							) : (
								<DiffTable path={file.path} rows={file.rows} />
							)}
						</details>
					</li>
				))}
			</ul>
		</section>
	);
}
