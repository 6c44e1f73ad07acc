/**
 * Xet hashes are 32 bytes read as four little-endian 64-bit words; their string form (in URLs and
 * APIs) is those words in hexadecimal, each padded to 16 digits. So the string is the bytes with every
 * 8-byte group reversed. A SHA-256 in a shard's metadata is stored the same way (xet-core keeps it as
 * such words built from the big-endian digest), so the same conversion gives its usual hex form.
 */
export function xetHashString(bytes: Uint8Array): string {
	if (bytes.length !== 32) throw new Error("a Xet hash has 32 bytes");
	let out = "";
	for (let group = 0; group < 32; group += 8) {
		for (let index = group + 7; index >= group; index--)
			out += (bytes[index] as number).toString(16).padStart(2, "0");
	}
	return out;
}

export const XET_HASH = /^[0-9a-f]{64}$/;
