/**
 * Users and organisations as the public hub shows them (huggingface_hub 2.0's `get_user_overview`,
 * `get_organization_overview` and `list_organization_members` read `user`, `name`, `fullname`,
 * `avatarUrl`, `type`, `numModels`, `numUsers` and `orgs`), the members an organisation admin manages,
 * and the header search (`GET /api/quicksearch`).
 */
import type { OrgRole } from "./accounts.js";

/** An organisation as a user's overview and the search name it. */
export interface OrgSummary {
	_id: string;
	name: string;
	fullname: string;
	type: "org";
	/** This hub keeps no avatars: always "". */
	avatarUrl: string;
}

/** `GET /api/users/{name}/overview`. */
export interface UserOverview {
	_id: string;
	user: string;
	fullname: string;
	type: "user";
	avatarUrl: string;
	createdAt: string;
	/** The user's models that whoever asks may see (private ones only for readers of the namespace). */
	numModels: number;
	orgs: OrgSummary[];
}

/** `GET /api/organizations/{name}/overview`. */
export interface OrgOverview extends OrgSummary {
	createdAt: string;
	numUsers: number;
	/** As UserOverview's: the models whoever asks may see. */
	numModels: number;
}

/** One entry of `GET /api/organizations/{name}/members` (paged by a `Link: <…>; rel="next"` header). */
export interface OrgMemberEntry {
	_id: string;
	user: string;
	fullname: string;
	type: "user";
	avatarUrl: string;
	/** Shown to the organisation's members and the hub admin only. */
	role?: OrgRole;
}

export interface OrgMembersParameters {
	limit: number;
	cursor: string;
}

/** `PUT /api/organizations/{org}/members/{user}`: adds the user, or changes their role. */
export interface SetOrgMemberRequest {
	role: OrgRole;
}

/** The answer to a member change. */
export interface OrgMemberChange {
	org: string;
	user: string;
	/** null when the user was removed. */
	role: OrgRole | null;
}

/** `GET /api/quicksearch?q=…&type=model&type=dataset&type=user&type=org&limit=…`. */
export interface QuickSearchParameters {
	q: string;
	type: "model" | "dataset" | "user" | "org";
	limit: number;
}

export interface QuickSearchUser {
	_id: string;
	user: string;
	fullname: string;
	type: "user";
	avatarUrl: string;
}

export interface QuickSearchAnswer {
	q: string;
	/** Models whose id contains every word of `q`, most downloaded first, that whoever asks may see. */
	models: Array<{ _id: string; id: string }>;
	/** How many models match, counted up to a bound (see packages/hub/README.md). */
	modelsCount: number;
	/** Datasets, as models: private ones only for readers of their namespace. */
	datasets: Array<{ _id: string; id: string }>;
	/** How many datasets match, counted up to the same bound as models. */
	datasetsCount: number;
	users: QuickSearchUser[];
	orgs: OrgSummary[];
}
