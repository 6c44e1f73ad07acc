import type { WebhookDelivery, WebhookInfo } from "@modelhub/hub/api";
import { useCallback, useEffect, useId, useState, type FormEvent } from "react";
import { Navigate } from "react-router";
import { useHubSession } from "../account/session";
import {
	createWebhook,
	deleteWebhook,
	listWebhooks,
	setWebhookDisabled,
	updateWebhook,
	webhookDeliveries,
	type WebhookInput,
} from "../api/webhooks";
import { ConfirmButton } from "../components/ConfirmButton";
import { Field } from "../components/Field";
import { ErrorNotice, Loading } from "../components/Status";
import { useApiOptions } from "../hooks/useApiOptions";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { formatRelative } from "../view/format";
import { TableScroll } from "../components/TableScroll";

type WatchedType = WebhookInfo["watched"][number]["type"];

/** What a webhook may watch, as huggingface_hub's WebhookWatchedItem types it (this hub has no Spaces). */
const WATCHED_TYPES: Array<{ value: WatchedType; label: string }> = [
	{ value: "user", label: "User" },
	{ value: "org", label: "Organization" },
	{ value: "model", label: "Model" },
	{ value: "dataset", label: "Dataset" },
];

/** The event domains (packages/hub/README.md, "Webhooks"). */
const DOMAINS: Array<{ value: string; label: string }> = [
	{ value: "repo", label: "Repository changes (commits, settings, creation and deletion)" },
	{ value: "discussion", label: "Discussions and pull requests (new ones, comments, status changes)" },
];

function messageOf(failure: unknown): string {
	return failure instanceof Error ? failure.message : String(failure);
}

/**
 * `/settings/webhooks` (the public hub's address): the signed-in user's webhooks — list, create, edit,
 * enable or disable, delete — and each one's delivery log.
 */
export default function WebhooksPage() {
	const api = useApiOptions();
	const session = useHubSession(api.baseUrl);
	useDocumentTitle("Webhooks");
	if (!session) return <Navigate to="/login?next=/settings/webhooks" replace />;
	return (
		<section className="account-page webhooks-page" aria-labelledby="webhooks-title">
			<h1 id="webhooks-title">Webhooks</h1>
			<p className="lead">
				A webhook posts a JSON payload (the public hub's version 3) to your URL when something changes in the
				repositories it watches. Give it a secret and the hub sends it as <code>X-Webhook-Secret</code>, so
				your receiver can tell the hub's calls from others.
			</p>
			<WebhooksManager />
		</section>
	);
}

function WebhooksManager() {
	const api = useApiOptions();
	const [hooks, setHooks] = useState<WebhookInfo[]>();
	const [loadError, setLoadError] = useState<string>();
	const [status, setStatus] = useState("");
	const [editing, setEditing] = useState<WebhookInfo>();
	const [busy, setBusy] = useState(false);

	useEffect(() => {
		const controller = new AbortController();
		listWebhooks({ ...api, signal: controller.signal }).then(setHooks, (failure: unknown) => {
			if (!controller.signal.aborted) setLoadError(messageOf(failure));
		});
		return () => controller.abort();
	}, [api]);
	const reload = useCallback(async () => {
		try {
			setHooks(await listWebhooks(api));
			setLoadError(undefined);
		} catch (failure) {
			setLoadError(messageOf(failure));
		}
	}, [api]);

	const act = async (work: () => Promise<string>) => {
		setBusy(true);
		try {
			setStatus(await work());
			await reload();
		} catch (failure) {
			setStatus(`Could not do it: ${messageOf(failure)}`);
		} finally {
			setBusy(false);
		}
	};

	return (
		<>
			<WebhookForm
				key={editing?.id ?? "new"}
				editing={editing}
				onSave={async (input) => {
					const saved = editing
						? await updateWebhook(editing.id, input, api)
						: await createWebhook(input, api);
					setEditing(undefined);
					setStatus(editing ? `Saved the webhook to ${saved.url}.` : `Created a webhook to ${saved.url}.`);
					await reload();
				}}
				onCancel={() => setEditing(undefined)}
			/>
			<p className="visually-hidden" role="status" aria-live="polite">
				{status}
			</p>
			<section aria-labelledby="webhook-list-title" className="section">
				<h2 id="webhook-list-title">Your webhooks</h2>
				{loadError ? <ErrorNotice title="Could not list your webhooks">{loadError}</ErrorNotice> : null}
				{hooks === undefined && !loadError ? <Loading label="Loading your webhooks" /> : null}
				{hooks?.length === 0 ? <p className="muted">You have no webhooks yet.</p> : null}
				{hooks && hooks.length > 0 ? (
					<ul className="webhook-list">
						{hooks.map((hook) => (
							<WebhookItem
								key={hook.id}
								hook={hook}
								busy={busy}
								onEdit={() => setEditing(hook)}
								onToggle={() =>
									void act(async () => {
										await setWebhookDisabled(hook.id, !hook.disabled, api);
										return `${hook.disabled ? "Enabled" : "Disabled"} the webhook to ${hook.url}.`;
									})
								}
								onDelete={() =>
									void act(async () => {
										await deleteWebhook(hook.id, api);
										if (editing?.id === hook.id) setEditing(undefined);
										return `Deleted the webhook to ${hook.url}.`;
									})
								}
							/>
						))}
					</ul>
				) : null}
			</section>
		</>
	);
}

function WebhookItem({
	hook,
	busy,
	onEdit,
	onToggle,
	onDelete,
}: {
	hook: WebhookInfo;
	busy: boolean;
	onEdit: () => void;
	onToggle: () => void;
	onDelete: () => void;
}) {
	const [showLog, setShowLog] = useState(false);
	const titleId = useId();
	return (
		<li className="webhook-item" aria-labelledby={titleId}>
			<h3 id={titleId} className="webhook-url">
				{hook.url}
			</h3>
			<p className="muted">
				<span className={hook.disabled ? "badge" : "badge badge-status-live"}>
					{hook.disabled ? "Disabled" : "Enabled"}
				</span>{" "}
				Watches {hook.watched.map((item) => `${item.type} ${item.name}`).join(", ")} ·{" "}
				{hook.domains.join(", ")}
				{hook.secret ? " · with a secret" : ""}
			</p>
			<div className="form-actions">
				<button type="button" className="btn btn-small" disabled={busy} onClick={onEdit}>
					Edit <span className="visually-hidden">{hook.url}</span>
				</button>
				<button type="button" className="btn btn-small" disabled={busy} onClick={onToggle}>
					{hook.disabled ? "Enable" : "Disable"} <span className="visually-hidden">{hook.url}</span>
				</button>
				<button
					type="button"
					className="btn btn-small"
					aria-expanded={showLog}
					onClick={() => setShowLog(!showLog)}
				>
					Deliveries <span className="visually-hidden">of {hook.url}</span>
				</button>
				<ConfirmButton
					busy={busy}
					confirm={
						<>
							Delete for good <span className="visually-hidden">{hook.url}</span>
						</>
					}
					cancel="Keep it"
					onConfirm={onDelete}
				>
					Delete <span className="visually-hidden">{hook.url}</span>
				</ConfirmButton>
			</div>
			{showLog ? <DeliveryLog id={hook.id} url={hook.url} /> : null}
		</li>
	);
}

function DeliveryLog({ id, url }: { id: string; url: string }) {
	const api = useApiOptions();
	const [entries, setEntries] = useState<WebhookDelivery[]>();
	const [error, setError] = useState<string>();
	useEffect(() => {
		const controller = new AbortController();
		webhookDeliveries(id, { ...api, signal: controller.signal }).then(setEntries, (failure: unknown) => {
			if (!controller.signal.aborted) setError(messageOf(failure));
		});
		return () => controller.abort();
	}, [id, api]);
	if (error) return <ErrorNotice title="Could not read the delivery log">{error}</ErrorNotice>;
	if (!entries) return <Loading label="Loading the deliveries" />;
	if (entries.length === 0) return <p className="muted">Nothing has been sent to {url} yet.</p>;
	return (
		<TableScroll label={`Deliveries to ${url}`}>
			<table className="table webhook-deliveries">
				<thead>
					<tr>
						<th scope="col">When</th>
						<th scope="col">Event</th>
						<th scope="col">Status</th>
						<th scope="col">Attempts</th>
						<th scope="col">Answer</th>
					</tr>
				</thead>
				<tbody>
					{entries.map((entry) => (
						<tr key={entry.id}>
							<td>
								<time dateTime={entry.createdAt}>{formatRelative(entry.createdAt)}</time>
							</td>
							<td>
								<details>
									<summary>
										{entry.event.scope} {entry.event.action}
									</summary>
									<pre className="webhook-payload" tabIndex={0}>
										{JSON.stringify(entry.payload, null, 2)}
									</pre>
								</details>
							</td>
							<td>{entry.status}</td>
							<td>{entry.attempts}</td>
							<td>{entry.responseStatus ?? entry.error ?? "—"}</td>
						</tr>
					))}
				</tbody>
			</table>
		</TableScroll>
	);
}

interface WatchedRow {
	type: WatchedType;
	name: string;
}

function WebhookForm({
	editing,
	onSave,
	onCancel,
}: {
	editing: WebhookInfo | undefined;
	onSave: (input: WebhookInput) => Promise<void>;
	onCancel: () => void;
}) {
	const session = useHubSession(useApiOptions().baseUrl);
	const [url, setUrl] = useState(editing?.url ?? "");
	const [watched, setWatched] = useState<WatchedRow[]>(
		editing?.watched.map((item) => ({ ...item })) ?? [{ type: "user", name: session?.account.name ?? "" }],
	);
	const [domains, setDomains] = useState<string[]>(editing?.domains ?? ["repo", "discussion"]);
	const [secret, setSecret] = useState(editing?.secret ?? "");
	const [problem, setProblem] = useState<string>();
	const [saving, setSaving] = useState(false);
	const ids = { error: useId(), watched: useId() };
	const title = editing ? "Edit webhook" : "New webhook";

	const submit = async (event: FormEvent) => {
		event.preventDefault();
		const items = watched.map((row) => ({ type: row.type, name: row.name.trim() })).filter((row) => row.name);
		if (!url.trim()) return setProblem("Give the URL the hub should post to.");
		if (items.length === 0)
			return setProblem("Name at least one user, organization, model or dataset to watch.");
		if (domains.length === 0) return setProblem("Choose at least one kind of event.");
		setProblem(undefined);
		setSaving(true);
		try {
			await onSave({ url: url.trim(), watched: items, domains, secret });
		} catch (failure) {
			setProblem(messageOf(failure));
		} finally {
			setSaving(false);
		}
	};
	const setRow = (index: number, row: Partial<WatchedRow>) =>
		setWatched(watched.map((current, at) => (at === index ? { ...current, ...row } : current)));

	return (
		<section aria-labelledby="webhook-form-title" className="section">
			<h2 id="webhook-form-title">{title}</h2>
			<form className="settings-form" onSubmit={(event) => void submit(event)} noValidate>
				<Field label="Payload URL">
					{(control) => (
						<input
							{...control}
							className="input"
							type="url"
							inputMode="url"
							autoComplete="off"
							placeholder="https://ci.example.com/hub-hook"
							value={url}
							maxLength={2048}
							onChange={(event) => setUrl(event.target.value)}
						/>
					)}
				</Field>
				<fieldset className="field webhook-watched">
					<legend>Watched</legend>
					{watched.map((row, index) => (
						<div className="webhook-watched-row" key={index}>
							<select
								aria-label={`Kind of watched item ${index + 1}`}
								className="input"
								value={row.type}
								onChange={(event) => setRow(index, { type: event.target.value as WatchedType })}
							>
								{WATCHED_TYPES.map((type) => (
									<option key={type.value} value={type.value}>
										{type.label}
									</option>
								))}
							</select>
							<input
								aria-label={`Name of watched item ${index + 1}`}
								className="input"
								autoComplete="off"
								placeholder={row.type === "user" || row.type === "org" ? "name" : "namespace/name"}
								value={row.name}
								maxLength={200}
								onChange={(event) => setRow(index, { name: event.target.value })}
							/>
							{watched.length > 1 ? (
								<button
									type="button"
									className="btn btn-small"
									onClick={() => setWatched(watched.filter((_, at) => at !== index))}
								>
									Remove <span className="visually-hidden">watched item {index + 1}</span>
								</button>
							) : null}
						</div>
					))}
					{watched.length < 100 ? (
						<div>
							<button
								type="button"
								className="btn btn-small"
								onClick={() => setWatched([...watched, { type: "model", name: "" }])}
							>
								Watch another
							</button>
						</div>
					) : null}
				</fieldset>
				<fieldset className="field">
					<legend>Events</legend>
					{DOMAINS.map((domain) => (
						<div className="field-check" key={domain.value}>
							<input
								id={`${ids.watched}-${domain.value}`}
								type="checkbox"
								checked={domains.includes(domain.value)}
								onChange={(event) =>
									setDomains(
										event.target.checked
											? [...domains, domain.value]
											: domains.filter((value) => value !== domain.value),
									)
								}
							/>
							<label htmlFor={`${ids.watched}-${domain.value}`}>{domain.label}</label>
						</div>
					))}
				</fieldset>
				<Field label="Secret (optional)">
					{(control) => (
						<input
							{...control}
							className="input"
							autoComplete="off"
							value={secret}
							maxLength={256}
							onChange={(event) => setSecret(event.target.value)}
						/>
					)}
				</Field>
				{problem ? (
					<p id={ids.error} className="field-error" role="alert">
						{problem}
					</p>
				) : null}
				<div className="form-actions">
					<button type="submit" className="btn btn-primary" disabled={saving}>
						{editing ? "Save webhook" : "Create webhook"}
					</button>
					{editing ? (
						<button type="button" className="btn" onClick={onCancel}>
							Cancel
						</button>
					) : null}
				</div>
			</form>
		</section>
	);
}
