import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { AUTH_REQUIRED, namespaceRefusal, repoRefusal, type Viewer } from "../accounts/viewer.js";
import type { RepoExistsError } from "../api/errors.js";
import type {
	CreateBranchRequest,
	CreatedRepo,
	CreateRepoRequest,
	CreateTagRequest,
	Deleted,
	DeleteRepoRequest,
	GitRef,
	RepoSettings,
	RepoSettingsRequest,
} from "../api/repos.js";
import type { Unchecked } from "../api/unchecked.js";
import { recordAudit } from "../audit/log.js";
import { JSON_TYPE, REPO_NOT_FOUND, sendError, sendHubError } from "../http.js";
import { idPartProblem } from "../models/ids.js";
import { notifyChange } from "../db/changes.js";
import { deleteModel } from "../models/store.js";
import { resolveRevision } from "../repos/read.js";
import {
	createRef,
	createRepo,
	deleteRef,
	RefError,
	setPrivate,
	storeGitattributes,
} from "../repos/write.js";
import { auditContext, refuse } from "./auth.js";
import { encodeId, publicOrigin, type ModelRoutesOptions } from "./models/context.js";
import { findRepo, repoAccess } from "./repo-access.js";

/** Who a commit of a viewer is by (git author): the account, or the hub itself for the admin token. */
export function commitAuthorOf(viewer: Viewer): { authorName: string; authorEmail: string } {
	if (viewer.kind === "user") {
		return { authorName: viewer.account.name, authorEmail: `${viewer.account.name}@users.modelhub.invalid` };
	}
	return { authorName: "ModelHub", authorEmail: "hub@modelhub.invalid" };
}

/** The fields of a JSON object body, named by the request's contract type (undefined when not an object). */
function bodyOf<Request>(request: FastifyRequest): Unchecked<Request> | undefined {
	const body = request.body;
	if (body === undefined || body === null) return {};
	return typeof body === "object" && !Array.isArray(body) ? (body as Unchecked<Request>) : undefined;
}

/** `private` (a boolean) or `visibility` ("public" | "private"), as huggingface_hub sends them. */
function visibilityOf(
	body: Unchecked<Pick<CreateRepoRequest, "private" | "visibility">>,
): boolean | undefined | string {
	const { private: isPrivate, visibility } = body;
	if (isPrivate !== undefined && isPrivate !== null && typeof isPrivate !== "boolean") {
		return "'private' must be true or false";
	}
	if (visibility !== undefined && visibility !== null) {
		if (visibility !== "public" && visibility !== "private") {
			return '\'visibility\' must be "public" or "private" ("protected" is for Spaces, which this hub does not host)';
		}
		if (typeof isPrivate === "boolean" && isPrivate !== (visibility === "private")) {
			return "'private' and 'visibility' disagree";
		}
		return visibility === "private";
	}
	return typeof isPrivate === "boolean" ? isPrivate : undefined;
}

/** The model type a body names: only models are hosted. */
function typeProblem(type: unknown): string | undefined {
	if (type === undefined || type === null || type === "model") return undefined;
	return `Only model repositories are hosted on this hub (type ${JSON.stringify(String(type).slice(0, 40))} is not supported)`;
}

/** The repository id of a create or delete body: `organization/name`, the viewer's namespace otherwise. */
function repoIdOf(
	viewer: Viewer,
	body: Unchecked<DeleteRepoRequest>,
): { id: string; namespace?: string; name: string } | string {
	const { name, organization } = body;
	if (typeof name !== "string") return "'name' must be a string";
	const nameProblem = idPartProblem(name, "repository name");
	if (nameProblem) return nameProblem;
	if (organization !== undefined && organization !== null) {
		if (typeof organization !== "string") return "'organization' must be a string";
		const problem = idPartProblem(organization, "organization");
		if (problem) return problem;
		return { id: `${organization}/${name}`, namespace: organization, name };
	}
	if (viewer.kind === "user")
		return { id: `${viewer.account.name}/${name}`, namespace: viewer.account.name, name };
	// The admin token has no namespace of its own: without an organization the id has none either.
	return { id: name, name };
}

/**
 * Repositories: create and delete (`/api/repos/create`, `/api/repos/delete`, as huggingface_hub's
 * `create_repo` and `delete_repo` call them), visibility (`PUT /api/models/{id}/settings`), branches
 * and tags. Rights come from the namespace (see accounts/viewer.ts); every change is audited.
 */
export function repositoryRoutes(app: FastifyInstance, options: ModelRoutesOptions): void {
	const { db, cache, storage } = options;
	const authenticated = async (request: FastifyRequest, reply: FastifyReply): Promise<unknown> =>
		request.viewer.kind === "anonymous" ? refuse(reply, { status: 401, message: AUTH_REQUIRED }) : undefined;
	const repoUrl = (request: FastifyRequest, id: string) =>
		`${publicOrigin(request, options.publicUrl)}/${encodeId(id)}`;

	app.post("/api/repos/create", { onRequest: authenticated }, async (request, reply) => {
		const body = bodyOf<CreateRepoRequest>(request);
		if (!body) return sendError(reply, 400, "request body must be a JSON object");
		const typeError = typeProblem(body.type);
		if (typeError) return sendError(reply, 400, typeError);
		const isPrivate = visibilityOf(body);
		if (typeof isPrivate === "string") return sendError(reply, 400, isPrivate);
		const target = repoIdOf(request.viewer, body);
		if (typeof target === "string") return sendError(reply, 400, target);
		if (target.namespace !== undefined) {
			const refusal = namespaceRefusal(request.viewer, target.namespace, "write");
			if (refusal) return refuse(reply, refusal);
		} else if (request.viewer.kind !== "admin") {
			return sendError(reply, 400, "'name' needs a namespace");
		}
		const existing = await findRepo(db, target.id);
		if (existing) {
			return reply
				.code(409)
				.type(JSON_TYPE)
				.send({
					error: "You already created this model repo",
					url: repoUrl(request, existing.id),
				} satisfies RepoExistsError);
		}
		const gitattributes = await storeGitattributes(storage);
		const created = await db.transaction(async (tx) => {
			const made = await createRepo(
				tx,
				{
					id: target.id,
					author: target.namespace,
					name: target.name,
					private: isPrivate ?? false,
					...commitAuthorOf(request.viewer),
				},
				gitattributes,
			);
			if (!made) return false;
			await recordAudit(tx, {
				...auditContext(request),
				action: "repo.create",
				repo: target.id,
				details: { private: isPrivate ?? false },
			});
			await notifyChange(tx);
			return true;
		});
		cache.clear();
		if (!created) {
			const other = await findRepo(db, target.id);
			return reply
				.code(409)
				.type(JSON_TYPE)
				.send({
					error: "You already created this model repo",
					url: repoUrl(request, other?.id ?? target.id),
				} satisfies RepoExistsError);
		}
		return reply
			.type(JSON_TYPE)
			.send({ url: repoUrl(request, target.id), name: target.id } satisfies CreatedRepo);
	});

	app.delete("/api/repos/delete", { onRequest: authenticated }, async (request, reply) => {
		const body = bodyOf<DeleteRepoRequest>(request);
		if (!body) return sendError(reply, 400, "request body must be a JSON object");
		const typeError = typeProblem(body.type);
		if (typeError) return sendError(reply, 400, typeError);
		const target = repoIdOf(request.viewer, body);
		if (typeof target === "string") return sendError(reply, 400, target);
		const repo = await findRepo(db, target.id);
		if (!repo) return sendHubError(reply, "RepoNotFound", REPO_NOT_FOUND);
		const refusal = repoRefusal(request.viewer, repo, "admin");
		if (refusal) return refuse(reply, refusal);
		await db.transaction(async (tx) => {
			await deleteModel(tx, repo.id);
			await recordAudit(tx, { ...auditContext(request), action: "repo.delete", repo: repo.id });
			await notifyChange(tx);
		});
		cache.clear();
		return reply.type(JSON_TYPE).send({ deleted: repo.id } satisfies Deleted);
	});

	app.put(
		"/api/models/:namespace/:name/settings",
		{ onRequest: repoAccess(db, "admin") },
		async (request, reply) => {
			const repo = request.repo!;
			const body = bodyOf<RepoSettingsRequest>(request);
			if (!body) return sendError(reply, 400, "request body must be a JSON object");
			const isPrivate = visibilityOf(body);
			if (typeof isPrivate === "string") return sendError(reply, 400, isPrivate);
			const gated = body.gated;
			if (gated !== undefined && gated !== null && gated !== false) {
				return sendError(
					reply,
					400,
					"Gated repositories are not supported by this hub: 'gated' can only be false",
				);
			}
			if (isPrivate === undefined && gated === undefined) {
				return sendError(reply, 400, "Nothing to change: send 'private' (or 'visibility')");
			}
			if (isPrivate !== undefined && isPrivate !== repo.private) {
				await db.transaction(async (tx) => {
					await setPrivate(tx, repo.id, isPrivate);
					await recordAudit(tx, {
						...auditContext(request),
						action: "repo.settings",
						repo: repo.id,
						details: { private: isPrivate },
					});
					await notifyChange(tx);
				});
				cache.clear();
			}
			return reply
				.type(JSON_TYPE)
				.send({ id: repo.id, private: isPrivate ?? repo.private, gated: false } satisfies RepoSettings);
		},
	);

	async function refChange(
		request: FastifyRequest,
		reply: FastifyReply,
		change: (repoId: string) => Promise<GitRef | Deleted>,
	): Promise<FastifyReply> {
		try {
			const result = await change(request.repo!.id);
			cache.clear();
			return reply.type(JSON_TYPE).send(result);
		} catch (error) {
			if (!(error instanceof RefError)) throw error;
			if (error.status === 404) return sendHubError(reply, "RevisionNotFound", error.message);
			return sendError(reply, error.status, error.message);
		}
	}

	/** The commit a revision names, or a RefError answered as RevisionNotFound. */
	async function commitOf(modelId: string, revision: string): Promise<string> {
		const resolved = await resolveRevision(db, modelId, revision);
		if (resolved.status !== "ok") throw new RefError(`Invalid rev id: ${revision}`, 404);
		return resolved.commitId;
	}

	app.post<{ Params: { branch: string } }>(
		"/api/models/:namespace/:name/branch/:branch",
		{ onRequest: repoAccess(db, "write") },
		async (request, reply) =>
			refChange(request, reply, async (modelId) => {
				const body = bodyOf<CreateBranchRequest>(request) ?? {};
				const start = typeof body.startingPoint === "string" ? body.startingPoint : "main";
				const commitId = await commitOf(modelId, start);
				await db.transaction(async (tx) => {
					await createRef(tx, { modelId, kind: "branch", name: request.params.branch, commitId });
					await recordAudit(tx, {
						...auditContext(request),
						action: "branch.create",
						repo: modelId,
						details: { branch: request.params.branch, commit: commitId },
					});
					await notifyChange(tx);
				});
				return {
					name: request.params.branch,
					ref: `refs/heads/${request.params.branch}`,
					targetCommit: commitId,
				};
			}),
	);

	app.post<{ Params: { revision: string } }>(
		"/api/models/:namespace/:name/tag/:revision",
		{ onRequest: repoAccess(db, "write") },
		async (request, reply) =>
			refChange(request, reply, async (modelId) => {
				const body = bodyOf<CreateTagRequest>(request) ?? {};
				if (typeof body.tag !== "string") throw new RefError("'tag' must be a string", 400);
				const tag = body.tag;
				const message = typeof body.message === "string" ? body.message.slice(0, 10_000) : undefined;
				const commitId = await commitOf(modelId, request.params.revision);
				await db.transaction(async (tx) => {
					await createRef(tx, {
						modelId,
						kind: "tag",
						name: tag,
						commitId,
						...(message !== undefined ? { message } : {}),
					});
					await recordAudit(tx, {
						...auditContext(request),
						action: "tag.create",
						repo: modelId,
						details: { tag, commit: commitId },
					});
					await notifyChange(tx);
				});
				return { name: tag, ref: `refs/tags/${tag}`, targetCommit: commitId };
			}),
	);

	for (const kind of ["branch", "tag"] as const) {
		app.delete<{ Params: { ref: string } }>(
			`/api/models/:namespace/:name/${kind}/:ref`,
			{ onRequest: repoAccess(db, "write") },
			async (request, reply) =>
				refChange(request, reply, async (modelId) => {
					const name = request.params.ref;
					await db.transaction(async (tx) => {
						const commit = await deleteRef(tx, { modelId, kind, name });
						await recordAudit(tx, {
							...auditContext(request),
							action: `${kind}.delete`,
							repo: modelId,
							details: { [kind]: name, commit },
						});
						await notifyChange(tx);
					});
					return { deleted: name };
				}),
		);
	}
}
