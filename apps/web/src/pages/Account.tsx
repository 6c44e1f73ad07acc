import { useId, useState, type FormEvent } from "react";
import { Link } from "react-router";
import { accountStorage, whoami } from "../api/account";
import { listModels, type ModelSummary } from "../api/models";
import { signIn, signOut, useHubSession, type HubSession } from "../account/session";
import { ErrorNotice, Loading } from "../components/Status";
import { useApiOptions } from "../hooks/useApiOptions";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { useResource } from "../hooks/useResource";
import { readableNamespaces, writableNamespaces } from "../view/account";
import { formatBytes, formatRelative } from "../view/format";
import { modelHref } from "../view/model";
import { pipelineName } from "../view/pipelines";
import { useSettings } from "../settings/store";

/** Models listed per namespace; the hub's page size, enough for an account's own list. */
const MODELS_PER_NAMESPACE = 100;

/** The account page: sign in with a hub access token; signed in, who you are and your models. */
export default function AccountPage() {
	const { hubUrl } = useSettings();
	const session = useHubSession(hubUrl);
	useDocumentTitle(session ? "Your account" : "Sign in");
	return session ? <AccountView session={session} /> : <SignInForm hubUrl={hubUrl} />;
}

function SignInForm({ hubUrl }: { hubUrl: string }) {
	const [token, setToken] = useState("");
	const [remember, setRemember] = useState(false);
	const [busy, setBusy] = useState(false);
	const [error, setError] = useState<string>();
	const ids = { token: useId(), remember: useId(), help: useId() };

	const submit = async (event: FormEvent) => {
		event.preventDefault();
		const value = token.trim();
		if (!value) {
			setError("Paste an access token first.");
			return;
		}
		setBusy(true);
		setError(undefined);
		try {
			const account = await whoami({ baseUrl: hubUrl, token: value });
			signIn({ token: value, hubUrl, account, remember });
		} catch (failure) {
			setError(failure instanceof Error ? failure.message : String(failure));
			setBusy(false);
		}
	};

	return (
		<section className="account-page sign-in" aria-labelledby="sign-in-title">
			<h1 id="sign-in-title">Sign in</h1>
			<p className="lead">
				Sign in with an access token of this hub to see your private models, create model repositories and
				upload files.
			</p>
			<form className="settings-form sign-in-form" onSubmit={(event) => void submit(event)} noValidate>
				<div className="field">
					<label htmlFor={ids.token}>Hub access token</label>
					<input
						id={ids.token}
						type="password"
						className="input"
						autoComplete="off"
						spellCheck={false}
						value={token}
						aria-describedby={ids.help}
						aria-invalid={error ? true : undefined}
						onChange={(event) => setToken(event.target.value)}
					/>
					<span id={ids.help} className="muted small">
						Your hub administrator issues tokens. The token is sent to this hub only, in a header (never in a
						link). It is kept in this page's memory, or in this tab until it closes if you tick the box below;
						never in local storage. It is not the inference token of the Settings page.
					</span>
				</div>
				<div className="field-check">
					<input
						id={ids.remember}
						type="checkbox"
						checked={remember}
						onChange={(event) => setRemember(event.target.checked)}
					/>
					<label htmlFor={ids.remember}>Remember in this tab (until it is closed)</label>
				</div>
				{error ? (
					<div className="notice notice-error" role="alert" data-testid="sign-in-error">
						<strong>Could not sign in</strong>
						<div>{error}</div>
					</div>
				) : null}
				<div className="form-actions">
					<button type="submit" className="btn btn-primary" disabled={busy}>
						{busy ? "Signing in…" : "Sign in"}
					</button>
				</div>
			</form>
		</section>
	);
}

function AccountView({ session }: { session: HubSession }) {
	const { account } = session;
	const api = useApiOptions();
	const namespaces = readableNamespaces(account);
	const canCreate = writableNamespaces(account).length > 0;
	const models = useResource(
		async (signal) => {
			const pages = await Promise.all(
				namespaces.map((author) =>
					listModels({ author, sort: "lastModified", limit: MODELS_PER_NAMESPACE }, { ...api, signal }),
				),
			);
			return {
				models: pages.flatMap((page) => page.models),
				more: pages.some((page) => page.nextCursor !== undefined),
			};
		},
		[api.baseUrl, api.token, namespaces.join("\n")],
	);

	return (
		<div className="account-page">
			<header className="page-header account-header">
				<div>
					<h1>{account.fullname ?? account.name}</h1>
					<p className="muted">
						Signed in as <strong>{account.name}</strong>
						{account.tokenName ? ` with the token “${account.tokenName}”` : ""} ({account.tokenRole} access)
					</p>
					<StorageLine name={account.name} />
				</div>
				<div className="header-actions">
					{canCreate ? (
						<Link to="/new" className="btn btn-primary">
							<span aria-hidden="true">+ </span>New model
						</Link>
					) : null}
					<button type="button" className="btn" onClick={signOut}>
						Sign out
					</button>
				</div>
			</header>
			{account.orgs.length > 0 ? (
				<section aria-labelledby="orgs-title" className="section">
					<h2 id="orgs-title">Organizations</h2>
					<ul className="chip-list">
						{account.orgs.map((org) => (
							<li key={org.name} className="chip">
								<Link to={`/models?author=${encodeURIComponent(org.name)}`}>{org.name}</Link>
								<span className="muted small"> · {org.role}</span>
							</li>
						))}
					</ul>
				</section>
			) : null}
			<section aria-labelledby="your-models-title" className="section">
				<h2 id="your-models-title">Your models</h2>
				{models.status === "loading" ? <Loading label="Loading your models" /> : null}
				{models.status === "error" ? (
					<ErrorNotice title="Could not list your models">{models.error.message}</ErrorNotice>
				) : null}
				{models.status === "ready" ? <YourModels models={models.data.models} canCreate={canCreate} /> : null}
				{models.status === "ready" && models.data.more ? (
					<p className="muted small">
						Showing the {MODELS_PER_NAMESPACE} most recently updated models of each namespace; the Models page
						lists them all.
					</p>
				) : null}
			</section>
		</div>
	);
}

function YourModels({ models, canCreate }: { models: ModelSummary[]; canCreate: boolean }) {
	if (models.length === 0) {
		return (
			<p className="muted">
				You have no models yet.{" "}
				{canCreate ? <Link to="/new">Create a model repository</Link> : "Your token can only read."}
			</p>
		);
	}
	const sorted = [...models].sort((a, b) => (b.lastModified ?? "").localeCompare(a.lastModified ?? ""));
	return (
		<ul className="model-list your-models">
			{sorted.map((model) => (
				<li key={model.id} className="card model-card">
					<h3 className="card-title model-id">
						<Link to={modelHref(model.id)}>{model.id}</Link>
						{model.private ? <span className="badge badge-private">Private</span> : null}
					</h3>
					<p className="model-meta">
						{model.pipeline_tag ? <span>{pipelineName(model.pipeline_tag)}</span> : null}
						{model.lastModified ? <span>Updated {formatRelative(model.lastModified)}</span> : null}
					</p>
				</li>
			))}
		</ul>
	);
}

/** One line: the bytes the account's repositories hold, and its quota (nothing while loading or on error). */
function StorageLine({ name }: { name: string }) {
	const api = useApiOptions();
	const storage = useResource(
		(signal) => accountStorage(name, { ...api, signal }),
		[api.baseUrl, api.token, name],
	);
	if (storage.status !== "ready") return null;
	const { usedBytes, limitBytes } = storage.data;
	return (
		<p className="muted small" data-testid="account-storage">
			Storage: {formatBytes(usedBytes)} used
			{limitBytes === null ? " (no quota)" : ` of ${formatBytes(limitBytes)}`}
		</p>
	);
}
