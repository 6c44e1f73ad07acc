import { useId, useState, type FormEvent } from "react";
import { changePassword } from "../../api/auth";
import { PASSWORD_BOUNDS } from "../../view/auth-forms";

/** Changes the signed-in user's password; the hub ends every other session of the account. */
export function PasswordChange() {
	const [current, setCurrent] = useState("");
	const [next, setNext] = useState("");
	const [busy, setBusy] = useState(false);
	const [message, setMessage] = useState<{ ok: boolean; text: string }>();
	const ids = { current: useId(), next: useId(), help: useId() };

	const submit = async (event: FormEvent) => {
		event.preventDefault();
		const length = [...next].length;
		if (length < PASSWORD_BOUNDS.min || length > PASSWORD_BOUNDS.max) {
			setMessage({ ok: false, text: `Use ${PASSWORD_BOUNDS.min} to ${PASSWORD_BOUNDS.max} characters.` });
			return;
		}
		setBusy(true);
		try {
			await changePassword({ currentPassword: current, newPassword: next }, { baseUrl: "" });
			setMessage({ ok: true, text: "Password changed: your other sessions were signed out." });
			setCurrent("");
			setNext("");
		} catch (error) {
			setMessage({ ok: false, text: error instanceof Error ? error.message : String(error) });
		} finally {
			setBusy(false);
		}
	};

	return (
		<section aria-labelledby="password-title" className="section">
			<h2 id="password-title">Change password</h2>
			<form className="settings-form" onSubmit={(event) => void submit(event)} noValidate>
				<div className="field">
					<label htmlFor={ids.current}>Current password</label>
					<input
						id={ids.current}
						type="password"
						className="input"
						autoComplete="current-password"
						value={current}
						onChange={(event) => setCurrent(event.target.value)}
					/>
				</div>
				<div className="field">
					<label htmlFor={ids.next}>New password</label>
					<input
						id={ids.next}
						type="password"
						className="input"
						autoComplete="new-password"
						aria-describedby={ids.help}
						value={next}
						onChange={(event) => setNext(event.target.value)}
					/>
					<span id={ids.help} className="muted small">
						{PASSWORD_BOUNDS.min} to {PASSWORD_BOUNDS.max} characters. Your other sessions will be signed out.
					</span>
				</div>
				<div role="status" aria-live="polite">
					{message ? (
						<p className={message.ok ? "notice notice-info" : "notice notice-error"}>{message.text}</p>
					) : null}
				</div>
				<div className="form-actions">
					<button type="submit" className="btn" disabled={busy}>
						Change password
					</button>
				</div>
			</form>
		</section>
	);
}
