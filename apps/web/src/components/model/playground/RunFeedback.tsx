import { useEffect, useRef } from "react";
import type { RunState } from "../../../view/playground/run";

/** What went wrong (or that Stop worked), right under the Send button. */
export function RunFeedback({ run, onRetry }: { run: RunState; onRetry: (() => void) | undefined }) {
	const error = run.phase === "failed" || run.phase === "stopped" ? run.error : undefined;
	const stopped = run.phase === "stopped";
	const shown = useRef<HTMLDivElement>(null);
	// The form can be taller than the window (a long chat, a file preview): bring the error to the user.
	useEffect(() => {
		if (error) shown.current?.scrollIntoView({ block: "nearest" });
	}, [error]);
	if (!error) return <div className="run-feedback" role="status" aria-live="polite" />;
	return (
		<div
			ref={shown}
			className={`run-feedback notice ${stopped ? "notice-info" : "notice-error"}`}
			role={stopped ? "status" : "alert"}
			data-testid="run-error"
		>
			<p>
				{error.status !== undefined ? <strong>HTTP {error.status}: </strong> : null}
				{error.message}
			</p>
			{onRetry ? (
				<button type="button" className="btn btn-small" onClick={onRetry}>
					Retry
				</button>
			) : null}
		</div>
	);
}
