/**
 * The closed sets of words the hub's API speaks, each declared once: the API contract (src/api, types
 * only) derives its types from them, the parsers check requests against them, and the stores, the
 * services and the command line use the same lists. This module imports only the shared rules of @modelhub/tasks, so every layer may.
 */

/**
 * A role in an organisation: read (see private repositories), write (also create and change
 * repositories), admin (also delete them and change their visibility).
 */
export const ROLES = ["read", "write", "admin"] as const;
export type Role = (typeof ROLES)[number];

/** A token's scope: a read token never writes. */
export const TOKEN_ROLES = ["read", "write"] as const;
export type TokenRole = (typeof TOKEN_ROLES)[number];

/**
 * Names no new account may take: the first path segments of the web app's own pages and of the
 * server, and those kept for repository types to come (declared once in @modelhub/tasks/repositories,
 * which the web app's router reads too). Compared case-insensitively (account names are).
 */
export { RESERVED_FIRST_SEGMENTS as RESERVED_ACCOUNT_NAMES } from "@modelhub/tasks/repositories";

/** The sort orders of `GET /api/models?sort=`. */
export const SORT_KEYS = ["downloads", "likes", "lastModified", "createdAt", "trendingScore", "id"] as const;
export type ModelSort = (typeof SORT_KEYS)[number];

/**
 * The properties of a model as `expand=` names them (huggingface_hub 2.0's ExpandModelProperty_T).
 * Names the hub has no data for are accepted and left out of the answer, never an error.
 */
export const EXPAND_PROPERTIES = [
	"author",
	"baseModels",
	"cardData",
	"childrenModelCount",
	"config",
	"createdAt",
	"disabled",
	"downloads",
	"downloadsAllTime",
	"evalResults",
	"gated",
	"gguf",
	"inference",
	"inferenceProviderMapping",
	"lastModified",
	"library_name",
	"likes",
	"mask_token",
	"model-index",
	"pipeline_tag",
	"private",
	"resourceGroup",
	"safetensors",
	"sha",
	"siblings",
	"spaces",
	"tags",
	"transformersInfo",
	"trendingScore",
	"usedStorage",
	"widgetData",
] as const;
export type ModelProperty = (typeof EXPAND_PROPERTIES)[number];

/**
 * The properties of a dataset as `expand=` names them (huggingface_hub 2.0's ExpandDatasetProperty_T,
 * the same in 1.33). Names the hub has no data for are accepted and left out of the answer.
 */
export const DATASET_EXPAND_PROPERTIES = [
	"author",
	"cardData",
	"citation",
	"createdAt",
	"description",
	"disabled",
	"downloads",
	"downloadsAllTime",
	"gated",
	"lastModified",
	"likes",
	"mainSize",
	"paperswithcode_id",
	"private",
	"resourceGroup",
	"sha",
	"siblings",
	"tags",
	"trendingScore",
	"usedStorage",
] as const;
export type DatasetProperty = (typeof DATASET_EXPAND_PROPERTIES)[number];

/** What the audit log records: one action per kind of write. */
export const AUDIT_ACTIONS = [
	"user.create",
	"org.create",
	"org.member.set",
	"org.member.remove",
	"token.create",
	"token.revoke",
	"user.join",
	"user.password",
	"user.password-set",
	"user.disable",
	"user.enable",
	"user.delete",
	"session.login",
	"user.sso-link",
	"user.sso-unlink",
	"invite.create",
	"invite.revoke",
	"user.site-admin",
	"account.quota",
	"repo.create",
	"repo.delete",
	"repo.settings",
	"repo.move",
	"repo.commit",
	"branch.create",
	"branch.delete",
	"branch.squash",
	"tag.create",
	"tag.delete",
	"lfs.upload",
	"xet.upload",
	"discussion.create",
	"discussion.update",
	"model.put",
	"model.delete",
	"model.import",
	"gc.run",
	"access.request",
	"access.handle",
	"access.grant",
	"webhook.create",
	"webhook.update",
	"webhook.delete",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** A commit id as the API shows and accepts it (a revision that matches names one commit for good). */
export const COMMIT_ID = /^[0-9a-f]{40}$/;
