import { lazy, Suspense } from "react";
import { Link, useParams } from "react-router";
import {
	accountKind,
	namespaceDatasets,
	orgMembers,
	orgOverview,
	userOverview,
	type DatasetAnswer,
	type OrgOverview,
	type UserOverview,
} from "../api/people";
import { countModels } from "../api/models";
import { useHubSession } from "../account/session";
import { ProfileModels } from "../components/people/ProfileModels";
import { ErrorNotice, Loading } from "../components/Status";
import { useApiOptions } from "../hooks/useApiOptions";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { useResource } from "../hooks/useResource";
import { useSettings } from "../settings/store";
import { can } from "../view/account";
import { formatDate, formatRelative } from "../view/format";
import { profileHref } from "../view/quick-search";

const ModelPage = lazy(() => import("./Model"));

/** What a namespace without an account holds (models seeded or imported under it). */
interface NamespaceHoldings {
	name: string;
	models: number;
	datasets: DatasetAnswer[];
	moreDatasets: boolean;
}

type Found =
	| { kind: "user"; user: UserOverview }
	| { kind: "org"; org: OrgOverview }
	| { kind: "namespace"; namespace: NamespaceHoldings }
	| undefined;

/**
 * `/{name}`: a user's or an organisation's profile, else the page of a namespace without an account
 * (its repositories), else the page of a model without a namespace (the hub's page status looks in
 * the same order: packages/hub/src/web/page-meta.ts).
 */
export default function NamePage() {
	const { name = "" } = useParams();
	const api = useApiOptions();
	const found = useResource(
		async (signal): Promise<Found> => {
			const options = { ...api, signal };
			// Which kind of account has this name, asked in a way that answers 200 either way (a 404 would
			// show as an error in the browser's console for every model page at a one-segment address).
			const kind = await accountKind(name, options);
			if (kind === "user") return { kind, user: await userOverview(name, options) };
			if (kind === "org") return { kind, org: await orgOverview(name, options) };
			const [models, datasets] = await Promise.all([
				countModels({ author: name }, options),
				namespaceDatasets(name, options),
			]);
			if (models.count === 0 && datasets.datasets.length === 0) return undefined;
			return {
				kind: "namespace",
				namespace: { name, models: models.count, ...datasets, moreDatasets: datasets.more },
			};
		},
		[name, api],
	);

	if (found.status === "loading") return <Loading label="Loading page" />;
	if (found.status === "error") {
		return (
			<section aria-labelledby="profile-error-title">
				<h1 id="profile-error-title">{name}</h1>
				<ErrorNotice title="Could not load this page">{found.error.message}</ErrorNotice>
			</section>
		);
	}
	if (found.data === undefined) {
		return (
			<Suspense fallback={<Loading label="Loading page" />}>
				<ModelPage />
			</Suspense>
		);
	}
	if (found.data.kind === "namespace") return <NamespacePage namespace={found.data.namespace} />;
	return found.data.kind === "user" ? (
		<UserProfile user={found.data.user} />
	) : (
		<OrgProfile org={found.data.org} />
	);
}

function title(name: string, fullname: string): string {
	return fullname && fullname !== name ? `${fullname} (@${name})` : name;
}

function ProfileHeader({
	name,
	fullname,
	kind,
	facts,
}: {
	name: string;
	fullname: string;
	kind: string;
	facts: string;
}) {
	return (
		<header className="page-header profile-header">
			<span className="profile-avatar" aria-hidden="true">
				{name.slice(0, 1).toUpperCase()}
			</span>
			<div>
				<h1>{fullname || name}</h1>
				<p className="muted">
					<span className="visually-hidden">{kind} </span>@{name} · {facts}
				</p>
			</div>
		</header>
	);
}

function UserProfile({ user }: { user: UserOverview }) {
	useDocumentTitle(title(user.user, user.fullname));
	return (
		<div className="profile-page">
			<ProfileHeader
				name={user.user}
				fullname={user.fullname}
				kind="User"
				facts={`joined ${formatDate(user.createdAt)}`}
			/>
			{user.orgs.length > 0 ? (
				<section aria-labelledby="profile-orgs-title" className="section">
					<h2 id="profile-orgs-title">Organizations</h2>
					<ul className="chip-list">
						{user.orgs.map((org) => (
							<li key={org.name} className="chip">
								<Link to={profileHref(org.name)}>
									{org.fullname && org.fullname !== org.name ? org.fullname : org.name}
								</Link>
							</li>
						))}
					</ul>
				</section>
			) : null}
			<ProfileModels author={user.user} count={user.numModels} />
		</div>
	);
}

function OrgProfile({ org }: { org: OrgOverview }) {
	useDocumentTitle(title(org.name, org.fullname));
	const { hubUrl } = useSettings();
	const session = useHubSession(hubUrl);
	const manages = can(session?.account, org.name, "admin");
	return (
		<div className="profile-page">
			<div className="profile-top">
				<ProfileHeader
					name={org.name}
					fullname={org.fullname}
					kind="Organization"
					facts={`${org.numUsers.toLocaleString("en-US")} ${org.numUsers === 1 ? "member" : "members"}`}
				/>
				{manages ? (
					<Link to={`/organizations/${encodeURIComponent(org.name)}/settings`} className="btn">
						Manage members
					</Link>
				) : null}
			</div>
			<ProfileModels author={org.name} count={org.numModels} />
			<OrgMembers org={org.name} />
		</div>
	);
}

function OrgMembers({ org }: { org: string }) {
	const api = useApiOptions();
	const members = useResource((signal) => orgMembers(org, { ...api, signal }), [api, org]);
	return (
		<section aria-labelledby="profile-members-title" className="section">
			<h2 id="profile-members-title">Members</h2>
			{members.status === "loading" ? <Loading label="Loading members" /> : null}
			{members.status === "error" ? (
				<ErrorNotice title="Could not list the members">{members.error.message}</ErrorNotice>
			) : null}
			{members.status === "ready" && members.data.members.length === 0 ? (
				<p className="muted">No members yet.</p>
			) : null}
			{members.status === "ready" && members.data.members.length > 0 ? (
				<ul className="chip-list member-list">
					{members.data.members.map((member) => (
						<li key={member.user} className="chip">
							<Link to={profileHref(member.user)}>{member.user}</Link>
							{member.role ? <span className="muted small"> · {member.role}</span> : null}
						</li>
					))}
				</ul>
			) : null}
			{members.status === "ready" && members.data.more ? (
				<p className="muted small">
					Only the first {members.data.members.length.toLocaleString("en-US")} members are listed.
				</p>
			) : null}
		</section>
	);
}

/**
 * A namespace that no account holds (models seeded or imported as `meta-llama/…`): its models and
 * datasets, as the public hub's organisation page lists them.
 */
function NamespacePage({ namespace }: { namespace: NamespaceHoldings }) {
	const { name } = namespace;
	useDocumentTitle(name);
	const count = (n: number, one: string, many: string) =>
		`${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
	return (
		<div className="profile-page">
			<ProfileHeader
				name={name}
				fullname=""
				kind="Namespace"
				facts={`${count(namespace.models, "model", "models")}, ${count(namespace.datasets.length, "dataset", "datasets")}${namespace.moreDatasets ? " or more" : ""}`}
			/>
			<p className="muted">No account holds this name: its repositories were added by the hub's operators.</p>
			{namespace.models > 0 ? <ProfileModels author={name} count={namespace.models} /> : null}
			{namespace.datasets.length > 0 ? (
				<section aria-labelledby="profile-datasets-title" className="section">
					<h2 id="profile-datasets-title">
						Datasets{" "}
						<span className="muted">
							({namespace.datasets.length.toLocaleString("en-US")}
							{namespace.moreDatasets ? "+" : ""})
						</span>
					</h2>
					<ul className="model-list profile-datasets">
						{namespace.datasets.map((dataset) => (
							<li key={dataset.id} className="card model-card">
								<h3 className="card-title model-id">
									<Link to={`/datasets/${dataset.id.split("/").map(encodeURIComponent).join("/")}`}>
										{dataset.id}
									</Link>
									{dataset.private ? <span className="badge badge-private">Private</span> : null}
								</h3>
								{dataset.lastModified ? (
									<p className="model-meta">
										<span>Updated {formatRelative(dataset.lastModified)}</span>
									</p>
								) : null}
							</li>
						))}
					</ul>
				</section>
			) : null}
		</div>
	);
}
