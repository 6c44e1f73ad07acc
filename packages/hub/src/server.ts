import type { IncomingMessage } from "node:http";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Fastify, {
	LogController,
	type FastifyError,
	type FastifyInstance,
	type FastifyReply,
	type FastifyRequest,
} from "fastify";
import type { Health } from "./api/catalogue.js";
import { ResponseCache } from "./cache.js";
import { AuthFailureLimits, DEFAULT_AUTH_LIMITS } from "./accounts/auth-limits.js";
import {
	DEFAULT_ACCOUNT_LIMITS,
	DEFAULT_DISCUSSION_LIMITS,
	DEFAULT_GC_SETTINGS,
	DEFAULT_BODY_LIMIT,
	DEFAULT_HEADERS_TIMEOUT_MS,
	DEFAULT_MAX_FILE_BYTES,
	DEFAULT_REQUEST_TIMEOUT_MS,
	DEFAULT_SELF_SERVICE,
	DEFAULT_UPLOAD_SETTINGS,
	type AccountLimits,
	type DiscussionLimits,
	type GcSettings,
	type LogLevel,
	type SelfServiceSettings,
	type UploadSettings,
} from "./config.js";
import { ConnectionTracker, DEFAULT_SHUTDOWN_SETTINGS, type ShutdownSettings } from "./connections.js";
import { unavailableService } from "./db/errors.js";
import { pgErrorCode, type Database } from "./db/types.js";
import {
	errorAnswer,
	HubError,
	kindOfStatus,
	malformedUrl,
	RETRY_AFTER_SECONDS,
	unavailable,
} from "./errors.js";
import { formatSchemaErrors, JSON_TYPE, pathOf, SECURITY_HEADERS } from "./http.js";
import { demoAssetsDir } from "./paths.js";
import { peopleRoutes } from "./routes/people.js";
import { adminRoutes } from "./routes/admin.js";
import { authRoutes } from "./routes/auth.js";
import { sessionRoutes } from "./routes/sessions.js";
import { siteAdminRoutes } from "./routes/site-admin.js";
import { ssoRoutes } from "./routes/sso.js";
import type { DownloadCounter, DownloadCounterSettings } from "./downloads/counter.js";
import type { ModelRoutesOptions } from "./routes/models/context.js";
import { setTreeCacheBytes } from "./repos/trees.js";
import { repositoryRoutes } from "./routes/repos.js";
import { communityRoutes } from "./routes/community.js";
import { webhookRoutes } from "./routes/webhooks.js";
import { WebhookDeliveries, webhookSettings, type WebhookSettings } from "./services/webhooks.js";
import { quotaRoutes } from "./routes/quota.js";
import { uploadRoutes } from "./routes/uploads/index.js";
import { validateYamlRoute } from "./routes/validate-yaml.js";
import { catalogueRoutes } from "./routes/catalogue.js";
import { ChangeEvents, changesWhatReadersSee } from "./services/changes.js";
import { forgetOnChange } from "./services/serving.js";
import { changesTokenViewers } from "./services/accounts.js";
import type { TokenCacheSettings } from "./accounts/token-cache.js";
import type { ServingCache, ServingCacheSettings } from "./serving/cache.js";
import { createServiceContext } from "./services/context.js";
import { gitSweepOf, startPeriodicCollection } from "./services/gc.js";
import { modelRoutes } from "./routes/models/index.js";
import { croissantRoutes } from "./routes/datasets/croissant.js";
import { datasetRoutes } from "./routes/datasets/index.js";
import { datasetsServerRoutes } from "./routes/datasets-server.js";
import { DatasetViewer } from "./viewer/runtime.js";
import { DEFAULT_VIEWER_SETTINGS, type ViewerSettings } from "./viewer/settings.js";
import type { ParsePool, ParseSettings } from "./parsing/pool.js";
import type { BlobStore } from "./storage/types.js";
import { RepositoryAnalysis, type AnalysisSettings } from "./services/analysis.js";
import { webRoutes } from "./routes/web.js";
import { discussionRoutes } from "./routes/discussions.js";
import { MirrorService } from "./mirror/service.js";
import type { UpstreamSettings } from "./mirror/settings.js";
import { mirrorAdminRoutes, mirrorWriteGuard } from "./routes/mirror.js";
import { movedLocation, MOVED_STATUS } from "./routes/redirects.js";
import { DEFAULT_GIT_SETTINGS, GitServer, type GitSettings } from "./git/serve.js";
import { gitRoutes } from "./routes/git.js";

export interface HubServerOptions {
	db: Database;
	/** Bounds of the analysis of each commit to main (services/analysis.ts). */
	analysis?: Partial<AnalysisSettings> | undefined;
	/** Where file bytes are (the caller owns it and closes it after the server). */
	storage: BlobStore;
	adminToken?: string | undefined;
	webDir?: string | undefined;
	demoDir?: string;
	logLevel?: LogLevel;
	/** Where log lines go (stdout by default); tests pass a stream to inspect them. */
	logStream?: { write(line: string): void };
	trustProxy?: boolean;
	bodyLimit?: number;
	/** Byte budget of the response cache. */
	cacheBytes?: number;
	/** Byte budget of the parsed-tree cache (shared by the process; left as it is when undefined). */
	treeCacheBytes?: number;
	headersTimeoutMs?: number;
	requestTimeoutMs?: number;
	/** Largest file an upload may store (MODELHUB_MAX_FILE_BYTES). */
	maxFileBytes?: number;
	uploads?: Partial<UploadSettings>;
	/** The URL clients reach the hub at, for the URLs it hands out (the request's own otherwise). */
	publicUrl?: string | undefined;
	/** Authentication failures allowed per client address and window (then 429 for its credential attempts). */
	authFailureLimit?: number;
	/** Authentication failures allowed per credential tried and window (then 429 for it). */
	authCredentialFailureLimit?: number;
	authFailureWindowMs?: number;
	/** Credentials and addresses tracked at most (each) by those limits. */
	authFailureTracked?: number;
	/** Who recently used access tokens are, remembered (src/accounts/token-cache.ts). */
	tokenCache?: Partial<TokenCacheSettings>;
	/** `POST /api/validate-yaml` calls per minute, per address (anonymous) or per account. */
	validateYamlPerMinute?: number;
	/** Download counting (batched writes, the per-client window); see src/downloads/counter.ts. */
	downloads?: Partial<DownloadCounterSettings>;
	/** Budgets of what serving files remembers (src/serving/cache.ts). */
	serving?: Partial<ServingCacheSettings> | undefined;
	/** The dataset viewer's limits (src/viewer/settings.ts). */
	viewer?: Partial<ViewerSettings> | undefined;
	/** Git serving (src/git/serve.ts); without `dir`, a temporary directory removed on close. */
	git?: Partial<GitSettings> | undefined;
	/** How `app.close()` treats requests in flight (grace, idle connections); see src/connections.ts. */
	shutdown?: Partial<ShutdownSettings>;
	/** The parsing workers: their number, queue and time limit (src/parsing/pool.ts). */
	parsing?: Partial<ParseSettings> | undefined;
	/** Storage quotas and the repository creation rate (src/services/quota.ts). */
	accountLimits?: Partial<AccountLimits>;
	/** The garbage collector and its periodic run (src/gc/). */
	gc?: Partial<GcSettings>;
	/** Bounds of discussions and pull requests (src/services/discussions.ts). */
	discussions?: Partial<DiscussionLimits>;
	/** Sign-up mode, browser session lifetimes, password hashing cost (src/services/sessions.ts). */
	selfService?: Partial<SelfServiceSettings>;
	/** Mirror mode: the upstream hub whose repositories this hub serves and caches (src/mirror/). */
	upstream?: UpstreamSettings | undefined;
	/** Where webhooks may deliver, their retries and bounds (src/services/webhooks.ts). */
	webhooks?: Partial<WebhookSettings>;
}

declare module "fastify" {
	interface FastifyContextConfig {
		/** A route that receives large bodies: they may take long, but must keep moving (idle timeout). */
		upload?: boolean;
	}
}

export interface HubServer {
	app: FastifyInstance;
	cache: ResponseCache;
	/** Every write's change, after commit: this process's and other hub processes' on the same database. */
	changes: ChangeEvents;
	/** Derives each model's metadata from its files after every commit to main. */
	analysis: RepositoryAnalysis;
	/** What serving files remembers (revisions, file entries, small files' bytes). */
	serving: ServingCache;
	/** The authentication failure counts (per credential, per address). */
	authLimits: AuthFailureLimits;
	/** The connections and requests in flight (what a stop had to cut off: `lastCut`). */
	connections: ConnectionTracker;
	/** The worker threads that parse cards and weights' headers (terminated when the server closes). */
	parsing: ParsePool;
	/** This process's download counter: counts are written in batches; `flush()` writes what waits now. */
	downloads: DownloadCounter;
}

const CORS_HEADERS = {
	"access-control-allow-origin": "*",
	"access-control-expose-headers": "Link, X-Next-Cursor, X-Error-Code, X-Error-Message, Retry-After",
};

/** Whether a request announces a body (bodyless requests count as complete only after the handler ran). */
function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
	const length = headers["content-length"];
	return headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

/** Messages for the framework's own client errors, so none leaks internals. */
function clientErrorMessage(error: FastifyError, bodyLimit: number): string {
	switch (error.code) {
		case "FST_ERR_CTP_BODY_TOO_LARGE":
			return `request body is larger than ${bodyLimit} bytes`;
		case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
			return "unsupported content type: send application/json";
		case "FST_ERR_CTP_EMPTY_JSON_BODY":
			return "request body is empty: send a JSON object";
		case "FST_ERR_CTP_INVALID_JSON_BODY":
			return "request body is not valid JSON";
		case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
			return "Content-Length does not match the body";
		default:
			if (error instanceof SyntaxError) return "request body is not valid JSON";
			return error.message.slice(0, 200) || "bad request";
	}
}

/** Answers an error the hub's way: its status and headers, `{ error, … }` as JSON. */
function sendErrorAnswer(reply: FastifyReply, error: HubError): FastifyReply {
	const answer = errorAnswer(error);
	return reply.code(answer.status).headers(answer.headers).type(JSON_TYPE).send(answer.body);
}

/**
 * Builds the hub's HTTP server (not yet listening). The caller owns `db` and closes it after the server.
 */
export async function createHubServer(options: HubServerOptions): Promise<HubServer> {
	const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
	const headersTimeout = options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;
	const requestTimeout = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
	const app = Fastify({
		logger: {
			level: options.logLevel ?? "warn",
			// Tokens never reach the log, whatever the level.
			redact: {
				paths: [
					"req.headers.authorization",
					"req.headers.cookie",
					"headers.authorization",
					"headers.cookie",
					"request.headers.authorization",
				],
				censor: "[redacted]",
			},
			// Upload URLs carry a signature (their permission), single sign-on's callback an authorization
			// code and state, an invite link its code: logged without them.
			serializers: {
				req: (request: { method: string; url: string; hostname?: string; ip?: string }) => ({
					method: request.method,
					url: request.url.replace(/([?&](?:signature|code|state|invite)=)[^&]*/g, "$1[redacted]"),
					host: request.hostname,
					remoteAddress: request.ip,
				}),
			},
			...(options.logStream ? { stream: options.logStream } : {}),
		},
		// Per-request "incoming request" / "request completed" lines only when asked for (info and below).
		logController: new LogController({
			disableRequestLogging: ["fatal", "error", "warn", "silent"].includes(options.logLevel ?? "warn"),
		}),
		bodyLimit,
		// Headers within headersTimeout (Node's own check); bodies are timed per route below, since an
		// upload of gigabytes may take long, which Node's single requestTimeout cannot tell apart.
		requestTimeout: 0,
		http: {
			headersTimeout: Math.min(headersTimeout, requestTimeout),
			// Node checks both limits on this period (30 s by default, too coarse for a 10 s header limit).
			connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(headersTimeout / 4))),
		},
		trustProxy: options.trustProxy ?? false,
		onProtoPoisoning: "error",
		onConstructorPoisoning: "error",
		// Requests received while stopping are served (with Connection: close), not refused.
		return503OnClosing: false,
		forceCloseConnections: "idle",
		routerOptions: { maxParamLength: 256, ignoreTrailingSlash: true },
		ajv: { customOptions: { removeAdditional: false, coerceTypes: "array", allErrors: false } },
		schemaErrorFormatter: (errors, dataVar) => formatSchemaErrors(errors, dataVar),
		// Errors raised before routing (a URL with broken percent-encoding) get the same headers and shape.
		frameworkErrors: (error, request, reply) => {
			reply.headers(SECURITY_HEADERS);
			void sendErrorAnswer(
				reply,
				error.code === "FST_ERR_BAD_URL" ? malformedUrl() : new HubError("Invalid", "bad request"),
			);
		},
	});

	const cache = new ResponseCache(options.cacheBytes);
	if (options.treeCacheBytes !== undefined) setTreeCacheBytes(options.treeCacheBytes);
	const changes = new ChangeEvents((error, event) =>
		app.log.error({ err: error, change: event.type }, "a change listener failed"),
	);
	// Cached answers go stale with any change a reader can see, whichever process made it.
	changes.on((event) => {
		if (changesWhatReadersSee(event)) cache.clear();
	});
	let closing = false;

	// A callback hook, not an async one: it runs on every request, so it should not allocate a promise.
	app.addHook("onRequest", (request, reply, done) => {
		reply.headers(SECURITY_HEADERS);
		if (request.url.startsWith("/api/")) reply.headers(CORS_HEADERS);
		if (hasBody(request.headers)) limitBodyTime(request.raw, request.routeOptions.config?.upload === true);
		done();
	});

	// A body must arrive within requestTimeout; an upload's may take longer, but a stalled one (no
	// bytes for idleTimeoutMs) is cut off. Either way a client cannot hold a socket forever.
	const uploadIdleMs = options.uploads?.idleTimeoutMs ?? DEFAULT_UPLOAD_SETTINGS.idleTimeoutMs;
	function limitBodyTime(raw: IncomingMessage, upload: boolean): void {
		if (raw.complete) return;
		const socket = raw.socket;
		if (upload) {
			const stalled = (): void => {
				socket.destroy();
			};
			socket.setTimeout(uploadIdleMs, stalled);
			raw.once("end", () => {
				socket.setTimeout(0);
				socket.removeListener("timeout", stalled);
			});
			return;
		}
		const timer = setTimeout(() => {
			if (!raw.complete) socket.destroy();
		}, requestTimeout);
		timer.unref();
		const clear = (): void => clearTimeout(timer);
		raw.once("end", clear);
		raw.once("close", clear);
	}

	app.addHook("onSend", (request, reply, payload, done) => {
		// An answer sent before the body arrived (a 401, a 413, a 404) ends the connection: the rest of a
		// slow body is not waited for. While stopping, every answer ends its connection, so keep-alive
		// clients cannot hold the shutdown up.
		if (closing || (hasBody(request.headers) && !request.raw.complete)) reply.header("connection", "close");
		done(null, payload);
	});

	// Stopping answers every request already received (src/connections.ts): queued connections are
	// accepted first, quiet ones closed, in-flight requests finish within the grace, then are cut.
	const connections = new ConnectionTracker(app.server, {
		...DEFAULT_SHUTDOWN_SETTINGS,
		...options.shutdown,
	});
	let graceTimer: ReturnType<typeof setTimeout> | undefined;
	app.addHook("preClose", async () => {
		closing = true;
		await connections.beginStop();
		graceTimer = setTimeout(() => {
			const { cut } = connections.cutAll();
			if (cut > 0) app.log.error(`the shutdown grace ran out: ${cut} requests were cut off`);
		}, connections.graceMs);
		graceTimer.unref();
	});
	app.addHook("onClose", (_instance, done) => {
		if (graceTimer) clearTimeout(graceTimer);
		connections.finish();
		done();
	});

	/** Any error as a HubError: the hub's own as they are, the others translated. */
	function hubErrorOf(error: FastifyError, request: FastifyRequest): HubError {
		if (error instanceof HubError) return error;
		if (error.validation) return new HubError("Invalid", error.message);
		const status = error.statusCode;
		if (status !== undefined && status >= 400 && status < 500) {
			return new HubError(kindOfStatus(status), clientErrorMessage(error, bodyLimit));
		}
		const outage = unavailableService(error);
		if (outage) {
			// One short line: an outage makes every request fail, and the log must stay readable.
			request.log.warn(
				{ url: pathOf(request), code: pgErrorCode(error) },
				`${outage} unavailable: ${String(error.message).slice(0, 200)}`,
			);
			return unavailable(`the ${outage}`);
		}
		request.log.error({ err: error, url: pathOf(request).slice(0, 200) }, "request failed");
		return new HubError("Internal", "internal server error");
	}

	// The one place errors become answers (the LFS batch API formats its own: routes/uploads/lfs.ts).
	app.setErrorHandler(async (error: FastifyError, request, reply) => {
		const answer = hubErrorOf(error, request);
		// A read of a moved repository's former id: the public hub's redirect to its id now.
		const moved =
			answer.code === "RepoNotFound"
				? await movedLocation(options.db, request).catch(() => undefined)
				: undefined;
		if (moved !== undefined) return reply.code(MOVED_STATUS).header("location", moved).send();
		return sendErrorAnswer(reply, answer);
	});

	app.get("/healthz", async (_request, reply) => {
		try {
			await options.db.query("SELECT 1");
			return reply
				.type(JSON_TYPE)
				.send({ status: "ok", database: options.db.kind, storage: options.storage.kind } satisfies Health);
		} catch {
			return reply
				.code(503)
				.header("retry-after", String(RETRY_AFTER_SECONDS))
				.type(JSON_TYPE)
				.send({ status: "unavailable", error: "database unavailable" } satisfies Health);
		}
	});

	// Browsers may read the API from other origins (GET only; admin writes are never allowed cross-origin).
	app.options("/api/*", async (_request, reply) =>
		reply
			.code(204)
			.header("access-control-allow-methods", "GET, HEAD")
			.header("access-control-allow-headers", "Authorization, Content-Type")
			.header("access-control-max-age", "600")
			.send(),
	);

	const limiter = new AuthFailureLimits({
		perAddress: options.authFailureLimit ?? DEFAULT_AUTH_LIMITS.perAddress,
		perCredential: options.authCredentialFailureLimit ?? DEFAULT_AUTH_LIMITS.perCredential,
		windowMs: options.authFailureWindowMs ?? DEFAULT_AUTH_LIMITS.windowMs,
		maxEntries: options.authFailureTracked ?? DEFAULT_AUTH_LIMITS.maxEntries,
	});
	// The services' context, made once: every route family reaches the database and storage through it.
	const services = await createServiceContext({
		db: options.db,
		storage: options.storage,
		changes,
		settings: {
			maxFileBytes: options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
			uploads: { ...DEFAULT_UPLOAD_SETTINGS, ...options.uploads },
			accountLimits: { ...DEFAULT_ACCOUNT_LIMITS, ...options.accountLimits },
			gc: { ...DEFAULT_GC_SETTINGS, ...options.gc },
			discussions: { ...DEFAULT_DISCUSSION_LIMITS, ...options.discussions },
			sessions: { ...DEFAULT_SELF_SERVICE, ...options.selfService }.session,
		},
		downloads: options.downloads,
		serving: options.serving,
		tokenCache: options.tokenCache,
		parsing: options.parsing,
		adminToken: options.adminToken,
		onDownloadsError: (error, lost) =>
			app.log.error(
				{ err: error },
				lost > 0 ? `${lost} downloads were not counted` : "download counts not written yet (retried)",
			),
	});
	// Where revisions point is forgotten with each change, whichever process made it.
	changes.on((event) => forgetOnChange(services.serving, event));
	// Who a token is is forgotten with each account change, whichever process made it.
	changes.on((event) => {
		if (changesTokenViewers(event)) services.tokenViewers.clear();
	});
	// After the last request: what was counted is written before the database closes.
	app.addHook("onClose", async () => services.downloads.close());
	// Git's bare caches: under the data directory when configured, else a temporary one of this process.
	const gitDir = options.git?.dir ?? (await mkdtemp(join(tmpdir(), "modelhub-git-")));
	if (options.git?.dir === undefined)
		app.addHook("onClose", async () => rm(gitDir, { recursive: true, force: true }));
	const gitSettings = { ...DEFAULT_GIT_SETTINGS, ...options.git, dir: gitDir };
	/** What the collector sweeps of git's: aborted pushes' quarantines. */
	const gcGit = gitSweepOf(gitSettings);
	const stopCollection = startPeriodicCollection(
		{ ...services, git: gcGit },
		services.settings.gc ?? DEFAULT_GC_SETTINGS,
		app.log,
	);
	app.addHook("onClose", async () => stopCollection());
	const selfService = { ...DEFAULT_SELF_SERVICE, ...options.selfService };
	authRoutes(app, {
		...services,
		adminToken: options.adminToken,
		limiter,
		selfService,
		publicUrl: options.publicUrl,
	});
	sessionRoutes(app, {
		...services,
		adminToken: options.adminToken,
		limiter,
		selfService,
		publicUrl: options.publicUrl,
	});
	ssoRoutes(app, { ...services, selfService, publicUrl: options.publicUrl });
	adminRoutes(app, { ...services, adminToken: options.adminToken });
	siteAdminRoutes(app, services);
	peopleRoutes(app, services);
	quotaRoutes(app, { ...services, adminToken: options.adminToken, git: gcGit });
	const mirror = options.upstream
		? await MirrorService.create({
				db: options.db,
				storage: options.storage,
				settings: options.upstream,
				maxFileBytes: services.settings.maxFileBytes,
			})
		: undefined;
	if (mirror && options.upstream) {
		mirrorWriteGuard(app, mirror);
		mirrorAdminRoutes(app, mirror, options.upstream, options.adminToken);
		app.addHook("onClose", async () => mirror.close());
	}
	const routeOptions: ModelRoutesOptions = {
		...services,
		cache,
		adminToken: options.adminToken,
		publicUrl: options.publicUrl,
		limiter,
		mirror,
	};
	await modelRoutes(app, routeOptions);
	datasetRoutes(app, routeOptions);
	const datasetViewer = await DatasetViewer.open({ ...DEFAULT_VIEWER_SETTINGS, ...options.viewer });
	app.addHook("onClose", async () => datasetViewer.close());
	datasetsServerRoutes(app, { ...services, datasetViewer }, options.publicUrl);
	croissantRoutes(app, { ...services, datasetViewer }, options.publicUrl, mirror);
	repositoryRoutes(app, routeOptions);
	communityRoutes(app, routeOptions);
	discussionRoutes(app, { ...services, publicUrl: options.publicUrl });
	const webhookContext = { ...services, webhooks: webhookSettings(options.webhooks) };
	webhookRoutes(app, webhookContext);
	// Payload URLs name the hub as clients reach it: MODELHUB_PUBLIC_URL, else the address it listens on.
	const hubOrigin = (): string => {
		if (options.publicUrl !== undefined) return options.publicUrl;
		const address = app.server.address();
		if (typeof address !== "object" || address === null) return "http://127.0.0.1";
		const host = address.address.includes(":") ? `[${address.address}]` : address.address;
		return `http://${host}:${address.port}`;
	};
	const webhooks = new WebhookDeliveries(webhookContext, hubOrigin, (error) =>
		app.log.error({ err: error }, "webhook delivery failed"),
	);
	// Each write's event is delivered once: by the process that made it.
	changes.on((event, origin) => {
		if (event.type === "webhooks.changed") webhooks.invalidate();
		return origin === "this-process" ? webhooks.enqueue(event) : undefined;
	});
	app.addHook("onClose", async () => webhooks.close());
	validateYamlRoute(app, services.parsing, options.validateYamlPerMinute);
	const git = new GitServer(services, gitSettings);
	await uploadRoutes(app, { services, publicUrl: options.publicUrl, limiter, git });
	await gitRoutes(app, { db: services.db, git, services, publicUrl: options.publicUrl });
	await catalogueRoutes(app, { ...services, cache });
	await webRoutes(app, {
		...services,
		webDir: options.webDir,
		demoDir: options.demoDir ?? demoAssetsDir(),
		publicUrl: options.publicUrl,
		mirror,
	});

	if (options.db.subscribe) {
		// Other hub processes on the same PostgreSQL database announce their writes.
		const unsubscribe = await options.db.subscribe(
			(payload) => changes.receive(payload),
			(connected) => {
				cache.setEnabled(connected);
				services.serving.setEnabled(connected);
				services.tokenViewers.setEnabled(connected);
			},
		);
		app.addHook("onClose", async () => unsubscribe());
	}

	// Started once the routes are ready: it catches up with commits no analysis has seen, in the background.
	const analysis = new RepositoryAnalysis(services, app.log, options.analysis);
	app.addHook("onClose", async () => {
		// The analysis stops first (it saves nothing more), then the workers are terminated, which ends
		// the jobs it waits for at once.
		const analysed = analysis.close();
		await services.parsing.close();
		await analysed;
	});
	await app.ready();
	analysis.start();
	// Deliveries stored before a restart (or by a stopped process) are sent now.
	void webhooks.start().catch((error: unknown) => app.log.error({ err: error }, "webhooks could not start"));
	return {
		app,
		cache,
		changes,
		analysis,
		serving: services.serving,
		authLimits: limiter,
		connections,
		parsing: services.parsing,
		downloads: services.downloads,
	};
}
