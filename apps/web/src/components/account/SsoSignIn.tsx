import type { SsoConfig } from "@modelhub/hub/api";
import { ssoStartHref } from "../../view/auth-forms";

/**
 * "Sign in with …": a plain link (a full page navigation) to the hub's single sign-on start, which sends
 * the browser on to the provider; `invite` carries an invite link's code for a new account.
 */
export function SsoSignIn({
	sso,
	next,
	invite,
	verb = "Sign in",
}: {
	sso: SsoConfig;
	next: string;
	invite?: string | undefined;
	verb?: string;
}) {
	return (
		<p className="sso-sign-in">
			<a className="btn btn-secondary" href={ssoStartHref(sso.startPath, next, invite)}>
				{verb} with {sso.name}
			</a>
		</p>
	);
}
