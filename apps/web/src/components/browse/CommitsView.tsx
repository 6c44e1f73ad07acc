import { Link, useSearchParams } from "react-router";
import { listCommits } from "../../api/browse";
import { useApiOptions } from "../../hooks/useApiOptions";
import { useResource } from "../../hooks/useResource";
import { browseHref, shortCommitId } from "../../view/browse";
import { formatDate, formatRelative } from "../../view/format";
import { ErrorNotice, Loading } from "../Status";
import { useRepoType } from "../../hooks/useRepoType";

const COMMIT_ID = /^[0-9a-f]{40}$/;

/** The cursor (the last commit of the previous page) of a history page's URL, as the hub's `Link` names it. */
function cursorOf(next: string | undefined): string | undefined {
	if (!next) return undefined;
	const cursor = new URL(next, "http://hub.invalid").searchParams.get("cursor");
	return cursor && COMMIT_ID.test(cursor) ? cursor : undefined;
}

/**
 * A revision's history, newest first, 50 a page (`/{id}/commits/{rev}?after={sha}`: the page after
 * that commit, so each page has its own address): title, author, date and short id of each commit.
 */
export function CommitsView({ modelId, revision }: { modelId: string; revision: string }) {
	const repoType = useRepoType();
	const api = useApiOptions();
	const [params] = useSearchParams();
	const after = params.get("after") ?? undefined;
	const cursor = after && COMMIT_ID.test(after) ? after : undefined;
	const page = useResource(
		(signal) =>
			listCommits(modelId, revision, {
				...api,
				signal,
				...(cursor ? { cursor } : {}),
			}),
		[modelId, revision, cursor, api],
	);
	if (page.status === "loading") return <Loading label="Loading the history" />;
	if (page.status === "error")
		return <ErrorNotice title="Could not load the history">{page.error.message}</ErrorNotice>;
	const older = cursorOf(page.data.next);
	const here = browseHref(modelId, { kind: "commits", revision }, repoType);
	return (
		<section aria-labelledby="history-title" className="commits-view">
			<h2 id="history-title" className="browse-heading">
				History of {revision}
			</h2>
			{page.data.items.length === 0 ? <p className="muted">No commits.</p> : null}
			<ol className="commit-list">
				{page.data.items.map((commit) => (
					<li key={commit.id} className="commit-item">
						<div className="commit-main">
							<Link
								className="commit-title"
								to={browseHref(modelId, { kind: "commit", revision: commit.id }, repoType)}
							>
								{commit.title || "(no title)"}
							</Link>
							<span className="muted commit-meta">
								{commit.authors.map((author) => author.user).join(", ")} committed{" "}
								<time dateTime={commit.date} title={formatDate(commit.date)}>
									{formatRelative(commit.date)}
								</time>
							</span>
						</div>
						<code className="commit-sha">{shortCommitId(commit.id)}</code>
					</li>
				))}
			</ol>
			<nav aria-label="History pages" className="pager">
				{cursor ? <Link to={here}>Newest</Link> : null}
				{older ? <Link to={`${here}?after=${older}`}>Older commits</Link> : null}
			</nav>
		</section>
	);
}
