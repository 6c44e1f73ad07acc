import { describe, expect, it } from "vitest";
import { joinProblems, nextPath, pastedTokenProblem, tokenNameProblem } from "./auth-forms";

const OK = { username: "ada", password: "a long password", confirm: "a long password", email: "" };

describe("joinProblems", () => {
	it("accepts a good form and names each bad field", () => {
		expect(joinProblems(OK)).toEqual({});
		expect(joinProblems({ ...OK, username: "" }).username).toBe("Choose a user name.");
		expect(joinProblems({ ...OK, username: "a b" }).username).toMatch(/^User name/);
		expect(joinProblems({ ...OK, password: "short", confirm: "short" }).password).toBe(
			"Use at least 8 characters.",
		);
		expect(joinProblems({ ...OK, password: "x".repeat(257), confirm: "x".repeat(257) }).password).toBe(
			"Use at most 256 characters.",
		);
		expect(joinProblems({ ...OK, confirm: "another one" }).confirm).toBe("The passwords differ.");
		expect(joinProblems({ ...OK, email: "nope" }).email).toMatch(/ada@example.org/);
		expect(joinProblems({ ...OK, email: "ada@example.org" })).toEqual({});
	});
});

describe("pastedTokenProblem", () => {
	it("says plainly that an hf_ token is not this hub's", () => {
		expect(pastedTokenProblem("hf_abc")).toMatch(/only accepts tokens it issued itself/);
		expect(pastedTokenProblem("  ")).toBe("Paste an access token first.");
		expect(pastedTokenProblem("mh_abc")).toBeUndefined();
	});
});

describe("tokenNameProblem and nextPath", () => {
	it("bound names and keep redirects inside the app", () => {
		expect(tokenNameProblem(" ")).toMatch(/Give the token a name/);
		expect(tokenNameProblem("x".repeat(101))).toMatch(/at most 100/);
		expect(tokenNameProblem("laptop")).toBeUndefined();
		expect(nextPath("?next=/settings/tokens")).toBe("/settings/tokens");
		expect(nextPath("?next=//evil.example")).toBe("/account");
		expect(nextPath("?next=https://evil.example")).toBe("/account");
		expect(nextPath("")).toBe("/account");
	});
});
