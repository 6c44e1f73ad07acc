/**
 * Likes and gated access on the hub (packages/hub/README.md, "Gated repositories" and "Likes"), for a model
 * or, with `repoType` in the options, a dataset.
 */
import type {
	AccessRequestEntry,
	AccessRequestStatus,
	AccessState,
	AskAccessRequest,
	GatedSetting,
	HandleAccessRequest,
	LikeAnswer,
	RepoLiker,
	RepoSettings,
	RepoSettingsRequest,
} from "@modelhub/hub/api";
import { apiUrl, repoApi, requestJson, type ApiOptions } from "./http";

/** A route of the repository `id` of the options' type (a model unless `repoType` says otherwise). */
function repoPath(id: string, rest: string, options: Pick<ApiOptions, "repoType">): string {
	return `${repoApi(id, options)}/${rest}`;
}

/** Likes (`liked`) or unlikes a model; its count after. */
export async function setModelLiked(id: string, liked: boolean, options: ApiOptions): Promise<LikeAnswer> {
	const { data } = await requestJson<LikeAnswer>(apiUrl(options.baseUrl, repoPath(id, "like", options)), {
		...options,
		method: liked ? "POST" : "DELETE",
	});
	return data;
}

/** The first page of a model's likers (by name; 1000 at most). */
export async function modelLikers(id: string, options: ApiOptions): Promise<RepoLiker[]> {
	const { data } = await requestJson<RepoLiker[]>(
		apiUrl(options.baseUrl, repoPath(id, "likers", options), { limit: 1000 }),
		options,
	);
	return data;
}

/** The viewer's side of a model's gate: its mode, their request, the card's form. */
export async function modelAccess(id: string, options: ApiOptions): Promise<AccessState> {
	const { data } = await requestJson<AccessState>(
		apiUrl(options.baseUrl, repoPath(id, "ask-access", options)),
		options,
	);
	return data;
}

/** Sends the request form. */
export async function askModelAccess(
	id: string,
	fields: NonNullable<AskAccessRequest["fields"]>,
	options: ApiOptions,
): Promise<AccessState> {
	const { data } = await requestJson<AccessState>(
		apiUrl(options.baseUrl, repoPath(id, "ask-access", options)),
		{
			...options,
			method: "POST",
			body: { fields } satisfies AskAccessRequest,
		},
	);
	return data;
}

/** The owner's queue: the first page of requests in one status. */
export async function modelAccessRequests(
	id: string,
	status: AccessRequestStatus,
	options: ApiOptions,
): Promise<AccessRequestEntry[]> {
	const { data } = await requestJson<AccessRequestEntry[]>(
		apiUrl(options.baseUrl, repoPath(id, `user-access-request/${status}`, options)),
		options,
	);
	return data;
}

/** Accepts, rejects or cancels a user's request. */
export async function handleModelAccessRequest(
	id: string,
	user: string,
	status: AccessRequestStatus,
	options: ApiOptions,
): Promise<AccessRequestEntry> {
	const { data } = await requestJson<AccessRequestEntry>(
		apiUrl(options.baseUrl, repoPath(id, "user-access-request/handle", options)),
		{ ...options, method: "POST", body: { user, status } satisfies HandleAccessRequest },
	);
	return data;
}

/** Gates a model (`auto` or `manual` approval) or opens it (`false`). */
export async function setModelGated(
	id: string,
	gated: GatedSetting,
	options: ApiOptions,
): Promise<GatedSetting> {
	const { data } = await requestJson<Partial<RepoSettings>>(
		apiUrl(options.baseUrl, repoPath(id, "settings", options)),
		{
			...options,
			method: "PUT",
			body: { gated } satisfies RepoSettingsRequest,
		},
	);
	return data.gated ?? false;
}
