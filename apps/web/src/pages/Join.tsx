import { useId, useRef, useState, type FormEvent } from "react";
import { Link, Navigate, useNavigate, useSearchParams } from "react-router";
import { signIn, useHubSession } from "../account/session";
import { whoami } from "../api/account";
import { authConfig, joinHub } from "../api/auth";
import { SsoSignIn } from "../components/account/SsoSignIn";
import { ErrorNotice, Loading, Notice } from "../components/Status";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { useResource } from "../hooks/useResource";
import { useSettings } from "../settings/store";
import { joinProblems, type JoinField, type JoinInput } from "../view/auth-forms";

const FIELDS: JoinField[] = ["username", "password", "confirm", "email"];

/** `/join`: create an account on this hub, as its sign-up mode allows (an invite link's code in `?invite=`). */
export default function JoinPage() {
	const { hubUrl } = useSettings();
	const session = useHubSession(hubUrl);
	const [params] = useSearchParams();
	const invite = params.get("invite") ?? undefined;
	const config = useResource((signal) => authConfig({ baseUrl: "", signal }), []);
	useDocumentTitle("Create an account");
	if (session) return <Navigate to="/account" replace />;
	return (
		<section className="account-page sign-in" aria-labelledby="join-title">
			<h1 id="join-title">Create an account</h1>
			{config.status === "loading" ? <Loading label="Loading" /> : null}
			{config.status === "error" ? (
				<ErrorNotice title="Could not reach the hub">{config.error.message}</ErrorNotice>
			) : null}
			{config.status === "ready" && config.data.signup === "closed" ? (
				<Notice>Sign-up is closed on this hub: ask the hub admin for an account.</Notice>
			) : null}
			{config.status === "ready" && config.data.signup === "invite" && !invite ? (
				<Notice>
					This hub admits new accounts by invitation: open the invite link the hub admin sent you.
				</Notice>
			) : null}
			{config.status === "ready" &&
			(config.data.signup === "open" || (config.data.signup === "invite" && invite)) ? (
				<>
					{invite ? (
						<p className="lead">You were invited to this hub. Choose your user name and password.</p>
					) : null}
					{config.data.sso ? (
						<SsoSignIn sso={config.data.sso} next="/account" invite={invite} verb="Sign up" />
					) : null}
					<JoinForm
						invite={invite}
						bounds={{ min: config.data.passwordMinLength, max: config.data.passwordMaxLength }}
					/>
				</>
			) : null}
			<p>
				Have an account? <Link to="/login">Sign in</Link>
			</p>
		</section>
	);
}

function JoinForm({ invite, bounds }: { invite: string | undefined; bounds: { min: number; max: number } }) {
	const navigate = useNavigate();
	const [input, setInput] = useState<JoinInput>({ username: "", password: "", confirm: "", email: "" });
	const [shown, setShown] = useState<Partial<Record<JoinField, string>>>({});
	const [busy, setBusy] = useState(false);
	const [error, setError] = useState<string>();
	const ids = {
		username: useId(),
		password: useId(),
		confirm: useId(),
		email: useId(),
		error: useId(),
	};
	const refs = {
		username: useRef<HTMLInputElement>(null),
		password: useRef<HTMLInputElement>(null),
		confirm: useRef<HTMLInputElement>(null),
		email: useRef<HTMLInputElement>(null),
	};
	const set = (field: JoinField) => (value: string) => setInput((old) => ({ ...old, [field]: value }));

	const submit = async (event: FormEvent) => {
		event.preventDefault();
		const problems = joinProblems(input, bounds);
		setShown(problems);
		const first = FIELDS.find((field) => problems[field]);
		if (first) {
			refs[first].current?.focus();
			return;
		}
		setBusy(true);
		setError(undefined);
		try {
			await joinHub(
				{
					username: input.username.trim(),
					password: input.password,
					...(input.email.trim() ? { email: input.email.trim() } : {}),
					...(invite ? { invite } : {}),
				},
				{ baseUrl: "" },
			);
			const account = await whoami({ baseUrl: "" });
			signIn({ cookie: true, hubUrl: "", account, remember: true });
			navigate("/account", { replace: true });
		} catch (failure) {
			setError(failure instanceof Error ? failure.message : String(failure));
			setBusy(false);
		}
	};

	const field = (
		name: JoinField,
		label: string,
		props: { type?: string; autoComplete: string; help?: string },
	) => {
		const problem = shown[name];
		const helpId = `${ids[name]}-help`;
		const errorId = `${ids[name]}-error`;
		const described = [props.help ? helpId : "", problem ? errorId : ""].filter(Boolean).join(" ");
		return (
			<div className="field">
				<label htmlFor={ids[name]}>{label}</label>
				<input
					ref={refs[name]}
					id={ids[name]}
					name={name}
					type={props.type ?? "text"}
					className="input"
					autoComplete={props.autoComplete}
					autoCapitalize="none"
					spellCheck={false}
					value={input[name]}
					aria-invalid={problem ? true : undefined}
					aria-describedby={described || undefined}
					onChange={(event) => set(name)(event.target.value)}
				/>
				{props.help ? (
					<span id={helpId} className="muted small">
						{props.help}
					</span>
				) : null}
				{problem ? (
					<span id={errorId} className="field-error">
						{problem}
					</span>
				) : null}
			</div>
		);
	};

	return (
		<form className="settings-form sign-in-form" onSubmit={(event) => void submit(event)} noValidate>
			{field("username", "User name", {
				autoComplete: "username",
				help: "Letters, digits, “-”, “_” and “.”; your models live under this name.",
			})}
			{field("password", "Password", {
				type: "password",
				autoComplete: "new-password",
				help: `${bounds.min} to ${bounds.max} characters; a few words are easier to remember than symbols.`,
			})}
			{field("confirm", "Confirm password", { type: "password", autoComplete: "new-password" })}
			{field("email", "Email (optional)", { type: "email", autoComplete: "email" })}
			{error ? (
				<div id={ids.error} className="notice notice-error" role="alert" data-testid="join-error">
					<strong>Could not create the account</strong>
					<div>{error}</div>
				</div>
			) : null}
			<div className="form-actions">
				<button type="submit" className="btn btn-primary" disabled={busy}>
					{busy ? "Creating…" : "Create account"}
				</button>
			</div>
		</form>
	);
}
