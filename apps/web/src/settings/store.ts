/**
 * Settings: the access token lives in memory, or in this tab's sessionStorage when the person asks for
 * it; it is never written to localStorage. The hub URL, router URL and bill-to account are not secret
 * and are remembered in localStorage.
 */
import { useSyncExternalStore } from "react";

export interface Settings {
	/** Access token for the inference providers or router; "" when none. */
	token: string;
	/** Keep the token in sessionStorage (this tab only) instead of memory alone. */
	rememberToken: boolean;
	/** Base URL of the hub API; "" means the origin that served the app. */
	hubUrl: string;
	/** Base URL of the inference router; "" means the client's default. */
	routerUrl: string;
	/** Organisation to bill inference requests to; "" for the token's owner. */
	billTo: string;
}

export const TOKEN_SESSION_KEY = "modelhub.token";
export const PREFS_LOCAL_KEY = "modelhub.settings";

const DEFAULTS: Settings = { token: "", rememberToken: false, hubUrl: "", routerUrl: "", billTo: "" };

function safeStorage(kind: "localStorage" | "sessionStorage"): Storage | undefined {
	try {
		return typeof window === "undefined" ? undefined : window[kind];
	} catch {
		return undefined;
	}
}

function load(): Settings {
	const settings = { ...DEFAULTS };
	const local = safeStorage("localStorage");
	try {
		const saved = JSON.parse(local?.getItem(PREFS_LOCAL_KEY) ?? "{}") as Partial<Settings>;
		if (typeof saved.hubUrl === "string") settings.hubUrl = saved.hubUrl;
		if (typeof saved.routerUrl === "string") settings.routerUrl = saved.routerUrl;
		if (typeof saved.billTo === "string") settings.billTo = saved.billTo;
	} catch {
		// Ignore unreadable preferences.
	}
	const token = safeStorage("sessionStorage")?.getItem(TOKEN_SESSION_KEY);
	if (token) {
		settings.token = token;
		settings.rememberToken = true;
	}
	return settings;
}

let current: Settings = load();
const listeners = new Set<() => void>();

function persist(settings: Settings): void {
	const { hubUrl, routerUrl, billTo } = settings;
	try {
		safeStorage("localStorage")?.setItem(PREFS_LOCAL_KEY, JSON.stringify({ hubUrl, routerUrl, billTo }));
	} catch {
		// Storage may be full or disabled; settings still apply for this page.
	}
	const session = safeStorage("sessionStorage");
	try {
		if (settings.rememberToken && settings.token) session?.setItem(TOKEN_SESSION_KEY, settings.token);
		else session?.removeItem(TOKEN_SESSION_KEY);
	} catch {
		// As above.
	}
}

export function getSettings(): Settings {
	return current;
}

export function updateSettings(patch: Partial<Settings>): Settings {
	current = { ...current, ...patch };
	persist(current);
	for (const listener of listeners) listener();
	return current;
}

/** Forgets everything, including a remembered token. */
export function resetSettings(): void {
	updateSettings({ ...DEFAULTS });
}

export function subscribeSettings(listener: () => void): () => void {
	listeners.add(listener);
	return () => listeners.delete(listener);
}

export function useSettings(): Settings {
	return useSyncExternalStore(subscribeSettings, getSettings, getSettings);
}

/** Trims a base URL and drops trailing slashes; "" stays "". */
export function normalizeBaseUrl(url: string): string {
	return url.trim().replace(/\/+$/, "");
}
