import { describe, expect, it } from "vitest";
import { candidateNames, openFlow, safeNextPath, sealFlow, ssoErrorKindOf, type OidcFlow } from "./oidc.js";

const flow: OidcFlow = {
	state: "state-1",
	nonce: "nonce-1",
	verifier: "verifier-1",
	next: "/account",
	invite: "mhi_abc",
	expiresAt: Date.now() + 60_000,
};

describe("single sign-on flows", () => {
	it("seals a flow that only the same client secret opens, unchanged and before it expires", () => {
		const sealed = sealFlow(flow, "secret");
		expect(sealed).not.toContain("verifier");
		expect(openFlow(sealed, "secret")).toEqual(flow);
		expect(openFlow(sealed, "another secret")).toBeUndefined();
		const bytes = Buffer.from(sealed, "base64url");
		bytes[20] = (bytes[20] ?? 0) ^ 1;
		expect(openFlow(bytes.toString("base64url"), "secret")).toBeUndefined();
		expect(openFlow(sealed, "secret", flow.expiresAt + 1)).toBeUndefined();
		expect(openFlow("not a sealed flow", "secret")).toBeUndefined();
		expect(openFlow("A".repeat(5000), "secret")).toBeUndefined();
	});

	it("goes back only to a path of this hub", () => {
		expect(safeNextPath("/settings/tokens?x=1")).toBe("/settings/tokens?x=1");
		for (const bad of [
			"https://evil.example",
			"//evil.example",
			"/\\evil.example",
			"/a\nb",
			7,
			"/".repeat(600),
		]) {
			expect(safeNextPath(bad)).toBe("/");
		}
	});

	it("names a new account after the provider's preferred name, e-mail or name, made valid here", () => {
		expect(candidateNames({ preferred_username: "grace" }).slice(0, 3)).toEqual([
			"grace",
			"grace-2",
			"grace-3",
		]);
		expect(candidateNames({ preferred_username: "Grace Hopper!" })[0]).toBe("Grace-Hopper");
		expect(candidateNames({ email: "ada.l@example.org" })[0]).toBe("ada.l");
		expect(candidateNames({ name: "Zoë Ñ" })[0]).toBe("Zoe-N");
		expect(candidateNames({ preferred_username: "…", name: 3 })[0]).toBe("user");
		// A name the app's own pages use is skipped for its numbered forms (checkNewAccountName refuses it).
		expect(candidateNames({ preferred_username: "Models" }).slice(0, 2)).toEqual(["Models-2", "Models-3"]);
		const names = candidateNames({ preferred_username: "x" });
		expect(names).toHaveLength(21);
		expect(names.at(-1)).toMatch(/^x-[0-9a-f]{8}$/);
	});

	it("tells apart what failed from openid-client's errors", () => {
		const wrapped = (code: string, message: string, cause?: Error) =>
			Object.assign(
				new Error("wrapped", { cause: Object.assign(new Error(message), cause ? { cause } : {}) }),
				{
					code,
				},
			);
		expect(
			ssoErrorKindOf(Object.assign(new Error("x"), { code: "OAUTH_AUTHORIZATION_RESPONSE_ERROR" })),
		).toBe("denied");
		expect(
			ssoErrorKindOf(
				Object.assign(new Error("x"), { code: "OAUTH_RESPONSE_BODY_ERROR", error: "invalid_grant" }),
			),
		).toBe("code");
		expect(ssoErrorKindOf(wrapped("OAUTH_JWT_TIMESTAMP_CHECK_FAILED", 'unexpected JWT "exp"'))).toBe(
			"expired",
		);
		expect(ssoErrorKindOf(wrapped("OAUTH_INVALID_RESPONSE", "JWT signature verification failed"))).toBe(
			"signature",
		);
		expect(
			ssoErrorKindOf(
				wrapped("OAUTH_JWT_CLAIM_COMPARISON_FAILED", 'unexpected JWT "iss" (issuer) claim value'),
			),
		).toBe("issuer");
		expect(ssoErrorKindOf(wrapped("OAUTH_JWT_CLAIM_COMPARISON_FAILED", 'unexpected ID Token "nonce"'))).toBe(
			"nonce",
		);
		expect(ssoErrorKindOf(new TypeError("fetch failed"))).toBe("provider");
	});
});
