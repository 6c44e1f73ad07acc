// Self-service accounts over HTTP against the real hub (embedded database): sign-up modes and invites,
// password sign-in, cookie sessions (HttpOnly, SameSite=Lax, Secure behind https), CSRF on every
// cookie-authenticated write, session fixation, idle and absolute expiry, sign-in limits, logout,
// password change, a user's own tokens used by the real huggingface_hub, admin disable and delete.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { csrfTokenOf, insertSession } from "../src/accounts/sessions.js";
import { runAccountCommand } from "../src/commands/accounts.js";
import { openDatabase } from "../src/db/open.js";
import type { Database } from "../src/db/types.js";
import { startHub, type RunningHub } from "./support/hub.js";
import { runHubClient } from "./support/python.js";

const ADMIN = "sessions-admin-token-0123456789";
const PASSWORD = "correct horse battery staple";

let db: Database;
let hub: RunningHub;
let work: string;

/** A tiny cookie jar: what a browser would send back to this hub. */
class Jar {
	cookies = new Map<string, string>();
	setCookies: string[] = [];
	take(response: Response): void {
		this.setCookies = response.headers.getSetCookie();
		for (const line of this.setCookies) {
			const [pair] = line.split(";");
			const [name, value] = (pair as string).split("=") as [string, string];
			if (/Max-Age=0\b/.test(line)) this.cookies.delete(name);
			else this.cookies.set(name, value);
		}
	}
	header(): string {
		return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
	}
	get csrf(): string {
		return this.cookies.get("modelhub_csrf") ?? "";
	}
}

async function call(
	jar: Jar | undefined,
	method: string,
	path: string,
	body?: unknown,
	headers: Record<string, string> = {},
	base = hub.url,
): Promise<Response> {
	const response = await fetch(base + path, {
		method,
		headers: {
			...(jar && jar.cookies.size > 0 ? { cookie: jar.header() } : {}),
			...(body === undefined ? {} : { "content-type": "application/json" }),
			...headers,
		},
		...(body === undefined ? {} : { body: JSON.stringify(body) }),
	});
	jar?.take(response);
	return response;
}

async function admin(method: string, path: string, body?: unknown): Promise<Response> {
	return call(undefined, method, path, body, { authorization: `Bearer ${ADMIN}` });
}

async function invite(): Promise<string> {
	const response = await admin("POST", "/api/admin/invites", {});
	expect(response.status).toBe(201);
	const answer = (await response.json()) as { code: string; url: string };
	expect(answer.url).toBe(`${hub.url}/join?invite=${answer.code}`);
	return answer.code;
}

async function joinAs(name: string, jar = new Jar()): Promise<Jar> {
	const response = await call(jar, "POST", "/api/auth/join", {
		username: name,
		password: PASSWORD,
		invite: await invite(),
	});
	expect(response.status, await response.clone().text()).toBe(201);
	return jar;
}

/** A write token made by the signed-in session `jar`, as the settings page makes one. */
async function writeToken(jar: Jar, name = "t"): Promise<string> {
	const made = await call(
		jar,
		"POST",
		"/api/settings/tokens",
		{ name, scope: "write" },
		{ "x-csrf-token": jar.csrf },
	);
	return ((await made.json()) as { token: string }).token;
}

async function whoami(jar: Jar): Promise<string | number> {
	const response = await call(jar, "GET", "/api/whoami-v2");
	return response.status === 200 ? ((await response.json()) as { name: string }).name : response.status;
}

beforeAll(async () => {
	work = mkdtempSync(join(tmpdir(), "modelhub-sessions-"));
	db = await openDatabase({ databaseUrl: undefined, dataDir: "memory://" });
	hub = await startHub({
		db,
		seed: false,
		adminToken: ADMIN,
		// The cheapest cost the hub accepts: the test is about the flows, not the KDF's price.
		selfService: {
			signup: "invite",
			passwordCost: { log2N: 14 },
			signupsPerHour: 1000,
			// A provider nobody answers at: the link routes' refusals come before any request to it.
			oidc: {
				issuer: "http://127.0.0.1:9/",
				clientId: "modelhub",
				clientSecret: "sessions-test-client-secret-0123456789abcdef",
				displayName: "Test IdP",
				scopes: "openid profile email",
				redirectUri: "http://127.0.0.1:9/api/auth/oidc/callback",
				flowSeconds: 600,
				allowHttp: true,
			},
		},
		authCredentialFailureLimit: 5,
	});
});

afterAll(async () => {
	await hub?.close();
	await db?.close();
	rmSync(work, { recursive: true, force: true });
});

describe("joining", () => {
	it("needs a valid, unused invite when sign-up is by invitation", async () => {
		const without = await call(new Jar(), "POST", "/api/auth/join", { username: "eve", password: PASSWORD });
		expect(without.status).toBe(403);
		expect(((await without.json()) as { error: string }).error).toMatch(/invitation/);
		const code = await invite();
		const first = await call(new Jar(), "POST", "/api/auth/join", {
			username: "ivy",
			password: PASSWORD,
			invite: code,
		});
		expect(first.status).toBe(201);
		const again = await call(new Jar(), "POST", "/api/auth/join", {
			username: "ivan",
			password: PASSWORD,
			invite: code,
		});
		expect(again.status).toBe(403);
		expect(((await again.json()) as { error: string }).error).toMatch(/used already or has expired/);
	});

	it("checks the name, the password and the e-mail address, and refuses a taken name", async () => {
		const cases: Array<[Record<string, unknown>, RegExp]> = [
			[{ username: "a b", password: PASSWORD }, /user name/],
			[{ username: "settings", password: PASSWORD }, /reserved/],
			[{ username: "short-pw", password: "1234567" }, /at least 8/],
			[{ username: "long-pw", password: "x".repeat(257) }, /at most 256/],
			[{ username: "mail", password: PASSWORD, email: "not-an-address" }, /email/],
		];
		for (const [input, message] of cases) {
			const response = await call(new Jar(), "POST", "/api/auth/join", { ...input, invite: await invite() });
			expect(response.status, JSON.stringify(input)).toBe(400);
			expect(((await response.json()) as { error: string }).error).toMatch(message);
		}
		await joinAs("taken");
		const clash = await call(new Jar(), "POST", "/api/auth/join", {
			username: "TAKEN",
			password: PASSWORD,
			invite: await invite(),
		});
		expect(clash.status).toBe(409);
	});

	it("signs the new account in with HttpOnly, SameSite=Lax session cookies; the password is stored as scrypt", async () => {
		const jar = await joinAs("june");
		const session = jar.setCookies.find((line) => line.startsWith("modelhub_session="));
		const csrf = jar.setCookies.find((line) => line.startsWith("modelhub_csrf="));
		expect(session).toMatch(/; HttpOnly/);
		expect(session).toMatch(/; SameSite=Lax/);
		expect(session).not.toMatch(/Secure/);
		expect(csrf).not.toMatch(/HttpOnly/);
		expect(await whoami(jar)).toBe("june");
		const stored = await db.query<{ password_hash: string }>(
			"SELECT password_hash FROM accounts WHERE name = 'june'",
		);
		expect(stored.rows[0]?.password_hash).toMatch(/^scrypt\$ln=14,r=8,p=1\$/);
		expect(stored.rows[0]?.password_hash).not.toContain(PASSWORD);
		// Only the secret's hash is kept.
		const secret = jar.cookies.get("modelhub_session") as string;
		const sessions = await db.query<{ secret_hash: string }>(
			"SELECT secret_hash FROM sessions WHERE account = 'june'",
		);
		expect(sessions.rows.map((row) => row.secret_hash)).not.toContain(secret);
		expect(sessions.rows[0]?.secret_hash).toMatch(/^[0-9a-f]{64}$/);
	});

	it("refuses sign-up from another site's page and as a form", async () => {
		const code = await invite();
		const foreign = await call(
			new Jar(),
			"POST",
			"/api/auth/join",
			{ username: "x1", password: PASSWORD, invite: code },
			{ origin: "https://evil.example" },
		);
		expect(foreign.status).toBe(403);
		const form = await fetch(`${hub.url}/api/auth/join`, {
			method: "POST",
			headers: { "content-type": "text/plain" },
			body: JSON.stringify({ username: "x2", password: PASSWORD, invite: code }),
		});
		expect(form.status).toBe(415);
	});
});

describe("signing in", () => {
	it("answers the same for an unknown user and a wrong password, and limits failures per account", async () => {
		await joinAs("kim");
		const unknown = await call(new Jar(), "POST", "/api/auth/login", {
			username: "nobody",
			password: PASSWORD,
		});
		const wrong = await call(new Jar(), "POST", "/api/auth/login", {
			username: "kim",
			password: "wrong password",
		});
		expect(unknown.status).toBe(401);
		expect(wrong.status).toBe(401);
		expect(await unknown.json()).toEqual(await wrong.json());
		for (let i = 0; i < 4; i++)
			await call(new Jar(), "POST", "/api/auth/login", { username: "KIM", password: "wrong" + i });
		const blocked = await call(new Jar(), "POST", "/api/auth/login", { username: "kim", password: PASSWORD });
		expect(blocked.status).toBe(429);
		expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
	});

	it("rotates the session at sign-in: a cookie planted before is never the signed-in session (fixation)", async () => {
		await joinAs("lee");
		const jar = new Jar();
		// An attacker's own live session, planted in the victim's browser.
		const attacker = await joinAs("mallory");
		const planted = attacker.cookies.get("modelhub_session") as string;
		jar.cookies.set("modelhub_session", planted);
		jar.cookies.set("modelhub_csrf", attacker.csrf);
		const response = await call(jar, "POST", "/api/auth/login", { username: "lee", password: PASSWORD });
		expect(response.status).toBe(200);
		const fresh = jar.cookies.get("modelhub_session");
		expect(fresh).not.toBe(planted);
		expect(await whoami(jar)).toBe("lee");
		// The planted session ended with the sign-in: it names nobody now.
		const old = new Jar();
		old.cookies.set("modelhub_session", planted);
		expect(await whoami(old)).toBe(401);
		// A made-up session id is simply anonymous.
		const madeUp = new Jar();
		madeUp.cookies.set("modelhub_session", "mhs_" + "A".repeat(43));
		expect(await whoami(madeUp)).toBe(401);
	});

	it("keeps the session across requests (a reload, a new tab) until logout", async () => {
		const jar = await joinAs("max");
		const tab = new Jar();
		tab.cookies = new Map(jar.cookies);
		expect(await whoami(tab)).toBe("max");
		const noCsrf = await call(jar, "POST", "/api/auth/logout");
		expect(noCsrf.status).toBe(403);
		expect(await whoami(tab)).toBe("max");
		const out = await call(jar, "POST", "/api/auth/logout", undefined, { "x-csrf-token": jar.csrf });
		expect(out.status).toBe(204);
		expect(jar.cookies.size).toBe(0);
		expect(await whoami(tab)).toBe(401);
	});

	it("sets Secure cookies when the hub is reached over https through a proxy that says so", async () => {
		const proxied = await startHub({
			db,
			seed: false,
			adminToken: ADMIN,
			trustProxy: true,
			selfService: { signup: "open", passwordCost: { log2N: 14 } },
		});
		try {
			const jar = new Jar();
			const response = await call(
				jar,
				"POST",
				"/api/auth/join",
				{ username: "nina", password: PASSWORD },
				{ "x-forwarded-proto": "https" },
				proxied.url,
			);
			expect(response.status).toBe(201);
			for (const line of jar.setCookies) expect(line).toMatch(/; Secure$/);
		} finally {
			await proxied.close();
		}
	});
});

describe("CSRF", () => {
	it("refuses every cookie-authenticated write without the session's token, and from another Origin", async () => {
		const jar = await joinAs("olga");
		const attempts: Array<[string, string, unknown]> = [
			["POST", "/api/repos/create", { type: "model", name: "csrf-test" }],
			["POST", "/api/settings/tokens", { name: "t", scope: "write" }],
			["POST", "/api/auth/password", { currentPassword: PASSWORD, newPassword: "another password" }],
		];
		for (const [method, path, body] of attempts) {
			const none = await call(jar, method, path, body);
			expect(none.status, path).toBe(403);
			expect(((await none.json()) as { error: string }).error).toMatch(/CSRF/);
			const wrong = await call(jar, method, path, body, { "x-csrf-token": "A".repeat(43) });
			expect(wrong.status, path).toBe(403);
			const foreign = await call(jar, method, path, body, {
				"x-csrf-token": jar.csrf,
				origin: "https://evil.example",
			});
			expect(foreign.status, path).toBe(403);
		}
		const ok = await call(
			jar,
			"POST",
			"/api/repos/create",
			{ type: "model", name: "csrf-test" },
			{ "x-csrf-token": jar.csrf, origin: hub.url },
		);
		expect(ok.status).toBe(200);
		// Token-authenticated calls (huggingface_hub) need no CSRF token, with or without a cookie.
		const created = await writeToken(jar, "cli");
		const byToken = await call(
			jar,
			"POST",
			"/api/repos/create",
			{ type: "model", name: "by-token" },
			{ authorization: `Bearer ${created}` },
		);
		expect(byToken.status).toBe(200);
	});
});

describe("sessions end", () => {
	it("when idle or too old (configurable), and all others at a password change", async () => {
		const jar = await joinAs("pat");
		const other = new Jar();
		expect(
			(await call(other, "POST", "/api/auth/login", { username: "pat", password: PASSWORD })).status,
		).toBe(200);
		await db.query(
			"UPDATE sessions SET last_seen_at = now() - interval '8 days' WHERE id = (SELECT id FROM sessions WHERE account = 'pat' ORDER BY created_at LIMIT 1)",
		);
		expect(await whoami(jar)).toBe(401);
		expect(await whoami(other)).toBe("pat");
		await db.query("UPDATE sessions SET created_at = now() - interval '31 days' WHERE account = 'pat'");
		expect(await whoami(other)).toBe(401);
		// The next sign-in removes the account's expired sessions, so they do not pile up.
		const next = new Jar();
		expect(
			(await call(next, "POST", "/api/auth/login", { username: "pat", password: PASSWORD })).status,
		).toBe(200);
		const left = await db.query<{ n: number }>(
			"SELECT count(*)::int AS n FROM sessions WHERE account = 'pat'",
		);
		expect(left.rows[0]?.n).toBe(1);
		expect(await whoami(next)).toBe("pat");

		const a = await joinAs("quinn");
		const b = new Jar();
		await call(b, "POST", "/api/auth/login", { username: "quinn", password: PASSWORD });
		const wrongCurrent = await call(
			a,
			"POST",
			"/api/auth/password",
			{ currentPassword: "nope nope", newPassword: "a new password" },
			{ "x-csrf-token": a.csrf },
		);
		expect(wrongCurrent.status).toBe(403);
		const before = a.cookies.get("modelhub_session");
		const changed = await call(
			a,
			"POST",
			"/api/auth/password",
			{ currentPassword: PASSWORD, newPassword: "a new password" },
			{ "x-csrf-token": a.csrf },
		);
		expect(changed.status).toBe(200);
		expect(a.cookies.get("modelhub_session")).not.toBe(before);
		expect(await whoami(a)).toBe("quinn");
		expect(await whoami(b)).toBe(401);
		expect(
			(await call(new Jar(), "POST", "/api/auth/login", { username: "quinn", password: PASSWORD })).status,
		).toBe(401);
		expect(
			(await call(new Jar(), "POST", "/api/auth/login", { username: "quinn", password: "a new password" }))
				.status,
		).toBe(200);
	});
});

/**
 * An account with no password, signed in as single sign-on signs one in (the same session row; the
 * provider's part is apps/web/e2e/sso.test.ts): made by the admin, its session inserted here.
 */
async function passwordlessSession(name: string, signedInMinutesAgo = 0): Promise<Jar> {
	expect((await admin("POST", "/api/admin/users", { name })).status).toBeLessThan(300);
	const session = await insertSession(db, name);
	if (signedInMinutesAgo > 0) {
		await db.query(
			`UPDATE sessions SET created_at = now() - interval '${signedInMinutesAgo} minutes' WHERE id = $1`,
			[session.id],
		);
	}
	const jar = new Jar();
	jar.cookies.set("modelhub_session", session.secret);
	jar.cookies.set("modelhub_csrf", csrfTokenOf(session.secret));
	return jar;
}

async function passwordOf(name: string): Promise<string | null | undefined> {
	const result = await db.query<{ password_hash: string | null }>(
		"SELECT password_hash FROM accounts WHERE name = $1",
		[name],
	);
	return result.rows[0]?.password_hash;
}

describe("a first password", () => {
	it("is set without a current one by an account that has none, after a recent sign-in, audited", async () => {
		const jar = await passwordlessSession("sso-sam");
		const other = await passwordlessSession("sso-sam-2");
		// Another session of the same account (another browser): ended by the change.
		const second = await insertSession(db, "sso-sam");
		const elsewhere = new Jar();
		elsewhere.cookies.set("modelhub_session", second.secret);
		expect(await whoami(elsewhere)).toBe("sso-sam");
		expect(await call(jar, "GET", "/api/settings/sign-in").then((r) => r.json())).toMatchObject({
			password: false,
		});

		// Every state-changing request needs the session's CSRF token; an access token cannot do it.
		const noCsrf = await call(jar, "POST", "/api/auth/password", { newPassword: "a first password" });
		expect(noCsrf.status).toBe(403);
		const token = await writeToken(jar);
		const byToken = await call(
			undefined,
			"POST",
			"/api/auth/password",
			{ newPassword: "a first password" },
			{
				authorization: `Bearer ${token}`,
			},
		);
		expect(byToken.status).toBe(401);
		expect(await passwordOf("sso-sam")).toBeNull();
		// Too short is refused as at sign-up.
		const short = await call(
			jar,
			"POST",
			"/api/auth/password",
			{ newPassword: "short" },
			{ "x-csrf-token": jar.csrf },
		);
		expect(short.status).toBe(400);

		const before = jar.cookies.get("modelhub_session");
		const set = await call(
			jar,
			"POST",
			"/api/auth/password",
			{ newPassword: "a first password" },
			{
				"x-csrf-token": jar.csrf,
			},
		);
		expect(set.status, await set.clone().text()).toBe(200);
		expect(jar.cookies.get("modelhub_session")).not.toBe(before);
		expect(await whoami(jar)).toBe("sso-sam");
		expect(await whoami(elsewhere)).toBe(401);
		expect(await passwordOf("sso-sam")).toMatch(/^scrypt\$/);
		expect(await passwordOf("sso-sam-2")).toBeNull();
		expect(await call(jar, "GET", "/api/settings/sign-in").then((r) => r.json())).toMatchObject({
			password: true,
		});
		const signIn = await call(new Jar(), "POST", "/api/auth/login", {
			username: "sso-sam",
			password: "a first password",
		});
		expect(signIn.status).toBe(200);

		// Now it has one: changing it needs the current one again.
		const again = await call(
			jar,
			"POST",
			"/api/auth/password",
			{ newPassword: "another password" },
			{
				"x-csrf-token": jar.csrf,
			},
		);
		expect(again.status).toBe(403);
		expect(((await again.json()) as { error: string }).error).toMatch(/current password is wrong/);
		const audit = (await (await admin("GET", "/api/admin/audit?actor=sso-sam&limit=50")).json()) as {
			entries: Array<{ action: string; details: unknown }>;
		};
		expect(audit.entries.filter((entry) => entry.action === "user.password-set")).toEqual([
			expect.objectContaining({ details: { user: "sso-sam" } }),
		]);
		expect(audit.entries.map((entry) => entry.action)).not.toContain("user.password");
		expect(await whoami(other)).toBe("sso-sam-2");
	});

	it("is refused to a session that signed in more than 10 minutes ago: sign in again", async () => {
		const stale = await passwordlessSession("sso-stale", 11);
		expect(await whoami(stale)).toBe("sso-stale");
		const refused = await call(
			stale,
			"POST",
			"/api/auth/password",
			{ newPassword: "a first password" },
			{
				"x-csrf-token": stale.csrf,
			},
		);
		expect(refused.status).toBe(403);
		expect(((await refused.json()) as { error: string }).error).toMatch(
			/sign in again first: setting a password needs a sign-in from the last 10 minutes/,
		);
		expect(await passwordOf("sso-stale")).toBeNull();
		// The session itself goes on working.
		expect(await whoami(stale)).toBe("sso-stale");
	});
});

describe("linking single sign-on", () => {
	it("is refused without a browser session, and to a session that signed in more than 10 minutes ago", async () => {
		for (const method of ["POST", "DELETE"]) {
			const anonymous = await call(new Jar(), method, "/api/settings/sign-in/sso");
			expect(anonymous.status, method).toBe(401);
		}
		expect((await call(new Jar(), "GET", "/api/settings/sign-in")).status).toBe(401);
		const stale = await passwordlessSession("sso-old", 11);
		const refused = await call(stale, "POST", "/api/settings/sign-in/sso", undefined, {
			"x-csrf-token": stale.csrf,
		});
		expect(refused.status).toBe(403);
		expect(((await refused.json()) as { error: string }).error).toMatch(
			/linking Test IdP needs a sign-in from the last 10 minutes/,
		);
		expect(refused.headers.getSetCookie().join("\n")).not.toContain("modelhub_oidc=");
		// A fresh one gets past the checks to the provider, which cannot be reached here: 502, no flow cookie.
		const fresh = await passwordlessSession("sso-new");
		const tried = await call(fresh, "POST", "/api/settings/sign-in/sso", undefined, {
			"x-csrf-token": fresh.csrf,
		});
		expect(tried.status).toBe(502);
		expect(tried.headers.getSetCookie().join("\n")).not.toContain("modelhub_oidc=");
	});
});

describe("own access tokens", () => {
	it("are created, listed and revoked by the signed-in user, and work with huggingface_hub", async () => {
		const jar = await joinAs("rita");
		const csrf = { "x-csrf-token": jar.csrf };
		const write = await call(jar, "POST", "/api/settings/tokens", { name: "laptop", scope: "write" }, csrf);
		expect(write.status).toBe(201);
		const writeToken = (await write.json()) as { id: string; token: string; name: string; scope: string };
		expect(writeToken).toMatchObject({ name: "laptop", scope: "write" });
		expect(writeToken.token).toMatch(/^mh_/);
		const read = (await (
			await call(jar, "POST", "/api/settings/tokens", { name: "ci", scope: "read" }, csrf)
		).json()) as { id: string; token: string };
		const bad = await call(jar, "POST", "/api/settings/tokens", { name: "x", scope: "admin" }, csrf);
		expect(bad.status).toBe(400);

		const client = await runHubClient<
			Record<string, { ok?: unknown; error?: string; status?: number }> & {
				stored: string[];
				cli_login?: { code: number; output: string };
				cli_whoami?: { code: number; output: string };
			}
		>(
			"own_tokens",
			hub.url,
			work,
			{ write: writeToken.token, read: read.token, repo: "rita/own-token-model" },
			{},
			"hf_hub_accounts.py",
		);
		expect((client.whoami_write?.ok as { name: string }).name).toBe("rita");
		expect(
			(client.whoami_read?.ok as { auth: { accessToken: { role: string } } }).auth.accessToken.role,
		).toBe("read");
		expect(client.create?.ok).toBe(`${hub.url}/rita/own-token-model`);
		expect(typeof client.upload_write?.ok).toBe("string");
		expect(client.upload_read?.status).toBe(403);
		expect(client.files?.ok).toEqual([".gitattributes", "hello.txt"]);
		expect(client.stored).toContain("laptop");
		// The real `hf` CLI: `hf auth login --token …` then `hf auth whoami`, against this hub (HF_ENDPOINT).
		expect(client.cli_login?.code, JSON.stringify(client.cli_login)).toBe(0);
		expect(client.cli_whoami?.code, JSON.stringify(client.cli_whoami)).toBe(0);
		expect(String(client.cli_whoami?.output)).toMatch(/\brita\b/);
		expect(JSON.stringify(client)).not.toContain(read.token);

		const list = (await (await call(jar, "GET", "/api/settings/tokens")).json()) as Array<{
			id: string;
			name: string;
			lastUsedAt: string | null;
			token?: string;
		}>;
		expect(list.map((token) => token.name)).toEqual(["laptop", "ci"]);
		expect(list.every((token) => token.token === undefined)).toBe(true);
		expect(list[0]?.lastUsedAt).not.toBeNull();

		// Someone else's token is not found; the owner's revocation ends it at once.
		const other = await joinAs("sam");
		expect(
			(
				await call(other, "DELETE", `/api/settings/tokens/${writeToken.id}`, undefined, {
					"x-csrf-token": other.csrf,
				})
			).status,
		).toBe(404);
		expect((await call(jar, "DELETE", `/api/settings/tokens/${writeToken.id}`, undefined, csrf)).status).toBe(
			200,
		);
		const after = await runHubClient<Record<string, { ok?: unknown; status?: number }>>(
			"whoami",
			hub.url,
			work,
			{ tokens: { write: writeToken.token } },
			{},
			"hf_hub_accounts.py",
		);
		expect(after.write?.status).toBe(401);
		const remaining = (await (await call(jar, "GET", "/api/settings/tokens")).json()) as Array<{
			name: string;
		}>;
		expect(remaining.map((token) => token.name)).toEqual(["ci"]);
		// Token management needs the browser session, not a token.
		const byToken = await call(undefined, "GET", "/api/settings/tokens", undefined, {
			authorization: `Bearer ${read.token}`,
		});
		expect(byToken.status).toBe(401);
	}, 120_000);
});

describe("the admin", () => {
	it("disables an account: its sessions and tokens stop at once; enabling lets it sign in again", async () => {
		const jar = await joinAs("tom");
		const token = await writeToken(jar);
		expect((await admin("POST", "/api/admin/users/tom/disable")).status).toBe(200);
		expect(await whoami(jar)).toBe(401);
		expect(
			(await call(undefined, "GET", "/api/whoami-v2", undefined, { authorization: `Bearer ${token}` }))
				.status,
		).toBe(401);
		const login = await call(new Jar(), "POST", "/api/auth/login", { username: "tom", password: PASSWORD });
		expect(login.status).toBe(403);
		expect(((await login.json()) as { error: string }).error).toMatch(/disabled/);
		expect((await admin("POST", "/api/admin/users/tom/enable")).status).toBe(200);
		expect(
			(await call(undefined, "GET", "/api/whoami-v2", undefined, { authorization: `Bearer ${token}` }))
				.status,
		).toBe(200);
	});

	it("deletes an account without repositories; one with repositories only after they are gone", async () => {
		const jar = await joinAs("uma");
		const token = await writeToken(jar);
		expect(
			(
				await call(
					jar,
					"POST",
					"/api/repos/create",
					{ type: "model", name: "kept" },
					{ "x-csrf-token": jar.csrf },
				)
			).status,
		).toBe(200);
		const refused = await admin("DELETE", "/api/admin/users/uma");
		expect(refused.status).toBe(409);
		expect(((await refused.json()) as { error: string }).error).toMatch(/owns 1 repositories/);
		expect(
			(
				await call(
					jar,
					"DELETE",
					"/api/repos/delete",
					{ type: "model", name: "kept" },
					{ "x-csrf-token": jar.csrf },
				)
			).status,
		).toBe(200);
		expect((await admin("DELETE", "/api/admin/users/uma")).status).toBe(200);
		expect(await whoami(jar)).toBe(401);
		expect(
			(await call(undefined, "GET", "/api/whoami-v2", undefined, { authorization: `Bearer ${token}` }))
				.status,
		).toBe(401);
		expect((await admin("DELETE", "/api/admin/users/uma")).status).toBe(404);
	});
});

describe("site admins", () => {
	async function as(jar: Jar, method: string, path: string, body?: unknown): Promise<Response> {
		return call(jar, method, path, body, method === "GET" ? {} : { "x-csrf-token": jar.csrf });
	}

	it("are made by the hub admin only and then manage accounts and invites from a session, audited", async () => {
		const sara = await joinAs("sara");
		const nick = await joinAs("nick");
		// Nobody but the admin token grants the role; before it, sara is refused like anyone.
		expect((await as(sara, "GET", "/api/admin/accounts")).status).toBe(403);
		expect((await as(sara, "PUT", "/api/admin/users/sara/site-admin", { siteAdmin: true })).status).toBe(403);
		expect((await call(undefined, "GET", "/api/admin/invites")).status).toBe(401);
		const granted = await admin("PUT", "/api/admin/users/SARA/site-admin", { siteAdmin: true });
		expect(await granted.json()).toEqual({ name: "sara", siteAdmin: true });
		expect((await admin("PUT", "/api/admin/users/sara/site-admin", { siteAdmin: "yes" })).status).toBe(400);
		const me = (await (await as(sara, "GET", "/api/whoami-v2")).json()) as { siteAdmin?: boolean };
		expect(me.siteAdmin).toBe(true);
		expect(
			((await (await as(nick, "GET", "/api/whoami-v2")).json()) as { siteAdmin?: boolean }).siteAdmin,
		).toBe(undefined);
		// She still cannot make others site admins.
		expect((await as(sara, "PUT", "/api/admin/users/nick/site-admin", { siteAdmin: true })).status).toBe(403);
		expect((await as(nick, "GET", "/api/admin/accounts")).status).toBe(403);
		expect((await as(nick, "POST", "/api/admin/invites", {})).status).toBe(403);

		// Accounts, by name, paged with Link.
		const first = await as(sara, "GET", "/api/admin/accounts?limit=1");
		expect(first.status).toBe(200);
		expect(first.headers.get("link")).toMatch(/cursor=[^>]+>; rel="next"/);
		const all = (await (await as(sara, "GET", "/api/admin/accounts?limit=1000")).json()) as Array<{
			name: string;
			disabled: boolean;
			siteAdmin: boolean;
		}>;
		expect(all.find((user) => user.name === "sara")).toMatchObject({ disabled: false, siteAdmin: true });
		expect(all.find((user) => user.name === "nick")).toMatchObject({ disabled: false, siteAdmin: false });
		expect(all.map((user) => user.name)).toEqual([...all.map((user) => user.name)].sort());

		// Invites: made, listed (never the code), revoked; a revoked code admits nobody.
		const made = await as(sara, "POST", "/api/admin/invites", {});
		expect(made.status).toBe(201);
		const { code } = (await made.json()) as { code: string };
		const listed = (await (await as(sara, "GET", "/api/admin/invites?limit=5")).json()) as Array<{
			id: string;
			createdBy: string;
			usedBy: string | null;
		}>;
		expect(JSON.stringify(listed)).not.toContain(code);
		const newest = listed[0] as { id: string; createdBy: string; usedBy: string | null };
		expect(newest).toMatchObject({ createdBy: "sara", usedBy: null });
		expect((await as(nick, "DELETE", `/api/admin/invites/${newest.id}`)).status).toBe(403);
		expect(await (await as(sara, "DELETE", `/api/admin/invites/${newest.id}`)).json()).toEqual({
			id: newest.id,
			revoked: true,
		});
		const refused = await call(new Jar(), "POST", "/api/auth/join", {
			username: "late",
			password: PASSWORD,
			invite: code,
		});
		expect(refused.status).toBe(403);
		expect((await as(sara, "DELETE", `/api/admin/invites/${newest.id}`)).status).toBe(404);
		const used = listed.find((invite) => invite.usedBy === "nick");
		expect(used).toBeDefined();
		expect((await as(sara, "DELETE", `/api/admin/invites/${used?.id ?? ""}`)).status).toBe(409);

		// Disable and enable another account; never her own.
		expect((await as(sara, "POST", "/api/admin/users/nick/disable")).status).toBe(200);
		expect(await whoami(nick)).toBe(401);
		expect((await as(sara, "POST", "/api/admin/users/nick/enable")).status).toBe(200);
		const own = await as(sara, "POST", "/api/admin/users/sara/disable");
		expect(own.status).toBe(409);
		expect(((await own.json()) as { error: string }).error).toMatch(/your own account/);
		expect((await as(sara, "DELETE", "/api/admin/users/sara")).status).toBe(409);

		// A read token of a site admin manages nothing.
		const read = (
			(await (await as(sara, "POST", "/api/settings/tokens", { name: "r", scope: "read" })).json()) as {
				token: string;
			}
		).token;
		const byRead = await call(undefined, "GET", "/api/admin/accounts", undefined, {
			authorization: `Bearer ${read}`,
		});
		expect(byRead.status).toBe(403);

		// Each change is in the audit log under her name.
		const audit = (await (await admin("GET", "/api/admin/audit?actor=sara&limit=50")).json()) as {
			entries: Array<{ action: string }>;
		};
		const actions = audit.entries.map((entry) => entry.action);
		for (const action of ["invite.create", "invite.revoke", "user.disable", "user.enable"]) {
			expect(actions).toContain(action);
		}
		// Taking the role away works at once.
		await admin("PUT", "/api/admin/users/sara/site-admin", { siteAdmin: false });
		expect((await as(sara, "GET", "/api/admin/accounts")).status).toBe(403);
	});

	it("are granted and revoked from the command line, audited as @cli", async () => {
		const cli = await joinAs("clio");
		expect((await as(cli, "GET", "/api/admin/accounts")).status).toBe(403);
		expect(await runAccountCommand(db, "user", ["site-admin", "CLIO", "grant"])).toBe(
			"clio is now a site admin.",
		);
		expect((await as(cli, "GET", "/api/admin/accounts")).status).toBe(200);
		const revoked = JSON.parse(
			await runAccountCommand(db, "user", ["site-admin", "clio", "revoke", "--json"]),
		);
		expect(revoked).toEqual({ name: "clio", siteAdmin: false });
		expect((await as(cli, "GET", "/api/admin/accounts")).status).toBe(403);
		await expect(runAccountCommand(db, "user", ["site-admin", "clio", "yes"])).rejects.toThrow(
			'user site-admin takes grant or revoke, got "yes"',
		);
		await expect(runAccountCommand(db, "user", ["site-admin", "nobody-here", "grant"])).rejects.toThrow(
			"no user named nobody-here",
		);
		const audit = (await (
			await admin("GET", "/api/admin/audit?actor=%40cli&action=user.site-admin")
		).json()) as {
			entries: Array<{ details: { user: string; siteAdmin: boolean } }>;
		};
		expect(audit.entries.map((entry) => entry.details)).toEqual([
			{ user: "clio", siteAdmin: false },
			{ user: "clio", siteAdmin: true },
		]);
	});
});

describe("sign-up modes", () => {
	it("closed refuses everyone; open needs no invite", async () => {
		for (const [signup, status] of [
			["closed", 403],
			["open", 201],
		] as const) {
			const other = await startHub({ db, seed: false, selfService: { signup, passwordCost: { log2N: 14 } } });
			try {
				const config = (await (await fetch(`${other.url}/api/auth/config`)).json()) as { signup: string };
				expect(config.signup).toBe(signup);
				const response = await call(
					new Jar(),
					"POST",
					"/api/auth/join",
					{ username: `mode-${signup}`, password: PASSWORD },
					{},
					other.url,
				);
				expect(response.status).toBe(status);
			} finally {
				await other.close();
			}
		}
	});
});

describe("a huggingface.co token", () => {
	it("is told that this hub needs a token it issued", async () => {
		const response = await call(undefined, "GET", "/api/whoami-v2", undefined, {
			authorization: `Bearer hf_${"a".repeat(34)}`,
		});
		expect(response.status).toBe(401);
		const error = ((await response.json()) as { error: string }).error;
		expect(error).toMatch(/only accepts tokens it issued itself/);
		expect(error).not.toMatch(/Invalid credentials in Authorization header/);
	});
});
