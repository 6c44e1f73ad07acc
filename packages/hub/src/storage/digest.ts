import { createHash, type Hash } from "node:crypto";
import { BlobDigestError, BlobTooLargeError, GIT_OID_MAX_BYTES, type PutOptions } from "./types.js";

/** Git's object id of a blob: sha1 over `blob <size>\0` and the bytes. */
export function gitBlobOid(bytes: Uint8Array | readonly Uint8Array[]): string {
	const chunks = bytes instanceof Uint8Array ? [bytes] : bytes;
	const size = chunks.reduce((total, chunk) => total + chunk.byteLength, 0);
	const hash = createHash("sha1").update(`blob ${size}\0`);
	for (const chunk of chunks) hash.update(chunk);
	return hash.digest("hex");
}

/**
 * Follows a stream of bytes as it is stored: counts and hashes it, enforces the size limit at once, and
 * keeps the first GIT_OID_MAX_BYTES so that small blobs get their git object id without a second read.
 */
export class DigestTracker {
	private readonly sha256: Hash = createHash("sha256");
	/** Copies of the first bytes, for the git object id (none when it cannot be needed). */
	private retained: Uint8Array[] | undefined;
	/** The git object id's hash as the bytes pass, when their size is announced (its header needs it). */
	private gitHash: Hash | undefined;
	size = 0;

	constructor(private readonly options: PutOptions = {}) {
		// A blob known to be larger than GIT_OID_MAX_BYTES (or never a commit's file) gets no git object
		// id: copying its first 10 MiB aside, 64 KiB at a time, was wasted work and garbage.
		const tooLarge = options.expectedSize !== undefined && options.expectedSize > GIT_OID_MAX_BYTES;
		if (options.gitOid === false || tooLarge) this.retained = undefined;
		else if (options.expectedSize !== undefined)
			this.gitHash = createHash("sha1").update(`blob ${options.expectedSize}\0`);
		else this.retained = [];
	}

	/** Takes the next chunk; throws BlobTooLargeError past maxBytes (or past expectedSize). */
	update(chunk: Uint8Array): void {
		this.size += chunk.byteLength;
		const { maxBytes, expectedSize } = this.options;
		if (maxBytes !== undefined && this.size > maxBytes) throw new BlobTooLargeError(maxBytes);
		if (expectedSize !== undefined && this.size > expectedSize) {
			throw new BlobDigestError(`received more than the announced ${expectedSize} bytes`);
		}
		this.sha256.update(chunk);
		this.gitHash?.update(chunk);
		if (this.retained) {
			if (this.size > GIT_OID_MAX_BYTES) this.retained = undefined;
			// A copy: the source may refill its buffer (BlobStore.retainsNoPieces).
			else this.retained.push(Uint8Array.prototype.slice.call(chunk));
		}
	}

	/** The digests once the stream has ended; throws BlobDigestError when they differ from the expected ones. */
	finish(): { sha256: string; size: number; gitOid: string | undefined } {
		const sha256 = this.sha256.digest("hex");
		const { expectedSha256, expectedSize } = this.options;
		if (expectedSize !== undefined && this.size !== expectedSize) {
			throw new BlobDigestError(`received ${this.size} bytes, ${expectedSize} were announced`);
		}
		if (expectedSha256 !== undefined && sha256 !== expectedSha256) {
			throw new BlobDigestError(`the bytes have SHA-256 ${sha256}, not the announced ${expectedSha256}`);
		}
		const gitOid = this.gitHash
			? this.gitHash.digest("hex")
			: this.retained
				? gitBlobOid(this.retained)
				: undefined;
		this.retained = undefined;
		return { sha256, size: this.size, gitOid };
	}
}

/** Turns a Buffer, a string or any chunk iterable into an async iterable of Uint8Array. */
export async function* chunksOf(
	source: Uint8Array | string | AsyncIterable<Uint8Array | string> | Iterable<Uint8Array>,
): AsyncIterable<Uint8Array> {
	if (typeof source === "string") {
		yield Buffer.from(source, "utf8");
		return;
	}
	if (source instanceof Uint8Array) {
		yield source;
		return;
	}
	for await (const chunk of source as AsyncIterable<Uint8Array | string>) {
		yield typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
	}
}
