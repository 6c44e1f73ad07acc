import { randomBytes } from "node:crypto";
import type { RepoKey, RepoType } from "../repo-identity.js";

/**
 * What a write changed, announced once after its transaction commits (see write.ts). The response
 * cache listens to these events today; metadata analysis, webhooks, mirrors and git refs can listen
 * tomorrow without another write path learning about them.
 */

/** A repository as events name it: its type and its id as stored (`namespace/name`, or a bare name). */
export type ChangedRepo = RepoKey;

/**
 * A branch, tag or pull request ref (`refs/pr/N`, kind "pr") that moved: `from` is null for a new ref,
 * `to` null for a deleted one.
 */
export interface RefMove {
	kind: "branch" | "tag" | "pr";
	name: string;
	from: string | null;
	to: string | null;
}

/**
 * What happened to a discussion or pull request, in the words of the public hub's webhook payloads
 * (`event: { action, scope }`, scopes `discussion` and `discussion.comment`; huggingface_hub's
 * `WebhookPayloadEvent`): created, updated (renamed, status changed, merged, a commit pushed to its
 * ref) or a comment created or updated (edited, hidden).
 */
export interface DiscussionChange {
	scope: "discussion" | "discussion.comment";
	action: "create" | "update";
	num: number;
	isPullRequest: boolean;
	/** The discussion's status after the change (`merged` after a merge). */
	status: "open" | "closed" | "merged" | "draft";
	/** The comment created or updated (scope `discussion.comment`, and the first comment of a new one). */
	commentId?: string;
	/** The account that made the change. */
	actor: string;
	/** Its title (after the change) and author: the payload's `discussion.title` and `discussion.author`. */
	title: string;
	author: string;
	/** Pull requests: the branch they merge into, and the merge commit once merged (`changes`). */
	targetBranch?: string;
	mergeCommit?: string;
	/** The comment of `commentId`: its author and, unless hidden, its text (the payload's `comment`). */
	comment?: { author: string; content: string; hidden: boolean };
}

export type ChangeEvent =
	| { type: "repo.created"; repo: ChangedRepo; private: boolean }
	| { type: "repo.deleted"; repo: ChangedRepo }
	/** Renamed or transferred: `repo` is its id now, `from` its former id (which redirects to it). */
	| { type: "repo.moved"; repo: ChangedRepo; from: string; private: boolean }
	/** Settings changed: visibility, gated access (only the settings that changed). */
	| {
			type: "repo.updated";
			repo: ChangedRepo;
			settings: { private?: boolean; gated?: "auto" | "manual" | false };
	  }
	/** Someone liked or unliked the repository (its count shows in info and listings). */
	| { type: "repo.liked"; repo: ChangedRepo }
	/** Refs moved: commits, and branches or tags made or deleted. */
	| { type: "repo.committed"; repo: ChangedRepo; refs: RefMove[] }
	/** Analysis of the repository's main branch stored what it derived (its shown metadata may have changed). */
	| { type: "repo.analysed"; repo: ChangedRepo; commit: string }
	/** An object (an LFS upload, a file rebuilt from Xet) became the repository's, for commits to use. */
	| { type: "repo.uploaded"; repo: ChangedRepo; sha256: string; size: number }
	/** Repositories created or replaced from model records (import, seed, the admin's PUT); ids as stored. */
	| { type: "repos.imported"; repoType: RepoType; ids: readonly string[] }
	/** A user or an organisation was created, an organisation's members changed, or a user's tokens did. */
	| { type: "account.changed"; account: string; what: "user.created" | "org.created" | "members" | "tokens" }
	/**
	 * A discussion or pull request changed (services/discussions.ts). Its readers are those of the
	 * repository: whoever delivers it reads the discussion with the receiver's rights.
	 */
	| ({ type: "discussion.changed"; repo: ChangedRepo } & DiscussionChange)
	/** Webhooks were created, changed or deleted (each process's delivery engine looks again). */
	| { type: "webhooks.changed" }
	/** Downloads counted by a hub process were written (model info, listings and the sort show them). */
	| { type: "downloads.counted"; total: number }
	/** Another hub process changed something and did not say what (an older hub, or too much to say). */
	| { type: "hub.changed" };

export type ChangeType = ChangeEvent["type"];

const CHANGE_TYPES: ReadonlySet<string> = new Set<ChangeType>([
	"repo.created",
	"repo.deleted",
	"repo.moved",
	"repo.updated",
	"repo.liked",
	"repo.committed",
	"repo.analysed",
	"repo.uploaded",
	"repos.imported",
	"account.changed",
	"discussion.changed",
	"webhooks.changed",
	"downloads.counted",
	"hub.changed",
]);

/**
 * Where an event comes from: this process made the write (work that must happen once per write, such
 * as a webhook, listens to these only), or another hub process on the same PostgreSQL database did
 * (per-process state such as caches listens to both).
 */
export type ChangeOrigin = "this-process" | "other-process";

export type ChangeListener = (event: ChangeEvent, origin: ChangeOrigin) => void | Promise<void>;

/**
 * Whether an event may change an answer a reader gets. A new user and tokens do not: answers depend on
 * who asks through organisations and their members, never through tokens. Nor does an upload: its
 * object is read only once a commit refers to it.
 */
export function changesWhatReadersSee(event: ChangeEvent): boolean {
	// Discussions are read from the database at every request (no cached answer shows them).
	if (
		event.type === "repo.uploaded" ||
		event.type === "discussion.changed" ||
		event.type === "webhooks.changed"
	) {
		return false;
	}
	return !(event.type === "account.changed" && (event.what === "tokens" || event.what === "user.created"));
}

/** pg_notify refuses payloads of 8000 bytes or more; a larger event travels as `hub.changed`. */
const MAX_NOTIFY_BYTES = 7900;
/** Imports of more repositories are not even serialised (a bulk import may name a million). */
const MAX_NOTIFIED_IDS = 100;

/**
 * The in-process event bus of one hub process. Listeners run synchronously, in the order they were
 * added, after the write committed: what they do (clearing the cache) is done before the writer
 * answers. A listener that throws or rejects is reported to `onError` and keeps no other from running.
 */
export class ChangeEvents {
	/** Tells this process's own notifications apart from other processes' (PostgreSQL echoes them). */
	readonly source = randomBytes(8).toString("hex");
	private readonly listeners = new Set<ChangeListener>();

	constructor(private readonly onError: (error: unknown, event: ChangeEvent) => void = () => {}) {}

	/** Adds a listener; returns a function that removes it. */
	on(listener: ChangeListener): () => void {
		this.listeners.add(listener);
		return () => {
			this.listeners.delete(listener);
		};
	}

	emit(event: ChangeEvent, origin: ChangeOrigin = "this-process"): void {
		for (const listener of [...this.listeners]) {
			try {
				const pending = listener(event, origin);
				if (pending instanceof Promise) pending.catch((error: unknown) => this.onError(error, event));
			} catch (error) {
				this.onError(error, event);
			}
		}
	}

	/** The NOTIFY payload announcing `event` to the other hub processes. */
	encode(event: ChangeEvent): string {
		const unsaid = JSON.stringify({ source: this.source, event: { type: "hub.changed" } });
		if (event.type === "repos.imported" && event.ids.length > MAX_NOTIFIED_IDS) return unsaid;
		const payload = JSON.stringify({ source: this.source, event });
		return Buffer.byteLength(payload) < MAX_NOTIFY_BYTES ? payload : unsaid;
	}

	/**
	 * Emits the event of a NOTIFY payload as another process's change. Its own notifications are
	 * skipped: their events were emitted at commit.
	 */
	receive(payload: string): void {
		const { source, event } = decode(payload);
		if (source !== this.source) this.emit(event, "other-process");
	}
}

function decode(payload: string): { source: string | undefined; event: ChangeEvent } {
	try {
		const parsed = JSON.parse(payload) as { source?: unknown; event?: { type?: unknown } };
		const source = typeof parsed.source === "string" ? parsed.source : undefined;
		if (typeof parsed.event?.type === "string" && CHANGE_TYPES.has(parsed.event.type)) {
			return { source, event: parsed.event as ChangeEvent };
		}
		return { source, event: { type: "hub.changed" } };
	} catch {
		// Hubs before change events notified with an empty payload.
		return { source: undefined, event: { type: "hub.changed" } };
	}
}
