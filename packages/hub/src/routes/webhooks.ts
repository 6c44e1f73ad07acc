import type { FastifyInstance } from "fastify";
import type { WebhookDelivery, WebhookInfo, WebhookRequest } from "../api/webhooks.js";
import { JSON_TYPE } from "../http.js";
import {
	createWebhook,
	getWebhook,
	listWebhooks,
	removeWebhook,
	updateWebhook,
	webhookDeliveries,
	type WebhookContext,
} from "../services/webhooks.js";
import { actorOf } from "./auth.js";
import { objectBody } from "./body.js";

/**
 * `/api/settings/webhooks`, as huggingface_hub's create/list/get/update/enable/disable/delete_webhook
 * call it, and this hub's delivery log. HTTP only: services/webhooks.ts decides.
 */
export function webhookRoutes(app: FastifyInstance, context: WebhookContext): void {
	const base = "/api/settings/webhooks";
	const noStore = { "cache-control": "no-store" };

	app.get(base, async (request, reply) => {
		const hooks = await listWebhooks(context, request.viewer);
		return reply
			.headers(noStore)
			.type(JSON_TYPE)
			.send(hooks satisfies WebhookInfo[]);
	});

	app.post(base, async (request, reply) => {
		const body = objectBody<WebhookRequest>(request);
		const webhook = await createWebhook(context, actorOf(request), {
			url: body.url,
			watched: body.watched,
			domains: body.domains,
			secret: body.secret,
			jobSourceId: body.jobSourceId,
		});
		return reply.type(JSON_TYPE).send({ webhook } satisfies { webhook: WebhookInfo });
	});

	app.get<{ Params: { id: string } }>(`${base}/:id`, async (request, reply) => {
		const webhook = await getWebhook(context, request.viewer, request.params.id);
		return reply
			.headers(noStore)
			.type(JSON_TYPE)
			.send({ webhook } satisfies { webhook: WebhookInfo });
	});

	app.post<{ Params: { id: string } }>(`${base}/:id`, async (request, reply) => {
		const body = objectBody<WebhookRequest>(request);
		const webhook = await updateWebhook(context, actorOf(request), request.params.id, {
			url: body.url,
			watched: body.watched,
			domains: body.domains,
			secret: body.secret,
		});
		return reply.type(JSON_TYPE).send({ webhook } satisfies { webhook: WebhookInfo });
	});

	for (const [action, disabled] of [
		["enable", false],
		["disable", true],
	] as const) {
		app.post<{ Params: { id: string } }>(`${base}/:id/${action}`, async (request, reply) => {
			const webhook = await updateWebhook(context, actorOf(request), request.params.id, { disabled });
			return reply.type(JSON_TYPE).send({ webhook } satisfies { webhook: WebhookInfo });
		});
	}

	app.delete<{ Params: { id: string } }>(`${base}/:id`, async (request, reply) => {
		await removeWebhook(context, actorOf(request), request.params.id);
		return reply.type(JSON_TYPE).send({ deleted: request.params.id });
	});

	app.get<{ Params: { id: string } }>(`${base}/:id/deliveries`, async (request, reply) => {
		const log = await webhookDeliveries(context, request.viewer, request.params.id);
		return reply
			.headers(noStore)
			.type(JSON_TYPE)
			.send(log satisfies WebhookDelivery[]);
	});
}
