import { useState, type FormEvent } from "react";
import { Link, Navigate, useLocation, useParams } from "react-router";
import type { OrgRole } from "@modelhub/hub/api";
import { ApiError } from "../api/http";
import { orgMembers, orgOverview, removeOrgMember, setOrgMember } from "../api/people";
import { useHubSession } from "../account/session";
import { StorageLine } from "../components/account/StorageLine";
import { Field } from "../components/Field";
import { ErrorNotice, Loading, Notice } from "../components/Status";
import { useApiOptions } from "../hooks/useApiOptions";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { useResource } from "../hooks/useResource";
import { useSettings } from "../settings/store";
import { can, repoNameProblem } from "../view/account";
import { profileHref } from "../view/quick-search";
import NotFound from "./NotFound";
import { TableScroll } from "../components/TableScroll";

const ROLES: readonly OrgRole[] = ["read", "write", "admin"];

const ROLE_HELP: Record<OrgRole, string> = {
	read: "sees private models",
	write: "also creates and changes models",
	admin: "also deletes models, changes visibility and manages members",
};

/** `/organizations/{org}/settings`: the organisation's members, for its admins (the hub checks again). */
export default function OrgSettingsPage() {
	const { org = "" } = useParams();
	const location = useLocation();
	const { hubUrl } = useSettings();
	const session = useHubSession(hubUrl);
	useDocumentTitle(`Members · ${org}`);
	if (!session) return <Navigate to={`/login?next=${encodeURIComponent(location.pathname)}`} replace />;
	return <OrgSettings org={org} manages={can(session.account, org, "admin")} />;
}

function OrgSettings({ org, manages }: { org: string; manages: boolean }) {
	const api = useApiOptions();
	const [version, setVersion] = useState(0);
	const [status, setStatus] = useState("");
	const [failure, setFailure] = useState<string | undefined>();
	const data = useResource(
		async (signal) => {
			const options = { ...api, signal };
			const [overview, members] = await Promise.all([orgOverview(org, options), orgMembers(org, options)]);
			return { overview, members };
		},
		[api, org],
		version,
	);

	if (data.status === "loading" && version === 0) return <Loading label="Loading members" />;
	if (data.status === "error") {
		if (data.error instanceof ApiError && data.error.status === 404)
			return (
				<NotFound title="Organization not found" message={`The hub has no organization called “${org}”.`} />
			);
		return <ErrorNotice title="Could not load the members">{data.error.message}</ErrorNotice>;
	}
	const overview = data.data?.overview;
	const members = data.data?.members.members ?? [];

	/** Runs a change, then says what happened (or the hub's reason) and reads the members again. */
	const change = async (action: () => Promise<unknown>, done: string) => {
		setFailure(undefined);
		setStatus("");
		try {
			await action();
			setStatus(done);
			setVersion((value) => value + 1);
		} catch (error) {
			setFailure(error instanceof Error ? error.message : String(error));
		}
	};

	return (
		<div className="org-settings">
			<header className="page-header">
				<h1>
					Members of <Link to={profileHref(org)}>{overview?.fullname || org}</Link>
				</h1>
				<p className="muted">Roles: {ROLES.map((role) => `${role} (${ROLE_HELP[role]})`).join("; ")}.</p>
				<StorageLine name={org} />
			</header>
			{!manages ? (
				<Notice tone="warning">
					Only the organization's admins manage its members: you can look, not change.
				</Notice>
			) : null}
			<p role="status" className="muted">
				{status}
			</p>
			{failure ? <ErrorNotice title="The hub refused the change">{failure}</ErrorNotice> : null}
			{manages ? (
				<AddMember
					onAdd={(user, role) =>
						change(() => setOrgMember(org, user, role, api), `${user} is now a member (${role}).`)
					}
				/>
			) : null}
			<section aria-labelledby="members-title" className="section">
				<h2 id="members-title">Members ({members.length.toLocaleString("en-US")})</h2>
				<TableScroll label="Members table">
					<table className="table members-table">
						<thead>
							<tr>
								<th scope="col">Member</th>
								<th scope="col">Role</th>
								{manages ? (
									<th scope="col">
										<span className="visually-hidden">Actions</span>
									</th>
								) : null}
							</tr>
						</thead>
						<tbody>
							{members.map((member) => (
								<tr key={member.user}>
									<th scope="row">
										<Link to={profileHref(member.user)}>{member.user}</Link>
										{member.fullname && member.fullname !== member.user ? (
											<span className="muted small"> {member.fullname}</span>
										) : null}
									</th>
									<td>
										{manages ? (
											<select
												className="input role-select"
												aria-label={`Role of ${member.user}`}
												value={member.role ?? "read"}
												onChange={(event) => {
													const role = event.target.value as OrgRole;
													void change(
														() => setOrgMember(org, member.user, role, api),
														`${member.user} now has the ${role} role.`,
													);
												}}
											>
												{ROLES.map((role) => (
													<option key={role} value={role}>
														{role}
													</option>
												))}
											</select>
										) : (
											(member.role ?? "")
										)}
									</td>
									{manages ? (
										<td>
											<button
												type="button"
												className="btn btn-small"
												onClick={() => {
													if (window.confirm(`Remove ${member.user} from ${org}?`))
														void change(
															() => removeOrgMember(org, member.user, api),
															`${member.user} was removed.`,
														);
												}}
											>
												Remove<span className="visually-hidden"> {member.user}</span>
											</button>
										</td>
									) : null}
								</tr>
							))}
						</tbody>
					</table>
				</TableScroll>
			</section>
		</div>
	);
}

function AddMember({ onAdd }: { onAdd: (user: string, role: OrgRole) => Promise<void> }) {
	const [user, setUser] = useState("");
	const [role, setRole] = useState<OrgRole>("read");
	const [problem, setProblem] = useState<string | undefined>();
	const [busy, setBusy] = useState(false);
	const submit = async (event: FormEvent) => {
		event.preventDefault();
		const name = user.trim();
		const why = repoNameProblem(name, "user name");
		setProblem(why);
		if (why) return;
		setBusy(true);
		await onAdd(name, role);
		setBusy(false);
		setUser("");
	};
	return (
		<section aria-labelledby="add-member-title" className="section">
			<h2 id="add-member-title">Add a member</h2>
			<form className="add-member-form" onSubmit={(event) => void submit(event)} noValidate>
				<Field label="User name" error={problem}>
					{(control) => (
						<input
							{...control}
							className="input"
							autoComplete="off"
							spellCheck={false}
							maxLength={96}
							value={user}
							onChange={(event) => setUser(event.target.value)}
						/>
					)}
				</Field>
				<Field label="Role">
					{(control) => (
						<select
							{...control}
							className="input"
							value={role}
							onChange={(event) => setRole(event.target.value as OrgRole)}
						>
							{ROLES.map((value) => (
								<option key={value} value={value}>
									{value}
								</option>
							))}
						</select>
					)}
				</Field>
				<button type="submit" className="btn btn-primary" disabled={busy}>
					Add member
				</button>
			</form>
		</section>
	);
}
