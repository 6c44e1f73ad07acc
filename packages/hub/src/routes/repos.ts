import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Viewer } from "../accounts/viewer.js";
import type { RepoExistsBody } from "../api/errors.js";
import type {
	CreateBranchRequest,
	CreatedRepo,
	CreateRepoRequest,
	CreateTagRequest,
	Deleted,
	DeleteRepoRequest,
	GitRef,
	MovedRepo,
	MoveRepoRequest,
	RepoSettings,
	RepoSettingsRequest,
	SuperSquashed,
	SuperSquashRequest,
} from "../api/repos.js";
import type { Unchecked } from "../api/unchecked.js";
import { ConflictError, HubError, reword } from "../errors.js";
import { JSON_TYPE } from "../http.js";
import { idPartProblem } from "../models/ids.js";
import {
	HOSTED_REPO_TYPES,
	isRepoType,
	repoId,
	type RepoId,
	type RepoKey,
	type RepoType,
} from "../repo-identity.js";
import {
	createBranch,
	createRepository,
	createTag,
	deleteBranchOrTag,
	deleteRepository,
	moveRepository,
	RepoExistsError,
	squashBranch,
	updateRepoSettings,
} from "../services/repos.js";
import { actorOf, authenticationRequired } from "./auth.js";
import { publicOrigin, type ModelRoutesOptions } from "./models/context.js";
import { repoAccess } from "./repo-access.js";
import { apiRoute, forEachRepoRoute, repoPageUrl, type RepoUrls, type RouteIdShape } from "./repo-paths.js";

function invalid(message: string): HubError {
	return new HubError("Invalid", message);
}

/** The fields of a JSON object body, named by the request's contract type (undefined when not an object). */
function bodyOf<Request>(request: FastifyRequest): Unchecked<Request> | undefined {
	const body = request.body;
	if (body === undefined || body === null) return {};
	return typeof body === "object" && !Array.isArray(body) ? (body as Unchecked<Request>) : undefined;
}

/** The JSON object a write sends (a 400 for anything else). */
function objectBody<Request>(request: FastifyRequest): Unchecked<Request> {
	const body = bodyOf<Request>(request);
	if (!body) throw invalid("request body must be a JSON object");
	return body;
}

/** `private` (a boolean) or `visibility` ("public" | "private"), as huggingface_hub sends them. */
function visibilityOf(
	body: Unchecked<Pick<CreateRepoRequest, "private" | "visibility">>,
): boolean | undefined {
	const { private: isPrivate, visibility } = body;
	if (isPrivate !== undefined && isPrivate !== null && typeof isPrivate !== "boolean") {
		throw invalid("'private' must be true or false");
	}
	if (visibility !== undefined && visibility !== null) {
		if (visibility !== "public" && visibility !== "private") {
			throw invalid(
				'\'visibility\' must be "public" or "private" ("protected" is for Spaces, which this hub does not host)',
			);
		}
		if (typeof isPrivate === "boolean" && isPrivate !== (visibility === "private")) {
			throw invalid("'private' and 'visibility' disagree");
		}
		return visibility === "private";
	}
	return typeof isPrivate === "boolean" ? isPrivate : undefined;
}

/** The repository type a body names (a model when it names none); only the hosted types are accepted. */
function typeOf(type: unknown): RepoType {
	if (type === undefined || type === null) return "model";
	if (isRepoType(type) && HOSTED_REPO_TYPES.includes(type)) return type;
	throw invalid(
		`Only ${HOSTED_REPO_TYPES.join(", ")} repositories are hosted on this hub (type ${JSON.stringify(String(type).slice(0, 40))} is not supported)`,
	);
}

/** The repository of a create or delete body: `organization/name`, the viewer's namespace otherwise. */
function repoIdOf(viewer: Viewer, type: RepoType, body: Unchecked<DeleteRepoRequest>): RepoId {
	const { name, organization } = body;
	if (typeof name !== "string") throw invalid("'name' must be a string");
	const nameProblem = idPartProblem(name, "repository name");
	if (nameProblem) throw invalid(nameProblem);
	if (organization !== undefined && organization !== null) {
		if (typeof organization !== "string") throw invalid("'organization' must be a string");
		const problem = idPartProblem(organization, "organization");
		if (problem) throw invalid(problem);
		return repoId(type, `${organization}/${name}`);
	}
	if (viewer.kind === "user") return repoId(type, `${viewer.account.name}/${name}`);
	// The admin token has no namespace of its own: without an organization the id has none either.
	return repoId(type, name);
}

/** A repository id of a move's body: `namespace/name`, or a bare name (the hub admin's). */
function movedIdOf(value: unknown, field: string, type: RepoType): RepoId {
	if (typeof value !== "string") throw invalid(`'${field}' must be a string: namespace/name`);
	const parts = value.split("/");
	if (parts.length > 2)
		throw invalid(`'${field}' must be namespace/name (${JSON.stringify(value.slice(0, 200))})`);
	for (const [index, part] of parts.entries()) {
		const problem = idPartProblem(
			part,
			parts.length === 2 && index === 0 ? `${field}'s namespace` : `${field}'s name`,
		);
		if (problem) throw invalid(problem);
	}
	return repoId(type, value);
}

/**
 * Repositories: create and delete (`/api/repos/create`, `/api/repos/delete`, as huggingface_hub's
 * `create_repo` and `delete_repo` call them, for the hosted types), visibility
 * (`PUT /api/models/{id}/settings`), branches and tags. HTTP only: the rights, the writes and their
 * audit are services/repos.ts's.
 */
export function repositoryRoutes(app: FastifyInstance, options: ModelRoutesOptions): void {
	const authenticated = async (request: FastifyRequest): Promise<void> => {
		if (request.viewer.kind === "anonymous") throw authenticationRequired();
	};
	const repoUrl = (request: FastifyRequest, repo: RepoKey) =>
		repoPageUrl(publicOrigin(request, options.publicUrl), repo);

	app.post("/api/repos/create", { onRequest: authenticated }, async (request, reply) => {
		const body = objectBody<CreateRepoRequest>(request);
		const type = typeOf(body.type);
		const isPrivate = visibilityOf(body);
		const target = repoIdOf(request.viewer, type, body);
		const created = await createRepository(options, actorOf(request), {
			type,
			namespace: target.namespace ?? undefined,
			name: target.name,
			private: isPrivate ?? false,
		}).catch(
			// The public hub's 409 names the existing repository (create_repo(exist_ok=True) reads it).
			reword(
				RepoExistsError,
				(error) =>
					new ConflictError(error.message, {
						body: { url: repoUrl(request, error.repo) } satisfies Omit<RepoExistsBody, "error">,
					}),
			),
		);
		return reply
			.type(JSON_TYPE)
			.send({ url: repoUrl(request, { type, id: created.id }), name: created.id } satisfies CreatedRepo);
	});

	app.delete("/api/repos/delete", { onRequest: authenticated }, async (request, reply) => {
		const body = objectBody<DeleteRepoRequest>(request);
		const target = repoIdOf(request.viewer, typeOf(body.type), body);
		const deleted = await deleteRepository(options, actorOf(request), target);
		return reply.type(JSON_TYPE).send({ deleted } satisfies Deleted);
	});

	// huggingface_hub's move_repo. The former id then redirects reads to the new one (routes/redirects.ts).
	app.post("/api/repos/move", { onRequest: authenticated }, async (request, reply) => {
		const body = objectBody<MoveRepoRequest>(request);
		const type = typeOf(body.type);
		const from = movedIdOf(body.fromRepo, "fromRepo", type);
		const to = movedIdOf(body.toRepo, "toRepo", type);
		// Mirror mode: a repository that exists only upstream is the upstream's to move.
		await options.mirror?.checkWrite(from);
		const moved = await moveRepository(options, actorOf(request), from, {
			type,
			namespace: to.namespace ?? undefined,
			name: to.name,
		}).catch(
			reword(
				RepoExistsError,
				(error) =>
					new ConflictError(`Repository ${error.repo.id} already exists: choose another name`, {
						body: { url: repoUrl(request, error.repo) } satisfies Omit<RepoExistsBody, "error">,
					}),
			),
		);
		return reply.type(JSON_TYPE).send({
			url: repoUrl(request, { type, id: moved.id }),
			name: moved.id,
			from: moved.from,
		} satisfies MovedRepo);
	});

	forEachRepoRoute((urls, shape) => typeRoutes(app, options, urls, shape));
}

/** Visibility, branches and tags of the repositories of one hosted type. */
function typeRoutes(
	app: FastifyInstance,
	options: ModelRoutesOptions,
	urls: RepoUrls,
	shape: RouteIdShape,
): void {
	const { type } = urls;

	app.put(
		apiRoute(urls, "settings", shape),
		{ onRequest: repoAccess(options, "admin", type) },
		async (request, reply) => {
			const body = objectBody<RepoSettingsRequest>(request);
			const isPrivate = visibilityOf(body);
			const gated = body.gated;
			if (
				gated !== undefined &&
				gated !== null &&
				gated !== false &&
				gated !== "auto" &&
				gated !== "manual"
			) {
				throw invalid('\'gated\' must be "auto", "manual" or false');
			}
			if (isPrivate === undefined && (gated === undefined || gated === null)) {
				throw invalid("Nothing to change: send 'private' (or 'visibility') or 'gated'");
			}
			const settings = await updateRepoSettings(options, actorOf(request), request.repo!, {
				private: isPrivate,
				gated: gated ?? undefined,
			});
			return reply.type(JSON_TYPE).send(settings satisfies RepoSettings);
		},
	);

	/** Answers a branch or tag change. */
	async function refChange(
		reply: FastifyReply,
		change: () => Promise<GitRef | Deleted>,
	): Promise<FastifyReply> {
		return reply.type(JSON_TYPE).send(await change());
	}

	app.post<{ Params: { branch: string } }>(
		apiRoute(urls, "branch/:branch", shape),
		{ onRequest: repoAccess(options, "write", type) },
		async (request, reply) =>
			refChange(reply, async () => {
				const body = bodyOf<CreateBranchRequest>(request) ?? {};
				const start = typeof body.startingPoint === "string" ? body.startingPoint : "main";
				const branch = await createBranch(
					options,
					actorOf(request),
					request.repo!,
					request.params.branch,
					start,
				);
				return { name: branch.name, ref: `refs/heads/${branch.name}`, targetCommit: branch.commitId };
			}),
	);

	app.post<{ Params: { revision: string } }>(
		apiRoute(urls, "tag/:revision", shape),
		{ onRequest: repoAccess(options, "write", type) },
		async (request, reply) =>
			refChange(reply, async () => {
				const body = bodyOf<CreateTagRequest>(request) ?? {};
				if (typeof body.tag !== "string") throw invalid("'tag' must be a string");
				const message = typeof body.message === "string" ? body.message.slice(0, 10_000) : undefined;
				const tag = await createTag(
					options,
					actorOf(request),
					request.repo!,
					body.tag,
					request.params.revision,
					message,
				);
				return { name: tag.name, ref: `refs/tags/${tag.name}`, targetCommit: tag.commitId };
			}),
	);

	app.post<{ Params: { branch: string } }>(
		apiRoute(urls, "super-squash/:branch", shape),
		{ onRequest: repoAccess(options, "write", type) },
		async (request, reply) => {
			const body = bodyOf<SuperSquashRequest>(request);
			if (body === undefined || (body.message !== undefined && typeof body.message !== "string")) {
				throw invalid("send a JSON object whose 'message', when present, is a string");
			}
			const squashed = await squashBranch(
				options,
				actorOf(request),
				request.repo!,
				request.params.branch,
				body.message,
			);
			return reply.type(JSON_TYPE).send(squashed satisfies SuperSquashed);
		},
	);

	for (const kind of ["branch", "tag"] as const) {
		app.delete<{ Params: { ref: string } }>(
			apiRoute(urls, `${kind}/:ref`, shape),
			{ onRequest: repoAccess(options, "write", type) },
			async (request, reply) =>
				refChange(reply, async () => {
					const name = request.params.ref;
					await deleteBranchOrTag(options, actorOf(request), request.repo!, kind, name);
					return { deleted: name };
				}),
		);
	}
}
