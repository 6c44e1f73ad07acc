import { randomBytes } from "node:crypto";
import { RefusedError, type Viewer } from "../accounts/viewer.js";
import type { WebhookDelivery, WebhookInfo } from "../api/webhooks.js";
import { HubError } from "../errors.js";
import { parseAddressPolicy, type AddressPolicy } from "../webhooks/address-policy.js";
import { DEFAULT_WEBHOOK_SETTINGS, type WebhookSettings } from "../webhooks/settings.js";

export { DEFAULT_WEBHOOK_SETTINGS, type WebhookSettings };
import { payloadOf, refName, type PayloadInput, type UpdatedRef } from "../webhooks/payload.js";
import { checkedAddresses, sendWebhook, urlProblem } from "../webhooks/send.js";
import {
	accountObjectIds,
	claimDue,
	countWebhooks,
	deleteWebhook as deleteWebhookRow,
	deliveryLog,
	getWebhook as getWebhookRow,
	insertDeliveries,
	insertWebhook,
	listWebhooks as listWebhookRows,
	nextDueInMs,
	pendingCount,
	recordAttempt,
	repoFacts,
	trimLog,
	updateWebhook as updateWebhookRow,
	webhooksFor,
	webhookState,
	type DeliveryRow,
	type WatchedItem,
	type WebhookRow,
} from "../webhooks/store.js";
import type { Actor } from "./actor.js";
import type { ChangeEvent } from "./changes.js";
import { write, type WriteContext } from "./write.js";

/**
 * Webhooks (issue 24, hub-docs "Webhooks"): a user's webhooks watch users, organisations, models and
 * datasets, and get the public hub's payloads for repository events (`repo`: created, deleted;
 * `repo.content`: refs moved; `repo.config`: settings) and discussion events (`discussion`,
 * `discussion.comment`), with `X-Webhook-Secret`. A private repository's events go only to webhooks
 * whose owner may read it. Deliveries are stored before they are sent, retried with exponential
 * backoff, bounded in number, time and targets (MODELHUB_WEBHOOK_* settings), and logged per webhook.
 */

const WEBHOOK_VERSION = 3;
const WATCH_TYPES = new Set(["user", "org", "model", "dataset"]);
const MAX_WATCHED = 100;
const MAX_SECRET = 256;
/** hub-docs: domains "repo" and "discussion" (huggingface_hub's type says "discussions"): both are read. */
const DOMAINS = new Set(["repo", "discussion", "discussions"]);

export interface WebhookContext extends WriteContext {
	webhooks: WebhookSettings & { policy: AddressPolicy };
}

export function webhookSettings(
	settings: Partial<WebhookSettings> = {},
): WebhookSettings & { policy: AddressPolicy } {
	const merged = { ...DEFAULT_WEBHOOK_SETTINGS, ...settings };
	return { ...merged, policy: parseAddressPolicy(merged.allowedHosts) };
}

function infoOf(row: WebhookRow): WebhookInfo {
	return {
		id: row.id,
		url: row.url,
		watched: row.watched,
		domains: row.domains,
		secret: row.secret,
		disabled: row.disabled,
		job: null,
	};
}

function ownerOf(viewer: Viewer): string {
	if (viewer.kind === "user") return viewer.account.name;
	if (viewer.kind === "anonymous")
		throw new RefusedError({ status: 401, message: "Sign in to manage webhooks" });
	throw new HubError("Invalid", "the hub admin token is no user: webhooks belong to users");
}

function writer(viewer: Viewer): string {
	const owner = ownerOf(viewer);
	if (viewer.kind === "user" && viewer.token.role === "read") {
		throw new RefusedError({
			status: 403,
			message: `Your token '${viewer.token.displayName}' is read-only: use a token with the 'write' scope to make changes`,
		});
	}
	return owner;
}

function watchedOf(value: unknown): WatchedItem[] {
	if (!Array.isArray(value) || value.length === 0 || value.length > MAX_WATCHED) {
		throw new HubError("Invalid", `'watched' must be a list of 1 to ${MAX_WATCHED} items { type, name }`);
	}
	return value.map((item: unknown) => {
		const { type, name } = (item ?? {}) as { type?: unknown; name?: unknown };
		if (typeof type !== "string" || !WATCH_TYPES.has(type)) {
			throw new HubError("Invalid", "a watched item's 'type' must be user, org, model or dataset");
		}
		if (typeof name !== "string" || name.length === 0 || name.length > 200) {
			throw new HubError("Invalid", "a watched item's 'name' must be a user, organisation or repository id");
		}
		return { type: type as WatchedItem["type"], name };
	});
}

function domainsOf(value: unknown): string[] {
	if (value === undefined || value === null) return ["repo", "discussion"];
	if (
		!Array.isArray(value) ||
		value.length === 0 ||
		value.some((d) => typeof d !== "string" || !DOMAINS.has(d))
	) {
		throw new HubError("Invalid", '\'domains\' must list "repo" and/or "discussion"');
	}
	return [...new Set(value as string[])];
}

function secretOf(value: unknown): string | null {
	if (value === undefined || value === null || value === "") return null;
	// hub-docs: only ASCII characters are supported (it travels as a header).
	if (typeof value !== "string" || value.length > MAX_SECRET || !/^[\x20-\x7e]+$/.test(value)) {
		throw new HubError("Invalid", `'secret' must be printable ASCII, at most ${MAX_SECRET} characters`);
	}
	return value;
}

/** Checks a target URL now (scheme, and that its host resolves to allowed addresses). */
async function checkUrl(context: WebhookContext, value: unknown): Promise<string> {
	if (typeof value !== "string") throw new HubError("Invalid", "'url' must be the URL to deliver to");
	const problem = urlProblem(value);
	if (problem) throw new HubError("Invalid", `'url': ${problem}`);
	const checked = await checkedAddresses(context.webhooks.policy, new URL(value).hostname);
	if ("refused" in checked) throw new HubError("Invalid", `'url' cannot be delivered to: ${checked.refused}`);
	return value;
}

/** A webhook the viewer may see: their own (every one for the hub admin); others are missing. */
async function visibleWebhook(context: WebhookContext, viewer: Viewer, id: string): Promise<WebhookRow> {
	const row = /^[0-9a-f]{24}$/.test(id) ? await getWebhookRow(context.db, id) : undefined;
	if (
		!row ||
		(viewer.kind !== "admin" && row.owner !== (viewer.kind === "user" ? viewer.account.name : ""))
	) {
		if (viewer.kind === "anonymous")
			throw new RefusedError({ status: 401, message: "Sign in to manage webhooks" });
		throw new HubError("NotFound", "Webhook not found");
	}
	return row;
}

export async function listWebhooks(context: WebhookContext, viewer: Viewer): Promise<WebhookInfo[]> {
	const owner = viewer.kind === "admin" ? undefined : ownerOf(viewer);
	return (await listWebhookRows(context.db, owner, 1000)).map(infoOf);
}

export async function getWebhook(context: WebhookContext, viewer: Viewer, id: string): Promise<WebhookInfo> {
	return infoOf(await visibleWebhook(context, viewer, id));
}

export async function createWebhook(
	context: WebhookContext,
	actor: Actor,
	input: { url: unknown; watched: unknown; domains: unknown; secret: unknown; jobSourceId?: unknown },
): Promise<WebhookInfo> {
	const owner = writer(actor.viewer);
	if (input.jobSourceId !== undefined) throw new HubError("Invalid", "this hub runs no Jobs: give a 'url'");
	const watched = watchedOf(input.watched);
	const domains = domainsOf(input.domains);
	const secret = secretOf(input.secret);
	const url = await checkUrl(context, input.url);
	const id = randomBytes(12).toString("hex");
	await write(context, async (tx) => {
		if ((await countWebhooks(tx, owner)) >= context.webhooks.perAccount) {
			throw new HubError(
				"Invalid",
				`${owner} has ${context.webhooks.perAccount} webhooks, the most allowed (MODELHUB_WEBHOOKS_PER_ACCOUNT)`,
			);
		}
		await insertWebhook(tx, { id, owner, url, secret, domains, watched });
		return {
			value: undefined,
			audit: { ...actor.audit, action: "webhook.create", details: { id, url } },
			change: { type: "webhooks.changed" },
		};
	});
	return infoOf((await getWebhookRow(context.db, id)) as WebhookRow);
}

/** huggingface_hub's update_webhook (`watched` always sent), enable_webhook and disable_webhook. */
export async function updateWebhook(
	context: WebhookContext,
	actor: Actor,
	id: string,
	input: { url?: unknown; watched?: unknown; domains?: unknown; secret?: unknown; disabled?: boolean },
): Promise<WebhookInfo> {
	writer(actor.viewer);
	const row = await visibleWebhook(context, actor.viewer, id);
	const change: Parameters<typeof updateWebhookRow>[2] = {};
	if (input.watched !== undefined && !(Array.isArray(input.watched) && input.watched.length === 0)) {
		change.watched = watchedOf(input.watched);
	}
	if (input.domains !== undefined && input.domains !== null) change.domains = domainsOf(input.domains);
	if (input.secret !== undefined && input.secret !== null) change.secret = secretOf(input.secret);
	if (input.url !== undefined && input.url !== null) change.url = await checkUrl(context, input.url);
	if (input.disabled !== undefined) change.disabled = input.disabled;
	await write(context, async (tx) => {
		await updateWebhookRow(tx, row.id, change);
		return {
			value: undefined,
			change: { type: "webhooks.changed" },
			audit: {
				...actor.audit,
				action: "webhook.update",
				details: {
					id: row.id,
					...(change.url ? { url: change.url } : {}),
					...(input.disabled !== undefined ? { disabled: input.disabled } : {}),
				},
			},
		};
	});
	return infoOf((await getWebhookRow(context.db, row.id)) as WebhookRow);
}

export async function removeWebhook(context: WebhookContext, actor: Actor, id: string): Promise<void> {
	if (actor.viewer.kind !== "admin") writer(actor.viewer);
	const row = await visibleWebhook(context, actor.viewer, id);
	await write(context, async (tx) => {
		await deleteWebhookRow(tx, row.id);
		return {
			value: undefined,
			audit: { ...actor.audit, action: "webhook.delete", details: { id: row.id } },
			change: { type: "webhooks.changed" },
		};
	});
}

function deliveryOf(row: DeliveryRow): WebhookDelivery {
	return {
		id: row.id,
		event: row.event,
		status: row.status,
		attempts: row.attempts,
		responseStatus: row.responseStatus,
		error: row.error,
		createdAt: row.createdAt,
		finishedAt: row.finishedAt,
		...(row.status === "pending" ? { nextAttemptAt: row.nextAttemptAt } : {}),
		payload: row.payload,
	};
}

/** A webhook's delivery log (its owner and the hub admin), newest first. */
export async function webhookDeliveries(
	context: WebhookContext,
	viewer: Viewer,
	id: string,
): Promise<WebhookDelivery[]> {
	const row = await visibleWebhook(context, viewer, id);
	return (await deliveryLog(context.db, row.id, context.webhooks.logEntries)).map(deliveryOf);
}

/** What an event is to webhooks: its payload input without the repository facts, and its domain. */
interface Described {
	domain: "repo" | "discussion";
	repo: { type: string; id: string };
	/** A moved repository's former id: watchers of it and of its former namespace get the event too. */
	formerId?: string;
	/** Deliver only to members of the namespace (the repository is gone: its visibility is unknown). */
	membersOnly: boolean;
	input: Omit<PayloadInput, "repo" | "origin">;
}

function describe(event: ChangeEvent): Described | undefined {
	switch (event.type) {
		case "repo.created":
			return {
				domain: "repo",
				repo: event.repo,
				membersOnly: false,
				input: { event: { action: "create", scope: "repo" } },
			};
		case "repo.deleted":
			return {
				domain: "repo",
				repo: event.repo,
				membersOnly: true,
				input: { event: { action: "delete", scope: "repo" } },
			};
		case "repo.moved": {
			const slash = event.repo.id.indexOf("/");
			return {
				domain: "repo",
				repo: event.repo,
				formerId: event.from,
				membersOnly: false,
				input: {
					event: { action: "move", scope: "repo" },
					moved: {
						from: event.from,
						to: event.repo.id,
						owner: slash < 0 ? undefined : event.repo.id.slice(0, slash),
					},
				},
			};
		}
		case "repo.updated":
			return {
				domain: "repo",
				repo: event.repo,
				membersOnly: false,
				// hub-docs: updatedConfig carries `private` (other keys are not reported: `{}`).
				input: {
					event: { action: "update", scope: "repo.config" },
					updatedConfig: event.settings.private !== undefined ? { private: event.settings.private } : {},
				},
			};
		case "repo.committed": {
			const updatedRefs: UpdatedRef[] = event.refs.map((move) => ({
				ref: refName(move.kind, move.name),
				oldSha: move.from,
				newSha: move.to,
			}));
			return {
				domain: "repo",
				repo: event.repo,
				membersOnly: false,
				input: { event: { action: "update", scope: "repo.content" }, updatedRefs },
			};
		}
		case "discussion.changed":
			return {
				domain: "discussion",
				repo: event.repo,
				membersOnly: false,
				input: {
					event: { action: event.action, scope: event.scope },
					discussion: {
						num: event.num,
						isPullRequest: event.isPullRequest,
						status: event.status,
						title: event.title,
						author: event.author,
						...(event.targetBranch !== undefined ? { base: refName("branch", event.targetBranch) } : {}),
						...(event.mergeCommit !== undefined ? { mergeCommitId: event.mergeCommit } : {}),
					},
					...(event.commentId !== undefined
						? {
								comment: {
									id: event.commentId,
									author: event.comment?.author,
									// A hidden comment's text is gone (as on the public hub): `content` is left out.
									...(event.comment && !event.comment.hidden ? { content: event.comment.content } : {}),
									hidden: event.comment?.hidden ?? false,
								},
							}
						: {}),
				},
			};
		default:
			return undefined;
	}
}

/**
 * The delivery engine of one hub process: it stores the deliveries of this process's events, and
 * sends every due delivery of the database (its own, those of a stopped process, retries), at most
 * `concurrency` at once. `close()` stops it; a delivery cut off is sent again after its claim expires.
 */
export class WebhookDeliveries {
	private timer: ReturnType<typeof setTimeout> | undefined;
	private running: Promise<void> | undefined;
	private again = false;
	private closed = false;
	/** Whether any webhook is enabled (undefined: to be looked up): without any, events cost nothing. */
	private watching: boolean | undefined;
	private readonly stop = new AbortController();

	constructor(
		private readonly context: WebhookContext,
		private readonly origin: () => string,
		private readonly onError: (error: unknown) => void,
	) {}

	/** At start: whether webhooks exist, and deliveries left waiting (by a restart) are sent. */
	async start(): Promise<void> {
		const state = await webhookState(this.context.db);
		this.watching ??= state.watching;
		if (state.pending) this.wake(0);
	}

	/** Webhooks changed (in any hub process): looked up again at the next event. */
	invalidate(): void {
		this.watching = undefined;
	}

	/** Stores the deliveries an event makes (a change of this process), then wakes the sender. */
	async enqueue(event: ChangeEvent): Promise<void> {
		if (this.closed) return;
		const described = describe(event);
		if (!described) return;
		const { db } = this.context;
		if (this.watching === undefined) this.watching = (await webhookState(db)).watching;
		if (!this.watching) return;
		const namespaceOf = (id: string): string => {
			const slash = id.indexOf("/");
			return slash < 0 ? "" : id.slice(0, slash);
		};
		const namespace = namespaceOf(described.repo.id);
		// A move is the news of both places: watchers of the former namespace (a transfer out of an
		// organisation) and of the former id hear of it as those of the new ones do. Who may hear of a
		// private repository is still decided by where it is now (membersOf below).
		const keys = [
			described.repo.id,
			...(described.formerId === undefined ? [] : [described.formerId]),
		].flatMap((id) => [
			`user:${namespaceOf(id).toLowerCase()}`,
			`${described.repo.type}:${id.toLowerCase()}`,
		]);
		const inDomain = (hook: WebhookRow): boolean =>
			hook.domains.some((domain) => (domain === "repo" ? "repo" : "discussion") === described.domain);
		// One query when no webhook watches the repository (every commit asks).
		if (!(await webhooksFor(db, keys, undefined)).some(inDomain)) return;
		const facts = await repoFacts(db, described.repo.type, described.repo.id);
		const membersOf = described.membersOnly || !facts || facts.private ? namespace : undefined;
		const hooks =
			membersOf === undefined
				? (await webhooksFor(db, keys, undefined)).filter(inDomain)
				: (await webhooksFor(db, keys, membersOf)).filter(inDomain);
		if (hooks.length === 0) return;
		const repo = facts ?? {
			type: described.repo.type as "model" | "dataset",
			id: described.repo.id,
			objectId: null,
			private: true,
			namespace,
			ownerId: null,
			headSha: null,
		};
		// Authors are named by their accounts' object ids, as the repository's owner is.
		const authors = [described.input.discussion?.author, described.input.comment?.author].flatMap((name) =>
			name ? [name] : [],
		);
		const payload = payloadOf({
			...described.input,
			repo,
			origin: this.origin(),
			accountIds: await accountObjectIds(db, authors),
		});
		const full = (await pendingCount(db)) + hooks.length > this.context.webhooks.queueLimit;
		await db.transaction(async (tx) => {
			await insertDeliveries(
				tx,
				hooks.map((hook) => ({
					webhookId: hook.id,
					payload: { ...payload, webhook: { id: hook.id, version: WEBHOOK_VERSION } },
					status: full ? ("dropped" as const) : ("pending" as const),
					...(full ? { error: "the delivery queue is full (MODELHUB_WEBHOOK_QUEUE_LIMIT)" } : {}),
				})),
			);
			await trimLog(
				tx,
				hooks.map((hook) => hook.id),
				this.context.webhooks.logEntries,
			);
		});
		this.wake(0);
	}

	/** Sends what is due now, and later what becomes due (also deliveries left by a stopped process). */
	wake(delayMs = 0): void {
		if (this.closed) return;
		if (this.running) {
			this.again = true;
			return;
		}
		if (this.timer) clearTimeout(this.timer);
		this.timer = setTimeout(() => {
			this.timer = undefined;
			this.running = this.drain()
				.catch((error: unknown) => this.onError(error))
				.finally(() => {
					this.running = undefined;
					if (this.closed) return;
					if (this.again) {
						this.again = false;
						this.wake(0);
					} else void this.scheduleNext();
				});
		}, delayMs);
		this.timer.unref();
	}

	private async scheduleNext(): Promise<void> {
		try {
			const wait = await nextDueInMs(this.context.db);
			// Nothing waits: the next event of this process wakes the sender (no polling of an idle hub).
			if (wait === undefined) return;
			// Retries of other processes and expired claims are found by the next look (a minute at most).
			this.wake(Math.min(wait, 60_000));
		} catch (error) {
			this.onError(error);
			this.wake(60_000);
		}
	}

	private async drain(): Promise<void> {
		const settings = this.context.webhooks;
		const claimMs = settings.timeoutMs + 5_000;
		for (;;) {
			if (this.closed) return;
			const due = await this.context.db.transaction((tx) => claimDue(tx, settings.concurrency, claimMs));
			if (due.length === 0) return;
			await Promise.all(due.map((delivery) => this.attempt(delivery)));
		}
	}

	private async attempt(delivery: Awaited<ReturnType<typeof claimDue>>[number]): Promise<void> {
		const settings = this.context.webhooks;
		if (delivery.disabled) {
			await recordAttempt(this.context.db, delivery.id, {
				status: "dropped",
				error: "the webhook is disabled",
			});
			return;
		}
		const outcome = await sendWebhook(
			settings,
			{ url: delivery.url, secret: delivery.secret },
			JSON.stringify(delivery.payload),
			this.stop.signal,
		);
		if (this.closed && !outcome.ok) return; // cut off by the stop: its claim expires, it is sent again
		if (outcome.ok) {
			await recordAttempt(this.context.db, delivery.id, {
				status: "delivered",
				responseStatus: outcome.status,
			});
			return;
		}
		const last = outcome.refused === true || delivery.attempts >= settings.maxAttempts;
		await recordAttempt(this.context.db, delivery.id, {
			status: last ? "failed" : "pending",
			responseStatus: outcome.status,
			error: outcome.error,
			retryInMs: settings.retryBaseMs * 2 ** (delivery.attempts - 1),
		});
	}

	/** Stops sending: attempts in flight are cut off (and sent again later, by this or another process). */
	async close(): Promise<void> {
		this.closed = true;
		if (this.timer) clearTimeout(this.timer);
		this.stop.abort();
		await this.running;
	}
}
