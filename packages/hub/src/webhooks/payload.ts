import { createHash } from "node:crypto";
import { encodeRepoId } from "../repo-identity.js";
import type { RepoFacts } from "./store.js";

/**
 * The public hub's webhook payload, version 3 (hub-docs "Webhooks"; huggingface_hub's
 * `WebhookPayload`): `event: { action, scope }`, `repo: { type, name, id, private, url: { web, api },
 * owner: { id }, headSha? }`, `webhook: { id, version: 3 }`, and by scope `updatedRefs`,
 * `updatedConfig`, `discussion`, `comment`. Pure functions.
 */

export type WebhookScope = "repo" | "repo.content" | "repo.config" | "discussion" | "discussion.comment";
export type WebhookAction = "create" | "delete" | "update" | "move";

export interface UpdatedRef {
	ref: string;
	oldSha: string | null;
	newSha: string | null;
}

export interface PayloadDiscussion {
	num: number;
	isPullRequest: boolean;
	status: string;
	title?: string | undefined;
	id?: string | undefined;
	/** The author's account name (named in the payload by its object id). */
	author?: string | undefined;
	/** Pull requests: the full name of the branch they merge into, and the merge commit once merged. */
	base?: string | undefined;
	mergeCommitId?: string | undefined;
}

export interface PayloadInput {
	event: { action: WebhookAction; scope: WebhookScope };
	repo: RepoFacts;
	origin: string;
	updatedRefs?: UpdatedRef[];
	updatedConfig?: Record<string, unknown>;
	/** A move (action "move"): the former id (the payload's `repo.name`), and the new one (`movedTo`). */
	moved?: { from: string; to: string; owner: string | undefined };
	discussion?: PayloadDiscussion;
	comment?: { id: string; author?: string | undefined; content?: string | undefined; hidden: boolean };
	/** Accounts' object ids by lower-cased name (those not found get a stable id of their name). */
	accountIds?: ReadonlyMap<string, string>;
}

/** A stable 24-hex id for rows the hub keeps without an object id (the public hub's ids are ObjectIds). */
export function objectIdOf(text: string): string {
	return createHash("sha256").update(text).digest("hex").slice(0, 24);
}

const PREFIX: Record<RepoFacts["type"], string> = { model: "", dataset: "datasets/", space: "spaces/" };
const API: Record<RepoFacts["type"], string> = { model: "models", dataset: "datasets", space: "spaces" };

/** The payload without `webhook` (added per webhook when it is sent). */
export function payloadOf(input: PayloadInput): Record<string, unknown> {
	const { repo, origin } = input;
	const accountId = (name: string | undefined): string =>
		name === undefined
			? ""
			: (input.accountIds?.get(name.toLowerCase()) ?? objectIdOf(`account:${name.toLowerCase()}`));
	const path = encodeRepoId(repo.id);
	const web = `${origin}/${PREFIX[repo.type]}${path}`;
	const repoPart: Record<string, unknown> = {
		type: repo.type,
		name: repo.id,
		id: repo.objectId ?? objectIdOf(`${repo.type}:${repo.id}`),
		private: repo.private,
		url: { web, api: `${origin}/api/${API[repo.type]}/${path}` },
		owner: { id: repo.ownerId ?? objectIdOf(`account:${repo.namespace ?? ""}`) },
	};
	// hub-docs: headSha "is only sent when event.scope starts with repo".
	if (input.event.scope.startsWith("repo") && repo.headSha) repoPart.headSha = repo.headSha;
	const payload: Record<string, unknown> = { event: input.event, repo: repoPart };
	if (input.updatedRefs) payload.updatedRefs = input.updatedRefs;
	if (input.updatedConfig) payload.updatedConfig = input.updatedConfig;
	if (input.moved) {
		// huggingface_hub's WebhookPayloadMovedTo: `{ name, owner: { id } }`.
		repoPart.name = input.moved.from;
		payload.movedTo = { name: input.moved.to, owner: { id: accountId(input.moved.owner) } };
	}
	const discussion = input.discussion;
	if (discussion) {
		const discussionWeb = `${web}/discussions/${discussion.num}`;
		payload.discussion = {
			id: discussion.id ?? objectIdOf(`${repo.type}:${repo.id}#${discussion.num}`),
			title: discussion.title ?? "",
			url: {
				web: discussionWeb,
				api: `${origin}/api/${API[repo.type]}/${path}/discussions/${discussion.num}`,
			},
			status: discussion.status,
			author: { id: accountId(discussion.author) },
			num: discussion.num,
			isPullRequest: discussion.isPullRequest,
			// huggingface_hub's WebhookPayloadDiscussionChanges: `base`, and `mergeCommitId` once merged.
			...(discussion.isPullRequest
				? {
						changes: {
							base: discussion.base ?? "refs/heads/main",
							...(discussion.mergeCommitId ? { mergeCommitId: discussion.mergeCommitId } : {}),
						},
					}
				: {}),
			pinned: false,
		};
		if (input.comment) {
			payload.comment = {
				id: input.comment.id,
				author: { id: accountId(input.comment.author) },
				...(input.comment.content !== undefined ? { content: input.comment.content } : {}),
				hidden: input.comment.hidden,
				url: { web: `${discussionWeb}#${input.comment.id}` },
			};
		}
	}
	return payload;
}

/** The full ref name of a moved branch, tag or pull request ref. */
export function refName(kind: "branch" | "tag" | "pr", name: string): string {
	if (name.startsWith("refs/")) return name;
	if (kind === "branch") return `refs/heads/${name}`;
	if (kind === "tag") return `refs/tags/${name}`;
	return `refs/pr/${name}`;
}
