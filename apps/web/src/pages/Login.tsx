import { useId, useRef, useState, type FormEvent } from "react";
import { Link, Navigate, useLocation, useNavigate } from "react-router";
import { signIn, useHubSession } from "../account/session";
import { whoami } from "../api/account";
import { authConfig, logIn } from "../api/auth";
import { SsoSignIn } from "../components/account/SsoSignIn";
import { TokenSignIn } from "../components/account/TokenSignIn";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { useResource } from "../hooks/useResource";
import { useSettings } from "../settings/store";
import { nextPath, ssoErrorMessage } from "../view/auth-forms";

/** `/login`: sign in with a user name and password (a browser session); a pasted token as an option. */
export default function LoginPage() {
	const { hubUrl } = useSettings();
	const session = useHubSession(hubUrl);
	const location = useLocation();
	// Password sign-in sets the cookies of the page's own hub; another hub takes a pasted token.
	const ownHub = hubUrl === "";
	const config = useResource(
		(signal) => (ownHub ? authConfig({ baseUrl: "", signal }) : Promise.resolve(undefined)),
		[ownHub],
	);
	useDocumentTitle("Sign in");
	if (session) return <Navigate to={nextPath(location.search)} replace />;
	const sso = config.status === "ready" ? config.data?.sso : undefined;
	const ssoError = ssoErrorMessage(location.search);
	return (
		<section className="account-page sign-in" aria-labelledby="sign-in-title">
			<h1 id="sign-in-title">Sign in</h1>
			{ownHub ? (
				<>
					<p className="lead">
						Sign in to see your private models, create repositories, upload files and manage your access
						tokens.
					</p>
					{ssoError ? (
						<div className="notice notice-error" role="alert" data-testid="sso-error">
							<strong>Single sign-on did not sign you in</strong>
							<div>{ssoError}</div>
						</div>
					) : null}
					<PasswordSignIn />
					{/* Below the form: appearing once the settings load, it moves nothing already shown. */}
					{sso ? <SsoSignIn sso={sso} next={nextPath(location.search)} /> : null}
					<p>
						New here? <Link to={`/join${location.search}`}>Create an account</Link>
					</p>
				</>
			) : (
				<p className="lead">
					The hub URL setting names another hub ({hubUrl}): sign in to it with one of its access tokens.
				</p>
			)}
			<details className="token-sign-in" open={!ownHub}>
				<summary>Sign in with an access token</summary>
				<TokenSignIn hubUrl={hubUrl} />
			</details>
		</section>
	);
}

function PasswordSignIn() {
	const navigate = useNavigate();
	const location = useLocation();
	const [username, setUsername] = useState("");
	const [password, setPassword] = useState("");
	const [busy, setBusy] = useState(false);
	const [error, setError] = useState<string>();
	const ids = { username: useId(), password: useId(), error: useId() };
	const usernameRef = useRef<HTMLInputElement>(null);

	const submit = async (event: FormEvent) => {
		event.preventDefault();
		if (!username.trim() || !password) {
			setError("Enter your user name and password.");
			usernameRef.current?.focus();
			return;
		}
		setBusy(true);
		setError(undefined);
		try {
			await logIn({ username: username.trim(), password }, { baseUrl: "" });
			const account = await whoami({ baseUrl: "" });
			signIn({ cookie: true, hubUrl: "", account, remember: true });
			navigate(nextPath(location.search), { replace: true });
		} catch (failure) {
			setError(failure instanceof Error ? failure.message : String(failure));
			setBusy(false);
		}
	};

	const described = error ? ids.error : undefined;
	return (
		<form className="settings-form sign-in-form" onSubmit={(event) => void submit(event)} noValidate>
			<div className="field">
				<label htmlFor={ids.username}>User name</label>
				<input
					ref={usernameRef}
					id={ids.username}
					name="username"
					className="input"
					autoComplete="username"
					autoCapitalize="none"
					spellCheck={false}
					value={username}
					aria-invalid={error ? true : undefined}
					aria-describedby={described}
					onChange={(event) => setUsername(event.target.value)}
				/>
			</div>
			<div className="field">
				<label htmlFor={ids.password}>Password</label>
				<input
					id={ids.password}
					name="password"
					type="password"
					className="input"
					autoComplete="current-password"
					value={password}
					aria-invalid={error ? true : undefined}
					aria-describedby={described}
					onChange={(event) => setPassword(event.target.value)}
				/>
			</div>
			{error ? (
				<div id={ids.error} className="notice notice-error" role="alert" data-testid="password-sign-in-error">
					<strong>Could not sign in</strong>
					<div>{error}</div>
				</div>
			) : null}
			<div className="form-actions">
				<button type="submit" className="btn btn-primary" disabled={busy}>
					{busy ? "Signing in…" : "Sign in"}
				</button>
			</div>
		</form>
	);
}
