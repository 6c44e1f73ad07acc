/** Users, organisations, their members and the header search (see packages/hub/README.md, "Profiles"). */
import type {
	DatasetAnswer,
	DatasetListParameters,
	OrgMemberChange,
	OrgMemberEntry,
	OrgOverview,
	OrgRole,
	QuickSearchAnswer,
	SetOrgMemberRequest,
	UserOverview,
} from "@modelhub/hub/api";
import { apiUrl, getJson, requestJson, type ApiOptions } from "./http";

export type { DatasetAnswer, OrgMemberEntry, OrgOverview, QuickSearchAnswer, UserOverview };

/** `GET /api/users/{name}/overview` (an ApiError with status 404 for no such user). */
export async function userOverview(name: string, options: ApiOptions): Promise<UserOverview> {
	const url = apiUrl(options.baseUrl, `/api/users/${encodeURIComponent(name)}/overview`);
	return (await getJson<UserOverview>(url, options)).data;
}

/** `GET /api/organizations/{name}/overview` (404 for no such organisation). */
export async function orgOverview(name: string, options: ApiOptions): Promise<OrgOverview> {
	const url = apiUrl(options.baseUrl, `/api/organizations/${encodeURIComponent(name)}/overview`);
	return (await getJson<OrgOverview>(url, options)).data;
}

/** The hub's page size of member lists, and how many pages a view reads at most. */
const MEMBERS_PAGE = 500;
const MAX_MEMBER_PAGES = 4;

/** An organisation's members (the first MEMBERS_PAGE × MAX_MEMBER_PAGES), with `more` when there are others. */
export async function orgMembers(
	name: string,
	options: ApiOptions,
): Promise<{ members: OrgMemberEntry[]; more: boolean }> {
	const members: OrgMemberEntry[] = [];
	let cursor: string | undefined;
	for (let page = 0; page < MAX_MEMBER_PAGES; page++) {
		const url = apiUrl(options.baseUrl, `/api/organizations/${encodeURIComponent(name)}/members`, {
			limit: MEMBERS_PAGE,
			cursor,
		});
		const { data, headers } = await getJson<OrgMemberEntry[]>(url, options);
		members.push(...data);
		cursor = nextCursor(headers.get("link"));
		if (cursor === undefined) return { members, more: false };
	}
	return { members, more: true };
}

/** The `cursor` of a `Link: <…?cursor=…>; rel="next"` header. */
export function nextCursor(link: string | null): string | undefined {
	const target = link ? /<([^>]+)>\s*;\s*rel="next"/.exec(link)?.[1] : undefined;
	if (!target) return undefined;
	try {
		return new URL(target, "http://base.invalid").searchParams.get("cursor") ?? undefined;
	} catch {
		return undefined;
	}
}

function memberUrl(baseUrl: string | undefined, org: string, user: string): string {
	return apiUrl(baseUrl, `/api/organizations/${encodeURIComponent(org)}/members/${encodeURIComponent(user)}`);
}

/** Adds a user to an organisation or changes their role (the organisation's admins). */
export async function setOrgMember(
	org: string,
	user: string,
	role: OrgRole,
	options: ApiOptions,
): Promise<OrgMemberChange> {
	const body: SetOrgMemberRequest = { role };
	return (
		await requestJson<OrgMemberChange>(memberUrl(options.baseUrl, org, user), {
			...options,
			method: "PUT",
			body,
		})
	).data;
}

/** Removes a member from an organisation. */
export async function removeOrgMember(
	org: string,
	user: string,
	options: ApiOptions,
): Promise<OrgMemberChange> {
	return (
		await requestJson<OrgMemberChange>(memberUrl(options.baseUrl, org, user), {
			...options,
			method: "DELETE",
		})
	).data;
}

/** What `GET /api/quicksearch` answers (ModelHub answers the public hub's shape). */
export async function quickSearch(
	text: string,
	query: { types: Array<"model" | "user" | "org">; limit: number },
	options: ApiOptions,
): Promise<QuickSearchAnswer> {
	const url = apiUrl(options.baseUrl, "/api/quicksearch", { q: text, type: query.types, limit: query.limit });
	return (await getJson<QuickSearchAnswer>(url, options)).data;
}

/**
 * Whether `name` is a user's or an organisation's (names are case-insensitive), or neither: the hub's
 * search puts an exact name first.
 */
export async function accountKind(name: string, options: ApiOptions): Promise<"user" | "org" | undefined> {
	const answer = await quickSearch(name, { types: ["user", "org"], limit: 1 }, options);
	const lower = name.toLowerCase();
	if (answer.users[0]?.user.toLowerCase() === lower) return "user";
	if (answer.orgs[0]?.name.toLowerCase() === lower) return "org";
	return undefined;
}

/** The datasets a namespace page lists at most (the most recently updated). */
export const NAMESPACE_DATASETS = 100;

/** A namespace's datasets as the viewer may see them (`GET /api/datasets?author=`), newest first. */
export async function namespaceDatasets(
	name: string,
	options: ApiOptions,
): Promise<{ datasets: DatasetAnswer[]; more: boolean }> {
	const query = {
		author: name,
		sort: "lastModified",
		direction: -1,
		limit: NAMESPACE_DATASETS,
	} satisfies DatasetListParameters;
	const url = apiUrl(options.baseUrl, "/api/datasets", query);
	const { data, headers } = await getJson<DatasetAnswer[]>(url, options);
	return { datasets: Array.isArray(data) ? data : [], more: Boolean(headers.get("X-Next-Cursor")) };
}
