/**
 * The browser upload's behaviour: the pending files, one commit at a time with its progress, cancel,
 * and the hub's error when it refuses. Large files (api/lfs.ts) go first, one by one, through the LFS
 * batch API; the commit then names them by SHA-256 and carries the others. The pure parts are in view/upload.ts, the request in api/commit.ts.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { sendCommit, type CommitResult } from "../api/commit";
import { goesThroughLfs, sha256Hex, uploadLfsObject, type LfsObject } from "../api/lfs";
import { addPending, buildCommitForm, totalBytes, type ChosenFile, type PendingFile } from "../view/upload";

export type UploadPhase = "idle" | "uploading" | "processing" | "done" | "error" | "cancelled";

export interface UploadState {
	files: PendingFile[];
	phase: UploadPhase;
	/** Request body bytes sent so far, and in all (multipart framing included). */
	loaded: number;
	total: number;
	error?: string;
	/** Files left out of the last addition (the list is full). */
	dropped: number;
	commit?: CommitResult;
	/** The files of the last successful commit. */
	committed: string[];
}

const INITIAL: UploadState = { files: [], phase: "idle", loaded: 0, total: 0, dropped: 0, committed: [] };

export function useUpload(
	modelId: string,
	api: { baseUrl: string; token?: string },
	onCommitted?: (result: CommitResult, paths: string[]) => void,
) {
	const [state, setState] = useState<UploadState>(INITIAL);
	const controller = useRef<AbortController | undefined>(undefined);
	const busy = state.phase === "uploading" || state.phase === "processing";

	// Leaving the page cancels a running upload.
	useEffect(() => () => controller.current?.abort(), []);

	const add = useCallback((chosen: ChosenFile[], folder = "") => {
		setState((previous) => {
			if (previous.phase === "uploading" || previous.phase === "processing") return previous;
			const { files, dropped } = addPending(previous.files, chosen, folder);
			return { ...previous, files, dropped, phase: "idle", error: undefined };
		});
	}, []);

	const remove = useCallback((path: string) => {
		setState((previous) => ({ ...previous, files: previous.files.filter((entry) => entry.path !== path) }));
	}, []);

	const clear = useCallback(() => setState(INITIAL), []);

	const start = useCallback(
		async (summary: string, description = "") => {
			if (busy || state.files.length === 0) return;
			const files = state.files;
			const abort = new AbortController();
			controller.current = abort;
			const all = totalBytes(files);
			setState((previous) => ({ ...previous, phase: "uploading", loaded: 0, total: all, error: undefined }));
			try {
				const objects = new Map<string, LfsObject>();
				// Bytes of the large files done; the commit's own progress comes after them.
				let done = 0;
				for (const entry of files.filter((candidate) => goesThroughLfs(candidate.size))) {
					const object = { oid: await sha256Hex(entry.file), size: entry.size };
					await uploadLfsObject(modelId, object, entry.file, {
						...api,
						signal: abort.signal,
						onProgress: (loaded) =>
							!abort.signal.aborted &&
							setState((previous) => ({ ...previous, loaded: done + Math.min(loaded, entry.size) })),
					});
					done += entry.size;
					objects.set(entry.path, object);
				}
				const form = buildCommitForm(files, summary, description, objects);
				const result = await sendCommit(modelId, form, {
					...api,
					signal: abort.signal,
					onProgress: (loaded, total) =>
						!abort.signal.aborted &&
						setState((previous) => ({
							...previous,
							loaded: done + loaded,
							total: done + total,
							phase: loaded >= total ? "processing" : "uploading",
						})),
				});
				const paths = files.map((entry) => entry.path);
				setState((previous) => ({
					...INITIAL,
					phase: "done",
					loaded: previous.total,
					total: previous.total,
					commit: result,
					committed: paths,
				}));
				onCommitted?.(result, paths);
			} catch (error) {
				if (error instanceof DOMException && error.name === "AbortError") {
					setState((previous) => ({ ...previous, phase: "cancelled", loaded: 0 }));
				} else {
					setState((previous) => ({
						...previous,
						phase: "error",
						error: error instanceof Error ? error.message : String(error),
					}));
				}
			} finally {
				if (controller.current === abort) controller.current = undefined;
			}
		},
		[api, busy, modelId, onCommitted, state.files],
	);

	const cancel = useCallback(() => controller.current?.abort(), []);

	return { ...state, busy, add, remove, clear, start, cancel };
}
