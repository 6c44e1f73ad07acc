import {
	readableNamespaces,
	RefusedError,
	repoRefusal,
	type RepoRef,
	type Viewer,
} from "../accounts/viewer.js";
import { findAccount } from "../accounts/people.js";
import type { LikeAnswer, RepoLiker, UserLike } from "../api/community.js";
import { HubError } from "../errors.js";
import { addLike, likedBy, likersOf, removeLike, type LikedRow } from "../likes/store.js";
import { readableParameters } from "../repos/read.js";
import type { Actor } from "./actor.js";
import { write, type WriteContext } from "./write.js";

/**
 * Likes: a signed-in user likes any repository they may read (once); likers and liked repositories
 * are shown to whoever may read the repository, so a private one's likes stay with its readers.
 */

function likerOf(viewer: Viewer): string {
	if (viewer.kind === "user") return viewer.account.name;
	if (viewer.kind === "anonymous") {
		throw new HubError("Unauthorized", "Sign in to like a repository", {
			messageHeader: "Sign in to like a repository",
		});
	}
	throw new HubError("Invalid", "the hub admin token is no user: it cannot like repositories");
}

/** Likes (`liked`) or unlikes a repository; its count after. */
export async function setLike(
	context: WriteContext,
	actor: Actor,
	repo: RepoRef,
	liked: boolean,
): Promise<LikeAnswer> {
	const refusal = repoRefusal(actor.viewer, repo, "read");
	if (refusal) throw new RefusedError(refusal);
	const account = likerOf(actor.viewer);
	const likes = await write(context, async (tx) => ({
		value: liked ? await addLike(tx, repo, account) : await removeLike(tx, repo, account),
		// The count shows in info and listings: cached answers must go.
		change: { type: "repo.liked", repo: { type: repo.type, id: repo.id } },
	}));
	return { liked, likes };
}

/** A page of a repository's likers (the repository must be readable by the viewer). */
export async function repoLikers(
	context: Pick<WriteContext, "db">,
	viewer: Viewer,
	repo: RepoRef,
	page: { limit: number; after?: string | undefined },
): Promise<{ likers: RepoLiker[]; next: string | undefined }> {
	const refusal = repoRefusal(viewer, repo, "read");
	if (refusal) throw new RefusedError(refusal);
	const rows = await likersOf(context.db, repo, { limit: page.limit + 1, after: page.after });
	const shown = rows.slice(0, page.limit);
	return {
		likers: shown.map((row) => ({ user: row.name, fullname: row.fullname, avatarUrl: "" })),
		next: rows.length > page.limit ? shown.at(-1)?.name : undefined,
	};
}

/** A page of what a user liked that the viewer may read, most recent first; undefined: no such user. */
export async function userLikes(
	context: Pick<WriteContext, "db">,
	viewer: Viewer,
	name: string,
	page: { limit: number; after?: LikedRow | undefined },
): Promise<{ likes: UserLike[]; next: LikedRow | undefined } | undefined> {
	const account = await findAccount(context.db, name);
	if (!account || account.kind !== "user") return undefined;
	const rows = await likedBy(context.db, account.name, readableParameters(readableNamespaces(viewer)), {
		limit: page.limit + 1,
		after: page.after,
	});
	const shown = rows.slice(0, page.limit);
	return {
		likes: shown.map((row) => ({
			createdAt: row.likedAt,
			repo: { name: row.id, type: row.type === "dataset" ? "dataset" : "model" },
		})),
		next: rows.length > page.limit ? shown.at(-1) : undefined,
	};
}
