import { CommitOperationError } from "./operations.js";

/**
 * Splits a byte stream into lines (NDJSON), holding at most one line in memory: a line longer than
 * `maxLineBytes` is refused as soon as it passes the limit, without waiting for its end.
 */
export async function* lines(source: AsyncIterable<Uint8Array>, maxLineBytes: number): AsyncIterable<Buffer> {
	let parts: Buffer[] = [];
	let pending = 0;
	for await (const raw of source) {
		let chunk = Buffer.isBuffer(raw) ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
		let newline = chunk.indexOf(0x0a);
		while (newline >= 0) {
			if (pending + newline > maxLineBytes) throw tooLong(maxLineBytes);
			parts.push(chunk.subarray(0, newline));
			yield parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, pending + newline);
			parts = [];
			pending = 0;
			chunk = chunk.subarray(newline + 1);
			newline = chunk.indexOf(0x0a);
		}
		if (chunk.length > 0) {
			pending += chunk.length;
			if (pending > maxLineBytes) throw tooLong(maxLineBytes);
			parts.push(chunk);
		}
	}
	if (pending > 0) yield Buffer.concat(parts, pending);
}

function tooLong(max: number): CommitOperationError {
	return new CommitOperationError(
		`a line of the commit is longer than ${max} bytes: send large files through LFS or Xet, not inline`,
		"TooLarge",
	);
}
