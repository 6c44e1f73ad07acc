import { useId, useState, type FormEvent } from "react";
import { Link } from "react-router";
import type { CommentEvent, DiscussionDetails } from "@modelhub/hub/api";
import {
	commentDiscussion,
	editComment,
	hideComment,
	mergePullRequest,
	setDiscussionStatus,
} from "../../api/discussions";
import { ApiError } from "../../api/http";
import { useApiOptions } from "../../hooks/useApiOptions";
import { useDiscussion, type DiscussionActions } from "../../hooks/useDiscussion";
import { useDocumentTitle } from "../../hooks/useDocumentTitle";
import { useRepoType } from "../../hooks/useRepoType";
import { browseHref, browseTitle, shortCommitId } from "../../view/browse";
import {
	canEditComment,
	canHideComment,
	discussionRights,
	eventSentence,
	statusAction,
	type Viewer,
} from "../../view/discussions";
import { formatDate, formatRelative } from "../../view/format";
import NotFound from "../../pages/NotFound";
import { ConfirmPrompt } from "../ConfirmButton";
import { ErrorNotice, Loading } from "../Status";
import { CommentBody } from "./CommentBody";
import { DiscussionHeader } from "./DiscussionHeader";
import { useViewer } from "./useViewer";

/** A discussion or pull request (`/{id}/discussions/{num}`): its events, the comment box, its buttons. */
export function DiscussionThread({ repoId, num }: { repoId: string; num: number }) {
	const discussion = useDiscussion(repoId, num, false);
	const { details } = discussion;
	useDocumentTitle(
		browseTitle(
			repoId,
			{ kind: "discussion", num },
			undefined,
			details.data ? { title: details.data.title } : undefined,
		),
	);
	if (details.status === "loading") return <Loading label="Loading the discussion" />;
	if (details.status === "error") {
		if (details.error instanceof ApiError && details.error.status === 404)
			return <NotFound title="Discussion not found" message={`${repoId} has no discussion #${num}.`} />;
		return <ErrorNotice title="Could not load the discussion">{details.error.message}</ErrorNotice>;
	}
	return <Thread repoId={repoId} details={details.data} discussion={discussion} />;
}

function Thread({
	repoId,
	details,
	discussion,
}: {
	repoId: string;
	details: DiscussionDetails;
	discussion: DiscussionActions;
}) {
	const api = useApiOptions();
	const repoType = useRepoType();
	const viewer = useViewer();
	const rights = discussionRights(details, viewer);
	const action = statusAction(details);
	const { busy, error, run } = discussion;
	const conflicts = details.filesWithConflicts ?? [];
	return (
		<section aria-labelledby="discussion-title" className="discussion">
			<DiscussionHeader repoId={repoId} details={details} current="conversation" />
			<ol className="discussion-events">
				{details.events.map((event) =>
					event.type === "comment" ? (
						<li key={event.id}>
							<Comment
								repoId={repoId}
								num={details.num}
								comment={event}
								viewer={viewer}
								canHide={canHideComment(event, details, viewer)}
								discussion={discussion}
							/>
						</li>
					) : (
						<li key={event.id} className="discussion-event">
							<strong>{event.author.name}</strong> {eventSentence(event, details.isPullRequest)}
							{event.type === "commit" ? (
								<>
									{" "}
									<Link to={browseHref(repoId, { kind: "commit", revision: event.data.oid }, repoType)}>
										<code>{shortCommitId(event.data.oid)}</code>
									</Link>
								</>
							) : null}{" "}
							<span className="muted">
								<time dateTime={event.createdAt} title={formatDate(event.createdAt)}>
									{formatRelative(event.createdAt)}
								</time>
							</span>
						</li>
					),
				)}
			</ol>
			{details.isPullRequest && details.status !== "merged" && conflicts.length > 0 ? (
				<div className="notice notice-warning">
					<strong>Conflicting files</strong>
					<div>
						Changed on the target branch since this pull request started: {conflicts.slice(0, 20).join(", ")}
						{conflicts.length > 20 ? ", …" : ""}
					</div>
				</div>
			) : null}
			{error ? <ErrorNotice title="The hub refused the change">{error}</ErrorNotice> : null}
			{rights.merge || (rights.changeStatus && action) ? (
				<div className="form-actions discussion-actions">
					{rights.merge ? (
						<button
							type="button"
							className="btn btn-primary"
							disabled={busy !== undefined}
							onClick={() => void run("merge", () => mergePullRequest(repoId, details.num, api))}
						>
							{busy === "merge" ? "Merging…" : "Merge"}
						</button>
					) : null}
					{rights.changeStatus && action ? (
						<button
							type="button"
							className="btn btn-secondary"
							disabled={busy !== undefined}
							onClick={() =>
								void run("status", () => setDiscussionStatus(repoId, details.num, action.status, api))
							}
						>
							{action.label}
						</button>
					) : null}
				</div>
			) : null}
			{rights.comment ? (
				<CommentBox repoId={repoId} num={details.num} discussion={discussion} />
			) : viewer === undefined ? (
				<p className="muted">
					<Link to="/login">Sign in</Link> to comment.
				</p>
			) : null}
		</section>
	);
}

function Comment({
	repoId,
	num,
	comment,
	viewer,
	canHide,
	discussion,
}: {
	repoId: string;
	num: number;
	comment: CommentEvent;
	viewer: Viewer;
	/** The viewer may hide it: their own, or any as a writer. */
	canHide: boolean;
	discussion: DiscussionActions;
}) {
	const api = useApiOptions();
	const [editing, setEditing] = useState(false);
	// Hiding drops the text for good, so the first click only asks.
	const [confirmingHide, setConfirmingHide] = useState(false);
	const [text, setText] = useState(comment.data.latest.raw);
	const editId = useId();
	const label = `Comment by ${comment.author.name}, ${formatDate(comment.createdAt)}`;
	const save = (event: FormEvent) => {
		event.preventDefault();
		void discussion
			.run(`edit-${comment.id}`, () => editComment(repoId, num, comment.id, text, api))
			.then((saved) => {
				if (saved) setEditing(false);
			});
	};
	return (
		<article className="discussion-comment" aria-label={label}>
			<header className="discussion-comment-header">
				<strong>{comment.author.name}</strong>{" "}
				<span className="muted">
					<time dateTime={comment.createdAt} title={formatDate(comment.createdAt)}>
						{formatRelative(comment.createdAt)}
					</time>
					{comment.data.edited ? " · edited" : ""}
				</span>
				{canEditComment(comment, viewer) && !editing ? (
					<button type="button" className="link-button" onClick={() => setEditing(true)}>
						Edit<span className="visually-hidden"> the comment</span>
					</button>
				) : null}
				{canHide && !editing && !confirmingHide ? (
					<button type="button" className="link-button" onClick={() => setConfirmingHide(true)}>
						Hide<span className="visually-hidden"> the comment</span>
					</button>
				) : null}
			</header>
			{canHide && confirmingHide ? (
				<ConfirmPrompt
					variant="panel"
					className="notice notice-warning comment-hide"
					question="Hide this comment? Its text is removed for everyone, and this cannot be undone."
					confirm={discussion.busy === `hide-${comment.id}` ? "Hiding…" : "Hide comment"}
					cancel="Cancel"
					busy={discussion.busy !== undefined}
					onConfirm={async () => {
						// Closed whatever the outcome: a failure shows in the thread's error notice.
						await discussion.run(`hide-${comment.id}`, () => hideComment(repoId, num, comment.id, api));
					}}
					onClose={() => setConfirmingHide(false)}
				/>
			) : null}
			{comment.data.hidden ? (
				<p className="muted comment-hidden">
					This comment has been hidden{comment.data.hiddenBy ? ` by ${comment.data.hiddenBy}` : ""}.
				</p>
			) : editing ? (
				<form onSubmit={save} className="comment-edit">
					<label htmlFor={editId} className="visually-hidden">
						Edit the comment
					</label>
					<textarea
						id={editId}
						className="input"
						rows={5}
						value={text}
						onChange={(event) => setText(event.target.value)}
					/>
					<div className="form-actions">
						<button
							type="submit"
							className="btn btn-primary btn-small"
							disabled={discussion.busy !== undefined || text.trim() === ""}
						>
							Save
						</button>
						<button type="button" className="btn btn-secondary btn-small" onClick={() => setEditing(false)}>
							Cancel
						</button>
					</div>
				</form>
			) : comment.data.latest.raw.trim() === "" ? (
				<p className="muted">No description provided.</p>
			) : (
				<CommentBody markdown={comment.data.latest.raw} repoId={repoId} label={label} />
			)}
		</article>
	);
}

function CommentBox({
	repoId,
	num,
	discussion,
}: {
	repoId: string;
	num: number;
	discussion: DiscussionActions;
}) {
	const api = useApiOptions();
	const [text, setText] = useState("");
	const id = useId();
	const submit = (event: FormEvent) => {
		event.preventDefault();
		void discussion
			.run("comment", () => commentDiscussion(repoId, num, text, api))
			.then((sent) => {
				if (sent) setText("");
			});
	};
	return (
		<form className="comment-box" aria-label="Add a comment" onSubmit={submit}>
			<div className="field">
				<label htmlFor={id}>Comment</label>
				<textarea
					id={id}
					className="input"
					rows={5}
					value={text}
					disabled={discussion.busy === "comment"}
					onChange={(event) => setText(event.target.value)}
				/>
				<p className="field-hint">Markdown is supported.</p>
			</div>
			<div className="form-actions">
				<button
					type="submit"
					className="btn btn-primary"
					disabled={discussion.busy !== undefined || text.trim() === ""}
				>
					Comment
				</button>
			</div>
		</form>
	);
}
