import { useId, useState, type FormEvent } from "react";
import { submittedToken, TokenField } from "../components/TokenField";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { normalizeBaseUrl, resetSettings, updateSettings, useSettings } from "../settings/store";

function validUrlOrEmpty(value: string): boolean {
	if (!value.trim()) return true;
	try {
		const url = new URL(value.trim());
		return url.protocol === "http:" || url.protocol === "https:";
	} catch {
		return false;
	}
}

/** A URL input with its label and, while it is invalid, the error message it points to. */
function UrlField(props: {
	id: string;
	label: string;
	value: string;
	placeholder: string;
	error?: string;
	onChange: (value: string) => void;
}) {
	const { id, label, value, placeholder, error, onChange } = props;
	return (
		<div className="field">
			<label htmlFor={id}>{label}</label>
			<input
				id={id}
				type="url"
				className="input"
				value={value}
				placeholder={placeholder}
				aria-invalid={error ? true : undefined}
				aria-describedby={error ? `${id}-error` : undefined}
				onChange={(event) => onChange(event.target.value)}
			/>
			{error ? (
				<span id={`${id}-error`} className="field-error">
					{error}
				</span>
			) : null}
		</div>
	);
}

export default function SettingsPage() {
	useDocumentTitle("Settings");
	const settings = useSettings();
	const [hubUrl, setHubUrl] = useState(settings.hubUrl);
	const [routerUrl, setRouterUrl] = useState(settings.routerUrl);
	const [billTo, setBillTo] = useState(settings.billTo);
	const [saved, setSaved] = useState(false);
	const [errors, setErrors] = useState<{ hubUrl?: string; routerUrl?: string }>({});
	const ids = { remember: useId(), hub: useId(), router: useId(), bill: useId() };

	const save = (event: FormEvent) => {
		event.preventDefault();
		const nextErrors: typeof errors = {};
		if (!validUrlOrEmpty(hubUrl))
			nextErrors.hubUrl = "Enter an http(s) URL, or leave it empty for this site.";
		if (!validUrlOrEmpty(routerUrl))
			nextErrors.routerUrl = "Enter an http(s) URL, or leave it empty for the default router.";
		setErrors(nextErrors);
		if (Object.keys(nextErrors).length > 0) {
			setSaved(false);
			return;
		}
		updateSettings({
			hubUrl: normalizeBaseUrl(hubUrl),
			routerUrl: normalizeBaseUrl(routerUrl),
			billTo: billTo.trim(),
			// Read from the field on submit: the token is never held in this page's rendered state.
			token: submittedToken(event.currentTarget as HTMLFormElement),
		});
		setSaved(true);
	};

	return (
		<>
			<h1>Settings</h1>
			<form className="settings-form" onSubmit={save} noValidate>
				<section aria-labelledby="token-title" className="card settings-card">
					<h2 id="token-title">Access token</h2>
					<p className="muted">
						Used only by the playground, and sent only to the inference provider or router you choose. It is
						kept in this page's memory, or in this tab's session storage if you tick the box — never in local
						storage.
					</p>
					<TokenField label="Token" mirror={settings.token} placeholder="hf_… or a provider key" />
					<div className="field field-check">
						<input
							id={ids.remember}
							type="checkbox"
							checked={settings.rememberToken}
							onChange={(event) => updateSettings({ rememberToken: event.target.checked })}
						/>
						<label htmlFor={ids.remember}>Remember for this tab (session storage)</label>
					</div>
					{settings.token ? (
						<button
							type="button"
							className="btn btn-secondary"
							onClick={() => updateSettings({ token: "", rememberToken: false })}
						>
							Forget the token
						</button>
					) : null}
				</section>

				<section aria-labelledby="hub-title" className="card settings-card">
					<h2 id="hub-title">Connections</h2>
					<UrlField
						id={ids.hub}
						label="Hub URL"
						value={hubUrl}
						placeholder="Empty: this site"
						error={errors.hubUrl}
						onChange={setHubUrl}
					/>
					<UrlField
						id={ids.router}
						label="Inference router URL"
						value={routerUrl}
						placeholder="Empty: the client's default router"
						error={errors.routerUrl}
						onChange={setRouterUrl}
					/>
					<div className="field">
						<label htmlFor={ids.bill}>Bill requests to (organisation)</label>
						<input
							id={ids.bill}
							type="text"
							className="input"
							value={billTo}
							placeholder="Empty: the token's owner"
							onChange={(event) => setBillTo(event.target.value)}
						/>
					</div>
				</section>
				<div className="form-actions">
					<button type="submit" className="btn btn-primary">
						Save settings
					</button>
					<button
						type="button"
						className="btn btn-secondary"
						onClick={() => {
							resetSettings();
							setHubUrl("");
							setRouterUrl("");
							setBillTo("");
							setSaved(false);
						}}
					>
						Reset everything
					</button>
					<span role="status" aria-live="polite" className="muted">
						{saved ? "Settings saved." : ""}
					</span>
				</div>
			</form>
		</>
	);
}
