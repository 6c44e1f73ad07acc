/** The hub's account API (see packages/hub/README.md, "From a browser"), always with the hub token. */
import type {
	AccountStorageInfo,
	CreatedRepo,
	CreateRepoRequest,
	Deleted,
	DeleteRepoRequest,
	MovedRepo,
	MoveRepoRequest,
	RepoSettings,
	RepoSettingsRequest,
	Whoami,
} from "@modelhub/hub/api";
import { accountFromWhoami, type HubAccount } from "../view/account";
import { ApiError, apiUrl, repoApi, requestJson, type ApiOptions } from "./http";

/**
 * Who the token belongs to (`GET /api/whoami-v2`), or, without a token, the page's browser session;
 * the hub's 401 message for a bad token.
 */
export async function whoami(options: ApiOptions): Promise<HubAccount> {
	const url = apiUrl(options.baseUrl, "/api/whoami-v2");
	const { data } = await requestJson<Whoami>(url, options);
	const account = accountFromWhoami(data);
	if (!account) throw new ApiError("The hub's answer does not name an account.", 200, url);
	return account;
}

/** A repository just made: its id (`namespace/name`) and page. */
export interface NewRepo {
	id: CreatedRepo["name"];
	url: CreatedRepo["url"];
}

/**
 * Creates a model or dataset repository (`POST /api/repos/create`); `organization` when it is not the
 * account's own.
 */
export async function createRepo(
	request: {
		type: NonNullable<CreateRepoRequest["type"]>;
		name: string;
		organization?: string;
		private: boolean;
	},
	options: ApiOptions,
): Promise<NewRepo> {
	const { data } = await requestJson<Partial<CreatedRepo>>(apiUrl(options.baseUrl, "/api/repos/create"), {
		...options,
		method: "POST",
		body: {
			type: request.type,
			name: request.name,
			private: request.private,
			...(request.organization ? { organization: request.organization } : {}),
		} satisfies CreateRepoRequest,
	});
	const id = data.name ?? (request.organization ? `${request.organization}/${request.name}` : request.name);
	return { id, url: data.url ?? "" };
}

/**
 * Deletes a repository and all its files and history (`DELETE /api/repos/delete`, huggingface_hub's
 * delete_repo): the id the hub deleted; its message otherwise (403 without admin rights, 404 unknown).
 */
export async function deleteRepo(
	id: string,
	type: NonNullable<DeleteRepoRequest["type"]>,
	options: ApiOptions,
): Promise<string> {
	const slash = id.indexOf("/");
	const { data } = await requestJson<Partial<Deleted>>(apiUrl(options.baseUrl, "/api/repos/delete"), {
		...options,
		method: "DELETE",
		body: {
			type,
			...(slash < 0 ? { name: id } : { organization: id.slice(0, slash), name: id.slice(slash + 1) }),
		} satisfies DeleteRepoRequest,
	});
	return data.deleted ?? id;
}

/** Makes a repository private or public (`PUT /api/models/{id}/settings`, `/api/datasets/…`); the hub's answer, `{ private }`. */
export async function setModelPrivate(
	id: string,
	isPrivate: boolean,
	options: ApiOptions,
): Promise<{ private: boolean }> {
	const { data } = await requestJson<Partial<RepoSettings>>(
		apiUrl(options.baseUrl, `${repoApi(id, options)}/settings`),
		{ ...options, method: "PUT", body: { private: isPrivate } satisfies RepoSettingsRequest },
	);
	return { private: data.private === true };
}

/**
 * Renames or transfers a repository (`POST /api/repos/move`, huggingface_hub's move_repo): its id now;
 * the former id redirects there. The hub's message (409 taken, 403 no right, 400 a bad name) otherwise.
 */
export async function moveRepo(
	fromId: string,
	toId: string,
	type: MoveRepoRequest["type"],
	options: ApiOptions,
): Promise<string> {
	const { data } = await requestJson<Partial<MovedRepo>>(apiUrl(options.baseUrl, "/api/repos/move"), {
		...options,
		method: "POST",
		body: { fromRepo: fromId, toRepo: toId, type } satisfies MoveRepoRequest,
	});
	if (typeof data.name !== "string") throw new Error("The hub's answer did not name the repository");
	return data.name;
}

/** What an account's namespace holds and may hold (`GET /api/accounts/{name}/storage`, ModelHub's own). */
export async function accountStorage(name: string, options: ApiOptions): Promise<AccountStorageInfo> {
	const { data } = await requestJson<AccountStorageInfo>(
		apiUrl(options.baseUrl, `/api/accounts/${encodeURIComponent(name)}/storage`),
		options,
	);
	return data;
}
