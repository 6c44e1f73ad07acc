import { whoami } from "../api/account";
import { ApiError } from "../api/http";
import type { HubSession } from "./session";

/** What restoring needs of the session store (passed in: this chunk then shares nothing with the entry's). */
export interface SessionStore {
	getHubSession(): HubSession | undefined;
	signIn(next: HubSession): void;
	forget(): void;
}

/**
 * At start: asks the page's own hub who its session cookie is (main.tsx calls this only when the CSRF
 * cookie says there may be one), so a reload or a new tab stays signed in, and a session that ended at
 * the hub (logout elsewhere, expiry, a disabled account) is forgotten here. A token session wins.
 */
export async function restoreCookieSession(hubUrl: string, store: SessionStore): Promise<void> {
	const current = store.getHubSession();
	if (hubUrl !== "" || (current && !current.cookie)) return;
	try {
		const account = await whoami({ baseUrl: "" });
		store.signIn({ cookie: true, hubUrl: "", account, remember: true });
	} catch (error) {
		if (error instanceof ApiError && error.status === 401) store.forget();
	}
}
