/**
 * Sends a browser commit to the hub (`POST /api/models/{id}/commit/{branch}`, or `/api/datasets/…`, multipart) with
 * XMLHttpRequest, the one browser API that reports upload progress (`xhr.upload.onprogress`; fetch has
 * no upload progress). The hub token goes in the Authorization header, to the hub only.
 */
import { csrfHeaders } from "../account/csrf";
import type { CommitAnswer } from "@modelhub/hub/api";
import type { RepoType } from "@modelhub/tasks/repositories";
import { ApiError, apiUrl, hubErrorMessage, repoApi } from "./http";

/** What the upload panel shows of a commit. */
export type CommitResult = Pick<CommitAnswer, "commitOid" | "commitUrl">;

export interface SendCommitOptions {
	baseUrl?: string;
	token?: string;
	/** The repository type `modelId` names (models when absent). */
	repoType?: RepoType;
	branch?: string;
	signal?: AbortSignal;
	/** Bytes of the request body sent so far, and in all. */
	onProgress?: (loaded: number, total: number) => void;
}

function parse(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

export function sendCommit(
	modelId: string,
	form: FormData,
	options: SendCommitOptions = {},
): Promise<CommitResult> {
	const branch = options.branch ?? "main";
	const url = apiUrl(options.baseUrl, `${repoApi(modelId, options)}/commit/${encodeURIComponent(branch)}`);
	return new Promise<CommitResult>((resolve, reject) => {
		if (options.signal?.aborted) {
			reject(new DOMException("The upload was cancelled.", "AbortError"));
			return;
		}
		const xhr = new XMLHttpRequest();
		let settled = false;
		// Settles once; Chromium keeps reporting upload progress of an aborted request while it drains,
		// and under DevTools network throttling fires no "abort" event at all, so cancelling settles here.
		const settle = (outcome: () => void) => {
			if (settled) return;
			settled = true;
			options.signal?.removeEventListener("abort", abort);
			xhr.upload.onprogress = null;
			outcome();
		};
		const cancelled = () => reject(new DOMException("The upload was cancelled.", "AbortError"));
		function abort() {
			settle(cancelled);
			xhr.abort();
		}
		options.signal?.addEventListener("abort", abort, { once: true });
		xhr.open("POST", url);
		xhr.setRequestHeader("Accept", "application/json");
		if (options.token) xhr.setRequestHeader("Authorization", `Bearer ${options.token}`);
		for (const [name, value] of Object.entries(csrfHeaders("POST", options.baseUrl, options.token))) {
			xhr.setRequestHeader(name, value);
		}
		xhr.upload.onprogress = (event) => {
			if (event.lengthComputable) options.onProgress?.(event.loaded, event.total);
		};
		xhr.onload = () =>
			settle(() => {
				const body = parse(xhr.responseText);
				if (xhr.status >= 200 && xhr.status < 300) {
					const result = (body ?? {}) as Partial<CommitAnswer>;
					resolve({ commitOid: result.commitOid ?? "", commitUrl: result.commitUrl ?? "" });
				} else {
					reject(new ApiError(hubErrorMessage(xhr.status, body), xhr.status, url));
				}
			});
		xhr.onerror = () =>
			settle(() =>
				reject(
					new ApiError(
						"The upload stopped: the connection to the hub was closed before it answered (the hub may have refused the upload, or be unreachable).",
						0,
						url,
					),
				),
			);
		xhr.onabort = () => settle(cancelled);
		xhr.send(form);
	});
}
