/** The bounds of webhook deliveries (MODELHUB_WEBHOOK_* settings, read by config.ts). */
export interface WebhookSettings {
	/** MODELHUB_WEBHOOK_ALLOWED_HOSTS (see webhooks/address-policy.ts). */
	allowedHosts: string;
	/** One attempt's time limit, connection to the end of the answer. */
	timeoutMs: number;
	/** Attempts per delivery (the first included), then it is `failed`. */
	maxAttempts: number;
	/** The wait before the second attempt; doubled for each further one. */
	retryBaseMs: number;
	/** Deliveries waiting in all; beyond, new ones are logged as `dropped`. */
	queueLimit: number;
	/** Finished deliveries kept in each webhook's log. */
	logEntries: number;
	/** Webhooks per account. */
	perAccount: number;
	/** Deliveries sent at once by each hub process. */
	concurrency: number;
}

export const DEFAULT_WEBHOOK_SETTINGS: WebhookSettings = {
	allowedHosts: "public",
	timeoutMs: 10_000,
	maxAttempts: 6,
	retryBaseMs: 5_000,
	queueLimit: 10_000,
	logEntries: 100,
	perAccount: 25,
	concurrency: 4,
};
