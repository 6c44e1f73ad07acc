/**
 * Who is making a request, and what they may do. Pure functions over the Viewer (loaded once per
 * request from the token), so every route asks the same questions and gets the same answers.
 *
 * Rights on a repository come from its namespace: a user has every right on their own namespace, an
 * organisation member has their role's (read: see private repositories; write: also create and change
 * repositories; admin: also delete them and change their visibility). A token's scope caps them: a read
 * token never writes. The admin token (MODELHUB_ADMIN_TOKEN) may do everything everywhere.
 */

import type { RepoId } from "@modelhub/tasks/repositories";
import { BEARER_CHALLENGE, HubError, kindOfStatus, REPO_NOT_FOUND } from "../errors.js";
import type { Role, TokenRole } from "../vocabulary.js";

export interface AccountRef {
	name: string;
	objectId: string;
	fullname: string;
}

export interface TokenRef {
	id: string;
	displayName: string;
	role: TokenRole;
	createdAt: string;
}

export interface OrgMembership extends AccountRef {
	role: Role;
}

export type Viewer =
	| { kind: "anonymous" }
	| { kind: "admin" }
	| {
			kind: "user";
			account: AccountRef;
			token: TokenRef;
			orgs: OrgMembership[];
			/** Signed in through a browser session (a cookie), not an access token. */
			session?: true;
			/** A site admin: manages accounts and invites (granted by the hub admin; migration 19). */
			siteAdmin?: true;
	  };

export const ANONYMOUS: Viewer = Object.freeze({ kind: "anonymous" });
export const ADMIN: Viewer = Object.freeze({ kind: "admin" });

const RANK: Record<Role, number> = { read: 1, write: 2, admin: 3 };

/** The viewer's role in a namespace (case-insensitive), before the token's scope is applied. */
export function namespaceRole(viewer: Viewer, namespace: string | null | undefined): Role | undefined {
	if (viewer.kind === "admin") return "admin";
	if (viewer.kind !== "user" || !namespace) return undefined;
	const lower = namespace.toLowerCase();
	if (viewer.account.name.toLowerCase() === lower) return "admin";
	return viewer.orgs.find((org) => org.name.toLowerCase() === lower)?.role;
}

/** Namespaces (lower-cased) whose private repositories the viewer sees, or "all". */
export function readableNamespaces(viewer: Viewer): string[] | "all" {
	if (viewer.kind === "admin") return "all";
	if (viewer.kind !== "user") return [];
	return [viewer.account.name, ...viewer.orgs.map((org) => org.name)].map((name) => name.toLowerCase());
}

/** What the rights on a repository depend on: its identity (its namespace above all) and its visibility. */
export interface RepoRef extends Pick<RepoId, "type" | "id" | "namespace"> {
	private: boolean;
	/** Gated access ("auto" or "manual" approval of access requests); null or absent when not gated. */
	gated?: "auto" | "manual" | null;
}

export function canRead(viewer: Viewer, repo: Pick<RepoRef, "namespace" | "private">): boolean {
	return !repo.private || namespaceRole(viewer, repo.namespace) !== undefined;
}

/** Why a viewer may not do something: the status and message to answer with. */
export interface Refusal {
	status: 401 | 403 | 404;
	message: string;
	/** RepoNotFound: a private repository is answered as if it did not exist. */
	hidden?: boolean;
}

/**
 * A refusal as an error: a hidden repository reads as RepoNotFound; other refusals show their message
 * in X-Error-Message too (huggingface_hub prints it in its 401 and 403 errors).
 */
export class RefusedError extends HubError {
	override name = "RefusedError";
	constructor(readonly refusal: Refusal) {
		super(
			refusal.hidden ? "NotFound" : kindOfStatus(refusal.status),
			refusal.hidden ? REPO_NOT_FOUND : refusal.message,
			refusal.hidden
				? { code: "RepoNotFound" }
				: {
						messageHeader: refusal.message,
						...(refusal.status === 401 ? { challenge: BEARER_CHALLENGE } : {}),
					},
		);
	}
}

/** A repository that does not exist, refused exactly as a private one the viewer may not read. */
export const REPO_MISSING: Refusal = Object.freeze({
	status: 404,
	message: REPO_NOT_FOUND,
	hidden: true,
});

export const AUTH_REQUIRED =
	"Authentication required: send a write token as 'Authorization: Bearer <token>' (ask your hub admin for one)";

function readOnlyToken(token: TokenRef): Refusal {
	return {
		status: 403,
		message: `Your token '${token.displayName}' is read-only: use a token with the 'write' scope to make changes`,
	};
}

function viewerName(viewer: Viewer): string {
	return viewer.kind === "user" ? viewer.account.name : "you";
}

/**
 * Why the viewer may not act with `need` on the namespace (creating a repository in it), or undefined
 * when they may.
 */
export function namespaceRefusal(viewer: Viewer, namespace: string, need: Role): Refusal | undefined {
	if (viewer.kind === "anonymous") return { status: 401, message: AUTH_REQUIRED };
	if (viewer.kind === "admin") return undefined;
	if (viewer.token.role === "read" && need !== "read") return readOnlyToken(viewer.token);
	const role = namespaceRole(viewer, namespace);
	if (role === undefined) {
		return {
			status: 403,
			message: `You (${viewerName(viewer)}) don't have the rights to ${need === "read" ? "read" : "write to"} the namespace ${namespace}: it is neither yours nor an organisation you belong to`,
		};
	}
	if (RANK[role] < RANK[need]) {
		return {
			status: 403,
			message: `You (${viewerName(viewer)}) have the '${role}' role in ${namespace}; this needs the '${need}' role`,
		};
	}
	return undefined;
}

/**
 * Why the viewer may not act with `need` on a repository, or undefined. A private repository the
 * viewer cannot read is refused as not found, so its existence stays hidden.
 */
export function repoRefusal(viewer: Viewer, repo: RepoRef, need: Role): Refusal | undefined {
	if (!canRead(viewer, repo)) return { status: 404, message: "Repository not found", hidden: true };
	if (need === "read") return undefined;
	if (!repo.namespace) return bareRepoRefusal(viewer, repo, need);
	const refusal = namespaceRefusal(viewer, repo.namespace, need);
	if (refusal && refusal.status === 403 && viewer.kind === "user" && viewer.token.role !== "read") {
		const role = namespaceRole(viewer, repo.namespace);
		return {
			status: 403,
			message:
				role === undefined
					? `You (${viewer.account.name}) don't have write access to ${repo.id}: it belongs to ${repo.namespace}, and you are not a member`
					: `You (${viewer.account.name}) have the '${role}' role in ${repo.namespace}; ${need === "admin" ? "deleting a repository or changing its visibility" : "writing to a repository"} needs the '${need}' role`,
		};
	}
	return refusal;
}

/**
 * Why the viewer may not change a repository without a namespace (`gpt2`, `squad`), or undefined. As the
 * public hub keeps such repositories to its staff, here they are the site's: the hub admin, and site
 * admins (whom the hub admin names) acting with a write token or a browser session, who commit, make
 * branches and tags and merge pull requests. Deleting one or changing its visibility (`admin`) stays
 * the hub admin's: a private one has no namespace whose members could read it, so only the hub admin
 * does. Others may read them and open pull requests (participantRefusal), nothing more.
 */
function bareRepoRefusal(viewer: Viewer, repo: RepoRef, need: Role): Refusal | undefined {
	if (viewer.kind === "admin") return undefined;
	if (viewer.kind === "anonymous") return { status: 401, message: AUTH_REQUIRED };
	if (viewer.token.role === "read") return readOnlyToken(viewer.token);
	if (viewer.siteAdmin === true) {
		if (need !== "admin") return undefined;
		return {
			status: 403,
			message: `${repo.id} has no namespace: deleting it or changing its visibility needs the hub admin token (MODELHUB_ADMIN_TOKEN)`,
		};
	}
	return {
		status: 403,
		message: `You (${viewer.account.name}) don't have write access to ${repo.id}: it has no namespace, and only the hub admin and site admins change such repositories (open a pull request instead)`,
	};
}

/** Who did it, as the audit log and commits name them. */
export function actorName(viewer: Viewer): string {
	if (viewer.kind === "user") return viewer.account.name;
	return viewer.kind === "admin" ? "@admin" : "@anonymous";
}
