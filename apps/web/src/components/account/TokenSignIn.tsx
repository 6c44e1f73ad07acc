import { useId, useState, type FormEvent } from "react";
import { signIn } from "../../account/session";
import { whoami } from "../../api/account";
import { pastedTokenProblem } from "../../view/auth-forms";
import { submittedToken, TokenField } from "../TokenField";

/**
 * Sign-in with a pasted access token: for a hub other than this page's (the hub URL setting), or for
 * people who prefer it. The token goes to that hub only, in a header; it is kept in this page's memory,
 * or in this tab's sessionStorage when "remember" is ticked, never in localStorage.
 */
export function TokenSignIn({ hubUrl }: { hubUrl: string }) {
	const [remember, setRemember] = useState(false);
	const [busy, setBusy] = useState(false);
	const [error, setError] = useState<string>();
	const ids = { remember: useId(), error: useId() };

	const submit = async (event: FormEvent) => {
		event.preventDefault();
		const value = submittedToken(event.currentTarget as HTMLFormElement);
		const problem = pastedTokenProblem(value);
		if (problem) {
			setError(problem);
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
		<form className="settings-form sign-in-form" onSubmit={(event) => void submit(event)} noValidate>
			<TokenField
				label="Hub access token"
				errorId={error ? ids.error : undefined}
				help={
					<>
						A token this hub issued (it starts with <code>mh_</code>; make one under Settings → Access
						tokens). It is sent to this hub only, in a header (never in a link), and kept in this page's
						memory, or in this tab until it closes if you tick the box below; never in local storage.
					</>
				}
			/>
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
				<div id={ids.error} className="notice notice-error" role="alert" data-testid="sign-in-error">
					<strong>Could not sign in</strong>
					<div>{error}</div>
				</div>
			) : null}
			<div className="form-actions">
				<button type="submit" className="btn" disabled={busy}>
					{busy ? "Signing in…" : "Sign in with token"}
				</button>
			</div>
		</form>
	);
}
