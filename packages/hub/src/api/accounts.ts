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
