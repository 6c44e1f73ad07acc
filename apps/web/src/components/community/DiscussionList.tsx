import { useMemo, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { listDiscussions, type DiscussionQuery } from "../../api/discussions";
import { useApiOptions } from "../../hooks/useApiOptions";
import { useRepoType } from "../../hooks/useRepoType";
import { useResource } from "../../hooks/useResource";
import { browseHref } from "../../view/browse";
import {
	commentCountLabel,
	discussionQueryOf,
	discussionSearch,
	hasNextPage,
	kindLabel,
	statusLabel,
	STATUS_FILTERS,
	TYPE_FILTERS,
} from "../../view/discussions";
import { formatDate, formatRelative } from "../../view/format";
import { ErrorNotice, Loading } from "../Status";
import { NewDiscussion } from "./NewDiscussion";
import { useViewer } from "./useViewer";

/** The repository's discussions and pull requests: filters, a page of them, "New discussion". */
export function DiscussionList({ repoId }: { repoId: string }) {
	const api = useApiOptions();
	const repoType = useRepoType();
	const viewer = useViewer();
	const [params] = useSearchParams();
	const navigate = useNavigate();
	// Keyed by the query string, so the list is read again only when the filters change.
	const search = params.toString();
	const query = useMemo(() => discussionQueryOf(new URLSearchParams(search)), [search]);
	const [composing, setComposing] = useState(false);
	const page = useResource(
		(signal) => listDiscussions(repoId, query, { ...api, signal }),
		[repoId, query, api],
	);
	const listHref = (next: DiscussionQuery) =>
		`${browseHref(repoId, { kind: "discussions" }, repoType)}${discussionSearch(next)}`;
	const filter = (next: Partial<DiscussionQuery>) =>
		void navigate(listHref({ ...query, ...next, page: 0 }), { replace: true });

	return (
		<section aria-labelledby="community-title" className="community">
			<div className="community-toolbar">
				<h2 id="community-title" className="browse-heading">
					Discussions and pull requests
				</h2>
				{viewer ? (
					<button
						type="button"
						className="btn btn-primary btn-small"
						aria-expanded={composing}
						onClick={() => setComposing(!composing)}
					>
						New discussion
					</button>
				) : (
					<p className="muted small">
						<Link to="/login">Sign in</Link> to start a discussion.
					</p>
				)}
			</div>
			{composing ? <NewDiscussion repoId={repoId} onCancel={() => setComposing(false)} /> : null}
			<div className="community-filters">
				<div className="segmented" role="group" aria-label="Kind">
					{TYPE_FILTERS.map((choice) => (
						<button
							key={choice.value}
							type="button"
							className="btn btn-small"
							aria-pressed={query.type === choice.value}
							onClick={() => filter({ type: choice.value })}
						>
							{choice.label}
						</button>
					))}
				</div>
				<div className="segmented" role="group" aria-label="Status">
					{STATUS_FILTERS.map((choice) => (
						<button
							key={choice.value}
							type="button"
							className="btn btn-small"
							aria-pressed={query.status === choice.value}
							onClick={() => filter({ status: choice.value })}
						>
							{choice.label}
						</button>
					))}
				</div>
			</div>
			{page.status === "loading" ? <Loading label="Loading discussions" /> : null}
			{page.status === "error" ? (
				<ErrorNotice title="Could not load the discussions">{page.error.message}</ErrorNotice>
			) : null}
			{page.status === "ready" ? (
				<>
					<p className="muted small" role="status">
						{page.data.count === 1 ? "1 result" : `${page.data.count.toLocaleString("en-US")} results`}
						{query.page > 0 ? ` (page ${query.page + 1})` : ""}
					</p>
					{page.data.discussions.length === 0 ? (
						<p className="muted">Nothing here yet.</p>
					) : (
						<ul className="discussion-list">
							{page.data.discussions.map((item) => (
								<li key={item.num} className="discussion-item">
									<div className="discussion-item-title">
										<span className={`badge discussion-status status-${item.status}`}>
											{statusLabel(item.status)}
										</span>{" "}
										<span className="badge">{kindLabel(item.isPullRequest)}</span>{" "}
										<Link to={browseHref(repoId, { kind: "discussion", num: item.num }, repoType)}>
											{item.title}
										</Link>
									</div>
									<p className="muted small discussion-item-meta">
										#{item.num} opened{" "}
										<time dateTime={item.createdAt} title={formatDate(item.createdAt)}>
											{formatRelative(item.createdAt)}
										</time>{" "}
										by {item.author.name} · {commentCountLabel(item.numComments)}
									</p>
								</li>
							))}
						</ul>
					)}
					{query.page > 0 || hasNextPage(page.data, page.data.discussions.length) ? (
						<nav aria-label="Discussion pages" className="pager">
							{query.page > 0 ? (
								<Link className="btn btn-small" to={listHref({ ...query, page: query.page - 1 })}>
									Previous page
								</Link>
							) : null}
							{hasNextPage(page.data, page.data.discussions.length) ? (
								<Link className="btn btn-small" to={listHref({ ...query, page: query.page + 1 })}>
									Next page
								</Link>
							) : null}
						</nav>
					) : null}
				</>
			) : null}
		</section>
	);
}
