import { namespaceRole, RefusedError, repoRefusal, type RepoRef, type Viewer } from "../accounts/viewer.js";
import { findAccount } from "../accounts/people.js";
import type { AccessRequestEntry, AccessState } from "../api/community.js";
import { HubError } from "../errors.js";
import { cardText, checkAnswers, gatedFields } from "../gated/form.js";
import {
	cardDataOf,
	findRequest,
	isAccepted,
	listRequests,
	saveRequest,
	type AccessRequestRow,
	type AccessStatus,
} from "../gated/store.js";
import type { Actor } from "./actor.js";
import { write, type WriteContext } from "./write.js";

/**
 * Gated repositories (hub-docs "Gated models"): their metadata stays visible as any public
 * repository's, their files are served only to those with access — the namespace's members (a user's
 * own, an organisation's members of any role), the hub admin, and users whose access request was
 * accepted (at once in `auto` mode, by a writer of the repository in `manual` mode, or granted).
 * A rejected user cannot ask again. Access is never granted to an organisation as such.
 */

/** The card at the repository's root stays readable to everyone, as on the public hub. */
const ALWAYS_READABLE = new Set(["README.md"]);
/** The longest rejection reason kept (huggingface_hub documents 200 characters). */
export const MAX_REJECTION_REASON = 200;

function typeWord(repo: RepoRef): string {
	return repo.type === "dataset" ? "dataset" : "model";
}

/**
 * Whether the viewer holds a role in the repository's namespace (or is the hub admin); for a repository
 * without a namespace, whether they are a site admin, who handle its access requests (bareRepoRefusal).
 */
function isMember(viewer: Viewer, repo: RepoRef): boolean {
	if (!repo.namespace && viewer.kind === "user" && viewer.siteAdmin === true) return true;
	return namespaceRole(viewer, repo.namespace) !== undefined;
}

/**
 * Whether the viewer may read the contents of `path` in the repository (`""`: of every file, as a git
 * clone, an LFS download or a pull request's diff does): always unless it is gated; then for members of
 * its namespace, the hub admin and users whose request was accepted, and for anyone the card
 * (README.md, ALWAYS_READABLE). Every route that serves file bytes or what is read from them asks this,
 * through requireFileAccess, or here directly when it answers without the contents instead of refusing.
 */
export async function hasFileAccess(
	context: Pick<WriteContext, "db">,
	viewer: Viewer,
	repo: RepoRef,
	path = "",
): Promise<boolean> {
	if (!repo.gated || ALWAYS_READABLE.has(path) || isMember(viewer, repo)) return true;
	return viewer.kind === "user" && (await isAccepted(context.db, repo, viewer.account.name));
}

/**
 * Refuses a file of a gated repository (`path`, or `""` for all of them: hasFileAccess) to a viewer
 * without access, with the public hub's error (`X-Error-Code: GatedRepo`, which huggingface_hub raises
 * as GatedRepoError): 401 "… Please log in." when anonymous, 403 "… not in the authorized list. Visit
 * {page} to ask for access." otherwise. `pageUrl` is the repository's page, where the request form is;
 * `challenge` goes with the 401 (git's Basic challenge, so that git asks for credentials).
 */
export async function requireFileAccess(
	context: Pick<WriteContext, "db">,
	viewer: Viewer,
	repo: RepoRef,
	path: string,
	// Built only for the refusal's message: most downloads are of repositories that are not gated.
	pageUrl: () => string,
	challenge?: string,
): Promise<void> {
	if (await hasFileAccess(context, viewer, repo, path)) return;
	const subject = `Access to ${typeWord(repo)} ${repo.id} is restricted`;
	if (viewer.kind === "anonymous") {
		throw new HubError(
			"Unauthorized",
			`${subject}. You must have access to it and be authenticated to access it. Please log in.`,
			{ code: "GatedRepo", ...(challenge !== undefined ? { challenge } : {}) },
		);
	}
	throw new HubError(
		"Forbidden",
		`${subject} and you are not in the authorized list. Visit ${pageUrl()} to ask for access.`,
		{ code: "GatedRepo" },
	);
}

function notGated(repo: RepoRef): HubError {
	return new HubError(
		"Invalid",
		`${repo.id} is not gated: access requests exist only for gated repositories (update_repo_settings(gated="auto" or "manual"))`,
	);
}

/** The owner's side needs write access to the repository (hub-docs: a write token or role). */
function requireOwnerSide(viewer: Viewer, repo: RepoRef): void {
	const refusal = repoRefusal(viewer, repo, "write");
	if (refusal) throw new RefusedError(refusal);
	if (!repo.gated) throw notGated(repo);
}

function entryOf(row: AccessRequestRow, withEmail: boolean): AccessRequestEntry {
	return {
		user: {
			user: row.account,
			fullname: row.fullname,
			...(withEmail && row.email ? { email: row.email } : {}),
		},
		status: row.status,
		timestamp: row.requestedAt,
		...(row.fields && Object.keys(row.fields).length > 0 ? { fields: row.fields } : {}),
		...(row.rejectionReason ? { rejectionReason: row.rejectionReason } : {}),
	};
}

/** The position after which the next page of a request list starts. */
export interface AccessCursor {
	requestedAt: string;
	account: string;
}

/** A page of a gated repository's requests in one status (owner side), and where the next starts. */
export async function listAccessRequests(
	context: Pick<WriteContext, "db">,
	viewer: Viewer,
	repo: RepoRef,
	status: AccessStatus,
	page: { limit: number; after?: AccessCursor | undefined },
): Promise<{ entries: AccessRequestEntry[]; next: AccessCursor | undefined }> {
	requireOwnerSide(viewer, repo);
	const rows = await listRequests(context.db, repo, status, { limit: page.limit + 1, after: page.after });
	const shown = rows.slice(0, page.limit);
	const last = shown.at(-1);
	return {
		entries: shown.map((row) => entryOf(row, true)),
		next:
			rows.length > page.limit && last ? { requestedAt: last.requestedAt, account: last.account } : undefined,
	};
}

/** The user an owner names (a user account, not an organisation), or 404. */
async function namedUser(context: Pick<WriteContext, "db">, name: unknown): Promise<string> {
	if (typeof name !== "string" || name.length === 0 || name.length > 200) {
		throw new HubError("Invalid", "'user' must be a user name");
	}
	const account = await findAccount(context.db, name);
	if (!account || account.kind !== "user")
		throw new HubError("NotFound", `no user named ${name.slice(0, 100)}`);
	return account.name;
}

/**
 * Moves a user's request to `status` (accept, reject, or back to pending: huggingface_hub's
 * accept/reject/cancel_access_request). 404 when the user or their request does not exist, or when the
 * request is already in that status (as huggingface_hub documents the public hub's answers).
 */
export async function handleAccessRequest(
	context: WriteContext,
	actor: Actor,
	repo: RepoRef,
	input: { user: unknown; status: unknown; rejectionReason: unknown },
): Promise<AccessRequestEntry> {
	requireOwnerSide(actor.viewer, repo);
	const status = input.status;
	if (status !== "pending" && status !== "accepted" && status !== "rejected") {
		throw new HubError("Invalid", '\'status\' must be "pending", "accepted" or "rejected"');
	}
	const reason = input.rejectionReason;
	if (reason !== undefined && reason !== null) {
		if (status !== "rejected") throw new HubError("Invalid", "'rejectionReason' is only for rejections");
		if (typeof reason !== "string" || reason.length > MAX_REJECTION_REASON) {
			throw new HubError(
				"Invalid",
				`'rejectionReason' must be a string of at most ${MAX_REJECTION_REASON} characters`,
			);
		}
	}
	const user = await namedUser(context, input.user);
	return write(context, async (tx) => {
		const existing = await findRequest(tx, repo, user);
		if (!existing) throw new HubError("NotFound", `${user} has not asked for access to ${repo.id}`);
		if (existing.status === status) {
			throw new HubError("NotFound", `${user}'s access request to ${repo.id} is already ${status}`);
		}
		await saveRequest(tx, repo, user, {
			status,
			rejectionReason: typeof reason === "string" && reason !== "" ? reason : null,
		});
		const saved = (await findRequest(tx, repo, user)) as AccessRequestRow;
		return {
			value: entryOf(saved, true),
			audit: {
				...actor.audit,
				action: "access.handle",
				repo: { type: repo.type, id: repo.id },
				details: { user, from: existing.status, to: status },
			},
		};
	});
}

/**
 * Gives a user access without their asking (huggingface_hub's grant_access): an accepted request. 400
 * when they have access already (a member of the namespace, or accepted).
 */
export async function grantAccess(
	context: WriteContext,
	actor: Actor,
	repo: RepoRef,
	input: { user: unknown },
): Promise<AccessRequestEntry> {
	requireOwnerSide(actor.viewer, repo);
	const user = await namedUser(context, input.user);
	return write(context, async (tx) => {
		const existing = await findRequest(tx, repo, user);
		if (existing?.status === "accepted")
			throw new HubError("Invalid", `${user} already has access to ${repo.id}`);
		await saveRequest(tx, repo, user, { status: "accepted", rejectionReason: null });
		const saved = (await findRequest(tx, repo, user)) as AccessRequestRow;
		return {
			value: entryOf(saved, true),
			audit: {
				...actor.audit,
				action: "access.grant",
				repo: { type: repo.type, id: repo.id },
				details: { user, from: existing?.status ?? null },
			},
		};
	});
}

/**
 * A signed-in user asks for access (the request form): accepted at once in `auto` mode, pending in
 * `manual` mode. Every field of the card's form must be answered. Asking again while pending updates
 * the answers; once accepted it changes nothing; once rejected it is refused (hub-docs: a rejected
 * user cannot ask again).
 */
export async function requestAccess(
	context: WriteContext,
	actor: Actor,
	repo: RepoRef,
	answers: unknown,
): Promise<AccessState> {
	const viewer = actor.viewer;
	const hidden = repoRefusal(viewer, repo, "read");
	if (hidden) throw new RefusedError(hidden);
	if (viewer.kind === "anonymous") {
		throw new HubError("Unauthorized", "Sign in to ask for access to this repository", {
			messageHeader: "Sign in to ask for access to this repository",
		});
	}
	if (viewer.kind !== "user")
		throw new HubError("Invalid", "the hub admin token is no user: it has access to everything");
	if (!repo.gated) throw notGated(repo);
	if (isMember(viewer, repo)) throw new HubError("Invalid", `You already have access to ${repo.id}`);
	if (answers !== undefined && answers !== null && (typeof answers !== "object" || Array.isArray(answers))) {
		throw new HubError("Invalid", "'fields' must be an object of answers by field name");
	}
	const card = await cardDataOf(context.db, repo);
	const checked = checkAnswers(gatedFields(card), (answers ?? {}) as Record<string, unknown>);
	if ("problem" in checked) throw new HubError("Invalid", checked.problem);
	const user = viewer.account.name;
	const mode = repo.gated;
	await write(context, async (tx) => {
		const existing = await findRequest(tx, repo, user);
		if (existing?.status === "rejected") {
			throw new HubError(
				"Forbidden",
				"Your request to access this repo has been rejected by the repo's authors",
			);
		}
		if (existing?.status === "accepted") return { value: undefined };
		await saveRequest(tx, repo, user, {
			status: mode === "auto" ? "accepted" : "pending",
			fields: checked.ok,
		});
		return {
			value: undefined,
			audit: {
				...actor.audit,
				action: "access.request",
				repo: { type: repo.type, id: repo.id },
				details: { mode },
			},
		};
	});
	return accessState(context, viewer, repo);
}

/** What the viewer sees of a repository's gate: its mode, their own request, the card's form. */
export async function accessState(
	context: Pick<WriteContext, "db">,
	viewer: Viewer,
	repo: RepoRef,
): Promise<AccessState> {
	const hidden = repoRefusal(viewer, repo, "read");
	if (hidden) throw new RefusedError(hidden);
	const card = repo.gated ? await cardDataOf(context.db, repo) : undefined;
	let access: AccessState["access"];
	if (isMember(viewer, repo)) access = "member";
	else if (viewer.kind !== "user") access = "anonymous";
	else access = (await findRequest(context.db, repo, viewer.account.name))?.status ?? "none";
	const prompt = cardText(card, "extra_gated_prompt");
	const heading = cardText(card, "extra_gated_heading");
	const buttonContent = cardText(card, "extra_gated_button_content");
	return {
		gated: repo.gated ?? false,
		access,
		...(prompt !== undefined ? { prompt } : {}),
		...(heading !== undefined ? { heading } : {}),
		...(buttonContent !== undefined ? { buttonContent } : {}),
		fields: gatedFields(card),
	};
}
