import { createHash } from "node:crypto";
import { FailureLimiter } from "./rate-limit.js";

/**
 * Authentication failures, counted twice: per credential tried (a hash of it, never the credential)
 * and per client address. A credential that failed too often is blocked by itself (a misconfigured
 * script retrying one wrong token stops itself, and adds at most its own limit to its address's count);
 * an address whose credentials failed too often (many different guesses) has its further credential
 * attempts refused until the window ends. Requests the hub reads as anonymous are never refused by
 * either: the routes decide that (see routes/auth.ts). Memory is bounded: each count tracks at most
 * `maxEntries` keys, the oldest windows dropped first.
 */
export interface AuthLimitOptions {
	/** Failures allowed per credential and window (MODELHUB_AUTH_TOKEN_FAILURE_LIMIT). */
	perCredential: number;
	/** Failures allowed per address and window (MODELHUB_AUTH_FAILURE_LIMIT). */
	perAddress: number;
	windowMs: number;
	/** Keys tracked at most by each count (MODELHUB_AUTH_FAILURE_TRACKED). */
	maxEntries: number;
	now?: () => number;
}

export const DEFAULT_AUTH_LIMITS: Omit<AuthLimitOptions, "now"> = Object.freeze({
	perCredential: 10,
	perAddress: 100,
	windowMs: 60_000,
	maxEntries: 10_000,
});

/** What blocks an attempt: the credential itself, or its address; and for how many seconds. */
export interface AuthBlock {
	by: "credential" | "address";
	seconds: number;
}

/** The key a credential is counted under: 128 bits of its SHA-256 (the credential is never kept). */
function credentialKey(credential: string): string {
	return createHash("sha256").update(credential, "utf8").digest("base64url").slice(0, 22);
}

export class AuthFailureLimits {
	private readonly credentials: FailureLimiter;
	private readonly addresses: FailureLimiter;

	constructor(options: AuthLimitOptions) {
		const common = {
			windowMs: options.windowMs,
			maxEntries: options.maxEntries,
			...(options.now ? { now: options.now } : {}),
		};
		this.credentials = new FailureLimiter({ ...common, maxFailures: options.perCredential });
		this.addresses = new FailureLimiter({ ...common, maxFailures: options.perAddress });
	}

	/** Whether an attempt with `credential` from `address` is blocked (the credential checked first). */
	blocked(address: string, credential: string): AuthBlock | undefined {
		const byCredential = this.credentials.blockedFor(credentialKey(credential));
		if (byCredential > 0) return { by: "credential", seconds: byCredential };
		const byAddress = this.addresses.blockedFor(address);
		if (byAddress > 0) return { by: "address", seconds: byAddress };
		return undefined;
	}

	/** Records a failed attempt against the credential and the address. */
	fail(address: string, credential: string): void {
		this.credentials.fail(credentialKey(credential));
		this.addresses.fail(address);
	}

	/** Keys tracked (credentials, addresses): bounded by `maxEntries` each. */
	get size(): { credentials: number; addresses: number } {
		return { credentials: this.credentials.size, addresses: this.addresses.size };
	}
}
