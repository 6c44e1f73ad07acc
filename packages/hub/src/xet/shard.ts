import { XetFormatError } from "./chunks.js";
import { xetHashString } from "./hashes.js";
import { StreamReader } from "./reader.js";

/**
 * The Xet shard an upload registers its files with (MDB shard format, header version 2): the header,
 * then one block per file (a header, its terms, optional verification entries, optional metadata with
 * the file's SHA-256) up to a bookend, then the new xorbs' descriptions up to a bookend (not needed
 * here: the hub knows every xorb's layout from its upload), then an optional footer. Read as a stream,
 * keeping only the files' terms.
 */
const HEADER_TAG = Buffer.from([
	0x48, 0x46, 0x52, 0x65, 0x70, 0x6f, 0x4d, 0x65, 0x74, 0x61, 0x44, 0x61, 0x74, 0x61, 0, 85, 105, 103, 69,
	106, 123, 129, 87, 131, 165, 189, 217, 92, 205, 209, 74, 169,
]);
const ENTRY = 48;
const FLAG_VERIFICATION = 0x80000000;
const FLAG_METADATA = 0x40000000;
/** Terms and files a shard may describe (a 50 GiB file is about 800 terms of 64 MiB xorbs). */
const MAX_TERMS = 1_000_000;
const MAX_FILES = 100_000;
export const MAX_SHARD_BYTES = 64 * 1024 * 1024;

export interface ShardTerm {
	xorb: string;
	size: number;
	chunkStart: number;
	chunkEnd: number;
}

export interface ShardFile {
	fileHash: string;
	sha256: string | undefined;
	terms: ShardTerm[];
}

function isBookend(entry: Buffer): boolean {
	for (let i = 0; i < 32; i++) if (entry[i] !== 0xff) return false;
	return true;
}

async function need(reader: StreamReader, n: number, what: string): Promise<Buffer> {
	const bytes = await reader.read(n);
	if (!bytes) throw new XetFormatError(`the shard ends before ${what}`);
	return bytes;
}

export async function readShard(source: AsyncIterable<Uint8Array>): Promise<ShardFile[]> {
	const reader = new StreamReader(source, MAX_SHARD_BYTES, "the shard");
	const header = await need(reader, ENTRY, "its header");
	if (!header.subarray(0, 32).equals(HEADER_TAG))
		throw new XetFormatError("not a Xet shard (wrong header tag)");
	const version = header.readBigUInt64LE(32);
	if (version !== 2n) throw new XetFormatError(`unsupported shard version ${version}`);
	const files: ShardFile[] = [];
	let terms = 0;
	for (;;) {
		const fileHeader = await need(reader, ENTRY, "the end of its file section");
		if (isBookend(fileHeader)) break;
		if (files.length >= MAX_FILES) throw new XetFormatError(`a shard describes at most ${MAX_FILES} files`);
		const flags = fileHeader.readUInt32LE(32);
		const count = fileHeader.readUInt32LE(36);
		terms += count;
		if (terms > MAX_TERMS) throw new XetFormatError(`a shard describes at most ${MAX_TERMS} terms`);
		const file: ShardFile = {
			fileHash: xetHashString(fileHeader.subarray(0, 32)),
			sha256: undefined,
			terms: [],
		};
		for (let i = 0; i < count; i++) {
			const entry = await need(reader, ENTRY, "the end of a file's terms");
			const term = {
				xorb: xetHashString(entry.subarray(0, 32)),
				size: entry.readUInt32LE(36),
				chunkStart: entry.readUInt32LE(40),
				chunkEnd: entry.readUInt32LE(44),
			};
			if (term.chunkEnd <= term.chunkStart) throw new XetFormatError("a term has an empty chunk range");
			file.terms.push(term);
		}
		if (flags & FLAG_VERIFICATION) {
			for (let i = 0; i < count; i++) await need(reader, ENTRY, "the end of a file's verification entries");
		}
		if (flags & FLAG_METADATA) {
			const metadata = await need(reader, ENTRY, "the end of a file's metadata");
			file.sha256 = xetHashString(metadata.subarray(0, 32));
		}
		files.push(file);
	}
	// The xorb descriptions and the footer: read to the end (and to the size limit), not kept.
	await reader.drain();
	return files;
}
