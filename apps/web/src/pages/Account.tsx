import { StorageLine } from "../components/account/StorageLine";
import { useMemo } from "react";
import { Link, Navigate, useLocation } from "react-router";
import { listModels, type ModelSummary } from "../api/models";
import { signOut, useHubSession, type HubSession } from "../account/session";
import { PasswordChange } from "../components/account/PasswordChange";
import { SsoLink } from "../components/account/SsoLink";
import { ErrorNotice, Loading } from "../components/Status";
import { useApiOptions } from "../hooks/useApiOptions";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { useResource } from "../hooks/useResource";
import { readableNamespaces, writableNamespaces } from "../view/account";
import { formatRelative } from "../view/format";
import { modelHref } from "../view/model";
import { pipelineName } from "../view/pipelines";
import { useSettings } from "../settings/store";

/** Models listed per namespace; the hub's page size, enough for an account's own list. */
const MODELS_PER_NAMESPACE = 100;

/** The account page: who you are and your models (signed out: the sign-in page). */
export default function AccountPage() {
	const { hubUrl } = useSettings();
	const session = useHubSession(hubUrl);
	useDocumentTitle(session ? "Your account" : "Sign in");
	// A link to the sign-in provider that came back to a browser no longer signed in: the sign-in page says why.
	const ssoError = new URLSearchParams(useLocation().search).get("sso_error");
	const login = `/login?next=/account${ssoError ? `&sso_error=${encodeURIComponent(ssoError)}` : ""}`;
	return session ? <AccountView session={session} /> : <Navigate to={login} replace />;
}

function AccountView({ session }: { session: HubSession }) {
	const { account } = session;
	const api = useApiOptions();
	// Keyed by the names (the account object is replaced when the session is refreshed).
	const namespacesKey = readableNamespaces(account).join("\n");
	const namespaces = useMemo(() => namespacesKey.split("\n").filter(Boolean), [namespacesKey]);
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
		[api, namespaces],
	);

	return (
		<div className="account-page">
			<header className="page-header account-header">
				<div>
					<h1>{account.fullname ?? account.name}</h1>
					<p className="muted">
						Signed in as <strong>{account.name}</strong>
						{session.cookie
							? ""
							: `${account.tokenName ? ` with the token “${account.tokenName}”` : ""} (${account.tokenRole} access)`}
					</p>
					<StorageLine name={account.name} />
				</div>
				<div className="header-actions">
					{canCreate ? (
						<Link to="/new" className="btn btn-primary">
							<span aria-hidden="true">+ </span>New model
						</Link>
					) : null}
					{canCreate ? (
						<Link to="/new-dataset" className="btn">
							<span aria-hidden="true">+ </span>New dataset
						</Link>
					) : null}
					<Link to="/settings/tokens" className="btn">
						Access tokens
					</Link>
					<Link to="/settings/webhooks" className="btn">
						Webhooks
					</Link>
					{account.siteAdmin ? (
						<Link to="/settings/admin" className="btn">
							Site administration
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
			{/* Below the list, and only once it is there: each asks the hub first and appears when it answers,
			    which would push the list down (a layout shift of 0.19 at 390 px when they were above it). */}
			{session.cookie && models.status !== "loading" ? <PasswordChange /> : null}
			{session.cookie && models.status !== "loading" ? <SsoLink /> : null}
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
