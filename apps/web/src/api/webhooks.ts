/**
 * The signed-in user's webhooks (`/api/settings/webhooks`, as huggingface_hub's create/list/get/update/
 * enable/disable/delete_webhook call it) and each one's delivery log (packages/hub/README.md, "Webhooks").
 */
import type { WebhookDelivery, WebhookInfo, WebhookRequest } from "@modelhub/hub/api";
import { apiUrl, requestJson, type ApiOptions } from "./http";

const BASE = "/api/settings/webhooks";

function hookUrl(options: ApiOptions, id: string, rest = ""): string {
	return apiUrl(options.baseUrl, `${BASE}/${encodeURIComponent(id)}${rest}`);
}

export async function listWebhooks(options: ApiOptions): Promise<WebhookInfo[]> {
	return (await requestJson<WebhookInfo[]>(apiUrl(options.baseUrl, BASE), options)).data;
}

/** What the form sends: the URL, what is watched, the domains, and the secret ("" for none). */
export type WebhookInput = Required<Pick<WebhookRequest, "url" | "watched" | "domains">> & { secret: string };

function body(input: WebhookInput): WebhookRequest {
	return {
		url: input.url,
		watched: input.watched,
		domains: input.domains,
		...(input.secret ? { secret: input.secret } : {}),
	};
}

export async function createWebhook(input: WebhookInput, options: ApiOptions): Promise<WebhookInfo> {
	const { data } = await requestJson<{ webhook: WebhookInfo }>(apiUrl(options.baseUrl, BASE), {
		...options,
		method: "POST",
		body: body(input),
	});
	return data.webhook;
}

export async function updateWebhook(
	id: string,
	input: WebhookInput,
	options: ApiOptions,
): Promise<WebhookInfo> {
	const { data } = await requestJson<{ webhook: WebhookInfo }>(hookUrl(options, id), {
		...options,
		method: "POST",
		body: body(input),
	});
	return data.webhook;
}

/** Enables (`disabled` false) or disables a webhook. */
export async function setWebhookDisabled(
	id: string,
	disabled: boolean,
	options: ApiOptions,
): Promise<WebhookInfo> {
	const { data } = await requestJson<{ webhook: WebhookInfo }>(
		hookUrl(options, id, disabled ? "/disable" : "/enable"),
		{ ...options, method: "POST" },
	);
	return data.webhook;
}

export async function deleteWebhook(id: string, options: ApiOptions): Promise<void> {
	await requestJson<{ deleted: string }>(hookUrl(options, id), { ...options, method: "DELETE" });
}

/** The newest deliveries of a webhook (the hub keeps MODELHUB_WEBHOOK_LOG_ENTRIES), newest first. */
export async function webhookDeliveries(id: string, options: ApiOptions): Promise<WebhookDelivery[]> {
	return (await requestJson<WebhookDelivery[]>(hookUrl(options, id, "/deliveries"), options)).data;
}
