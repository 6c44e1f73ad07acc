/**
 * The hub session: the hub access token of the signed-in account, the hub it belongs to and who it is.
 * A secret of its own, apart from the inference token (settings/store.ts): it goes to the hub it was
 * signed in to and nowhere else (`hubTokenFor`), never into a URL, and never into localStorage — it is
 * kept in memory, or in this tab's sessionStorage when the person ticks "remember in this tab".
 */
import { useSyncExternalStore } from "react";
import type { HubAccount } from "../view/account";

export interface HubSession {
	token: string;
	/** The hub URL setting at sign-in ("" for the page's origin), normalised. */
	hubUrl: string;
	account: HubAccount;
	remember: boolean;
}

export const HUB_SESSION_KEY = "modelhub.hubSession";

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

let current: HubSession | undefined = load();
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
		if (next.remember) session()?.setItem(HUB_SESSION_KEY, JSON.stringify(next));
		else session()?.removeItem(HUB_SESSION_KEY);
	} catch {
		// Storage full or disabled: the session still lives in memory.
	}
	emit();
}

export function signOut(): void {
	current = undefined;
	try {
		session()?.removeItem(HUB_SESSION_KEY);
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
