/**
 * Discussions and pull requests (issue 24), in the public hub's shapes as huggingface_hub 2.x reads them
 * (`hf_api.get_repo_discussions`, `get_discussion_details`, `community.deserialize_event`).
 */

export type DiscussionStatusName = "open" | "closed" | "merged" | "draft";

/** Who wrote something: huggingface_hub reads `name` ("deleted" when absent). */
export interface DiscussionAuthor {
	name: string;
	fullname: string;
	type: "user";
	avatarUrl: string;
}

/** One discussion or pull request in a listing. */
export interface ListedDiscussion {
	num: number;
	title: string;
	status: DiscussionStatusName;
	isPullRequest: boolean;
	createdAt: string;
	author: DiscussionAuthor;
	repo: { name: string; type: "model" | "dataset" | "space" };
	/** How many comments it has (shown in the web's list). */
	numComments: number;
	pinned: false;
}

/** `GET /api/{type}s/{id}/discussions?p=&type=&status=&author=&search=` */
export interface DiscussionPage {
	discussions: ListedDiscussion[];
	count: number;
	start: number;
	numClosedDiscussions: number;
}

export interface DiscussionListParameters {
	p: string;
	type: "all" | "discussion" | "pull_request";
	status: "all" | "open" | "closed";
	author: string;
	search: string;
}

interface EventBase {
	id: string;
	createdAt: string;
	author: DiscussionAuthor;
}

/** A comment: `data.latest.raw` is its Markdown, `data.latest.html` that text escaped (never rendered HTML). */
export interface CommentEvent extends EventBase {
	type: "comment";
	data: {
		edited: boolean;
		hidden: boolean;
		hiddenBy?: string;
		latest: { raw: string; html: string; updatedAt: string; author: DiscussionAuthor };
		numEdits: number;
		editors: string[];
		history: Array<{ raw: string; updatedAt: string; author: DiscussionAuthor }>;
		reactions: [];
		isReport: false;
	};
}

export interface StatusChangeEvent extends EventBase {
	type: "status-change";
	data: { status: DiscussionStatusName };
}

export interface CommitEvent extends EventBase {
	type: "commit";
	data: { subject: string; oid: string };
}

export interface TitleChangeEvent extends EventBase {
	type: "title-change";
	data: { from: string; to: string };
}

export type DiscussionEventJson = CommentEvent | StatusChangeEvent | CommitEvent | TitleChangeEvent;

/** `GET /api/{type}s/{id}/discussions/{num}` (`diff=1` adds the pull request's `diff`). */
export interface DiscussionDetails extends Omit<ListedDiscussion, "numComments"> {
	events: DiscussionEventJson[];
	/** Pull requests: `base` is the target (`refs/heads/main`), `mergeCommitId` once merged. */
	changes?: { base: string; mergeCommitId?: string; headCommitId?: string };
	/** Pull requests: files changed both in it and on its target since it started. */
	filesWithConflicts?: string[];
	/** Pull requests, with `diff=1`: a git-style diff of the pull request against where it started. */
	diff?: string;
	/** The diff was cut at MODELHUB_PR_DIFF_MAX_BYTES or its file limit. */
	diffTruncated?: boolean;
	/**
	 * With `diff=1`, on a gated repository the viewer has no access to the files of: no `diff` (it is their
	 * contents). ModelHub's own field (the web tells why there is no diff); huggingface_hub reads `diff` as None.
	 */
	diffWithheld?: boolean;
	/** What the viewer may do here (the web's buttons). */
	canWrite?: boolean;
}

/** `POST …/discussions` `{ title, description, pullRequest }` → `{ num, url, pullRequest }` plus the details. */
export interface CreateDiscussionRequest {
	title: string;
	description: string;
	pullRequest: boolean;
}

export interface CreatedDiscussion {
	num: number;
	url: string;
	/** The ref commits to the pull request go to (`refs/pr/N`). */
	gitReference?: string;
}

export interface CommentRequest {
	comment: string;
}
export interface TitleRequest {
	title: string;
}
export interface StatusRequest {
	status: "open" | "closed";
	comment: string;
}
export interface EditCommentRequest {
	content: string;
}

/** `POST …/comment` → `{ newMessage }`; `…/title` → `{ newTitle }`; `…/status` → `{ newStatus }`. */
export interface NewMessage {
	newMessage: CommentEvent;
}
export interface NewTitle {
	newTitle: TitleChangeEvent;
}
export interface NewStatus {
	newStatus: StatusChangeEvent;
}
/** `POST …/comment/{id}/edit` and `…/hide`. */
export interface UpdatedComment {
	updatedComment: CommentEvent;
}
/** `POST …/merge`. */
export interface MergedPullRequest {
	num: number;
	mergeCommitId: string;
}
