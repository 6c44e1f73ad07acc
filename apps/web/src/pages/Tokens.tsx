import { useId, useRef, useState, type FormEvent } from "react";
import { Navigate } from "react-router";
import { useHubSession } from "../account/session";
import { CopyButton } from "../components/CopyButton";
import { ErrorNotice, Loading, Notice } from "../components/Status";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { useOwnTokens, type TokenScope } from "../hooks/useOwnTokens";
import { useSettings } from "../settings/store";
import { tokenNameProblem } from "../view/auth-forms";
import { formatRelative } from "../view/format";
import { TableScroll } from "../components/TableScroll";

/** `/settings/tokens`: the signed-in user's access tokens (for huggingface_hub, the hf CLI, git). */
export default function TokensPage() {
	const { hubUrl } = useSettings();
	const session = useHubSession(hubUrl);
	useDocumentTitle("Access tokens");
	if (!session) return <Navigate to="/login?next=/settings/tokens" replace />;
	return (
		<section className="account-page tokens-page" aria-labelledby="tokens-title">
			<h1 id="tokens-title">Access tokens</h1>
			<p className="lead">
				Tokens let <code>huggingface_hub</code>, the <code>hf</code> CLI and git act as you on this hub: set{" "}
				<code>HF_TOKEN</code>, or run <code>hf auth login</code>. A read token can only read; a write token
				can also create repositories and upload.
			</p>
			{session.cookie ? (
				<TokensManager />
			) : (
				<Notice>
					Sign out and sign in with your password to manage your tokens: a token cannot make tokens.
				</Notice>
			)}
		</section>
	);
}

function TokensManager() {
	const own = useOwnTokens();
	return (
		<>
			<NewTokenForm own={own} />
			<p className="visually-hidden" role="status" aria-live="polite">
				{own.status}
			</p>
			<section aria-labelledby="token-list-title" className="section">
				<h2 id="token-list-title">Your tokens</h2>
				{own.loadError ? <ErrorNotice title="Could not list your tokens">{own.loadError}</ErrorNotice> : null}
				{own.tokens === undefined && !own.loadError ? <Loading label="Loading your tokens" /> : null}
				{own.tokens?.length === 0 ? <p className="muted">You have no tokens yet.</p> : null}
				{own.tokens && own.tokens.length > 0 ? (
					<TableScroll label="Tokens table">
						<table className="table tokens-table">
							<thead>
								<tr>
									<th scope="col">Name</th>
									<th scope="col">Scope</th>
									<th scope="col">Created</th>
									<th scope="col">Last used</th>
									<th scope="col">
										<span className="visually-hidden">Actions</span>
									</th>
								</tr>
							</thead>
							<tbody>
								{own.tokens.map((token) => (
									<tr key={token.id}>
										<th scope="row">{token.name}</th>
										<td>{token.scope}</td>
										<td>
											<time dateTime={token.createdAt}>{formatRelative(token.createdAt)}</time>
										</td>
										<td>
											{token.lastUsedAt ? (
												<time dateTime={token.lastUsedAt}>{formatRelative(token.lastUsedAt)}</time>
											) : (
												"never"
											)}
										</td>
										<td>
											<button
												type="button"
												className="btn btn-small"
												disabled={own.busy}
												aria-label={`Revoke ${token.name}`}
												onClick={() => void own.revoke(token)}
											>
												Revoke
											</button>
										</td>
									</tr>
								))}
							</tbody>
						</table>
					</TableScroll>
				) : null}
			</section>
		</>
	);
}

function NewTokenForm({ own }: { own: ReturnType<typeof useOwnTokens> }) {
	const [name, setName] = useState("");
	const [scope, setScope] = useState<TokenScope>("read");
	const [problem, setProblem] = useState<string>();
	const ids = { name: useId(), error: useId(), scope: useId(), secret: useId() };
	const nameRef = useRef<HTMLInputElement>(null);

	const submit = async (event: FormEvent) => {
		event.preventDefault();
		const local = tokenNameProblem(name);
		if (local) {
			setProblem(local);
			nameRef.current?.focus();
			return;
		}
		setProblem(undefined);
		const failure = await own.create(name, scope);
		if (failure) setProblem(failure);
		else setName("");
	};

	return (
		<section aria-labelledby="new-token-title" className="section">
			<h2 id="new-token-title">New token</h2>
			<form className="settings-form" onSubmit={(event) => void submit(event)} noValidate>
				<div className="field">
					<label htmlFor={ids.name}>Token name</label>
					<input
						ref={nameRef}
						id={ids.name}
						className="input"
						autoComplete="off"
						value={name}
						maxLength={200}
						aria-invalid={problem ? true : undefined}
						aria-describedby={problem ? ids.error : undefined}
						onChange={(event) => setName(event.target.value)}
					/>
					{problem ? (
						<span id={ids.error} className="field-error" role="alert">
							{problem}
						</span>
					) : null}
				</div>
				<fieldset className="field radio-group">
					<legend>Scope</legend>
					{(["read", "write"] as const).map((value) => (
						<div className="field-check" key={value}>
							<input
								id={`${ids.scope}-${value}`}
								type="radio"
								name="scope"
								value={value}
								checked={scope === value}
								onChange={() => setScope(value)}
							/>
							<label htmlFor={`${ids.scope}-${value}`}>
								{value === "read"
									? "Read: download and list, private models included"
									: "Write: also create repositories and upload"}
							</label>
						</div>
					))}
				</fieldset>
				<div className="form-actions">
					<button type="submit" className="btn btn-primary" disabled={own.busy}>
						Create token
					</button>
				</div>
			</form>
			{own.created?.token ? (
				<div className="notice notice-info new-token" data-testid="new-token">
					<strong id={ids.secret}>
						Your new token “{own.created.name}” ({own.created.scope})
					</strong>
					<p>Copy it now: it is shown only once.</p>
					<code className="token-secret" aria-labelledby={ids.secret}>
						{own.created.token}
					</code>
					<CopyButton text={own.created.token} label="Copy token" />
				</div>
			) : null}
		</section>
	);
}
