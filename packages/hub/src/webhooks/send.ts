import { lookup } from "node:dns/promises";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { addressRefusal, nameAllowed, type AddressPolicy } from "./address-policy.js";

/**
 * One delivery attempt of a webhook payload: the target checked against the address policy (every
 * address its host resolves to), the connection pinned to a checked address, one POST with the JSON
 * body and `X-Webhook-Secret` (hub-docs "Webhooks": the secret is sent as that header), no redirect
 * followed, the whole exchange bounded by `timeoutMs`. Never throws: the outcome says what happened.
 */
export type SendOutcome =
	| { ok: true; status: number }
	/** `refused`: the policy forbids the target (not retried: it will not change by waiting). */
	| { ok: false; status?: number; error: string; refused?: true };

export interface SendSettings {
	policy: AddressPolicy;
	timeoutMs: number;
}

/** Why a webhook URL cannot be used at all (scheme, credentials, length), or undefined. */
export function urlProblem(text: string): string | undefined {
	if (text.length > 2048) return "the URL is longer than 2048 characters";
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		return "not a valid URL";
	}
	if (url.protocol !== "http:" && url.protocol !== "https:") return "the URL must be http:// or https://";
	if (url.username !== "" || url.password !== "") {
		return "the URL must not carry credentials (send a secret instead)";
	}
	return undefined;
}

/** The addresses a delivery to `host` may connect to, or why none may. */
export async function checkedAddresses(
	policy: AddressPolicy,
	host: string,
): Promise<{ addresses: Array<{ address: string; family: 4 | 6 }> } | { refused: string }> {
	const bare = host.replace(/^\[|\]$/g, "");
	const literal = isIP(bare);
	let found: Array<{ address: string; family: number }>;
	if (literal !== 0) found = [{ address: bare, family: literal }];
	else {
		try {
			found = await lookup(bare, { all: true, verbatim: true });
		} catch (error) {
			return {
				refused: `cannot resolve ${bare}: ${(error as NodeJS.ErrnoException).code ?? "lookup failed"}`,
			};
		}
		if (found.length === 0) return { refused: `${bare} has no address` };
	}
	if (!nameAllowed(policy, bare) || literal !== 0) {
		for (const { address } of found) {
			const refusal = addressRefusal(policy, address);
			if (refusal) return { refused: literal !== 0 ? refusal : `${bare} resolves to ${refusal}` };
		}
	}
	return {
		addresses: found.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 })),
	};
}

/** Reads and drops a response body, at most 64 KiB (its content is not used). */
function drain(response: IncomingMessage): void {
	let seen = 0;
	response.on("data", (chunk: Buffer) => {
		seen += chunk.length;
		if (seen > 65_536) response.destroy();
	});
	response.on("error", () => {});
}

export async function sendWebhook(
	settings: SendSettings,
	target: { url: string; secret: string | null },
	body: string,
	signal?: AbortSignal,
): Promise<SendOutcome> {
	const problem = urlProblem(target.url);
	if (problem) return { ok: false, error: problem, refused: true };
	const url = new URL(target.url);
	const checked = await checkedAddresses(settings.policy, url.hostname);
	if ("refused" in checked) return { ok: false, error: checked.refused, refused: true };
	const pinned = checked.addresses[0] as { address: string; family: 4 | 6 };
	// The connection goes to the checked address whatever a new lookup would answer.
	const pinnedLookup: LookupFunction = (_hostname, options, callback) => {
		if ((options as { all?: boolean }).all) {
			(callback as (error: null, addresses: Array<{ address: string; family: number }>) => void)(null, [
				pinned,
			]);
		} else callback(null, pinned.address, pinned.family);
	};
	const headers: Record<string, string> = {
		"content-type": "application/json",
		"content-length": String(Buffer.byteLength(body)),
		"user-agent": "ModelHub-Webhooks/1",
	};
	if (target.secret !== null) headers["x-webhook-secret"] = target.secret;
	const timeout = AbortSignal.timeout(settings.timeoutMs);
	const abort = signal ? AbortSignal.any([signal, timeout]) : timeout;
	const send = url.protocol === "https:" ? httpsRequest : httpRequest;
	return new Promise<SendOutcome>((resolve) => {
		let settled = false;
		const finish = (outcome: SendOutcome): void => {
			if (settled) return;
			settled = true;
			resolve(outcome);
		};
		const req = send(
			url,
			{ method: "POST", headers, lookup: pinnedLookup, signal: abort, agent: false },
			(response) => {
				drain(response);
				const status = response.statusCode ?? 0;
				response.on("end", () => {
					if (status >= 200 && status < 300) finish({ ok: true, status });
					else if (status >= 300 && status < 400) {
						finish({ ok: false, status, error: `answered ${status}: redirects are not followed` });
					} else finish({ ok: false, status, error: `answered ${status}` });
				});
				response.on("close", () => {
					if (status >= 200 && status < 300) finish({ ok: true, status });
					else finish({ ok: false, status, error: `answered ${status}` });
				});
			},
		);
		req.on("error", (error: NodeJS.ErrnoException) => {
			const reason = timeout.aborted
				? `no answer within ${settings.timeoutMs} ms`
				: signal?.aborted
					? "the hub stopped"
					: (error.code ?? error.message).slice(0, 200);
			finish({ ok: false, error: reason });
		});
		req.end(body);
	});
}
