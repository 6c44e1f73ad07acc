/**
 * The hub's real answers through the app's API client and view parsers. The types come from the hub's
 * contract (`@modelhub/hub/api`), so `tsc` keeps the two in step; this test checks the other half, that
 * the running hub sends what the contract declares: no field it leaves out, every field it requires.
 */
import type {
	CommitAnswer,
	CreatedRepo,
	GitRef,
	LibraryInfo,
	ModelCount,
	ModelInfo,
	PipelineInfo,
	ProviderMappingEntry,
	RepoFile,
	RepoFolder,
	RepoRefs,
	RepoSettings,
	WhoamiOrg,
	WhoamiUser,
} from "@modelhub/hub/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHub, type RunningHub } from "../../e2e/support/hub";
import { modelSize, toModelData } from "../view/model";
import { providerEntries } from "../view/providers";
import { buildCommitForm } from "../view/upload";
import { createRepo, setModelPrivate, whoami } from "./account";
import { listLibraries, listPipelines } from "./catalogue";
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

	it("signs in, creates a model, changes its visibility and commits to it", async () => {
		const created = await fetch(`${hub.url}/api/admin/users`, {
			method: "POST",
			headers: hubHeaders(ADMIN_TOKEN, { "Content-Type": "application/json" }),
			body: JSON.stringify({ name: "drift-user" }),
		});
		expect(created.status).toBe(201);
		const { token } = (await created.json()) as { token: string };
		const orgs = await fetch(`${hub.url}/api/admin/orgs`, {
			method: "POST",
			headers: hubHeaders(ADMIN_TOKEN, { "Content-Type": "application/json" }),
			body: JSON.stringify({ name: "drift-org", members: [{ user: "drift-user", role: "write" }] }),
		});
		expect(orgs.status).toBe(201);

		const answer = await getRaw("/api/whoami-v2", token);
		expectShape(answer, WHOAMI);
		for (const org of (answer as WhoamiUser).orgs) expectShape(org, ORG);
		const account = await whoami({ baseUrl: hub.url, token });
		expect(account).toMatchObject({
			name: "drift-user",
			orgs: [{ name: "drift-org", role: "write" }],
			tokenRole: "write",
		});

		const repoAnswer = await fetch(`${hub.url}/api/repos/create`, {
			method: "POST",
			headers: hubHeaders(token, { "Content-Type": "application/json" }),
			body: JSON.stringify({ name: "answers-raw", private: false }),
		});
		expectShape(await repoAnswer.json(), CREATED);
		const repo = await createRepo({ name: "answers", private: true }, { baseUrl: hub.url, token });
		expect(repo).toEqual({ id: "drift-user/answers", url: `${hub.url}/drift-user/answers` });
		expect((await getModel(repo.id, { baseUrl: hub.url, token })).private).toBe(true);

		const settings = await fetch(`${hub.url}/api/models/${repo.id}/settings`, {
			method: "PUT",
			headers: hubHeaders(token, { "Content-Type": "application/json" }),
			body: JSON.stringify({ private: true }),
		});
		expectShape(await settings.json(), SETTINGS);
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
});
