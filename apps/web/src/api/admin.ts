/**
 * Site administration (see packages/hub/README.md, "Site admins"): the users with their state, invites,
 * disabling, enabling and deleting accounts. The hub lets its site admins and its admin token call these.
 */
import type {
	AccountStateChange,
	AdminAccount,
	AdminInvite,
	AdminListParameters,
	CreatedInvite,
	CreateInviteRequest,
	MirrorCacheStats,
	RevokedInvite,
} from "@modelhub/hub/api";
import { nextCursor } from "./people";
import { ApiError, apiUrl, getJson, requestJson, type ApiOptions } from "./http";

export type { AdminAccount, AdminInvite, CreatedInvite, MirrorCacheStats };

/** Accounts per page of the admin list (the hub's default page). */
export const ACCOUNTS_PAGE = 100;
/** Invites the admin page lists (the newest). */
export const INVITES_LISTED = 100;

/** A page of users by name (`GET /api/admin/accounts`), with the cursor of the next. */
export async function listAccounts(
	cursor: string | undefined,
	options: ApiOptions,
): Promise<{ accounts: AdminAccount[]; next?: string }> {
	const query = { limit: ACCOUNTS_PAGE, cursor } satisfies AdminListParameters;
	const { data, headers } = await getJson<AdminAccount[]>(
		apiUrl(options.baseUrl, "/api/admin/accounts", query),
		{
			...options,
		},
	);
	const next = nextCursor(headers.get("link"));
	return { accounts: data, ...(next !== undefined ? { next } : {}) };
}

function userUrl(baseUrl: string | undefined, name: string, action?: "disable" | "enable"): string {
	return apiUrl(baseUrl, `/api/admin/users/${encodeURIComponent(name)}${action ? `/${action}` : ""}`);
}

/** Disables or enables a user (their tokens and sessions stop at once, or work again). */
export async function setDisabled(name: string, disabled: boolean, options: ApiOptions): Promise<void> {
	await requestJson<AccountStateChange>(userUrl(options.baseUrl, name, disabled ? "disable" : "enable"), {
		...options,
		method: "POST",
	});
}

/** Deletes a user (the hub refuses while they own repositories). */
export async function deleteAccount(name: string, options: ApiOptions): Promise<void> {
	await requestJson<AccountStateChange>(userUrl(options.baseUrl, name), { ...options, method: "DELETE" });
}

/** The newest invites (`GET /api/admin/invites`). */
export async function listInvites(options: ApiOptions): Promise<AdminInvite[]> {
	const query = { limit: INVITES_LISTED } satisfies AdminListParameters;
	return (await getJson<AdminInvite[]>(apiUrl(options.baseUrl, "/api/admin/invites", query), options)).data;
}

/** A new single-use invite link (its code is shown once). */
export async function createInvite(hours: number | undefined, options: ApiOptions): Promise<CreatedInvite> {
	const body: CreateInviteRequest = hours === undefined ? {} : { expiresInHours: hours };
	return (
		await requestJson<CreatedInvite>(apiUrl(options.baseUrl, "/api/admin/invites"), {
			...options,
			method: "POST",
			body,
		})
	).data;
}

/** Revokes an unused invite. */
export async function revokeInvite(id: string, options: ApiOptions): Promise<void> {
	await requestJson<RevokedInvite>(apiUrl(options.baseUrl, `/api/admin/invites/${encodeURIComponent(id)}`), {
		...options,
		method: "DELETE",
	});
}

/**
 * Mirror mode's cache statistics (`GET /api/admin/mirror`); undefined when the hub is not in mirror mode
 * (the route is not there).
 */
export async function mirrorStats(options: ApiOptions): Promise<MirrorCacheStats | undefined> {
	try {
		return (await getJson<MirrorCacheStats>(apiUrl(options.baseUrl, "/api/admin/mirror"), options)).data;
	} catch (error) {
		if (error instanceof ApiError && error.status === 404) return undefined;
		throw error;
	}
}
