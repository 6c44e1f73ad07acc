import { useState } from "react";
import { useLocation } from "react-router";
import { signInMethods, startSsoLink, unlinkSso } from "../../api/auth";
import { useResource } from "../../hooks/useResource";
import { ssoErrorMessage } from "../../view/auth-forms";
import { formatDate, formatRelative } from "../../view/format";

/**
 * The signed-in user's link to the hub's single sign-on provider (nothing when the hub has none): link
 * (the browser goes to the provider and comes back to `/account?sso=linked`, or `?sso_error=`) and
 * unlink (the hub refuses when the account would have no other way to sign in).
 */
export function SsoLink() {
	const search = useLocation().search;
	const [version, setVersion] = useState(0);
	const methods = useResource((signal) => signInMethods({ baseUrl: "", signal }), [], version);
	const [busy, setBusy] = useState(false);
	const [outcome, setOutcome] = useState<{ ok: boolean; text: string }>();
	if (methods.status !== "ready" || methods.data.sso === undefined) return null;
	const { name, linked } = methods.data.sso;
	// What the callback came back with, until something is done here.
	const arrival =
		outcome ??
		(new URLSearchParams(search).get("sso") === "linked" && linked
			? { ok: true, text: `Your account is linked to ${name}: you can sign in with it.` }
			: undefined) ??
		(ssoErrorMessage(search) ? { ok: false, text: ssoErrorMessage(search) ?? "" } : undefined);

	const link = async () => {
		setBusy(true);
		try {
			window.location.assign(await startSsoLink({ baseUrl: "" }));
		} catch (error) {
			setOutcome({ ok: false, text: error instanceof Error ? error.message : String(error) });
			setBusy(false);
		}
	};
	const unlink = async () => {
		setBusy(true);
		try {
			await unlinkSso({ baseUrl: "" });
			setOutcome({ ok: true, text: `Your account is no longer linked to ${name}.` });
			setVersion((value) => value + 1);
		} catch (error) {
			setOutcome({ ok: false, text: error instanceof Error ? error.message : String(error) });
		} finally {
			setBusy(false);
		}
	};

	return (
		<section aria-labelledby="sso-title" className="section" data-testid="sso-link">
			<h2 id="sso-title">Single sign-on</h2>
			{linked ? (
				<p>
					Linked to <strong>{name}</strong> since {formatDate(linked.linkedAt)}; last used to sign in{" "}
					{formatRelative(linked.lastUsedAt)}.
				</p>
			) : (
				<p className="muted">
					Link your account to {name} to sign in with it.
					{methods.data.password ? " Your password keeps working." : ""}
				</p>
			)}
			<div role="status" aria-live="polite">
				{arrival ? (
					<p className={arrival.ok ? "notice notice-info" : "notice notice-error"}>{arrival.text}</p>
				) : null}
			</div>
			<div className="form-actions">
				{linked ? (
					<button type="button" className="btn" disabled={busy} onClick={() => void unlink()}>
						Unlink {name}
					</button>
				) : (
					<button type="button" className="btn" disabled={busy} onClick={() => void link()}>
						Link {name}
					</button>
				)}
			</div>
		</section>
	);
}
