// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import {
	getSettings,
	normalizeBaseUrl,
	PREFS_LOCAL_KEY,
	resetSettings,
	TOKEN_SESSION_KEY,
	updateSettings,
} from "./store";

afterEach(() => {
	resetSettings();
	localStorage.clear();
	sessionStorage.clear();
});

function localStorageText(): string {
	let text = "";
	for (let i = 0; i < localStorage.length; i++) {
		const key = localStorage.key(i) ?? "";
		text += `${key}=${localStorage.getItem(key)}\n`;
	}
	return text;
}

describe("settings store", () => {
	it("keeps the token in memory only by default, never in localStorage", () => {
		updateSettings({ token: "hf_secret_1", hubUrl: "http://hub", billTo: "org" });
		expect(getSettings().token).toBe("hf_secret_1");
		expect(sessionStorage.getItem(TOKEN_SESSION_KEY)).toBeNull();
		expect(localStorageText()).not.toContain("hf_secret_1");
		expect(JSON.parse(localStorage.getItem(PREFS_LOCAL_KEY) ?? "{}")).toEqual({
			hubUrl: "http://hub",
			routerUrl: "",
			billTo: "org",
		});
	});

	it("remembers the token in sessionStorage when asked, and forgets it", () => {
		updateSettings({ token: "hf_secret_2", rememberToken: true });
		expect(sessionStorage.getItem(TOKEN_SESSION_KEY)).toBe("hf_secret_2");
		expect(localStorageText()).not.toContain("hf_secret_2");
		updateSettings({ rememberToken: false });
		expect(sessionStorage.getItem(TOKEN_SESSION_KEY)).toBeNull();
		expect(getSettings().token).toBe("hf_secret_2");
		resetSettings();
		expect(getSettings()).toEqual({ token: "", rememberToken: false, hubUrl: "", routerUrl: "", billTo: "" });
	});

	it("normalises base URLs", () => {
		expect(normalizeBaseUrl(" http://h:1/// ")).toBe("http://h:1");
		expect(normalizeBaseUrl("")).toBe("");
	});
});
