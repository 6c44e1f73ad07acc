import { createHash, createHmac } from "node:crypto";

/**
 * AWS Signature Version 4 for S3, as documented by AWS ("Authenticating Requests: Using the
 * Authorization Header" and "Query String Authentication"). Pure functions: the clock is an argument.
 */

export interface Credentials {
	accessKeyId: string;
	secretAccessKey: string;
	region: string;
}

export interface SignableRequest {
	method: string;
	/** Host header value (with the port when it is not the scheme's default). */
	host: string;
	/** The path as sent on the wire: already URI-encoded (see encodePath). */
	path: string;
	query?: Record<string, string>;
	/** Headers to sign besides host, x-amz-date and x-amz-content-sha256 (names in any case). */
	headers?: Record<string, string>;
	/** Hex SHA-256 of the body, or "UNSIGNED-PAYLOAD". */
	payloadHash: string;
}

export const EMPTY_PAYLOAD_HASH = createHash("sha256").update("").digest("hex");
export const UNSIGNED_PAYLOAD = "UNSIGNED-PAYLOAD";

/** RFC 3986 encoding as SigV4 wants it: everything but A-Z a-z 0-9 - _ . ~ is percent-encoded. */
export function uriEncode(text: string): string {
	return encodeURIComponent(text).replace(
		/[!'()*]/g,
		(char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
	);
}

/** An object key as a URL path: each segment encoded, the slashes kept. */
export function encodePath(path: string): string {
	return path.split("/").map(uriEncode).join("/");
}

/** `20130524T000000Z` and `20130524` for a date. */
export function amzDates(date: Date): { amzDate: string; shortDate: string } {
	const amzDate = date
		.toISOString()
		.replace(/[-:]/g, "")
		.replace(/\.\d{3}/, "");
	return { amzDate, shortDate: amzDate.slice(0, 8) };
}

function hmac(key: Buffer | string, text: string): Buffer {
	return createHmac("sha256", key).update(text, "utf8").digest();
}

function sha256Hex(text: string): string {
	return createHash("sha256").update(text, "utf8").digest("hex");
}

function signingKey(credentials: Credentials, shortDate: string): Buffer {
	const dateKey = hmac(`AWS4${credentials.secretAccessKey}`, shortDate);
	const regionKey = hmac(dateKey, credentials.region);
	const serviceKey = hmac(regionKey, "s3");
	return hmac(serviceKey, "aws4_request");
}

/** A query string in SigV4 canonical form (sorted, RFC 3986-encoded); also what the hub sends. */
export function canonicalQuery(query: Record<string, string>): string {
	return Object.entries(query)
		.map(([key, value]) => [uriEncode(key), uriEncode(value)] as const)
		.sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
		.map(([key, value]) => `${key}=${value}`)
		.join("&");
}

function canonicalHeaders(headers: Record<string, string>): { text: string; signed: string } {
	const entries = Object.entries(headers)
		.map(([name, value]) => [name.toLowerCase(), value.trim().replace(/\s+/g, " ")] as const)
		.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
	return {
		text: entries.map(([name, value]) => `${name}:${value}\n`).join(""),
		signed: entries.map(([name]) => name).join(";"),
	};
}

function signature(
	credentials: Credentials,
	request: SignableRequest,
	headers: Record<string, string>,
	query: Record<string, string>,
	amzDate: string,
	shortDate: string,
): { signature: string; signedHeaders: string; scope: string } {
	const { text, signed } = canonicalHeaders(headers);
	const canonicalRequest = [
		request.method,
		request.path,
		canonicalQuery(query),
		text,
		signed,
		request.payloadHash,
	].join("\n");
	const scope = `${shortDate}/${credentials.region}/s3/aws4_request`;
	const stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256Hex(canonicalRequest)].join("\n");
	const sig = createHmac("sha256", signingKey(credentials, shortDate))
		.update(stringToSign, "utf8")
		.digest("hex");
	return { signature: sig, signedHeaders: signed, scope };
}

/** The headers to send with a request signed in the Authorization header. */
export function signHeaders(
	credentials: Credentials,
	request: SignableRequest,
	now: Date,
): Record<string, string> {
	const { amzDate, shortDate } = amzDates(now);
	const headers: Record<string, string> = {
		...request.headers,
		host: request.host,
		"x-amz-date": amzDate,
		"x-amz-content-sha256": request.payloadHash,
	};
	const result = signature(credentials, request, headers, request.query ?? {}, amzDate, shortDate);
	return {
		...headers,
		authorization: `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${result.scope}, SignedHeaders=${result.signedHeaders}, Signature=${result.signature}`,
	};
}

/** A presigned URL's query string (GET, signed host header only), valid for `expiresInSeconds`. */
export function presignQuery(
	credentials: Credentials,
	request: Omit<SignableRequest, "payloadHash" | "headers">,
	now: Date,
	expiresInSeconds: number,
): string {
	const { amzDate, shortDate } = amzDates(now);
	const query: Record<string, string> = {
		...request.query,
		"X-Amz-Algorithm": "AWS4-HMAC-SHA256",
		"X-Amz-Credential": `${credentials.accessKeyId}/${shortDate}/${credentials.region}/s3/aws4_request`,
		"X-Amz-Date": amzDate,
		"X-Amz-Expires": String(expiresInSeconds),
		"X-Amz-SignedHeaders": "host",
	};
	const result = signature(
		credentials,
		{ ...request, payloadHash: UNSIGNED_PAYLOAD },
		{ host: request.host },
		query,
		amzDate,
		shortDate,
	);
	return `${canonicalQuery(query)}&X-Amz-Signature=${result.signature}`;
}
