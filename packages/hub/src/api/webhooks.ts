/**
 * Webhooks as huggingface_hub 2.x manages them (`/api/settings/webhooks`, answers `{ webhook }` or a
 * list), and this hub's delivery log (`/api/settings/webhooks/{id}/deliveries`).
 */

/** huggingface_hub's WebhookInfo fields. */
export interface WebhookInfo {
	id: string;
	url: string;
	watched: Array<{ type: "user" | "org" | "model" | "dataset"; name: string }>;
	domains: string[];
	secret: string | null;
	disabled: boolean;
	/** This hub runs no Jobs. */
	job: null;
}

/** The body of `POST /api/settings/webhooks` and of `POST /api/settings/webhooks/{id}`. */
export interface WebhookRequest {
	url?: string;
	watched?: Array<{ type: string; name: string }>;
	domains?: string[];
	secret?: string;
	/** huggingface_hub's job_id: refused (no Jobs here). */
	jobSourceId?: string;
}

/** One entry of a webhook's delivery log, newest first. */
export interface WebhookDelivery {
	id: string;
	event: { action: string; scope: string };
	status: "pending" | "delivered" | "failed" | "dropped";
	attempts: number;
	/** The receiver's HTTP status of the last attempt, when it answered. */
	responseStatus: number | null;
	error: string | null;
	createdAt: string;
	finishedAt: string | null;
	nextAttemptAt?: string;
	/** The payload as sent. */
	payload: Record<string, unknown>;
}
