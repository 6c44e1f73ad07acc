import { createHash } from "node:crypto";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { BlobNotFoundError, StorageUnavailableError } from "../types.js";
import {
	canonicalQuery,
	EMPTY_PAYLOAD_HASH,
	encodePath,
	presignQuery,
	signHeaders,
	type Credentials,
} from "./sigv4.js";

export interface S3Config extends Credentials {
	/** `http(s)://host[:port]` of the S3 API. */
	endpoint: URL;
	bucket: string;
	/** Address buckets as `endpoint/bucket/key` (MinIO, most S3-compatible servers) rather than `bucket.host/key`. */
	pathStyle: boolean;
	/** Key prefix inside the bucket, e.g. `modelhub/` (empty for the bucket root). */
	prefix: string;
	/** How long one request may wait for the server to start answering, in milliseconds. */
	timeoutMs: number;
}

/** An S3 error answer: its code (`NoSuchKey`, `SignatureDoesNotMatch`, …) and message. */
export class S3Error extends Error {
	override name = "S3Error";
	constructor(
		readonly status: number,
		readonly code: string,
		message: string,
	) {
		super(`S3 answered ${status} ${code}: ${message}`);
	}
}

export interface S3Request {
	method: "GET" | "HEAD" | "PUT" | "POST" | "DELETE";
	key?: string;
	query?: Record<string, string>;
	headers?: Record<string, string>;
	body?: Buffer;
}

const MAX_ERROR_BODY = 64 * 1024;
const RETRIES = 2;

/** The host, path and URL of a bucket or object, path-style or virtual-hosted. */
export function locate(config: S3Config, key: string | undefined, endpoint: URL = config.endpoint) {
	const objectPath = key === undefined ? "" : encodePath(`${config.prefix}${key}`);
	if (config.pathStyle) {
		const path = `/${encodePath(config.bucket)}${objectPath ? `/${objectPath}` : "/"}`;
		return { host: endpoint.host, path, origin: `${endpoint.protocol}//${endpoint.host}` };
	}
	const host = `${config.bucket}.${endpoint.host}`;
	return { host, path: `/${objectPath}`, origin: `${endpoint.protocol}//${host}` };
}

function readBody(response: IncomingMessage, limit: number): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		response.on("data", (chunk: Buffer) => {
			if (size < limit) chunks.push(chunk);
			size += chunk.length;
		});
		response.on("end", () => resolve(Buffer.concat(chunks).toString("utf8").slice(0, limit)));
		response.on("error", reject);
	});
}

function xmlValue(xml: string, tag: string): string | undefined {
	const match = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(xml);
	return match?.[1]
		?.replace(/&quot;/g, '"')
		.replace(/&apos;/g, "'")
		.replace(/&lt;/g, "<")
		.replace(/&gt;/g, ">")
		.replace(/&amp;/g, "&");
}

/** Turns an error answer into an S3Error (reading at most 64 KB of it). */
export async function errorOf(response: IncomingMessage): Promise<S3Error> {
	const status = response.statusCode ?? 0;
	const text = await readBody(response, MAX_ERROR_BODY).catch(() => "");
	const code = xmlValue(text, "Code") ?? (status === 404 ? "NotFound" : `HTTP${status}`);
	const message = (xmlValue(text, "Message") ?? "").slice(0, 300);
	return new S3Error(status, code, message);
}

/** Reads a small XML answer, treating an `<Error>` document as an error even under status 200. */
export async function xmlOf(response: IncomingMessage): Promise<string> {
	const text = await readBody(response, MAX_ERROR_BODY);
	if (/<Error>/.test(text)) {
		throw new S3Error(
			response.statusCode ?? 0,
			xmlValue(text, "Code") ?? "Error",
			xmlValue(text, "Message") ?? "",
		);
	}
	return text;
}

export { xmlValue };

function sendOnce(config: S3Config, request: S3Request): Promise<IncomingMessage> {
	const { host, path, origin } = locate(config, request.key);
	const body = request.body;
	const payloadHash = body ? createHash("sha256").update(body).digest("hex") : EMPTY_PAYLOAD_HASH;
	const query = request.query ?? {};
	const headers = signHeaders(
		config,
		{
			method: request.method,
			host,
			path,
			query,
			headers: { ...request.headers, ...(body ? { "content-length": String(body.byteLength) } : {}) },
			payloadHash,
		},
		new Date(),
	);
	const search = canonicalQuery(query);
	const url = new URL(`${origin}${path}${search ? `?${search}` : ""}`);
	const send = url.protocol === "https:" ? httpsRequest : httpRequest;
	return new Promise((resolve, reject) => {
		const req = send(url, { method: request.method, headers, timeout: config.timeoutMs }, resolve);
		req.on("timeout", () =>
			req.destroy(new StorageUnavailableError(`S3 did not answer within ${config.timeoutMs} ms`)),
		);
		req.on("error", (error) =>
			reject(
				error instanceof StorageUnavailableError
					? error
					: new StorageUnavailableError(`S3 is unreachable: ${(error as Error).message}`),
			),
		);
		req.end(body);
	});
}

/**
 * Sends one signed request and returns the answer when its status is in `ok`. Network failures and 5xx
 * answers are retried twice (every request the hub makes is idempotent: bodies are buffers); other
 * statuses become S3Error, and 404 on an object becomes BlobNotFoundError when `notFound` names it.
 */
export async function send(
	config: S3Config,
	request: S3Request,
	ok: readonly number[],
	notFound?: string,
): Promise<IncomingMessage> {
	let lastError: unknown;
	for (let attempt = 0; attempt <= RETRIES; attempt++) {
		if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 200 * 4 ** (attempt - 1)));
		let response: IncomingMessage;
		try {
			response = await sendOnce(config, request);
		} catch (error) {
			lastError = error;
			continue;
		}
		const status = response.statusCode ?? 0;
		if (ok.includes(status)) return response;
		const error = await errorOf(response);
		if (status >= 500) {
			lastError = new StorageUnavailableError(error.message);
			continue;
		}
		if (status === 404 && notFound !== undefined) throw new BlobNotFoundError(notFound);
		throw error;
	}
	throw lastError;
}

/** Consumes and discards an answer's body (so the socket returns to the pool). */
export function discard(response: IncomingMessage): void {
	response.resume();
}

/** A presigned GET URL for a key, at `endpoint` (the address clients use, which may differ from the hub's). */
export function presignedGetUrl(
	config: S3Config,
	key: string,
	options: { endpoint: URL; expiresInSeconds: number; contentDisposition?: string },
): string {
	const { host, path, origin } = locate(config, key, options.endpoint);
	const query: Record<string, string> = {};
	if (options.contentDisposition) query["response-content-disposition"] = options.contentDisposition;
	const search = presignQuery(
		config,
		{ method: "GET", host, path, query },
		new Date(),
		options.expiresInSeconds,
	);
	return `${origin}${path}?${search}`;
}
