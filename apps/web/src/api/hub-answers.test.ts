/**
 * The hub's real answers through the app's API client and view parsers. The types come from the hub's
 * contract (`@modelhub/hub/api`), so `tsc` keeps the two in step; this test checks the other half, that
 * the running hub sends what the contract declares: no field it leaves out, every field it requires
 * (the admin API's answers too, which the app does not read but the contract declares).
 */
import type {
	AdminOrg,
	AdminToken,
	AdminUser,
	AuditLogEntry,
	AuditPage,
	CommitAnswer,
	CreatedOrg,
	CreatedRepo,
	CreatedToken,
	CreatedUser,
	GitRef,
	LibraryInfo,
	Membership,
	ModelCount,
	ModelInfo,
	PipelineInfo,
	ProviderMappingEntry,
	RepoFile,
	RepoFolder,
	RepoRefs,
	RepoSettings,
	RevokedToken,
	WhoamiOrg,
	WhoamiUser,
} from "@modelhub/hub/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHub, type RunningHub } from "../../e2e/support/hub";
import { modelSize, toModelData } from "../view/model";
import { providerEntries } from "../view/providers";
import { buildCommitForm } from "../view/upload";
import { createRepo, deleteRepo, moveRepo, setModelPrivate, whoami } from "./account";
import { listLibraries, listPipelines } from "./catalogue";
import { getDataset } from "./datasets";
import { hubHeaders } from "./http";
import { countModels, getModel, listModels, listRefs, listTree } from "./models";

/** Each field of a contract type and whether every answer carries it; the type checker keeps it complete. */
type Fields<T> = { [K in keyof T]-?: object extends Pick<T, K> ? "optional" : "required" };

function expectShape<T>(value: unknown, fields: Fields<T>): void {
	expect(typeof value === "object" && value !== null && !Array.isArray(value)).toBe(true);
	const sent = Object.keys(value as object);
	const declared = Object.keys(fields);
	const required = declared.filter((key) => fields[key as keyof T] === "required");
	expect(
		sent.filter((key) => !declared.includes(key)),
		"fields the contract does not declare",
	).toEqual([]);
	expect(
		required.filter((key) => !sent.includes(key)),
		"required fields missing",
	).toEqual([]);
}

const MODEL: Fields<ModelInfo> = {
	_id: "optional",
	id: "required",
	modelId: "required",
	author: "optional",
	sha: "optional",
	pipeline_tag: "optional",
	library_name: "optional",
	tags: "required",
	config: "optional",
	cardData: "optional",
	widgetData: "optional",
	transformersInfo: "optional",
	safetensors: "optional",
	gguf: "optional",
	mask_token: "optional",
	"model-index": "optional",
	downloads: "required",
	downloadsAllTime: "optional",
	likes: "required",
	trendingScore: "optional",
	lastModified: "required",
	createdAt: "required",
	private: "required",
	gated: "optional",
	disabled: "optional",
	inference: "optional",
	inferenceProviderMapping: "optional",
	siblings: "optional",
	usedStorage: "optional",
	securityRepoStatus: "optional",
	metadataOnly: "optional",
	mirroredFrom: "optional",
};
const MAPPING: Fields<ProviderMappingEntry> = {
	providerId: "required",
	task: "required",
	status: "required",
	adapter: "optional",
	adapterWeightsPath: "optional",
};
const FILE: Fields<RepoFile> = {
	type: "required",
	oid: "required",
	size: "required",
	path: "required",
	lfs: "optional",
	xetStored: "optional",
	lastCommit: "optional",
};
const FOLDER: Fields<RepoFolder> = {
	type: "required",
	oid: "required",
	size: "required",
	path: "required",
	lastCommit: "optional",
};
const REF: Fields<GitRef> = { name: "required", ref: "required", targetCommit: "required" };
const REFS: Fields<RepoRefs> = {
	branches: "required",
	converts: "required",
	tags: "required",
	pullRequests: "optional",
};
const LIBRARY: Fields<LibraryInfo> = {
	key: "required",
	prettyLabel: "required",
	repoName: "required",
	repoUrl: "required",
	docsUrl: "optional",
	filter: "required",
	countDownloads: "optional",
	installCommand: "optional",
	hasSnippets: "required",
	modelCount: "required",
};
const PIPELINE: Fields<PipelineInfo> = {
	id: "required",
	name: "required",
	modality: "required",
	modalityLabel: "required",
	color: "required",
	subtasks: "optional",
	hideInModels: "optional",
	hideInDatasets: "optional",
	hasTaskPage: "required",
	modelCount: "required",
};
const ENTITY = {
	type: "required",
	id: "required",
	name: "required",
	fullname: "required",
	email: "required",
	canPay: "required",
	avatarUrl: "required",
	periodEnd: "required",
} as const;
const WHOAMI: Fields<WhoamiUser> = {
	...ENTITY,
	emailVerified: "required",
	isPro: "required",
	orgs: "required",
	auth: "required",
	siteAdmin: "optional",
};
const ORG: Fields<WhoamiOrg> = { ...ENTITY, roleInOrg: "required" };
const CREATED: Fields<CreatedRepo> = { url: "required", name: "required" };
const SETTINGS: Fields<RepoSettings> = { id: "required", private: "required", gated: "required" };
const COMMIT: Fields<CommitAnswer> = {
	success: "required",
	commitOid: "required",
	commitUrl: "required",
	pullRequestUrl: "required",
};
const COUNT: Fields<ModelCount> = { count: "required", exact: "required" };
const CREATED_USER: Fields<CreatedUser> = { name: "required", token: "required" };
const ADMIN_USER: Fields<AdminUser> = {
	name: "required",
	fullname: "required",
	createdAt: "required",
	orgs: "required",
};
const CREATED_TOKEN: Fields<CreatedToken> = {
	name: "required",
	token: "required",
	id: "required",
	scope: "required",
	displayName: "required",
};
const ADMIN_TOKEN_INFO: Fields<AdminToken> = {
	id: "required",
	displayName: "required",
	scope: "required",
	createdAt: "required",
	lastUsedAt: "required",
	revokedAt: "required",
};
const REVOKED: Fields<RevokedToken> = { id: "required", name: "required", revokedAt: "required" };
const CREATED_ORG: Fields<CreatedOrg> = { name: "required", members: "required" };
const ADMIN_ORG: Fields<AdminOrg> = { name: "required", fullname: "required", members: "required" };
const MEMBERSHIP: Fields<Membership> = { org: "required", user: "required", role: "required" };
const AUDIT_PAGE: Fields<AuditPage> = { entries: "required", next: "optional" };
const AUDIT_ENTRY: Fields<AuditLogEntry> = {
	id: "required",
	at: "required",
	actor: "required",
	tokenId: "required",
	action: "required",
	repo: "required",
	ip: "required",
	details: "required",
};

const ADMIN_TOKEN = "hub-answers-admin-token-0123456789";
let hub: RunningHub;

beforeAll(async () => {
	hub = await startHub({ MODELHUB_ADMIN_TOKEN: ADMIN_TOKEN }, { web: false });
}, 120_000);

afterAll(async () => {
	await hub?.stop();
});

async function getRaw(path: string, token?: string): Promise<unknown> {
	const response = await fetch(`${hub.url}${path}`, { headers: hubHeaders(token) });
	expect(response.status).toBe(200);
	return response.json();
}

/** A JSON request to the hub, answered with `status`. */
async function send(method: string, path: string, body: unknown, status: number, token = ADMIN_TOKEN) {
	const response = await fetch(`${hub.url}${path}`, {
		method,
		headers: hubHeaders(token, { "Content-Type": "application/json" }),
		body: JSON.stringify(body),
	});
	expect(response.status).toBe(status);
	return (await response.json()) as unknown;
}

describe("the hub's answers, read by the app", () => {
	it("lists and counts models", async () => {
		const page = await listModels({ sort: "likes", direction: -1, limit: 5 }, { baseUrl: hub.url });
		expect(page.models).toHaveLength(5);
		expect(page.nextCursor).toMatch(/^[A-Za-z0-9_-]+$/);
		for (const model of page.models) expectShape(model, MODEL);
		const likes = page.models.map((model) => model.likes);
		expect(likes).toEqual([...likes].sort((a, b) => b - a));
		const next = await listModels(
			{ sort: "likes", direction: -1, limit: 5, cursor: page.nextCursor },
			{ baseUrl: hub.url },
		);
		expect(next.models.map((model) => model.id)).not.toContain(page.models[0]?.id);

		const count = await countModels({ pipeline_tag: "text-generation" }, { baseUrl: hub.url });
		expectShape(count, COUNT);
		expect(count.exact).toBe(true);
		expect(count.count).toBeGreaterThan(0);
	});

	it("reads a model's info into the snippet data, its size and its providers", async () => {
		const model = await getModel("meta-llama/Llama-3.1-8B-Instruct", { baseUrl: hub.url });
		expectShape(model, MODEL);
		for (const entry of Object.values(model.inferenceProviderMapping ?? {})) expectShape(entry, MAPPING);
		const data = toModelData(model);
		expect(data).toMatchObject({ id: "meta-llama/Llama-3.1-8B-Instruct", pipeline_tag: "text-generation" });
		expect(data.transformersInfo?.auto_model).toMatch(/^AutoModel/);
		expect(modelSize(model)).toMatch(/^8\.03B params$/);
		const providers = providerEntries(model.inferenceProviderMapping);
		expect(providers.map((provider) => provider.provider)).toContain("together");
		expect(providers.every((provider) => provider.providerId !== "")).toBe(true);
	});

	it("reads a repository's files and refs", async () => {
		const id = "meta-llama/Llama-3.1-8B-Instruct";
		const entries = await listTree(id, "main", "", { baseUrl: hub.url });
		expect(entries.length).toBeGreaterThan(0);
		for (const entry of entries) expectShape(entry, entry.type === "file" ? FILE : FOLDER);
		const readme = entries.find((entry) => entry.path === "README.md");
		expect(readme).toMatchObject({ type: "file", oid: expect.stringMatching(/^[0-9a-f]{40}$/) });

		expectShape(await getRaw(`/api/models/${id}/refs`), REFS);
		const refs = await listRefs(id, { baseUrl: hub.url });
		for (const ref of [...refs.branches, ...refs.tags]) expectShape(ref, REF);
		const model = await getModel(id, { baseUrl: hub.url });
		expect(refs.branches).toContainEqual({ name: "main", ref: "refs/heads/main", targetCommit: model.sha });
	});

	it("reads the catalogues", async () => {
		const libraries = await listLibraries({ baseUrl: hub.url });
		for (const library of libraries) expectShape(library, LIBRARY);
		expect(libraries.find((library) => library.key === "transformers")?.modelCount).toBeGreaterThan(0);
		const pipelines = await listPipelines({ baseUrl: hub.url });
		for (const pipeline of pipelines) expectShape(pipeline, PIPELINE);
		expect(pipelines.map((pipeline) => pipeline.id)).toContain("text-generation");
	});

	it("answers the admin API as the contract says", async () => {
		expectShape(await send("POST", "/api/admin/users", { name: "admin-check" }, 201), CREATED_USER);
		const issued = (await send(
			"POST",
			"/api/admin/users/admin-check/tokens",
			{ scope: "read" },
			201,
		)) as CreatedToken;
		expectShape(issued, CREATED_TOKEN);
		expect(issued.scope).toBe("read");
		const org = { name: "admin-check-org", members: [{ user: "admin-check", role: "read" }] };
		expectShape(await send("POST", "/api/admin/orgs", org, 201), CREATED_ORG);
		const member = await send(
			"PUT",
			"/api/admin/orgs/admin-check-org/members/admin-check",
			{ role: "admin" },
			200,
		);
		expectShape(member, MEMBERSHIP);
		for (const user of (await getRaw("/api/admin/users", ADMIN_TOKEN)) as AdminUser[])
			expectShape(user, ADMIN_USER);
		for (const each of (await getRaw("/api/admin/orgs", ADMIN_TOKEN)) as AdminOrg[])
			expectShape(each, ADMIN_ORG);
		const tokens = (await getRaw("/api/admin/users/admin-check/tokens", ADMIN_TOKEN)) as AdminToken[];
		expect(tokens).toHaveLength(2);
		for (const token of tokens) expectShape(token, ADMIN_TOKEN_INFO);
		const revoked = await fetch(`${hub.url}/api/admin/tokens/${issued.id}`, {
			method: "DELETE",
			headers: hubHeaders(ADMIN_TOKEN),
		});
		expectShape(await revoked.json(), REVOKED);
		const page = (await getRaw("/api/admin/audit?limit=3", ADMIN_TOKEN)) as AuditPage;
		expectShape(page, AUDIT_PAGE);
		expect(page.entries).toHaveLength(3);
		for (const entry of page.entries) expectShape(entry, AUDIT_ENTRY);
		expect(page.entries[0]?.action).toBe("token.revoke");
	});

	it("signs in, creates a model, changes its visibility and commits to it", async () => {
		const { token } = (await send("POST", "/api/admin/users", { name: "drift-user" }, 201)) as CreatedUser;
		const org = { name: "drift-org", members: [{ user: "drift-user", role: "write" }] };
		await send("POST", "/api/admin/orgs", org, 201);

		const answer = await getRaw("/api/whoami-v2", token);
		expectShape(answer, WHOAMI);
		for (const org of (answer as WhoamiUser).orgs) expectShape(org, ORG);
		const account = await whoami({ baseUrl: hub.url, token });
		expect(account).toMatchObject({
			name: "drift-user",
			orgs: [{ name: "drift-org", role: "write" }],
			tokenRole: "write",
		});

		expectShape(
			await send("POST", "/api/repos/create", { name: "answers-raw", private: false }, 200, token),
			CREATED,
		);
		const repo = await createRepo(
			{ type: "model", name: "answers", private: true },
			{ baseUrl: hub.url, token },
		);
		expect(repo).toEqual({ id: "drift-user/answers", url: `${hub.url}/drift-user/answers` });
		expect((await getModel(repo.id, { baseUrl: hub.url, token })).private).toBe(true);

		expectShape(
			await send("PUT", `/api/models/${repo.id}/settings`, { private: true }, 200, token),
			SETTINGS,
		);
		expect(await setModelPrivate(repo.id, false, { baseUrl: hub.url, token })).toEqual({ private: false });
		expect((await getModel(repo.id, { baseUrl: hub.url })).private).toBe(false);

		const file = new Blob(["# Answers\n"]);
		const form = buildCommitForm([{ path: "README.md", file, size: file.size }], "Add the card");
		const commit = await fetch(`${hub.url}/api/models/${repo.id}/commit/main`, {
			method: "POST",
			headers: hubHeaders(token),
			body: form,
		});
		expect(commit.status).toBe(200);
		const result = (await commit.json()) as CommitAnswer;
		expectShape(result, COMMIT);
		expect(result.commitUrl).toBe(`${hub.url}/${repo.id}/commit/${result.commitOid}`);
		const tree = await listTree(repo.id, "main", "", { baseUrl: hub.url });
		expect(tree.map((entry) => entry.path)).toContain("README.md");
	});
	it("creates a dataset, flips its visibility, moves and deletes it with the web's own calls", async () => {
		const { token } = (await send("POST", "/api/admin/users", { name: "data-user" }, 201)) as CreatedUser;
		const options = { baseUrl: hub.url, token };
		const created = await createRepo({ type: "dataset", name: "answers-ds", private: false }, options);
		expect(created).toEqual({ id: "data-user/answers-ds", url: `${hub.url}/datasets/data-user/answers-ds` });
		// A dataset, not a model of the same name.
		expect((await getDataset(created.id, options)).id).toBe(created.id);
		expect((await fetch(`${hub.url}/api/models/${created.id}`)).status).toBe(404);

		const dataset = { ...options, repoType: "dataset" as const };
		expect(await setModelPrivate(created.id, true, dataset)).toEqual({ private: true });
		expect((await fetch(`${hub.url}/api/datasets/${created.id}`)).status).toBe(404);
		expect(await setModelPrivate(created.id, false, dataset)).toEqual({ private: false });
		expect((await fetch(`${hub.url}/api/datasets/${created.id}`)).status).toBe(200);

		const moved = await moveRepo(created.id, "data-user/answers-renamed", "dataset", options);
		expect(moved).toBe("data-user/answers-renamed");
		expect((await getDataset(moved, options)).id).toBe(moved);

		expect(await deleteRepo(moved, "dataset", options)).toBe(moved);
		expect((await fetch(`${hub.url}/api/datasets/${moved}`, { headers: hubHeaders(token) })).status).toBe(
			404,
		);
		// Deleting what is gone: the hub's 404 message, thrown.
		await expect(deleteRepo(moved, "dataset", options)).rejects.toThrow();
	});
});
