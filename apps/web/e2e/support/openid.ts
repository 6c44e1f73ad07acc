import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
	decodeJwt,
	decodeProtectedHeader,
	exportJWK,
	generateKeyPair,
	importJWK,
	SignJWT,
	type JWK,
} from "jose";
import Provider from "oidc-provider";

/** How the provider's token endpoint answer is altered, to see the hub refuse it (off: as issued). */
export type IdTokenTamper = "none" | "foreign-key" | "expired" | "other-issuer";

export interface OpenIdProvider {
	issuer: string;
	clientId: string;
	clientSecret: string;
	/** Every ID token the token endpoint handed out (to check none reaches the hub's log). */
	issuedIdTokens: string[];
	tamper: IdTokenTamper;
	/** A parameter of the redirect back to the hub to replace (as an attacker's forged callback would). */
	forgeCallback: { name: "state" | "iss"; value: string } | undefined;
	close: () => Promise<void>;
}

/** A free port of 127.0.0.1 (listened on, then closed): the hub's, known before it starts. */
export async function freePort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address() as AddressInfo;
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}

/**
 * A real OpenID Connect provider in the test process: the certified `oidc-provider` on 127.0.0.1 with
 * one confidential client (the hub), RS256 keys made here, its development sign-in pages (any login
 * name is a person, whose subject is the login name: oidc-provider's account id), and a hook after its endpoints that can re-sign
 * the ID token with a key it does not publish, or with a past expiry or another issuer (signed with its
 * own key), as a broken or hostile provider would, or forge the redirect back to the hub (another state
 * or issuer, as an attacker's link would carry).
 */
export async function startOpenIdProvider(redirectUri: string): Promise<OpenIdProvider> {
	const signing = await generateKeyPair("RS256", { extractable: true });
	const foreign = await generateKeyPair("RS256", { extractable: true });
	const kid = "modelhub-test-key";
	const privateJwk: JWK = { ...(await exportJWK(signing.privateKey)), kid, alg: "RS256", use: "sig" };
	const server: Server = createServer();
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	const clientId = "modelhub";
	const clientSecret = "test-client-secret-0123456789abcdefghijklmnopqrstuv";
	const provider = new Provider(issuer, {
		clients: [
			{
				client_id: clientId,
				client_secret: clientSecret,
				redirect_uris: [redirectUri],
				grant_types: ["authorization_code"],
				response_types: ["code"],
			},
		],
		jwks: { keys: [privateJwk] },
		cookies: { keys: ["modelhub-test-provider-cookie-key"] },
		claims: {
			openid: ["sub"],
			profile: ["name", "preferred_username"],
			email: ["email", "email_verified"],
		},
		pkce: { required: () => true },
		features: { devInteractions: { enabled: true } },
		findAccount: (_context, id) => ({
			accountId: id,
			claims: () => ({
				sub: `sub-${id}`,
				preferred_username: id,
				name: `${id[0]?.toUpperCase() ?? ""}${id.slice(1)} Tester`,
				email: `${id}@example.org`,
				email_verified: true,
			}),
		}),
	});
	const state: OpenIdProvider = {
		issuer,
		clientId,
		clientSecret,
		issuedIdTokens: [],
		tamper: "none",
		forgeCallback: undefined,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
	provider.use(async (context, next) => {
		await next();
		const location: unknown = context.response.get("location");
		if (state.forgeCallback && typeof location === "string" && location.startsWith(`${redirectUri}?`)) {
			const forged = new URL(location);
			forged.searchParams.set(state.forgeCallback.name, state.forgeCallback.value);
			context.set("location", forged.href);
		}
		if (context.path !== "/token" || typeof context.body !== "object" || context.body === null) return;
		const body = context.body as { id_token?: string };
		if (typeof body.id_token !== "string") return;
		state.issuedIdTokens.push(body.id_token);
		if (state.tamper === "none") return;
		const claims = decodeJwt(body.id_token);
		const now = Math.floor(Date.now() / 1000);
		const altered =
			state.tamper === "expired"
				? { ...claims, iat: now - 7200, exp: now - 3600 }
				: state.tamper === "other-issuer"
					? { ...claims, iss: "http://127.0.0.1:1/not-the-issuer" }
					: claims;
		const key = state.tamper === "foreign-key" ? foreign.privateKey : await importJWK(privateJwk, "RS256");
		body.id_token = await new SignJWT(altered)
			.setProtectedHeader({ ...decodeProtectedHeader(body.id_token), alg: "RS256", kid })
			.sign(key);
		state.issuedIdTokens.push(body.id_token);
	});
	server.on("request", provider.callback());
	return state;
}
