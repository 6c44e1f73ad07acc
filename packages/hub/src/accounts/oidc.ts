import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { hasControlCharacter } from "@modelhub/tasks/literals";
import { idPartProblem } from "@modelhub/tasks/repositories";
import type { SsoErrorKind } from "../api/sessions.js";
import { RESERVED_ACCOUNT_NAMES } from "../vocabulary.js";

const RESERVED_NAMES: ReadonlySet<string> = new Set(RESERVED_ACCOUNT_NAMES);

/**
 * Single sign-on with an OpenID Connect provider (authorization code flow with PKCE, OpenID Connect
 * Core 1.0 section 3.1): the settings, the sealed cookie that carries one sign-in's checks from the start
 * to the callback, and the pure rules around them. The protocol itself is openid-client's.
 */
export interface OidcSettings {
	/** The issuer identifier, exactly as the provider's discovery document states it. */
	issuer: string;
	clientId: string;
	clientSecret: string;
	/** What the sign-in button names (MODELHUB_OIDC_NAME, else the issuer's host). */
	displayName: string;
	/** Space-separated scopes asked for; always includes `openid`. */
	scopes: string;
	/** `{MODELHUB_PUBLIC_URL}/api/auth/oidc/callback`: registered with the provider. */
	redirectUri: string;
	/** How long a sign-in may take at the provider before its checks expire. */
	flowSeconds: number;
	/** The provider's requests may use http (only for a provider on the loopback interface). */
	allowHttp: boolean;
}

export const OIDC_CALLBACK_PATH = "/api/auth/oidc/callback";
export const OIDC_START_PATH = "/api/auth/oidc/start";
export const DEFAULT_OIDC_SCOPES = "openid profile email";
export const DEFAULT_OIDC_FLOW_SECONDS = 600;

/** What one sign-in in progress must find again at the callback. */
export interface OidcFlow {
	state: string;
	nonce: string;
	/** The PKCE code verifier (RFC 7636): only its S256 challenge went to the provider. */
	verifier: string;
	/** Where the browser goes once signed in (a path of this hub). */
	next: string;
	/** An invite code, when the sign-in started from an invite link (MODELHUB_SIGNUP=invite). */
	invite?: string;
	/**
	 * Linking, not signing in: the account whose session started it (`POST /api/settings/sign-in/sso`).
	 * The callback links the person who signs in at the provider to it, and only for that same session.
	 */
	link?: string;
	/** Unix milliseconds after which the flow is refused. */
	expiresAt: number;
}

const MAX_NEXT = 512;
const MAX_INVITE = 100;
/** A sealed flow is a few hundred bytes; anything much longer is not one of ours. */
const MAX_SEALED = 2048;

/**
 * The key that seals flows: derived from the client secret, so every hub process of a deployment shares
 * it without another setting, and a leaked flow cookie is useless without the secret.
 */
function flowKey(clientSecret: string): Buffer {
	return createHash("sha256").update(`modelhub-oidc-flow\0${clientSecret}`, "utf8").digest();
}

/** The flow as a cookie value: AES-256-GCM (confidential, and any change is detected), base64url. */
export function sealFlow(flow: OidcFlow, clientSecret: string): string {
	const iv = randomBytes(12);
	const cipher = createCipheriv("aes-256-gcm", flowKey(clientSecret), iv);
	const body = Buffer.concat([cipher.update(JSON.stringify(flow), "utf8"), cipher.final()]);
	return Buffer.concat([iv, body, cipher.getAuthTag()]).toString("base64url");
}

/** The flow a cookie value seals, or undefined when it is not one this hub sealed, or has expired. */
export function openFlow(sealed: string, clientSecret: string, now = Date.now()): OidcFlow | undefined {
	if (sealed.length > MAX_SEALED || !/^[A-Za-z0-9_-]+$/.test(sealed)) return undefined;
	const bytes = Buffer.from(sealed, "base64url");
	if (bytes.length < 12 + 16 + 2) return undefined;
	try {
		const decipher = createDecipheriv("aes-256-gcm", flowKey(clientSecret), bytes.subarray(0, 12));
		decipher.setAuthTag(bytes.subarray(bytes.length - 16));
		const text = Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]);
		const flow = JSON.parse(text.toString("utf8")) as OidcFlow;
		return flow.expiresAt > now ? flow : undefined;
	} catch {
		return undefined;
	}
}

/** A path of this hub to go to after signing in; anything else (another site, `//host`) is `/`. */
export function safeNextPath(value: unknown): string {
	if (typeof value !== "string" || value.length > MAX_NEXT) return "/";
	if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return "/";
	if (hasControlCharacter(value)) return "/";
	return value;
}

/** An invite code as the start URL carries it, bounded. */
export function inviteOf(value: unknown): string | undefined {
	return typeof value === "string" && value !== "" && value.length <= MAX_INVITE ? value : undefined;
}

/** User names tried for a new account at most (the first free one wins); then a random suffix. */
const NAME_TRIES = 20;

/**
 * The user names to try, best first, for a person the provider describes: their `preferred_username`,
 * else their e-mail's local part, else their name, made valid here (letters, digits, `.`, `_`, `-`);
 * then the same with -2, -3… The provider's names are only suggestions: the account is linked by
 * (issuer, subject), so a name already taken here is never shared.
 */
export function candidateNames(claims: {
	preferred_username?: unknown;
	email?: unknown;
	name?: unknown;
}): string[] {
	const sources = [
		claims.preferred_username,
		typeof claims.email === "string" ? claims.email.split("@")[0] : undefined,
		claims.name,
	];
	let base = "user";
	for (const source of sources) {
		if (typeof source !== "string") continue;
		const cleaned = source
			.normalize("NFKD")
			.replace(/[^A-Za-z0-9._-]+/g, "-")
			.replace(/\.{2,}/g, ".")
			.replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, "")
			.slice(0, 80);
		if (cleaned && idPartProblem(cleaned, "name") === undefined) {
			base = cleaned;
			break;
		}
	}
	// A name the web app uses for its own pages (`/models`…) is never an account's: its -2, -3… are.
	const names = RESERVED_NAMES.has(base.toLowerCase()) ? [] : [base];
	for (let n = 2; n <= NAME_TRIES; n++) names.push(`${base}-${n}`);
	names.push(`${base}-${randomBytes(4).toString("hex")}`);
	return names;
}

/**
 * What went wrong in a callback, from openid-client's error (its `code`, and the messages of it and its
 * causes, oauth4webapi's): the kind decides the message the sign-in page shows.
 */
export function ssoErrorKindOf(error: unknown): SsoErrorKind {
	const codes: string[] = [];
	const messages: string[] = [];
	let current: unknown = error;
	for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
		const code = (current as { code?: unknown }).code;
		if (typeof code === "string") codes.push(code);
		messages.push(current.message);
		current = current.cause;
	}
	const text = messages.join(" | ");
	if (codes.includes("OAUTH_AUTHORIZATION_RESPONSE_ERROR")) return "denied";
	if (codes.includes("OAUTH_RESPONSE_BODY_ERROR")) {
		return (error as { error?: unknown }).error === "invalid_grant" ? "code" : "provider";
	}
	if (codes.includes("OAUTH_JWT_TIMESTAMP_CHECK_FAILED")) return "expired";
	if (/signature verification failed/i.test(text) || codes.includes("OAUTH_KEY_SELECTION_FAILED"))
		return "signature";
	if (/"iss"|issuer/i.test(text)) return "issuer";
	if (/"nonce"/.test(text)) return "nonce";
	if (codes.includes("OAUTH_JWT_CLAIM_COMPARISON_FAILED")) return "token";
	return "provider";
}
