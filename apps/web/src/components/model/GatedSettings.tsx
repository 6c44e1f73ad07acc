import type { AccessRequestEntry, GatedSetting } from "@modelhub/hub/api";
import { useCallback, useEffect, useState } from "react";
import { handleModelAccessRequest, modelAccessRequests, setModelGated } from "../../api/community";
import type { ApiOptions } from "../../api/http";
import { Field } from "../Field";

const MODES: Array<{ value: "off" | "auto" | "manual"; label: string }> = [
	{ value: "off", label: "Not gated: anyone can download the files" },
	{
		value: "auto",
		label: "Gated, automatic approval: access after the user shares their contact information",
	},
	{ value: "manual", label: "Gated, manual approval: the owners accept each request" },
];

/** The owner's side of gated access: the mode, and the queue of pending requests to accept or reject. */
export function GatedSettings({
	modelId,
	gated,
	api,
	onChange,
}: {
	modelId: string;
	gated: GatedSetting;
	api: ApiOptions;
	onChange: (gated: GatedSetting) => void;
}) {
	const [queue, setQueue] = useState<AccessRequestEntry[]>([]);
	// An ungated repository has no queue: derived, not reset by the loading effect.
	const pending = gated === false ? [] : queue;
	const [busy, setBusy] = useState(false);
	const [message, setMessage] = useState<string>();
	const [error, setError] = useState<string>();

	const fetchQueue = useCallback(
		async () => (gated === false ? [] : modelAccessRequests(modelId, "pending", api)),
		[modelId, gated, api],
	);
	// State is set only when the answer arrives (set-state-in-effect), and never from a stale request.
	useEffect(() => {
		let current = true;
		fetchQueue().then(
			(list) => {
				if (current) setQueue(list);
			},
			(failure: unknown) => {
				if (current) setError(failure instanceof Error ? failure.message : String(failure));
			},
		);
		return () => {
			current = false;
		};
	}, [fetchQueue]);
	const load = async () => setQueue(await fetchQueue());

	const run = async (work: () => Promise<string>) => {
		setBusy(true);
		setMessage(undefined);
		setError(undefined);
		try {
			setMessage(await work());
			await load();
		} catch (failure) {
			setError(failure instanceof Error ? failure.message : String(failure));
		} finally {
			setBusy(false);
		}
	};
	const setMode = (value: string) =>
		run(async () => {
			const next = await setModelGated(modelId, value === "off" ? false : (value as "auto" | "manual"), api);
			onChange(next);
			return next === false
				? "Access requests are off: the files are open to everyone."
				: `Gated (${next} approval).`;
		});
	const handle = (user: string, status: "accepted" | "rejected") =>
		run(async () => {
			await handleModelAccessRequest(modelId, user, status, api);
			return `${user}'s request was ${status}.`;
		});

	return (
		<section aria-labelledby="gated-title" className="settings-section">
			<h2 id="gated-title">Gated access</h2>
			<Field label="Access requests">
				{(control) => (
					<select
						{...control}
						className="input"
						value={gated === false ? "off" : gated}
						disabled={busy}
						onChange={(event) => void setMode(event.target.value)}
					>
						{MODES.map((mode) => (
							<option key={mode.value} value={mode.value}>
								{mode.label}
							</option>
						))}
					</select>
				)}
			</Field>
			{gated !== false ? (
				<>
					<h3>Pending requests</h3>
					{pending.length === 0 ? (
						<p className="muted">No request is waiting.</p>
					) : (
						<ul className="access-requests">
							{pending.map((entry) => (
								<li key={entry.user.user}>
									<span className="access-user">{entry.user.user}</span>
									{entry.fields ? (
										<span className="muted">
											{" "}
											{Object.entries(entry.fields)
												.map(([name, value]) => `${name}: ${String(value)}`)
												.join(" · ")}
										</span>
									) : null}{" "}
									<button
										type="button"
										className="btn btn-small"
										disabled={busy}
										onClick={() => void handle(entry.user.user, "accepted")}
									>
										Accept <span className="visually-hidden">{entry.user.user}</span>
									</button>{" "}
									<button
										type="button"
										className="btn btn-small"
										disabled={busy}
										onClick={() => void handle(entry.user.user, "rejected")}
									>
										Reject <span className="visually-hidden">{entry.user.user}</span>
									</button>
								</li>
							))}
						</ul>
					)}
				</>
			) : null}
			<p role="status" aria-live="polite" className="settings-feedback">
				{message}
			</p>
			{error ? (
				<div className="notice notice-error" role="alert">
					<strong>Could not change the access</strong>
					<div>{error}</div>
				</div>
			) : null}
		</section>
	);
}
