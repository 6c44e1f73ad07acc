import { useId, useState, type FormEvent } from "react";
import { Link, useNavigate } from "react-router";
import { repoId, repoPagePath } from "@modelhub/tasks/repositories";
import { createRepo } from "../api/account";
import { Field, useField } from "../components/Field";
import { useHubSession } from "../account/session";
import { useApiOptions } from "../hooks/useApiOptions";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { repoNameProblem, writableNamespaces } from "../view/account";

/** The types of repository the web app creates, and how its pages name them. */
const KINDS = {
	model: {
		title: "New model",
		what: "model",
		Name: "Model",
		lead: "A repository holds a model's files and their history: weights, configuration, model card.",
	},
	dataset: {
		title: "New dataset",
		what: "dataset",
		Name: "Dataset",
		lead: "A repository holds a dataset's files and their history: data files (Parquet, CSV, JSON Lines, folders of images or audio) and its dataset card.",
	},
} as const;
type NewRepoType = keyof typeof KINDS;

/** `/new`: a model repository, unless the form's type choice says otherwise. */
export default function NewModelPage() {
	return <NewRepoPage initialType="model" />;
}

/** `/new-dataset` (the public hub's address): the same form, a dataset chosen. */
export function NewDatasetPage() {
	return <NewRepoPage initialType="dataset" />;
}

/**
 * Create a repository: its type (model or dataset), owner, name (checked as the hub checks it) and
 * visibility; the new repository's page then opens on its files with the upload form.
 */
function NewRepoPage({ initialType }: { initialType: NewRepoType }) {
	const [type, setType] = useState<NewRepoType>(initialType);
	const kind = KINDS[type];
	useDocumentTitle(kind.title);
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
	const typeId = useId();
	const nameLabel = `${kind.Name} name`;
	const heading = `Create a new ${kind.what} repository`;

	if (!session) {
		return (
			<section className="account-page" aria-labelledby="new-title">
				<h1 id="new-title">{heading}</h1>
				<p className="lead">
					<Link to="/account">Sign in</Link> with a hub access token to create a {kind.what} repository.
				</p>
			</section>
		);
	}
	if (owners.length === 0) {
		return (
			<section className="account-page" aria-labelledby="new-title">
				<h1 id="new-title">{heading}</h1>
				<p className="lead">Your token can only read: ask your hub administrator for a write token.</p>
			</section>
		);
	}

	const submit = async (event: FormEvent) => {
		event.preventDefault();
		const problem = repoNameProblem(name.trim(), nameLabel);
		setNameError(problem);
		setError(undefined);
		if (problem) return;
		setBusy(true);
		try {
			const created = await createRepo(
				{
					type,
					name: name.trim(),
					private: isPrivate,
					...(owner !== session.account.name ? { organization: owner } : {}),
				},
				api,
			);
			// The new repository's page opens on its files with the upload form.
			void navigate(repoPagePath(repoId(type, created.id)), { state: { upload: true } });
		} catch (failure) {
			setError(failure instanceof Error ? failure.message : String(failure));
			setBusy(false);
		}
	};

	return (
		<section className="account-page new-model" aria-labelledby="new-title">
			<h1 id="new-title">{heading}</h1>
			<p className="lead">{kind.lead}</p>
			<form className="settings-form" onSubmit={(event) => void submit(event)} noValidate>
				<fieldset className="field visibility-choice">
					<legend>Repository type</legend>
					{(Object.keys(KINDS) as NewRepoType[]).map((choice) => (
						<div key={choice} className="field-check">
							<input
								id={`${typeId}-${choice}`}
								type="radio"
								name="repository-type"
								checked={type === choice}
								onChange={() => {
									setType(choice);
									if (nameError) setNameError(repoNameProblem(name.trim(), `${KINDS[choice].Name} name`));
								}}
							/>
							<label htmlFor={`${typeId}-${choice}`}>{KINDS[choice].Name}</label>
						</div>
					))}
				</fieldset>
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
						<label htmlFor={nameField.control.id}>{nameLabel}</label>
						<input
							{...nameField.control}
							className="input"
							value={name}
							autoComplete="off"
							spellCheck={false}
							maxLength={96}
							onChange={(event) => {
								setName(event.target.value);
								if (nameError) setNameError(repoNameProblem(event.target.value.trim(), nameLabel));
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
							<strong>Public</strong> <span className="muted">— anyone can see this {kind.what}.</span>
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
						{busy ? "Creating…" : `Create ${kind.what}`}
					</button>
				</div>
			</form>
		</section>
	);
}
