import type { GcContext } from "../services/gc.js";
import type { FastifyInstance } from "fastify";
import type { AccountStorageInfo } from "../api/accounts.js";
import type { GcReport, GcRequest, SetQuotaRequest } from "../api/admin.js";
import type { GcSettings } from "../config.js";
import { collectGarbage } from "../services/gc.js";
import type { BlobStore } from "../storage/types.js";
import type { Unchecked } from "../api/unchecked.js";
import { HubError } from "../errors.js";
import { JSON_TYPE } from "../http.js";
import type { QuotaOverride } from "../quota/store.js";
import { setQuota, storageOf, type QuotaContext } from "../services/quota.js";
import type { WriteContext } from "../services/write.js";
import { actorOf, adminOnly, authenticationRequired } from "./auth.js";

export interface QuotaRoutesOptions extends WriteContext, QuotaContext {
	adminToken: string | undefined;
	storage: BlobStore;
	settings: QuotaContext["settings"] & { gc?: GcSettings | undefined };
	/** What the collector sweeps of git's (services/gc.ts). */
	git?: GcContext["git"];
}

/** `bytes` of a quota request: a whole number of bytes, "unlimited" (null) or "default" (undefined). */
export function parseQuota(value: unknown): QuotaOverride {
	if (value === "unlimited") return null;
	if (value === "default") return undefined;
	if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return value;
	if (typeof value === "string" && /^\d{1,16}$/.test(value)) return Number(value);
	throw new HubError("Invalid", '\'bytes\' must be a whole number of bytes, "unlimited" or "default"');
}

/**
 * Storage quotas over HTTP: an account's usage and limit (the account itself, its organisations'
 * members, the admin), the admin's setting of one account's quota, and the garbage collector.
 */
export function quotaRoutes(app: FastifyInstance, options: QuotaRoutesOptions): void {
	app.get<{ Params: { name: string } }>("/api/accounts/:name/storage", async (request, reply) => {
		if (request.viewer.kind === "anonymous") throw authenticationRequired();
		const storage = await storageOf(options, request.viewer, request.params.name);
		return reply
			.header("cache-control", "no-store")
			.type(JSON_TYPE)
			.send(storage satisfies AccountStorageInfo);
	});

	const admin = { onRequest: adminOnly(options.adminToken), config: { auth: "admin" as const } };

	// The collector on demand (the embedded database cannot be opened by the CLI while the hub runs).
	app.post("/api/admin/gc", admin, async (request, reply) => {
		const body = (request.body ?? {}) as Unchecked<GcRequest>;
		if (typeof body !== "object" || (body.dryRun !== undefined && typeof body.dryRun !== "boolean")) {
			throw new HubError("Invalid", 'the body is { "dryRun": true | false }');
		}
		const report = await collectGarbage(options, actorOf(request), {
			dryRun: body.dryRun === true,
			settings: options.settings.gc,
		});
		return reply.type(JSON_TYPE).send(report satisfies GcReport);
	});

	app.put<{ Params: { name: string } }>("/api/admin/accounts/:name/quota", admin, async (request, reply) => {
		const body = request.body as Unchecked<SetQuotaRequest> | undefined;
		if (typeof body !== "object" || body === null)
			throw new HubError("Invalid", "request body must be a JSON object");
		const storage = await setQuota(options, actorOf(request), request.params.name, parseQuota(body.bytes));
		return reply.type(JSON_TYPE).send(storage satisfies AccountStorageInfo);
	});
}
