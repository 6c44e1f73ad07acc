import {
	findAccount,
	memberCount,
	memberPage,
	organisationsOf,
	searchAccounts,
	type AccountCard,
} from "../accounts/people.js";
import { ANONYMOUS, namespaceRole, type Viewer } from "../accounts/viewer.js";
import type {
	OrgMemberEntry,
	OrgOverview,
	OrgSummary,
	QuickSearchAnswer,
	QuickSearchUser,
	UserOverview,
} from "../api/people.js";
import { countDatasets, listDatasets } from "../datasets/store.js";
import { countMatchingModels, listModels } from "../models/store.js";
import type { ReadContext } from "./models.js";

/**
 * Profiles, organisation member lists and the header search: what anyone may read about accounts
 * (names, full names, organisations, members), with model counts and results as the viewer may see
 * them (a private model counts and shows only for readers of its namespace).
 */

/** How far a profile's or a search's model count goes before it says "at least". */
export const MODEL_COUNT_CAP = 10_000;

/** Longer names cannot exist (an id part is at most 96 characters): they are not looked up. */
const MAX_NAME_LENGTH = 96;

function orgSummary(card: AccountCard): OrgSummary {
	return { _id: card.objectId, name: card.name, fullname: card.fullname, type: "org", avatarUrl: "" };
}

function userCard(card: AccountCard): QuickSearchUser {
	return { _id: card.objectId, user: card.name, fullname: card.fullname, type: "user", avatarUrl: "" };
}

async function visibleModels(context: ReadContext, viewer: Viewer, author: string): Promise<number> {
	return (await countMatchingModels(context.db, { viewer, author }, MODEL_COUNT_CAP)).count;
}

/** The account (not disabled) with this name, as a profile page's title names it. */
export function publicAccount(context: ReadContext, name: string): Promise<AccountCard | undefined> {
	return name.length > MAX_NAME_LENGTH ? Promise.resolve(undefined) : findAccount(context.db, name);
}

/**
 * A namespace that holds public repositories but has no account (models seeded or imported under
 * `meta-llama/…`): its name as stored, or undefined when nothing public is under `name`. Its page lists
 * its repositories; the overview routes still answer 404 for it, as the public hub does for a name that
 * is no user or organisation (huggingface_hub's get_user_overview raises on that 404).
 */
export async function publicNamespace(context: ReadContext, name: string): Promise<string | undefined> {
	if (name.length > MAX_NAME_LENGTH) return undefined;
	const first = { viewer: ANONYMOUS, author: name, sort: "lastModified", direction: -1, limit: 1 } as const;
	const models = await listModels(context.db, { ...first, properties: new Set() });
	const found =
		models.models[0]?.id ??
		(await listDatasets(context.db, { ...first, properties: new Set() })).datasets[0]?.id;
	return found?.split("/")[0];
}

/** A user's overview, or undefined when there is no such user (or the account is an organisation). */
export async function userOverview(
	context: ReadContext,
	viewer: Viewer,
	name: string,
): Promise<UserOverview | undefined> {
	const account = await findAccount(context.db, name);
	if (!account || account.kind !== "user") return undefined;
	const [orgs, numModels] = await Promise.all([
		organisationsOf(context.db, account.name),
		visibleModels(context, viewer, account.name),
	]);
	return {
		...userCard(account),
		createdAt: account.createdAt,
		numModels,
		orgs: orgs.map(orgSummary),
	};
}

/** An organisation's overview, or undefined when there is no such organisation. */
export async function orgOverview(
	context: ReadContext,
	viewer: Viewer,
	name: string,
): Promise<OrgOverview | undefined> {
	const account = await findAccount(context.db, name);
	if (!account || account.kind !== "org") return undefined;
	const [numUsers, numModels] = await Promise.all([
		memberCount(context.db, account.name),
		visibleModels(context, viewer, account.name),
	]);
	return { ...orgSummary(account), createdAt: account.createdAt, numUsers, numModels };
}

/**
 * A page of an organisation's members (by name, after the member `after`), or undefined when there is
 * no such organisation. Roles are shown to the organisation's members and the hub admin.
 */
export async function orgMembers(
	context: ReadContext,
	viewer: Viewer,
	name: string,
	page: { after?: string; limit: number },
): Promise<{ org: string; members: OrgMemberEntry[]; next?: string } | undefined> {
	const org = await findAccount(context.db, name);
	if (!org || org.kind !== "org") return undefined;
	// One more than asked: whether there is a next page.
	const rows = await memberPage(context.db, org.name, { ...page, limit: page.limit + 1 });
	const more = rows.length > page.limit;
	const shown = more ? rows.slice(0, page.limit) : rows;
	const seesRoles = namespaceRole(viewer, org.name) !== undefined;
	const members = shown.map((row): OrgMemberEntry => ({
		...userCard(row),
		...(seesRoles ? { role: row.role } : {}),
	}));
	const last = shown.at(-1);
	return { org: org.name, members, ...(more && last ? { next: last.name } : {}) };
}

export type SearchType = "model" | "dataset" | "user" | "org";

/**
 * The header search: models, datasets, users and organisations matching `text`, at most `limit` of
 * each. Private models and datasets are found only by readers of their namespace.
 */
export async function quickSearch(
	context: ReadContext,
	viewer: Viewer,
	query: { text: string; types: ReadonlySet<SearchType>; limit: number },
): Promise<QuickSearchAnswer> {
	const { text, types, limit } = query;
	const words = text.split(/\s+/).filter((word) => word !== "");
	const wantsModels = types.has("model") && words.length > 0;
	const wantsDatasets = types.has("dataset") && words.length > 0;
	// Models and datasets are searched alike: most downloaded first, counted up to the same bound.
	const listing = {
		viewer,
		searchTerms: words,
		sort: "downloads",
		direction: -1,
		limit,
	} as const;
	const counting = { viewer, searchTerms: words };
	const [models, count, datasets, datasetCount, users, orgs] = await Promise.all([
		wantsModels ? listModels(context.db, { ...listing, properties: new Set() }) : undefined,
		wantsModels ? countMatchingModels(context.db, counting, MODEL_COUNT_CAP) : undefined,
		wantsDatasets ? listDatasets(context.db, { ...listing, properties: new Set() }) : undefined,
		wantsDatasets ? countDatasets(context.db, counting, MODEL_COUNT_CAP) : undefined,
		types.has("user") && text !== "" ? searchAccounts(context.db, "user", text, limit) : [],
		types.has("org") && text !== "" ? searchAccounts(context.db, "org", text, limit) : [],
	]);
	return {
		q: text,
		models: (models?.models ?? []).map((model) => ({ _id: model._id ?? model.id, id: model.id })),
		modelsCount: count?.count ?? 0,
		datasets: (datasets?.datasets ?? []).map((dataset) => ({
			_id: dataset._id ?? dataset.id,
			id: dataset.id,
		})),
		datasetsCount: datasetCount?.count ?? 0,
		users: users.map(userCard),
		orgs: orgs.map(orgSummary),
	};
}
