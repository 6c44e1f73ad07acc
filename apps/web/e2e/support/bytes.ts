/** Bytes that do not repeat, from a seed (a linear congruential generator): files that nothing deduplicates. */
export function noiseBytes(size: number, seed: number): Buffer {
	const out = Buffer.alloc(size);
	let x = seed;
	for (let i = 0; i < size; i++) {
		x = (x * 1103515245 + 12345) & 0x7fffffff;
		out[i] = x >> 16;
	}
	return out;
}
