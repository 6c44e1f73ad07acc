import { ADMIN, actorName, AUTH_REQUIRED, RefusedError, type Viewer } from "../accounts/viewer.js";
import type { AuditEntry } from "../audit/log.js";

/** Who acts through a service: whose rights apply, and how the audit log names them. */
export interface Actor {
	viewer: Viewer;
	/** The account (or `@admin`, `@cli`), the token's id (never its secret), the client's address. */
	audit: Pick<AuditEntry, "actor" | "tokenId" | "ip">;
}

/** The command line: the hub admin's rights, named `@cli` in the audit log. */
export const CLI_ACTOR: Actor = Object.freeze({ viewer: ADMIN, audit: Object.freeze({ actor: "@cli" }) });

/** An actor for a viewer (a request's, with its token id and address added by the route). */
export function actorFor(viewer: Viewer, ip?: string): Actor {
	return {
		viewer,
		audit: {
			actor: actorName(viewer),
			...(viewer.kind === "user" ? { tokenId: viewer.token.id } : {}),
			...(ip !== undefined ? { ip } : {}),
		},
	};
}

/** Refuses anyone but the hub admin (the admin token, or the command line). */
export function requireAdmin(actor: Actor): void {
	if (actor.viewer.kind !== "admin") {
		throw new RefusedError({ status: 403, message: "This needs the hub admin token (MODELHUB_ADMIN_TOKEN)" });
	}
}

/**
 * Refuses anyone but the hub admin and site admins (users the hub admin made one, acting with a write
 * token or a browser session): who may manage accounts and invites.
 */
export function requireSiteAdmin(actor: Actor): void {
	const viewer = actor.viewer;
	if (viewer.kind === "admin") return;
	if (viewer.kind === "anonymous") throw new RefusedError({ status: 401, message: AUTH_REQUIRED });
	if (viewer.siteAdmin !== true) {
		throw new RefusedError({
			status: 403,
			message: "This needs a site admin (or the hub admin token, MODELHUB_ADMIN_TOKEN)",
		});
	}
	if (viewer.token.role !== "write") {
		throw new RefusedError({
			status: 403,
			message: "A read token cannot manage accounts: use a write token",
		});
	}
}

/** Who a commit made by an actor is by (git author): the account, or the hub itself for the admin. */
export function commitAuthor(actor: Actor): { authorName: string; authorEmail: string } {
	const viewer = actor.viewer;
	if (viewer.kind === "user") {
		return { authorName: viewer.account.name, authorEmail: `${viewer.account.name}@users.modelhub.invalid` };
	}
	return { authorName: "ModelHub", authorEmail: "hub@modelhub.invalid" };
}
