import { describe, expect, it } from "vitest";
import { cookieValue, setCookie } from "./cookies.js";

describe("cookies", () => {
	it("reads one cookie among others", () => {
		expect(cookieValue("a=1; modelhub_session=mhs_x; b=2", "modelhub_session")).toBe("mhs_x");
		expect(cookieValue("a=1;b=2", "modelhub_session")).toBeUndefined();
		expect(cookieValue(undefined, "a")).toBeUndefined();
		expect(cookieValue("xa=1; a=", "a")).toBeUndefined();
	});
	it("writes HttpOnly, SameSite=Lax and Secure as asked", () => {
		expect(setCookie("s", "v", { secure: true, maxAge: 60, httpOnly: true })).toBe(
			"s=v; Path=/; Max-Age=60; SameSite=Lax; HttpOnly; Secure",
		);
		expect(setCookie("c", "v", { secure: false, maxAge: 0, httpOnly: false })).toBe(
			"c=v; Path=/; Max-Age=0; SameSite=Lax",
		);
	});
});
