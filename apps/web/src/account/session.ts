/**
 * The hub session: who is signed in to which hub, and how. Signed in with a password, the hub's own
 * HttpOnly session cookie authenticates the requests (this page never sees that secret; it keeps only
 * the account's name and organisations, in localStorage, to draw the header at once after a reload or in
 * a new tab, and checks them with the hub at start). Signed in with a pasted token: the hub access token
 * of the signed-in account, the hub it belongs to and who it is.
 * A secret of its own, apart from the inference token (settings/store.ts): it goes to the hub it was
 * signed in to and nowhere else (`hubTokenFor`), never into a URL, and never into localStorage — it is
 * kept in memory, or in this tab's sessionStorage when the person ticks "remember in this tab".
 */
import { useSyncExternalStore } from "react";
import type { HubAccount } from "../view/account";

export interface HubSession {
	/** The pasted access token; absent for a browser session (the cookie authenticates). */
	token?: string;
	/** Signed in with a password on this page's own hub: the session cookie authenticates. */
	cookie?: true;
	/** The hub URL setting at sign-in ("" for the page's origin), normalised. */
	hubUrl: string;
	account: HubAccount;
	remember: boolean;
}

export const HUB_SESSION_KEY = "modelhub.hubSession";
/** The signed-in account of a browser session (its whoami answer; no secret). */
export const COOKIE_ACCOUNT_KEY = "modelhub.sessionAccount";

/**
 * Whether the hub's CSRF cookie (account/csrf.ts) is set, that is, a browser session may be signed in.
 * A plain check here, so the entry chunk every page loads does not carry the cookie parser.
 */
export function hasSessionCookie(): boolean {
	return typeof document !== "undefined" && /(?:^|;\s*)modelhub_csrf=[^;]/.test(document.cookie);
}

function local(): Storage | undefined {
	try {
		return typeof window === "undefined" ? undefined : window.localStorage;
	} catch {
		return undefined;
	}
}

/** A browser session, when the hub's CSRF cookie says one is signed in and its account was kept. */
function loadCookieSession(): HubSession | undefined {
	if (!hasSessionCookie()) return undefined;
	try {
		const account = JSON.parse(local()?.getItem(COOKIE_ACCOUNT_KEY) ?? "null") as HubAccount | null;
		if (account && typeof account.name === "string" && Array.isArray(account.orgs)) {
			return { cookie: true, hubUrl: "", account, remember: true };
		}
	} catch {
		// Unreadable: checked with the hub at start.
	}
	return undefined;
}

function session(): Storage | undefined {
	try {
		return typeof window === "undefined" ? undefined : window.sessionStorage;
	} catch {
		return undefined;
	}
}

function load(): HubSession | undefined {
	try {
		const saved = JSON.parse(session()?.getItem(HUB_SESSION_KEY) ?? "null") as Partial<HubSession> | null;
		if (
			saved &&
			typeof saved.token === "string" &&
			saved.token &&
			typeof saved.hubUrl === "string" &&
			typeof saved.account?.name === "string" &&
			Array.isArray(saved.account.orgs)
		) {
			return { token: saved.token, hubUrl: saved.hubUrl, account: saved.account, remember: true };
		}
	} catch {
		// Unreadable: signed out.
	}
	return undefined;
}

let current: HubSession | undefined = load() ?? loadCookieSession();
const listeners = new Set<() => void>();

function emit(): void {
	for (const listener of listeners) listener();
}

export function getHubSession(): HubSession | undefined {
	return current;
}

export function signIn(next: HubSession): void {
	current = next;
	try {
		if (next.cookie) {
			session()?.removeItem(HUB_SESSION_KEY);
			local()?.setItem(COOKIE_ACCOUNT_KEY, JSON.stringify(next.account));
		} else if (next.remember) session()?.setItem(HUB_SESSION_KEY, JSON.stringify(next));
		else session()?.removeItem(HUB_SESSION_KEY);
	} catch {
		// Storage full or disabled: the session still lives in memory.
	}
	emit();
}

export function signOut(): void {
	// A browser session ends at the hub too (its cookies are cleared there).
	// Loaded when needed: the entry chunk every page loads stays as small as it was.
	if (current?.cookie)
		void import("../api/auth").then(({ logOut }) => logOut({ baseUrl: "" })).catch(() => undefined);
	forget();
}

/** Forgets the session here only (the hub ended it already). */
export function forget(): void {
	current = undefined;
	try {
		session()?.removeItem(HUB_SESSION_KEY);
		local()?.removeItem(COOKIE_ACCOUNT_KEY);
	} catch {
		// As above.
	}
	emit();
}

/** The hub token for requests to `hubUrl`: only when the session was signed in to that very hub. */
export function hubTokenFor(hubUrl: string, from: HubSession | undefined = current): string | undefined {
	return from && from.hubUrl === hubUrl ? from.token : undefined;
}

function subscribe(listener: () => void): () => void {
	listeners.add(listener);
	return () => listeners.delete(listener);
}

/** The session, or undefined when signed out or when the hub URL setting now names another hub. */
export function useHubSession(hubUrl: string): HubSession | undefined {
	const value = useSyncExternalStore(subscribe, getHubSession, getHubSession);
	return value && value.hubUrl === hubUrl ? value : undefined;
}
