/**
 * A streamed file (a multipart commit's part) read far enough to know whether it is small: its whole
 * bytes when it ends within `maxBytes`, so that it can join its commit's batch of small files kept in
 * the database (src/blobs/small.ts) instead of becoming a file of its own; else the same stream, the
 * bytes already read first. Holds at most `maxBytes` plus one chunk in memory.
 */
export async function smallOrStream(
	source: AsyncIterable<Uint8Array>,
	maxBytes: number,
): Promise<Uint8Array | AsyncIterable<Uint8Array>> {
	const iterator = source[Symbol.asyncIterator]();
	const head: Uint8Array[] = [];
	let length = 0;
	for (;;) {
		const next = await iterator.next();
		if (next.done) return head.length === 1 ? (head[0] as Uint8Array) : Buffer.concat(head, length);
		head.push(next.value);
		length += next.value.byteLength;
		if (length > maxBytes) return replayed(head, iterator);
	}
}

async function* replayed(
	head: Uint8Array[],
	iterator: AsyncIterator<Uint8Array>,
): AsyncGenerator<Uint8Array> {
	let finished = false;
	try {
		// Handed over for good (storage's put may keep a chunk): this array is dropped after.
		yield* head.splice(0);
		for (;;) {
			const next = await iterator.next();
			if (next.done) {
				finished = true;
				return;
			}
			yield next.value;
		}
	} finally {
		// A consumer that stops early (a size limit) releases the source, as `for await … break` would.
		if (!finished) await iterator.return?.();
	}
}
