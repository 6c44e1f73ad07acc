/**
 * "New branch or tag" (a chunk of its own, loaded when someone who may write opens it): a branch
 * (`POST /api/models/{id}/branch/{name}`, from the revision shown) or a tag of that revision
 * (`POST /api/models/{id}/tag/{revision}`, with an optional message). The hub checks git's name rules
 * and answers with its own message, shown here.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { createBranch, createTag } from "../../api/edit";
import { useApiOptions } from "../../hooks/useApiOptions";
import { refNameInputProblem } from "../../view/edit";
import { ErrorNotice, Loading } from "../Status";

export type RefKind = "branch" | "tag";

export default function RefForm({
	modelId,
	revision,
	onCreated,
	onCancel,
}: {
	modelId: string;
	/** Where the branch starts, or what the tag names. */
	revision: string;
	onCreated: (kind: RefKind, name: string) => void;
	onCancel: () => void;
}) {
	const api = useApiOptions();
	const [kind, setKind] = useState<RefKind>("branch");
	const [name, setName] = useState("");
	const [message, setMessage] = useState("");
	const [problem, setProblem] = useState<string>();
	const [error, setError] = useState<string>();
	const [busy, setBusy] = useState(false);
	const ids = { title: useId(), name: useId(), message: useId(), problem: useId() };
	const nameInput = useRef<HTMLInputElement>(null);
	useEffect(() => nameInput.current?.focus(), []);

	const submit = async (event: FormEvent) => {
		event.preventDefault();
		const blocked = refNameInputProblem(name);
		setProblem(blocked);
		setError(undefined);
		if (blocked) {
			nameInput.current?.focus();
			return;
		}
		setBusy(true);
		try {
			if (kind === "branch") await createBranch(modelId, name, revision, api);
			else await createTag(modelId, revision, name, message, api);
			onCreated(kind, name);
		} catch (reason) {
			setError(reason instanceof Error ? reason.message : String(reason));
			setBusy(false);
		}
	};

	return (
		<section className="ref-form" aria-labelledby={ids.title}>
			<h2 id={ids.title} className="browse-subheading">
				New branch or tag from {revision.length === 40 ? revision.slice(0, 7) : revision}
			</h2>
			<form onSubmit={(event) => void submit(event)} noValidate>
				<fieldset className="radio-group">
					<legend>Create a</legend>
					{(["branch", "tag"] as const).map((option) => (
						<div key={option} className="field-check">
							<input
								type="radio"
								id={`${ids.title}-${option}`}
								name={`${ids.title}-kind`}
								value={option}
								checked={kind === option}
								disabled={busy}
								onChange={() => setKind(option)}
							/>
							<label htmlFor={`${ids.title}-${option}`}>{option === "branch" ? "Branch" : "Tag"}</label>
						</div>
					))}
				</fieldset>
				<div className="field">
					<label htmlFor={ids.name}>{kind === "branch" ? "Branch name" : "Tag name"}</label>
					<input
						ref={nameInput}
						id={ids.name}
						className="input"
						value={name}
						maxLength={200}
						autoCapitalize="off"
						spellCheck={false}
						disabled={busy}
						aria-invalid={problem ? true : undefined}
						aria-describedby={problem ? ids.problem : undefined}
						onChange={(event) => setName(event.target.value)}
					/>
					{problem ? (
						<p id={ids.problem} className="field-error" role="alert">
							{problem}
						</p>
					) : null}
				</div>
				{kind === "tag" ? (
					<div className="field">
						<label htmlFor={ids.message}>
							Tag message <span className="muted">(optional)</span>
						</label>
						<input
							id={ids.message}
							className="input"
							value={message}
							disabled={busy}
							onChange={(event) => setMessage(event.target.value)}
						/>
					</div>
				) : null}
				<div className="edit-actions">
					<button type="submit" className="btn btn-primary" disabled={busy}>
						Create {kind}
					</button>
					<button type="button" className="btn" disabled={busy} onClick={onCancel}>
						Cancel
					</button>
					{busy ? <Loading label={`Creating the ${kind}`} /> : null}
				</div>
				{error ? <ErrorNotice title={`The hub refused the ${kind}`}>{error}</ErrorNotice> : null}
			</form>
		</section>
	);
}
