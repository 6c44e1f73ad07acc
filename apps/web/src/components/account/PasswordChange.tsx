import { useState, type FormEvent } from "react";
import { changePassword, signInMethods } from "../../api/auth";
import { useResource } from "../../hooks/useResource";
import { PASSWORD_BOUNDS } from "../../view/auth-forms";
import { Field } from "../Field";

/**
 * Changes the signed-in user's password, or sets a first one when the account has none (made through
 * single sign-on or by the admin: the hub then asks for a recent sign-in instead of the current
 * password). The hub ends every other session of the account.
 */
export function PasswordChange() {
	const methods = useResource((signal) => signInMethods({ baseUrl: "", signal }), []);
	const [current, setCurrent] = useState("");
	const [next, setNext] = useState("");
	const [busy, setBusy] = useState(false);
	// Set here once a first password was set, so the form turns into the change form without a reload.
	const [nowHasPassword, setNowHasPassword] = useState(false);
	const [message, setMessage] = useState<{ ok: boolean; text: string }>();
	if (methods.status !== "ready") return null;
	const hasPassword = methods.data.password || nowHasPassword;

	const submit = async (event: FormEvent) => {
		event.preventDefault();
		const length = [...next].length;
		if (length < PASSWORD_BOUNDS.min || length > PASSWORD_BOUNDS.max) {
			setMessage({ ok: false, text: `Use ${PASSWORD_BOUNDS.min} to ${PASSWORD_BOUNDS.max} characters.` });
			return;
		}
		setBusy(true);
		try {
			await changePassword(
				hasPassword ? { currentPassword: current, newPassword: next } : { newPassword: next },
				{
					baseUrl: "",
				},
			);
			setMessage({
				ok: true,
				text: hasPassword
					? "Password changed: your other sessions were signed out."
					: "Password set: you can now sign in with your user name and this password. Your other sessions were signed out.",
			});
			setNowHasPassword(true);
			setCurrent("");
			setNext("");
		} catch (error) {
			setMessage({ ok: false, text: error instanceof Error ? error.message : String(error) });
		} finally {
			setBusy(false);
		}
	};

	const title = hasPassword ? "Change password" : "Set a password";
	return (
		<section aria-labelledby="password-title" className="section" data-testid="password-change">
			<h2 id="password-title">{title}</h2>
			{hasPassword ? null : (
				<p className="muted">
					Your account has no password: you sign in through single sign-on. Set one to also sign in with your
					user name and password.
				</p>
			)}
			<form className="settings-form" onSubmit={(event) => void submit(event)} noValidate>
				{hasPassword ? (
					<Field label="Current password">
						{(control) => (
							<input
								{...control}
								type="password"
								className="input"
								autoComplete="current-password"
								value={current}
								onChange={(event) => setCurrent(event.target.value)}
							/>
						)}
					</Field>
				) : null}
				<Field
					label="New password"
					description={`${PASSWORD_BOUNDS.min} to ${PASSWORD_BOUNDS.max} characters. Your other sessions will be signed out.`}
				>
					{(control) => (
						<input
							{...control}
							type="password"
							className="input"
							autoComplete="new-password"
							value={next}
							onChange={(event) => setNext(event.target.value)}
						/>
					)}
				</Field>
				<div role="status" aria-live="polite">
					{message ? (
						<p className={message.ok ? "notice notice-info" : "notice notice-error"}>{message.text}</p>
					) : null}
				</div>
				<div className="form-actions">
					<button type="submit" className="btn" disabled={busy}>
						{hasPassword ? "Change password" : "Set password"}
					</button>
				</div>
			</form>
		</section>
	);
}
