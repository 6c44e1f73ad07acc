import type { Whoami, WhoamiEntity } from "../api/accounts.js";
import type { AccountRef, Viewer } from "./viewer.js";

/**
 * `GET /api/whoami-v2` in the public hub's shape: the fields huggingface_hub 2.0 reads (`name`,
 * `type`, `orgs[].name`, `auth.accessToken.role` and `.displayName`, which `login()` stores the token
 * under) and the rest of the entity with what this hub knows (no e-mail, billing or avatar).
 */
export function whoamiJson(viewer: Exclude<Viewer, { kind: "anonymous" }>): Whoami {
	if (viewer.kind === "admin") {
		return {
			type: "app",
			id: "modelhub-admin",
			name: "modelhub-admin",
			scope: { entities: [], role: "admin" },
			auth: { type: "access_token", accessToken: { displayName: "MODELHUB_ADMIN_TOKEN", role: "admin" } },
		};
	}
	const entity = <Type extends "user" | "org">(account: AccountRef, type: Type): WhoamiEntity<Type> => ({
		type,
		id: account.objectId,
		name: account.name,
		fullname: account.fullname,
		email: null,
		canPay: false,
		avatarUrl: "",
		periodEnd: null,
	});
	return {
		...entity(viewer.account, "user"),
		emailVerified: false,
		isPro: false,
		orgs: viewer.orgs.map((org) => ({ ...entity(org, "org"), roleInOrg: org.role })),
		auth: {
			type: "access_token",
			accessToken: {
				displayName: viewer.token.displayName,
				role: viewer.token.role,
				createdAt: viewer.token.createdAt,
			},
		},
		...(viewer.siteAdmin ? { siteAdmin: true as const } : {}),
	};
}
