/**
 * Gated access and likes, as huggingface_hub 2.x calls them: `update_repo_settings(gated=…)`, the
 * access-request lists and their handling (`/api/{type}s/{id}/user-access-request/…`), `grant_access`,
 * `unlike`, `list_liked_repos` (`/api/users/{name}/likes`) and `list_repo_likers` (`…/likers`).
 */

/** How a gated repository answers access requests; false when it is not gated. */
export type GatedSetting = "auto" | "manual" | false;

/** The states of an access request (huggingface_hub's AccessRequest.status). */
export type AccessRequestStatus = "pending" | "accepted" | "rejected";

/** One entry of `GET /api/{type}s/{id}/user-access-request/{status}` (paged by `Link`). */
export interface AccessRequestEntry {
	user: { user: string; fullname: string; email?: string };
	status: AccessRequestStatus;
	/** ISO 8601: when the user asked (or was granted access). */
	timestamp: string;
	/** The answers to the card's `extra_gated_fields`, when it asks for any. */
	fields?: Record<string, unknown>;
	/** The owner's reason, on rejected requests that were given one. */
	rejectionReason?: string;
}

/** The body of `POST /api/{type}s/{id}/user-access-request/handle`. */
export interface HandleAccessRequest {
	user: string;
	status: AccessRequestStatus;
	rejectionReason?: string;
}

/** The body of `POST /api/{type}s/{id}/user-access-request/grant`. */
export interface GrantAccessRequest {
	user: string;
}

/** The body of `POST /api/{type}s/{id}/ask-access` (this hub's: the web's request form sends it). */
export interface AskAccessRequest {
	/** Answers to the card's `extra_gated_fields`, by field name. */
	fields?: Record<string, string | boolean>;
}

/** A field of a gated repository's request form (the card's `extra_gated_fields`). */
export interface GatedField {
	name: string;
	type: "text" | "checkbox" | "date_picker" | "country" | "select";
	/** A select's options: `value` is sent, `label` shown. */
	options?: Array<{ label: string; value: string }>;
}

/**
 * `GET /api/{type}s/{id}/ask-access` (this hub's): what the viewer sees of a gated repository's
 * access — whether it is gated, the viewer's own request, and the card's form.
 */
export interface AccessState {
	gated: GatedSetting;
	/**
	 * `member`: the viewer holds a role in the repository's namespace (files always readable);
	 * `anonymous`: not signed in; otherwise the viewer's request, or `none`.
	 */
	access: "member" | "anonymous" | "none" | AccessRequestStatus;
	/** The card's `extra_gated_prompt`, `extra_gated_heading` and `extra_gated_button_content`. */
	prompt?: string;
	heading?: string;
	buttonContent?: string;
	fields: GatedField[];
}

/** The answer of liking or unliking (this hub's; huggingface_hub reads only the status). */
export interface LikeAnswer {
	liked: boolean;
	likes: number;
}

/** One entry of `GET /api/{type}s/{id}/likers` (paged by `Link`). */
export interface RepoLiker {
	user: string;
	fullname: string;
	/** This hub keeps no avatars: always "". */
	avatarUrl: string;
}

/** One entry of `GET /api/users/{name}/likes` (paged by `Link`), most recent first. */
export interface UserLike {
	createdAt: string;
	repo: { name: string; type: "model" | "dataset" };
}
