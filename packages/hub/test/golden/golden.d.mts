/** One request of the golden sample, sent exactly as written. */
export interface GoldenRequest {
	method: string;
	path: string;
	headers?: Record<string, string>;
	body?: string;
}

/** A body kept whole (text or base64), or, when large, its SHA-256, length and first bytes. */
export type GoldenBody =
	{ text: string } | { base64: string } | { sha256: string; length: number; headBase64: string };

/** What the hub answered: the status, the headers in RECORDED_HEADERS that were present, the body. */
export interface GoldenAnswer {
	status: number;
	headers: Record<string, string>;
	body: GoldenBody;
}

export interface RecordedAnswer extends GoldenAnswer {
	request: GoldenRequest;
}

export const GOLDEN_ADMIN_TOKEN: string;
export const GOLDEN_HOST: string;
export const RECORDED_HEADERS: readonly string[];
export const FULL_BODY_LIMIT: number;
export const FOLLOW_LINK: { followLink: true };
export const GOLDEN_REQUESTS: ReadonlyArray<GoldenRequest | typeof FOLLOW_LINK>;

export function startGoldenHub(cli: string): Promise<{ url: string; close(): Promise<void> }>;
export function captureAnswer(base: string, request: GoldenRequest): Promise<GoldenAnswer>;
export function describeBody(bytes: Buffer): GoldenBody;
