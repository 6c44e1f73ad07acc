import { AccountInputError, checkRole } from "../accounts/store.js";
import type { Database } from "../db/types.js";
import {
	addOrg,
	addToken,
	addUser,
	auditPage,
	orgsWithMembers,
	removeMember,
	setMember,
	tokensOf,
	usersWithOrgs,
	withdrawToken,
} from "../services/accounts.js";
import { CLI_ACTOR } from "../services/actor.js";
import { grantSiteAdmin } from "../services/sessions.js";
import { ChangeEvents } from "../services/changes.js";
import type { WriteContext } from "../services/write.js";
import { AUDIT_ACTIONS } from "../vocabulary.js";

export const ACCOUNT_USAGE = `  user create NAME [--fullname TEXT]
                            create a user; prints a new write token (shown once)
  user list                 list users and their organisations
  user site-admin NAME grant|revoke
                            make a user a site admin (accounts, invites), or no longer one
  token create USER [--scope read|write] [--name NAME]
                            issue another token for a user (shown once; write by default)
  token list USER           list a user's tokens (ids, scopes, dates; never the tokens)
  token revoke TOKEN_ID     revoke a token (and the Xet tokens issued with it)
  org create NAME [--member USER:ROLE]…
                            create an organisation; ROLE is read, write or admin
  org list                  list organisations and their members
  org set-member ORG USER ROLE
  org remove-member ORG USER
  audit [--limit N] [--repo ID] [--actor NAME] [--action ACTION]
                            the newest entries of the audit log
  Add --json to any of these for JSON output.`;

/** A command line of these commands that cannot run (exit status 2 with the message). */
export class UsageError extends Error {
	override name = "UsageError";
}

interface Parsed {
	positional: string[];
	options: Map<string, string[]>;
	json: boolean;
}

const VALUE_OPTIONS = new Set([
	"--fullname",
	"--scope",
	"--name",
	"--member",
	"--limit",
	"--repo",
	"--actor",
	"--action",
]);

function parse(args: readonly string[]): Parsed {
	const positional: string[] = [];
	const options = new Map<string, string[]>();
	let json = false;
	for (let index = 0; index < args.length; index++) {
		const arg = args[index] as string;
		if (arg === "--json") json = true;
		else if (arg.startsWith("--")) {
			const [name, inline] = arg.includes("=")
				? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
				: [arg, undefined];
			if (!VALUE_OPTIONS.has(name)) throw new UsageError(`unknown option ${name}`);
			const value = inline ?? args[++index];
			if (value === undefined) throw new UsageError(`${name} needs a value`);
			options.set(name, [...(options.get(name) ?? []), value]);
		} else positional.push(arg);
	}
	return { positional, options, json };
}

function expect(parsed: Parsed, count: number, usage: string): string[] {
	if (parsed.positional.length !== count) throw new UsageError(`usage: ${usage}`);
	return parsed.positional;
}

function single(parsed: Parsed, name: string): string | undefined {
	const values = parsed.options.get(name);
	if (values && values.length > 1) throw new UsageError(`${name} is given more than once`);
	return values?.[0];
}

/**
 * The account commands of the CLI (`user`, `token`, `org`, `audit`) on an open database: the embedded
 * one (stop the server first: it holds the folder) or PostgreSQL (DATABASE_URL, also while hubs run).
 * Returns the text to print. Every change is in the audit log, by `@cli`.
 */
export async function runAccountCommand(
	db: Database,
	group: string,
	args: readonly string[],
): Promise<string> {
	// No listener in this process: other hub processes on PostgreSQL hear of the changes by NOTIFY.
	const context: WriteContext = { db, changes: new ChangeEvents() };
	const [sub = "", ...rest] = args;
	const parsed = parse(rest);
	const out = (value: unknown, text: string) => (parsed.json ? JSON.stringify(value, null, 2) : text);
	switch (`${group} ${sub}`) {
		case "user create": {
			const [name] = expect(parsed, 1, "user create NAME [--fullname TEXT]");
			const result = await addUser(context, CLI_ACTOR, { name, fullname: single(parsed, "--fullname") });
			return out(
				result,
				`Created user ${result.name}. Write token (shown once, keep it safe):\n${result.token}`,
			);
		}
		case "user list": {
			expect(parsed, 0, "user list");
			const rows = (await usersWithOrgs(context, CLI_ACTOR)).map((user) => ({
				name: user.name,
				createdAt: user.createdAt,
				orgs: user.orgs,
			}));
			return out(
				rows,
				rows.length === 0
					? "No users."
					: rows
							.map(
								(row) =>
									`${row.name}${row.orgs.length ? `  (${row.orgs.map((o) => `${o.name}: ${o.role}`).join(", ")})` : ""}`,
							)
							.join("\n"),
			);
		}
		case "user site-admin": {
			const [name, change] = expect(parsed, 2, "user site-admin NAME grant|revoke");
			if (change !== "grant" && change !== "revoke")
				throw new UsageError(`user site-admin takes grant or revoke, got ${JSON.stringify(change)}`);
			const result = await grantSiteAdmin(context, CLI_ACTOR, name as string, change === "grant");
			return out(
				result,
				result.siteAdmin
					? `${result.name} is now a site admin.`
					: `${result.name} is no longer a site admin.`,
			);
		}
		case "token create": {
			const [user] = expect(parsed, 1, "token create USER [--scope read|write] [--name NAME]");
			const token = await addToken(context, CLI_ACTOR, {
				user: user as string,
				role: single(parsed, "--scope"),
				displayName: single(parsed, "--name"),
			});
			return out(
				{
					name: token.account,
					token: token.token,
					id: token.id,
					scope: token.role,
					displayName: token.displayName,
				},
				`Issued a ${token.role} token for ${token.account} (id ${token.id}, shown once):\n${token.token}`,
			);
		}
		case "token list": {
			const [user] = expect(parsed, 1, "token list USER");
			const tokens = await tokensOf(context, CLI_ACTOR, user as string);
			return out(
				tokens,
				tokens.length === 0
					? `${user} has no tokens.`
					: tokens
							.map(
								(t) =>
									`${t.id}  ${t.role.padEnd(5)}  ${t.displayName}  created ${t.createdAt}${t.lastUsedAt ? `  last used ${t.lastUsedAt}` : ""}${t.revokedAt ? `  REVOKED ${t.revokedAt}` : ""}`,
							)
							.join("\n"),
			);
		}
		case "token revoke": {
			const [id] = expect(parsed, 1, "token revoke TOKEN_ID");
			const revoked = await withdrawToken(context, CLI_ACTOR, id as string);
			if (!revoked) throw new UsageError(`no token with id ${id}`);
			return out(revoked, `Revoked token ${revoked.id} of ${revoked.account}.`);
		}
		case "org create": {
			const [name] = expect(parsed, 1, "org create NAME [--member USER:ROLE]…");
			const members = (parsed.options.get("--member") ?? []).map((spec) => {
				const colon = spec.lastIndexOf(":");
				if (colon <= 0) throw new UsageError(`--member takes USER:ROLE, got ${JSON.stringify(spec)}`);
				return { user: spec.slice(0, colon), role: checkRole(spec.slice(colon + 1), "the role") };
			});
			const created = await addOrg(context, CLI_ACTOR, { name, members });
			return out(
				{ name: created.org.name, members: created.members },
				`Created organisation ${created.org.name}${created.members.length ? ` with ${created.members.map((m) => `${m.user} (${m.role})`).join(", ")}` : ""}.`,
			);
		}
		case "org list": {
			expect(parsed, 0, "org list");
			const orgs = (await orgsWithMembers(context, CLI_ACTOR)).map((org) => ({
				name: org.name,
				members: org.members,
			}));
			return out(
				orgs,
				orgs.length === 0
					? "No organisations."
					: orgs
							.map(
								(org) =>
									`${org.name}: ${org.members.map((m) => `${m.user} (${m.role})`).join(", ") || "no members"}`,
							)
							.join("\n"),
			);
		}
		case "org set-member": {
			const [org, user, role] = expect(parsed, 3, "org set-member ORG USER ROLE");
			const member = await setMember(
				context,
				CLI_ACTOR,
				org as string,
				user as string,
				checkRole(role, "the role"),
			);
			return out(member, `${member.user} now has the ${member.role} role in ${member.org}.`);
		}
		case "org remove-member": {
			const [org, user] = expect(parsed, 2, "org remove-member ORG USER");
			const removed = await removeMember(context, CLI_ACTOR, org as string, user as string);
			if (!removed) throw new UsageError(`${user} is not a member of ${org}`);
			return out({ removed: true }, `Removed ${user} from ${org}.`);
		}
		default:
			if (group === "audit")
				return auditCommand(
					context,
					[sub, ...rest].filter((arg) => arg !== ""),
				);
			throw new UsageError(`unknown command: ${group} ${sub}`.trim());
	}
}

async function auditCommand(context: WriteContext, args: readonly string[]): Promise<string> {
	const parsed = parse(args);
	expect(parsed, 0, "audit [--limit N] [--repo ID] [--actor NAME] [--action ACTION]");
	const limitText = single(parsed, "--limit") ?? "50";
	if (!/^\d{1,5}$/.test(limitText) || Number(limitText) < 1)
		throw new UsageError("--limit must be a whole number from 1");
	const action = single(parsed, "--action");
	if (action !== undefined && !(AUDIT_ACTIONS as readonly string[]).includes(action)) {
		throw new AccountInputError(`--action must be one of ${AUDIT_ACTIONS.join(", ")}`);
	}
	const repo = single(parsed, "--repo");
	const actor = single(parsed, "--actor");
	const page = await auditPage(context, CLI_ACTOR, {
		limit: Math.min(Number(limitText), 10_000),
		...(repo ? { repo } : {}),
		...(actor ? { actor } : {}),
		...(action ? { action } : {}),
	});
	if (parsed.json) return JSON.stringify(page.entries, null, 2);
	if (page.entries.length === 0) return "The audit log is empty.";
	return page.entries
		.map(
			(e) => `${e.at}  ${e.actor}  ${e.action}${e.repo ? `  ${e.repo}` : ""}  ${JSON.stringify(e.details)}`,
		)
		.join("\n");
}
