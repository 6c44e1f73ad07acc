import type { AccessState } from "@modelhub/hub/api";
import { useEffect, useId, useState, type FormEvent } from "react";
import { askModelAccess, modelAccess } from "../../api/community";
import type { ApiOptions } from "../../api/http";
import { useRepoType } from "../../hooks/useRepoType";

/**
 * A gated model's or dataset's request form (the card's `extra_gated_*` fields), or where the viewer's request
 * stands. Shown above the card to everyone without access; members of the namespace see nothing.
 */
export function GatedAccess({ modelId, api }: { modelId: string; api: ApiOptions }) {
	const [state, setState] = useState<AccessState>();
	const [answers, setAnswers] = useState<Record<string, string | boolean>>({});
	const [sending, setSending] = useState(false);
	const [error, setError] = useState<string>();
	const headingId = useId();
	const what = useRepoType();

	useEffect(() => {
		let live = true;
		modelAccess(modelId, api).then(
			(found) => live && setState(found),
			() => undefined,
		);
		return () => {
			live = false;
		};
	}, [modelId, api]);

	if (!state || state.gated === false || state.access === "member") return null;
	const submit = async (event: FormEvent) => {
		event.preventDefault();
		setSending(true);
		setError(undefined);
		try {
			setState(await askModelAccess(modelId, answers, api));
		} catch (failure) {
			setError(failure instanceof Error ? failure.message : String(failure));
		} finally {
			setSending(false);
		}
	};
	return (
		<section className="notice gated-access" aria-labelledby={headingId}>
			<h2 id={headingId}>
				{state.heading ?? `You need to agree to share your contact information to access this ${what}`}
			</h2>
			{state.prompt ? <p>{state.prompt}</p> : null}
			{state.access === "accepted" ? (
				<p role="status">Your request was accepted: you can download this {what}'s files.</p>
			) : state.access === "pending" ? (
				<p role="status">Your request is waiting for the owners' review.</p>
			) : state.access === "rejected" ? (
				<p role="status">Your request to access this repo has been rejected by the repo's authors.</p>
			) : state.access === "anonymous" ? (
				<p>Sign in to ask for access: its files are shared with the users the owners accept.</p>
			) : (
				<form className="gated-form" onSubmit={(event) => void submit(event)}>
					{state.fields.map((field) => {
						const id = `gated-${field.name.replace(/[^A-Za-z0-9_-]/g, "_")}`;
						if (field.type === "checkbox") {
							return (
								<label key={field.name} className="gated-check" htmlFor={id}>
									<input
										id={id}
										type="checkbox"
										required
										checked={answers[field.name] === true}
										onChange={(event) => setAnswers({ ...answers, [field.name]: event.target.checked })}
									/>{" "}
									{field.name}
								</label>
							);
						}
						if (field.type === "select") {
							return (
								<label key={field.name} htmlFor={id}>
									{field.name}
									<select
										id={id}
										required
										value={typeof answers[field.name] === "string" ? (answers[field.name] as string) : ""}
										onChange={(event) => setAnswers({ ...answers, [field.name]: event.target.value })}
									>
										<option value="">Choose…</option>
										{(field.options ?? []).map((option) => (
											<option key={option.value} value={option.value}>
												{option.label}
											</option>
										))}
									</select>
								</label>
							);
						}
						return (
							<label key={field.name} htmlFor={id}>
								{field.name}
								<input
									id={id}
									type={field.type === "date_picker" ? "date" : "text"}
									required
									maxLength={1000}
									value={typeof answers[field.name] === "string" ? (answers[field.name] as string) : ""}
									onChange={(event) => setAnswers({ ...answers, [field.name]: event.target.value })}
								/>
							</label>
						);
					})}
					<button type="submit" className="btn btn-primary" disabled={sending}>
						{sending ? "Sending…" : (state.buttonContent ?? "Agree and send request to access repo")}
					</button>
					{error ? (
						<p role="alert" className="notice-error">
							{error}
						</p>
					) : null}
				</form>
			)}
		</section>
	);
}
