import { useId, useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { createDiscussion } from "../../api/discussions";
import { useApiOptions } from "../../hooks/useApiOptions";
import { useRepoType } from "../../hooks/useRepoType";
import { browseHref } from "../../view/browse";
import { ErrorNotice } from "../Status";

/** Title bounds of the hub (packages/hub/src/services/discussions.ts, as huggingface_hub documents them). */
const TITLE_MIN = 3;
const TITLE_MAX = 200;

/** "New discussion": a title and a Markdown description; the new thread opens once the hub has it. */
export function NewDiscussion({ repoId, onCancel }: { repoId: string; onCancel: () => void }) {
	const api = useApiOptions();
	const repoType = useRepoType();
	const navigate = useNavigate();
	const ids = { title: useId(), body: useId(), hint: useId() };
	const [title, setTitle] = useState("");
	const [body, setBody] = useState("");
	const [busy, setBusy] = useState(false);
	const [error, setError] = useState<string>();
	const submit = (event: FormEvent) => {
		event.preventDefault();
		setBusy(true);
		setError(undefined);
		createDiscussion(repoId, { title: title.trim(), description: body, pullRequest: false }, api).then(
			(created) => void navigate(browseHref(repoId, { kind: "discussion", num: created.num }, repoType)),
			(failure: unknown) => {
				setError(failure instanceof Error ? failure.message : String(failure));
				setBusy(false);
			},
		);
	};
	return (
		<form className="settings-card new-discussion" aria-label="New discussion" onSubmit={submit}>
			<div className="field">
				<label htmlFor={ids.title}>Title</label>
				<input
					id={ids.title}
					className="input"
					value={title}
					required
					minLength={TITLE_MIN}
					maxLength={TITLE_MAX}
					disabled={busy}
					onChange={(event) => setTitle(event.target.value)}
				/>
			</div>
			<div className="field">
				<label htmlFor={ids.body}>Description</label>
				<textarea
					id={ids.body}
					className="input"
					rows={6}
					value={body}
					aria-describedby={ids.hint}
					disabled={busy}
					onChange={(event) => setBody(event.target.value)}
				/>
				<p id={ids.hint} className="field-hint">
					Markdown is supported.
				</p>
			</div>
			{error ? <ErrorNotice title="The hub refused the discussion">{error}</ErrorNotice> : null}
			<div className="form-actions">
				<button type="submit" className="btn btn-primary" disabled={busy || title.trim().length < TITLE_MIN}>
					Start discussion
				</button>
				<button type="button" className="btn btn-secondary" disabled={busy} onClick={onCancel}>
					Cancel
				</button>
			</div>
		</form>
	);
}
