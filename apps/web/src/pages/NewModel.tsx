import { useId, useState, type FormEvent } from "react";
import { Link, useNavigate } from "react-router";
import { createRepo } from "../api/account";
import { Field, useField } from "../components/Field";
import { useHubSession } from "../account/session";
import { useApiOptions } from "../hooks/useApiOptions";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { repoNameProblem, writableNamespaces } from "../view/account";
import { modelHref } from "../view/model";

/** Create a model repository: owner, name (checked as the hub checks it), visibility. */
export default function NewModelPage() {
	useDocumentTitle("New model");
	const api = useApiOptions();
	const session = useHubSession(api.baseUrl);
	const owners = writableNamespaces(session?.account);
	const navigate = useNavigate();
	const [owner, setOwner] = useState(owners[0] ?? "");
	const [name, setName] = useState("");
	const [isPrivate, setIsPrivate] = useState(false);
	const [nameError, setNameError] = useState<string>();
	const [error, setError] = useState<string>();
	const [busy, setBusy] = useState(false);
	// The name's help and error lie under the owner/name row, outside the field: its wiring only.
	const nameField = useField({ description: true, error: !!nameError });
	const visibilityId = useId();

	if (!session) {
		return (
			<section className="account-page" aria-labelledby="new-title">
				<h1 id="new-title">Create a new model repository</h1>
				<p className="lead">
					<Link to="/account">Sign in</Link> with a hub access token to create a model repository.
				</p>
			</section>
		);
	}
	if (owners.length === 0) {
		return (
			<section className="account-page" aria-labelledby="new-title">
				<h1 id="new-title">Create a new model repository</h1>
				<p className="lead">Your token can only read: ask your hub administrator for a write token.</p>
			</section>
		);
	}

	const submit = async (event: FormEvent) => {
		event.preventDefault();
		const problem = repoNameProblem(name.trim(), "Model name");
		setNameError(problem);
		setError(undefined);
		if (problem) return;
		setBusy(true);
		try {
			const created = await createRepo(
				{
					name: name.trim(),
					private: isPrivate,
					...(owner !== session.account.name ? { organization: owner } : {}),
				},
				api,
			);
			// The new model's page opens on its files with the upload form.
			void navigate(modelHref(created.id), { state: { upload: true } });
		} catch (failure) {
			setError(failure instanceof Error ? failure.message : String(failure));
			setBusy(false);
		}
	};

	return (
		<section className="account-page new-model" aria-labelledby="new-title">
			<h1 id="new-title">Create a new model repository</h1>
			<p className="lead">
				A repository holds a model's files and their history: weights, configuration, model card.
			</p>
			<form className="settings-form" onSubmit={(event) => void submit(event)} noValidate>
				<div className="new-model-id">
					<Field label="Owner">
						{(control) => (
							<select
								{...control}
								className="input"
								value={owner}
								onChange={(event) => setOwner(event.target.value)}
							>
								{owners.map((namespace) => (
									<option key={namespace} value={namespace}>
										{namespace}
									</option>
								))}
							</select>
						)}
					</Field>
					<span className="new-model-slash" aria-hidden="true">
						/
					</span>
					<div className="field">
						<label htmlFor={nameField.control.id}>Model name</label>
						<input
							{...nameField.control}
							className="input"
							value={name}
							autoComplete="off"
							spellCheck={false}
							maxLength={96}
							onChange={(event) => {
								setName(event.target.value);
								if (nameError) setNameError(repoNameProblem(event.target.value.trim(), "Model name"));
							}}
						/>
					</div>
				</div>
				{nameError ? (
					<span id={nameField.errorId} className="field-error">
						{nameError}
					</span>
				) : null}
				<span id={nameField.descriptionId} className="muted small">
					Letters, digits, “.”, “_” and “-”, starting with a letter or digit; at most 96 characters.
				</span>
				<fieldset className="field visibility-choice">
					<legend>Visibility</legend>
					<div className="field-check">
						<input
							id={`${visibilityId}-public`}
							type="radio"
							name="visibility"
							checked={!isPrivate}
							onChange={() => setIsPrivate(false)}
						/>
						<label htmlFor={`${visibilityId}-public`}>
							<strong>Public</strong> <span className="muted">— anyone can see this model.</span>
						</label>
					</div>
					<div className="field-check">
						<input
							id={`${visibilityId}-private`}
							type="radio"
							name="visibility"
							checked={isPrivate}
							onChange={() => setIsPrivate(true)}
						/>
						<label htmlFor={`${visibilityId}-private`}>
							<strong>Private</strong>{" "}
							<span className="muted">
								— only you{owner !== session.account.name ? ` and the members of ${owner}` : ""} can see it.
							</span>
						</label>
					</div>
				</fieldset>
				{error ? (
					<div className="notice notice-error" role="alert" data-testid="create-error">
						<strong>The hub did not create the repository</strong>
						<div>{error}</div>
					</div>
				) : null}
				<div className="form-actions">
					<button type="submit" className="btn btn-primary" disabled={busy}>
						{busy ? "Creating…" : "Create model"}
					</button>
				</div>
			</form>
		</section>
	);
}
