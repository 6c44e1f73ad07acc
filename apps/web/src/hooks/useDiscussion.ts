import { useCallback, useState } from "react";
import type { DiscussionDetails } from "@modelhub/hub/api";
import { getDiscussion } from "../api/discussions";
import { useApiOptions } from "./useApiOptions";
import { useResource, type Resource } from "./useResource";

export interface DiscussionActions {
	details: Resource<DiscussionDetails>;
	/** An action under way (its name), so its button shows it and the others wait. */
	busy: string | undefined;
	/** The hub's message when the last action failed (a merge conflict, a refused close…). */
	error: string | undefined;
	/** Runs one change on the hub, then reads the discussion again; true when it succeeded. */
	run: (name: string, change: () => Promise<unknown>) => Promise<boolean>;
}

/**
 * A discussion (with a pull request's diff when `diff`) and the changes made from its page: each
 * change runs alone, and the discussion is then read again so the thread shows what the hub recorded
 * (the new comment, the status change, the merge) without going back to a loading state.
 */
export function useDiscussion(repoId: string, num: number, diff: boolean): DiscussionActions {
	const api = useApiOptions();
	const loaded = useResource(
		(signal) => getDiscussion(repoId, num, { diff }, { ...api, signal }),
		[repoId, num, diff, api],
	);
	const key = `${repoId}#${num}#${diff}`;
	const [fresh, setFresh] = useState<{ key: string; data: DiscussionDetails }>();
	const [busy, setBusy] = useState<string>();
	const [error, setError] = useState<string>();
	const run = useCallback(
		async (name: string, change: () => Promise<unknown>) => {
			setBusy(name);
			setError(undefined);
			try {
				await change();
				setFresh({ key, data: await getDiscussion(repoId, num, { diff }, api) });
				return true;
			} catch (failure) {
				setError(failure instanceof Error ? failure.message : String(failure));
				return false;
			} finally {
				setBusy(undefined);
			}
		},
		[key, repoId, num, diff, api],
	);
	const details: Resource<DiscussionDetails> =
		fresh?.key === key ? { status: "ready", data: fresh.data } : loaded;
	return { details, busy, error, run };
}
