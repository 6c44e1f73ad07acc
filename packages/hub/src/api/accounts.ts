/** Who a token belongs to: `GET /api/whoami-v2`, in the public hub's shape. */
import type { Role, TokenRole } from "../vocabulary.js";

/** A role in an organisation: read (see private repositories), write (also change them), admin. */
export type OrgRole = Role;

/** A token's scope: a read token never writes. */
export type { TokenRole };

/** What a user or organisation shows of itself (no e-mail, billing or avatar on this hub). */
export interface WhoamiEntity<Type extends "user" | "org"> {
	type: Type;
	id: string;
	name: string;
	fullname: string;
	email: null;
	canPay: false;
	avatarUrl: string;
	periodEnd: null;
}

export interface WhoamiOrg extends WhoamiEntity<"org"> {
	roleInOrg: OrgRole;
}

/** A user's access token. */
export interface WhoamiUser extends WhoamiEntity<"user"> {
	emailVerified: false;
	isPro: false;
	orgs: WhoamiOrg[];
	auth: {
		type: "access_token";
		/** `displayName` is the name huggingface_hub's `login()` stores the token under. */
		accessToken: { displayName: string; role: TokenRole; createdAt: string };
	};
	/** ModelHub's own, present only for site admins (who manage accounts and invites at /settings/admin). */
	siteAdmin?: true;
}

/** The hub's admin token (MODELHUB_ADMIN_TOKEN). */
export interface WhoamiAdmin {
	type: "app";
	id: string;
	name: string;
	scope: { entities: string[]; role: "admin" };
	auth: { type: "access_token"; accessToken: { displayName: string; role: "admin" } };
}

export type Whoami = WhoamiUser | WhoamiAdmin;

/**
 * `GET /api/accounts/{name}/storage` (ModelHub's own; the public hub has no such answer that
 * huggingface_hub reads): what the account's namespace holds and may hold. Usage is the bytes of the
 * distinct files its repositories refer to (every commit, plus uploads not yet committed).
 */
export interface AccountStorageInfo {
	/** The account's name as stored. */
	account: string;
	kind: "user" | "org";
	usedBytes: number;
	/** null: unlimited. */
	limitBytes: number | null;
	/** The configured default of the account's kind, or the admin's setting for this account. */
	limitSource: "default" | "account";
}
