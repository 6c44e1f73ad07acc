import { S3Client, S3ServiceException } from "@aws-sdk/client-s3";
import { BlobNotFoundError, StorageUnavailableError } from "../types.js";

export interface S3Config {
	/** `http(s)://host[:port]` of the S3 API. */
	endpoint: URL;
	bucket: string;
	region: string;
	accessKeyId: string;
	secretAccessKey: string;
	/** Address buckets as `endpoint/bucket/key` (MinIO, most S3-compatible servers) rather than `bucket.host/key`. */
	pathStyle: boolean;
	/** Key prefix inside the bucket, e.g. `modelhub/` (empty for the bucket root). */
	prefix: string;
	/**
	 * How long the bucket may take to accept a connection, to answer a request without a body, or to
	 * send or take the next bytes of a transfer (an idle socket), in milliseconds.
	 */
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

/** Every request is tried at most this many times (network failures, timeouts, 5xx, throttling). */
export const S3_MAX_ATTEMPTS = 3;
/**
 * The slowest transfer a request with a body may make before it times out, in bytes per second, on top
 * of timeoutMs: a 16 MiB part may take 64 s more.
 */
const MIN_UPLOAD_BYTES_PER_SECOND = 256 * 1024;

/**
 * The SDK client for a bucket. Only the given credentials are used (no environment, profile or
 * instance-metadata lookup); checksums only where S3 requires them, since many S3-compatible services
 * refuse the SDK's newer default ones and the hub checks each blob's SHA-256 itself.
 */
export function createS3Client(config: S3Config, endpoint: URL = config.endpoint): S3Client {
	return new S3Client({
		endpoint: endpoint.origin,
		region: config.region,
		forcePathStyle: config.pathStyle,
		credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
		maxAttempts: S3_MAX_ATTEMPTS,
		retryMode: "standard",
		requestChecksumCalculation: "WHEN_REQUIRED",
		responseChecksumValidation: "WHEN_REQUIRED",
		requestHandler: {
			connectionTimeout: config.timeoutMs,
			// Until the answer's headers; requests with a body get more (requestTimeoutFor).
			requestTimeout: config.timeoutMs,
			throwOnRequestTimeout: true,
			// Idle time, also while a body streams either way: a stalled transfer fails, never hangs.
			socketTimeout: config.timeoutMs,
		},
	});
}

/** The time a request sending `bytes` may take until the answer's headers. */
export function requestTimeoutFor(config: S3Config, bytes: number): number {
	return config.timeoutMs + Math.ceil((bytes / MIN_UPLOAD_BYTES_PER_SECOND) * 1000);
}

function withoutCredentials(config: S3Config, text: string): string {
	let clean = text;
	for (const secret of [config.secretAccessKey, config.accessKeyId]) {
		if (secret) clean = clean.split(secret).join("[redacted]");
	}
	return clean;
}

function isSdkFailure(error: unknown): boolean {
	return typeof error === "object" && error !== null && "$metadata" in error;
}

function statusOf(error: unknown): number | undefined {
	const metadata = (error as { $metadata?: { httpStatusCode?: unknown } } | undefined)?.$metadata;
	return typeof metadata?.httpStatusCode === "number" ? metadata.httpStatusCode : undefined;
}

/**
 * What an SDK failure means to the hub: a missing object (404, when `notFound` names the blob) is
 * BlobNotFoundError; no answer (refused, reset, timed out) or a 5xx after the retries is
 * StorageUnavailableError; other answers are S3Error. The SDK's error itself is not kept: its fields
 * may echo what was signed, and the credentials are cut out of the message.
 */
export function translateS3Error(config: S3Config, error: unknown, notFound?: string): Error {
	// The SDK marks every failure of a request it sent, answered or not, with $metadata; anything else
	// is not about the service.
	if (!isSdkFailure(error)) return error instanceof Error ? error : new Error(String(error));
	const status = statusOf(error);
	if (error instanceof S3ServiceException && status !== undefined && status < 500) {
		if (status === 404 && notFound !== undefined) return new BlobNotFoundError(notFound);
		const message = withoutCredentials(config, error.message === "UnknownError" ? "" : error.message);
		return new S3Error(status, error.name, message.slice(0, 300));
	}
	const reason = withoutCredentials(
		config,
		status === undefined
			? `S3 is unreachable: ${error instanceof Error ? error.message : String(error)}`
			: `S3 answered ${status} ${error instanceof Error ? error.name : ""}`.trim(),
	);
	return new StorageUnavailableError(reason.slice(0, 300));
}
