// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { getHubSession, HUB_SESSION_KEY, hubTokenFor, signIn, signOut } from "./session";

const account = { name: "alice", orgs: [], tokenRole: "write" };

afterEach(() => signOut());

describe("the hub session", () => {
	it("keeps the token in memory only unless remembered, and never in localStorage", () => {
		signIn({ token: "hub_secret_1", hubUrl: "", account, remember: false });
		expect(getHubSession()?.token).toBe("hub_secret_1");
		expect(sessionStorage.getItem(HUB_SESSION_KEY)).toBeNull();
		signIn({ token: "hub_secret_2", hubUrl: "", account, remember: true });
		expect(sessionStorage.getItem(HUB_SESSION_KEY)).toContain("hub_secret_2");
		expect(JSON.stringify({ ...localStorage })).not.toContain("hub_secret");
		signOut();
		expect(getHubSession()).toBeUndefined();
		expect(sessionStorage.getItem(HUB_SESSION_KEY)).toBeNull();
	});

	it("gives the token only for the hub it was signed in to", () => {
		signIn({ token: "hub_secret_3", hubUrl: "https://hub.example", account, remember: false });
		expect(hubTokenFor("https://hub.example")).toBe("hub_secret_3");
		expect(hubTokenFor("")).toBeUndefined();
		expect(hubTokenFor("https://other.example")).toBeUndefined();
	});
});
