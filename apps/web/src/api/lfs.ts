/**
 * Large files from the browser through the git-LFS batch API, as huggingface_hub sends them when Xet
 * is off (packages/hub/README.md, "Uploads", step 2): the file's SHA-256, `POST /{id}.git/info/lfs/
 * objects/batch` (upload operation, basic transfer), a `PUT` of the bytes to the upload URL the hub
 * answers (none when it holds the object already: an interrupted upload resumes), the verify action,
 * and then the commit names the file by its SHA-256 (`lfsFile`). Each file is its own request, so a
 * failure costs that file, not the whole commit's bytes.
 */
import type { RepoType } from "@modelhub/tasks/repositories";
import { repoId, repoPagePath } from "@modelhub/tasks/repositories";
import { csrfHeaders } from "../account/csrf";
import { ApiError, apiUrl, hubErrorMessage } from "./http";

/**
 * Files above this go through LFS: the hub's largest inline file by default (MODELHUB_MAX_REGULAR_FILE_BYTES,
 * 10 MiB), above which its preupload always answers `lfs`.
 */
export const LFS_UPLOAD_THRESHOLD_BYTES = 10 * 1024 * 1024;
/**
 * The largest file hashed in the page: Web Crypto digests a whole buffer (no streaming), so the file is
 * read into memory once. Larger files go in the multipart commit, which the hub streams to storage.
 */
export const MAX_LFS_HASHED_BYTES = 1024 * 1024 * 1024;

const LFS_TYPE = "application/vnd.git-lfs+json";

export interface LfsObject {
	oid: string;
	size: number;
}

interface LfsAction {
	href: string;
	header?: Record<string, string>;
}

interface BatchAnswer {
	objects?: {
		oid: string;
		size: number;
		actions?: { upload?: LfsAction; verify?: LfsAction };
		error?: { code: number; message: string };
	}[];
}

export interface LfsOptions {
	baseUrl?: string;
	token?: string;
	repoType?: RepoType;
	signal?: AbortSignal;
}

/** Whether a file of this size goes through the LFS batch API rather than the multipart commit. */
export function goesThroughLfs(size: number): boolean {
	return size > LFS_UPLOAD_THRESHOLD_BYTES && size <= MAX_LFS_HASHED_BYTES;
}

/** The file's SHA-256 (hex), its LFS object id. */
export async function sha256Hex(file: Blob): Promise<string> {
	const digest = await crypto.subtle.digest("SHA-256", await file.arrayBuffer());
	return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

function authHeaders(method: string, options: LfsOptions): Record<string, string> {
	return {
		...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
		...csrfHeaders(method, options.baseUrl, options.token),
	};
}

/**
 * Uploads one object unless the repository holds it already; `onProgress` gets the bytes of this file
 * sent so far. Resolves once the hub has verified it.
 */
export async function uploadLfsObject(
	id: string,
	object: LfsObject,
	file: Blob,
	options: LfsOptions & { onProgress?: (loaded: number) => void },
): Promise<void> {
	const url = apiUrl(
		options.baseUrl,
		`${repoPagePath(repoId(options.repoType ?? "model", id))}.git/info/lfs/objects/batch`,
	);
	const response = await fetch(url, {
		method: "POST",
		headers: { Accept: LFS_TYPE, "Content-Type": LFS_TYPE, ...authHeaders("POST", options) },
		body: JSON.stringify({
			operation: "upload",
			transfers: ["basic"],
			objects: [object],
			hash_algo: "sha256",
		}),
		signal: options.signal ?? null,
	});
	const body = (await response.json().catch(() => undefined)) as BatchAnswer | undefined;
	if (!response.ok) throw new ApiError(hubErrorMessage(response.status, body), response.status, url);
	const answer = body?.objects?.find((entry) => entry.oid === object.oid);
	if (answer?.error) throw new ApiError(answer.error.message, answer.error.code, url);
	const upload = answer?.actions?.upload;
	if (upload === undefined) {
		// Held already: nothing to send.
		options.onProgress?.(object.size);
		return;
	}
	await putWithProgress(upload, file, options);
	const verify = answer?.actions?.verify;
	if (verify) {
		const verified = await fetch(verify.href, {
			method: "POST",
			headers: {
				Accept: LFS_TYPE,
				"Content-Type": LFS_TYPE,
				...authHeaders("POST", options),
				...verify.header,
			},
			body: JSON.stringify(object),
			signal: options.signal ?? null,
		});
		if (!verified.ok) {
			const text = (await verified.json().catch(() => undefined)) as unknown;
			throw new ApiError(hubErrorMessage(verified.status, text), verified.status, verify.href);
		}
	}
}

/** The `PUT` of the bytes, with XMLHttpRequest for its upload progress (fetch reports none). */
function putWithProgress(
	action: LfsAction,
	file: Blob,
	options: LfsOptions & { onProgress?: (loaded: number) => void },
): Promise<void> {
	return new Promise<void>((resolve, reject) => {
		const cancelled = () => reject(new DOMException("The upload was cancelled.", "AbortError"));
		if (options.signal?.aborted) {
			cancelled();
			return;
		}
		const xhr = new XMLHttpRequest();
		let settled = false;
		const settle = (outcome: () => void) => {
			if (settled) return;
			settled = true;
			options.signal?.removeEventListener("abort", abort);
			xhr.upload.onprogress = null;
			outcome();
		};
		function abort() {
			settle(cancelled);
			xhr.abort();
		}
		options.signal?.addEventListener("abort", abort, { once: true });
		xhr.open("PUT", action.href);
		// The upload URL is signed: it carries the permission, and the action's headers, if any. The
		// browser sends the session cookie with it too, so the hub wants the session's CSRF token.
		const headers = { ...csrfHeaders("PUT", options.baseUrl, options.token), ...action.header };
		for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
		xhr.upload.onprogress = (event) => options.onProgress?.(event.loaded);
		xhr.onload = () =>
			settle(() => {
				if (xhr.status >= 200 && xhr.status < 300) resolve();
				else {
					let body: unknown;
					try {
						body = JSON.parse(xhr.responseText);
					} catch {
						body = undefined;
					}
					reject(new ApiError(hubErrorMessage(xhr.status, body), xhr.status, action.href));
				}
			});
		xhr.onerror = () =>
			settle(() =>
				reject(
					new ApiError(
						"The upload of a large file stopped: the connection to the hub closed.",
						0,
						action.href,
					),
				),
			);
		xhr.onabort = () => settle(cancelled);
		xhr.send(file);
	});
}
