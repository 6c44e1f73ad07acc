import { useCallback, useEffect, useId, useState, type FormEvent } from "react";
import { Link, Navigate } from "react-router";
import {
	createInvite,
	deleteAccount,
	listAccounts,
	listInvites,
	mirrorStats,
	revokeInvite,
	setDisabled,
	type AdminAccount,
	type AdminInvite,
	type CreatedInvite,
	type MirrorCacheStats,
} from "../api/admin";
import { useHubSession } from "../account/session";
import { CopyButton } from "../components/CopyButton";
import { ConfirmPrompt } from "../components/ConfirmButton";
import { ErrorNotice, Loading, Notice } from "../components/Status";
import { useApiOptions } from "../hooks/useApiOptions";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { useSettings } from "../settings/store";
import { formatBytes, formatExactCount, formatRelative } from "../view/format";
import { profileHref } from "../view/quick-search";
import { TableScroll } from "../components/TableScroll";

function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/**
 * `/settings/admin`: site administration for the hub's site admins (granted by the hub admin): every
 * account with its state (disable, enable, delete) and the invite links (create, list, revoke). The hub
 * checks the right on every call; this page only hides itself from others.
 */
export default function SiteAdminPage() {
	const { hubUrl } = useSettings();
	const session = useHubSession(hubUrl);
	useDocumentTitle("Site administration");
	const [status, setStatus] = useState("");
	if (!session) return <Navigate to="/login?next=/settings/admin" replace />;
	return (
		<section className="account-page admin-page" aria-labelledby="admin-title">
			<h1 id="admin-title">Site administration</h1>
			{session.account.siteAdmin ? (
				<>
					<p className="lead">
						Invite people and manage accounts. A disabled account&apos;s tokens and sessions stop at once; its
						repositories stay. An account that owns repositories cannot be deleted.
					</p>
					<p className="visually-hidden" role="status" aria-live="polite">
						{status}
					</p>
					<MirrorStatsLine />
					<Invites onStatus={setStatus} />
					<Accounts self={session.account.name} onStatus={setStatus} />
				</>
			) : (
				<Notice>
					Only the hub&apos;s site admins manage accounts and invites. The hub admin makes a user one (
					<code>PUT /api/admin/users/&#123;name&#125;/site-admin</code>).
				</Notice>
			)}
		</section>
	);
}

function inviteState(invite: AdminInvite, now: number): string {
	if (invite.usedBy !== null) return `used by ${invite.usedBy}`;
	return Date.parse(invite.expiresAt) <= now ? "expired" : "open";
}

/** One line of mirror mode's cache statistics; nothing when the hub mirrors no upstream. */
function MirrorStatsLine() {
	const api = useApiOptions();
	const [stats, setStats] = useState<MirrorCacheStats | null>();
	const [error, setError] = useState<string>();
	useEffect(() => {
		const controller = new AbortController();
		mirrorStats({ ...api, signal: controller.signal }).then(
			(answer) => {
				if (!controller.signal.aborted) setStats(answer ?? null);
			},
			(failure: unknown) => {
				if (!controller.signal.aborted) setError(messageOf(failure));
			},
		);
		return () => controller.abort();
	}, [api]);
	if (error !== undefined) return <ErrorNotice title="Mirror statistics">{error}</ErrorNotice>;
	if (!stats) return null;
	const budget = stats.budgetBytes === null ? "no budget" : `of ${formatBytes(stats.budgetBytes)}`;
	return (
		<p className="mirror-stats" data-testid="mirror-stats">
			Mirror of <code>{stats.upstream}</code>: {formatExactCount(stats.repos)} cached repositories,{" "}
			{formatExactCount(stats.files)} files, {formatBytes(stats.usedBytes)} ({budget}) ·{" "}
			{formatExactCount(stats.hits)} hits, {formatExactCount(stats.misses)} misses since the hub started
		</p>
	);
}

function Invites({ onStatus }: { onStatus: (text: string) => void }) {
	const api = useApiOptions();
	const [invites, setInvites] = useState<AdminInvite[]>();
	const [loadError, setLoadError] = useState<string>();
	const [created, setCreated] = useState<CreatedInvite>();
	const [busy, setBusy] = useState(false);
	const [hours, setHours] = useState("168");
	const ids = { hours: useId(), link: useId() };

	const fetchInvites = useCallback(
		(signal?: AbortSignal) => listInvites({ ...api, ...(signal ? { signal } : {}) }),
		[api],
	);
	const show = useCallback((list: AdminInvite[]) => {
		setInvites(list);
		setLoadError(undefined);
	}, []);
	const reload = async () => {
		try {
			show(await fetchInvites());
		} catch (error) {
			setLoadError(messageOf(error));
		}
	};
	// State is set only when the answer arrives (set-state-in-effect), never for an aborted request.
	useEffect(() => {
		const controller = new AbortController();
		fetchInvites(controller.signal).then(
			(list) => {
				if (!controller.signal.aborted) show(list);
			},
			(error: unknown) => {
				if (!controller.signal.aborted) setLoadError(messageOf(error));
			},
		);
		return () => controller.abort();
	}, [fetchInvites, show]);

	const create = async (event: FormEvent) => {
		event.preventDefault();
		setBusy(true);
		try {
			const invite = await createInvite(Number(hours), api);
			setCreated(invite);
			onStatus("Created an invite link: copy it now, it is shown only once.");
			await reload();
		} catch (error) {
			onStatus(`Could not create an invite: ${messageOf(error)}`);
		} finally {
			setBusy(false);
		}
	};

	const revoke = async (invite: AdminInvite) => {
		setBusy(true);
		try {
			await revokeInvite(invite.id, api);
			onStatus("Revoked the invite: its link admits nobody now.");
			await reload();
		} catch (error) {
			onStatus(`Could not revoke the invite: ${messageOf(error)}`);
		} finally {
			setBusy(false);
		}
	};

	// When the page listed the invites: whether an open one has expired (an impure clock read stays out of render).
	const [now] = useState(Date.now);
	return (
		<section aria-labelledby="invites-title" className="section">
			<h2 id="invites-title">Invites</h2>
			<form className="settings-form" onSubmit={(event) => void create(event)}>
				<div className="field">
					<label htmlFor={ids.hours}>Valid for</label>
					<select
						id={ids.hours}
						className="input"
						value={hours}
						onChange={(event) => setHours(event.target.value)}
					>
						<option value="24">1 day</option>
						<option value="168">7 days</option>
						<option value="720">30 days</option>
					</select>
				</div>
				<div className="form-actions">
					<button type="submit" className="btn btn-primary" disabled={busy}>
						Create invite link
					</button>
				</div>
			</form>
			{created ? (
				<div className="notice notice-info new-token" data-testid="new-invite">
					<strong id={ids.link}>New invite link (single use)</strong>
					<p>Copy it now: it is shown only once. It expires {formatRelative(created.expiresAt)}.</p>
					<code className="token-secret" aria-labelledby={ids.link}>
						{created.url}
					</code>
					<CopyButton text={created.url} label="Copy invite link" />
				</div>
			) : null}
			{loadError ? <ErrorNotice title="Could not list the invites">{loadError}</ErrorNotice> : null}
			{invites === undefined && !loadError ? <Loading label="Loading invites" /> : null}
			{invites?.length === 0 ? <p className="muted">No invites yet.</p> : null}
			{invites && invites.length > 0 ? (
				<TableScroll label="Invites table">
					<table className="table invites-table">
						<caption className="visually-hidden">The newest invites</caption>
						<thead>
							<tr>
								<th scope="col">Created</th>
								<th scope="col">By</th>
								<th scope="col">Expires</th>
								<th scope="col">State</th>
								<th scope="col">
									<span className="visually-hidden">Actions</span>
								</th>
							</tr>
						</thead>
						<tbody>
							{invites.map((invite) => {
								const state = inviteState(invite, now);
								return (
									<tr key={invite.id}>
										<th scope="row">
											<time dateTime={invite.createdAt}>{formatRelative(invite.createdAt)}</time>
										</th>
										<td>{invite.createdBy}</td>
										<td>
											<time dateTime={invite.expiresAt}>{formatRelative(invite.expiresAt)}</time>
										</td>
										<td>{state}</td>
										<td>
											{state === "open" ? (
												<button
													type="button"
													className="btn btn-small"
													disabled={busy}
													aria-label={`Revoke the invite created ${formatRelative(invite.createdAt)}`}
													onClick={() => void revoke(invite)}
												>
													Revoke
												</button>
											) : null}
										</td>
									</tr>
								);
							})}
						</tbody>
					</table>
				</TableScroll>
			) : null}
		</section>
	);
}

function Accounts({ self, onStatus }: { self: string; onStatus: (text: string) => void }) {
	const api = useApiOptions();
	const [accounts, setAccounts] = useState<AdminAccount[]>();
	const [next, setNext] = useState<string>();
	const [loadError, setLoadError] = useState<string>();
	const [busy, setBusy] = useState(false);
	const [confirming, setConfirming] = useState<string>();

	const fetchFirstPage = useCallback(
		(signal?: AbortSignal) => listAccounts(undefined, { ...api, ...(signal ? { signal } : {}) }),
		[api],
	);
	const show = useCallback((page: Awaited<ReturnType<typeof listAccounts>>) => {
		setAccounts(page.accounts);
		setNext(page.next);
		setLoadError(undefined);
	}, []);
	const reload = async () => {
		try {
			show(await fetchFirstPage());
		} catch (error) {
			setLoadError(messageOf(error));
		}
	};
	// State is set only when the answer arrives (set-state-in-effect), never for an aborted request.
	useEffect(() => {
		const controller = new AbortController();
		fetchFirstPage(controller.signal).then(
			(page) => {
				if (!controller.signal.aborted) show(page);
			},
			(error: unknown) => {
				if (!controller.signal.aborted) setLoadError(messageOf(error));
			},
		);
		return () => controller.abort();
	}, [fetchFirstPage, show]);

	const more = async () => {
		if (next === undefined) return;
		try {
			const page = await listAccounts(next, api);
			setAccounts((shown) => [...(shown ?? []), ...page.accounts]);
			setNext(page.next);
		} catch (error) {
			onStatus(`Could not list more accounts: ${messageOf(error)}`);
		}
	};

	/** Whether the action was done (a refused delete keeps its question open). */
	const act = async (what: string, done: string, action: () => Promise<void>): Promise<boolean> => {
		setBusy(true);
		try {
			await action();
			onStatus(done);
			setConfirming(undefined);
			await reload();
			return true;
		} catch (error) {
			onStatus(`Could not ${what}: ${messageOf(error)}`);
			return false;
		} finally {
			setBusy(false);
		}
	};

	return (
		<section aria-labelledby="accounts-title" className="section">
			<h2 id="accounts-title">Accounts</h2>
			{loadError ? <ErrorNotice title="Could not list the accounts">{loadError}</ErrorNotice> : null}
			{accounts === undefined && !loadError ? <Loading label="Loading accounts" /> : null}
			{accounts && accounts.length > 0 ? (
				<TableScroll label="Accounts table">
					<table className="table accounts-table">
						<caption className="visually-hidden">Accounts by name</caption>
						<thead>
							<tr>
								<th scope="col">Name</th>
								<th scope="col">Joined</th>
								<th scope="col">State</th>
								<th scope="col">
									<span className="visually-hidden">Actions</span>
								</th>
							</tr>
						</thead>
						<tbody>
							{accounts.map((account) => (
								<tr key={account.name}>
									<th scope="row">
										<Link to={profileHref(account.name)}>{account.name}</Link>
										{account.email ? <span className="muted small"> · {account.email}</span> : null}
									</th>
									<td>
										<time dateTime={account.createdAt}>{formatRelative(account.createdAt)}</time>
									</td>
									<td>
										{account.disabled ? "disabled" : "active"}
										{account.siteAdmin ? " · site admin" : ""}
									</td>
									<td className="row-actions">
										{account.name === self ? (
											<span className="muted small">you</span>
										) : confirming === account.name ? (
											<ConfirmPrompt
												question={`Delete ${account.name} for good?`}
												confirm={`Delete ${account.name}`}
												cancel="Keep"
												busy={busy}
												onConfirm={() =>
													act(`delete ${account.name}`, `Deleted ${account.name}.`, () =>
														deleteAccount(account.name, api),
													)
												}
												onClose={() => setConfirming(undefined)}
											/>
										) : (
											<>
												<button
													type="button"
													className="btn btn-small"
													disabled={busy}
													aria-label={`${account.disabled ? "Enable" : "Disable"} ${account.name}`}
													onClick={() =>
														void act(
															`${account.disabled ? "enable" : "disable"} ${account.name}`,
															`${account.disabled ? "Enabled" : "Disabled"} ${account.name}.`,
															() => setDisabled(account.name, !account.disabled, api),
														)
													}
												>
													{account.disabled ? "Enable" : "Disable"}
												</button>{" "}
												<button
													type="button"
													className="btn btn-small"
													disabled={busy}
													aria-label={`Delete ${account.name}…`}
													onClick={() => setConfirming(account.name)}
												>
													Delete…
												</button>
											</>
										)}
									</td>
								</tr>
							))}
						</tbody>
					</table>
				</TableScroll>
			) : null}
			{next !== undefined ? (
				<p>
					<button type="button" className="btn" onClick={() => void more()}>
						More accounts
					</button>
				</p>
			) : null}
		</section>
	);
}
