/**
 * The signed-in account as the app needs it, and what it may do: pure functions over the hub's
 * `GET /api/whoami-v2` answer. Rights follow the hub's rules (packages/hub/src/accounts/viewer.ts): a
 * user has every right on their own namespace; an organisation member has their role's (read, write:
 * create and change repositories, admin: also change visibility); a read token never writes.
 */
import type { OrgRole } from "@modelhub/hub/api";
import { idPartProblem } from "@modelhub/tasks/repositories";

export interface HubAccount {
	name: string;
	fullname?: string;
	orgs: Array<{ name: string; role: OrgRole }>;
	/** The token's scope: "read" or "write" ("admin" for the hub's admin token). */
	tokenRole: string;
	/** The name the token was issued under, when it has one. */
	tokenName?: string;
	/** A site admin of the hub (manages accounts and invites). */
	siteAdmin?: true;
}

const ROLE_RANK: Record<OrgRole, number> = { read: 1, write: 2, admin: 3 };

function isRole(value: unknown): value is OrgRole {
	return value === "read" || value === "write" || value === "admin";
}

function text(value: unknown): string | undefined {
	return typeof value === "string" && value.trim() ? value : undefined;
}

/** The account of a whoami answer, or undefined when the answer is not one. */
export function accountFromWhoami(body: unknown): HubAccount | undefined {
	if (typeof body !== "object" || body === null) return undefined;
	const record = body as Record<string, unknown>;
	const name = text(record.name);
	if (!name) return undefined;
	const orgs: HubAccount["orgs"] = [];
	if (Array.isArray(record.orgs)) {
		for (const org of record.orgs as Array<Record<string, unknown> | null>) {
			const orgName = text(org?.name);
			if (orgName) orgs.push({ name: orgName, role: isRole(org?.roleInOrg) ? org.roleInOrg : "read" });
		}
	}
	const token = ((record.auth as Record<string, unknown> | undefined)?.accessToken ?? {}) as Record<
		string,
		unknown
	>;
	const fullname = text(record.fullname);
	const tokenName = text(token.displayName);
	return {
		name,
		...(fullname && fullname !== name ? { fullname } : {}),
		orgs,
		tokenRole: text(token.role) ?? "read",
		...(tokenName ? { tokenName } : {}),
		...(record.siteAdmin === true ? { siteAdmin: true as const } : {}),
	};
}

/** The account's role in a namespace (case-insensitively, as the hub compares), before the token's scope. */
export function roleIn(account: HubAccount | undefined, namespace: string | undefined): OrgRole | undefined {
	if (!account || !namespace) return undefined;
	if (account.tokenRole === "admin") return "admin";
	const lower = namespace.toLowerCase();
	if (account.name.toLowerCase() === lower) return "admin";
	return account.orgs.find((org) => org.name.toLowerCase() === lower)?.role;
}

/** Whether the account's token may do what `need` requires in a namespace. */
export function can(account: HubAccount | undefined, namespace: string | undefined, need: OrgRole): boolean {
	const role = roleIn(account, namespace);
	if (!account || !role || ROLE_RANK[role] < ROLE_RANK[need]) return false;
	return need === "read" || account.tokenRole !== "read";
}

/** The namespaces a new repository may be created in: the account's own, then organisations it writes to. */
export function writableNamespaces(account: HubAccount | undefined): string[] {
	if (!account || account.tokenRole === "read") return [];
	return [
		account.name,
		...account.orgs.filter((org) => can(account, org.name, "write")).map((org) => org.name),
	];
}

/** Every namespace whose models the account sees, private ones included: its own and its organisations'. */
export function readableNamespaces(account: HubAccount | undefined): string[] {
	return account ? [account.name, ...account.orgs.map((org) => org.name)] : [];
}

/** Why `name` cannot be a repository name on the hub, or undefined when it can (the hub's own rule). */
export function repoNameProblem(name: string, what = "repository name"): string | undefined {
	return idPartProblem(name, what);
}
