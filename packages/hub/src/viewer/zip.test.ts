import { deflateRawSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { listZip, readZipEntries, readZipEntry, ZIP_LIMITS } from "./zip.js";

interface Member {
	name: string;
	data: Buffer;
	deflate?: boolean;
	/** Overrides of the central directory record (a lying archive). */
	declaredSize?: number;
	flags?: number;
}

/** CRC-32 (IEEE), as zip stores it. */
function crc32(data: Buffer): number {
	let crc = 0xffffffff;
	for (const byte of data) {
		crc ^= byte;
		for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
	}
	return (crc ^ 0xffffffff) >>> 0;
}

/** A zip archive built byte by byte, so that hostile ones can be made too. */
function zip(members: readonly Member[], options: { declaredEntries?: number } = {}): Buffer {
	const locals: Buffer[] = [];
	const centrals: Buffer[] = [];
	let offset = 0;
	for (const member of members) {
		const name = Buffer.from(member.name, "utf8");
		const stored = member.deflate === true ? deflateRawSync(member.data) : member.data;
		const method = member.deflate === true ? 8 : 0;
		const flags = 0x800 | (member.flags ?? 0);
		const crc = crc32(member.data);
		const size = member.declaredSize ?? member.data.length;
		const local = Buffer.alloc(30);
		local.writeUInt32LE(0x04034b50, 0);
		local.writeUInt16LE(20, 4);
		local.writeUInt16LE(flags, 6);
		local.writeUInt16LE(method, 8);
		local.writeUInt32LE(crc, 14);
		local.writeUInt32LE(stored.length, 18);
		local.writeUInt32LE(size, 22);
		local.writeUInt16LE(name.length, 26);
		const central = Buffer.alloc(46);
		central.writeUInt32LE(0x02014b50, 0);
		central.writeUInt16LE(20, 4);
		central.writeUInt16LE(20, 6);
		central.writeUInt16LE(flags, 8);
		central.writeUInt16LE(method, 10);
		central.writeUInt32LE(crc, 16);
		central.writeUInt32LE(stored.length, 20);
		central.writeUInt32LE(size, 24);
		central.writeUInt16LE(name.length, 28);
		central.writeUInt32LE(offset, 42);
		locals.push(local, name, stored);
		centrals.push(central, name);
		offset += local.length + name.length + stored.length;
	}
	const directory = Buffer.concat(centrals);
	const end = Buffer.alloc(22);
	end.writeUInt32LE(0x06054b50, 0);
	const count = options.declaredEntries ?? members.length;
	end.writeUInt16LE(Math.min(count, 0xffff), 8);
	end.writeUInt16LE(Math.min(count, 0xffff), 10);
	end.writeUInt32LE(directory.length, 12);
	end.writeUInt32LE(offset, 16);
	if (count <= 0xffff) return Buffer.concat([...locals, directory, end]);
	// More entries than 16 bits count: ZIP64's end of central directory record and its locator.
	const record = Buffer.alloc(56);
	record.writeUInt32LE(0x06064b50, 0);
	record.writeBigUInt64LE(44n, 4);
	record.writeUInt16LE(45, 12);
	record.writeUInt16LE(45, 14);
	record.writeBigUInt64LE(BigInt(count), 24);
	record.writeBigUInt64LE(BigInt(count), 32);
	record.writeBigUInt64LE(BigInt(directory.length), 40);
	record.writeBigUInt64LE(BigInt(offset), 48);
	const locator = Buffer.alloc(20);
	locator.writeUInt32LE(0x07064b50, 0);
	locator.writeBigUInt64LE(BigInt(offset + directory.length), 8);
	locator.writeUInt32LE(1, 16);
	return Buffer.concat([...locals, directory, record, locator, end]);
}

/** Range reads of an archive in memory, counted. */
function reader(archive: Buffer): {
	read: (start: number, length: number) => Promise<Buffer>;
	reads: number[];
} {
	const reads: number[] = [];
	return {
		reads,
		read: async (start, length) => {
			reads.push(length);
			return archive.subarray(start, start + length);
		},
	};
}

const png = Buffer.from("89504e470d0a1a0a0000000d49484452000000020000000308060000009b", "hex");

describe("zip archives of folder datasets", () => {
	it("lists an archive's files (not its directories) and reads one, stored or deflated", async () => {
		const archive = zip([
			{ name: "images/", data: Buffer.alloc(0) },
			{ name: "images/a.png", data: png },
			{ name: "images/b.png", data: Buffer.concat([png, Buffer.alloc(500)]), deflate: true },
			{ name: "metadata.csv", data: Buffer.from("file_name,text\nimages/a.png,hello\n") },
		]);
		const { read } = reader(archive);
		expect(await listZip(read, archive.length)).toEqual({
			entries: [
				{ name: "images/a.png", compressedSize: png.length, uncompressedSize: png.length },
				{ name: "images/b.png", compressedSize: expect.any(Number), uncompressedSize: png.length + 500 },
				{ name: "metadata.csv", compressedSize: 34, uncompressedSize: 34 },
			],
		});
		expect(await readZipEntry(read, archive.length, "images/b.png")).toEqual({
			bytes: Buffer.concat([png, Buffer.alloc(500)]),
		});
		expect(await readZipEntry(read, archive.length, "images/c.png")).toEqual({
			problem: "it has no file images/c.png",
		});
	});

	it("reads several files' first bytes in one pass, each missing one a problem of its own", async () => {
		// Bytes that do not deflate to almost nothing (a zip bomb's ratio is refused).
		const big = Buffer.concat([
			png,
			Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7919) % 251)),
		]);
		const archive = zip([
			{ name: "a.png", data: png },
			{ name: "big.png", data: big, deflate: true },
			{ name: "c.png", data: png },
		]);
		const { read } = reader(archive);
		const found = await readZipEntries(read, archive.length, new Set(["big.png", "a.png", "gone.png"]), {
			maxBytes: 1000,
		});
		expect(found).toEqual({
			entries: new Map([
				["a.png", { bytes: png, size: png.length }],
				["big.png", { bytes: big.subarray(0, 1000), size: big.length }],
				["gone.png", { problem: "it has no file gone.png" }],
			]),
		});
		expect(await readZipEntries(read, 10, new Set(["a.png"]))).toEqual({
			problem: expect.stringMatching(/^it is not a readable zip archive/),
		});
	});

	it("reads the central directory with few range reads, never the whole blob", async () => {
		const members = Array.from({ length: 300 }, (_, index) => ({
			name: `train/${index}.png`,
			data: Buffer.concat([png, Buffer.alloc(2000)]),
		}));
		const archive = zip(members);
		const { read, reads } = reader(archive);
		const listing = await listZip(read, archive.length);
		expect("entries" in listing && listing.entries.length).toBe(300);
		expect(archive.length).toBeGreaterThan(600_000);
		expect(reads.reduce((sum, length) => sum + length, 0)).toBeLessThan(200_000);
	});

	it("refuses a zip bomb's ratio, an entry too large, too many entries, in all too much", async () => {
		const bomb = zip([{ name: "a.png", data: Buffer.alloc(1_000_000), deflate: true }]);
		expect(await listZip(reader(bomb).read, bomb.length)).toEqual({
			problem: expect.stringMatching(
				/^its entry a\.png would grow \d+ bytes to 1000000 \(more than 200 times: a zip bomb\)$/,
			),
		});
		const big = zip([{ name: "a.png", data: Buffer.alloc(2000) }]);
		expect(await listZip(reader(big).read, big.length, { ...ZIP_LIMITS, maxEntryBytes: 1000 })).toEqual({
			problem: "its entry a.png is 2000 bytes uncompressed, more than the 1000 read",
		});
		const two = zip([
			{ name: "a.png", data: Buffer.alloc(600) },
			{ name: "b.png", data: Buffer.alloc(600) },
		]);
		expect(await listZip(reader(two).read, two.length, { ...ZIP_LIMITS, maxTotalBytes: 1000 })).toEqual({
			problem: "its entries hold more than the 1000 bytes read uncompressed",
		});
		const many = zip(
			Array.from({ length: 100_000 }, (_, index) => ({ name: `${index}.png`, data: Buffer.alloc(0) })),
		);
		const { read, reads } = reader(many);
		expect(await listZip(read, many.length)).toEqual({
			problem: "it has 100000 entries, more than the 10000 read",
		});
		// Refused from the (ZIP64) end of central directory record alone, before the 4 MB of records are read.
		expect(many.length).toBeGreaterThan(4_000_000);
		expect(reads.reduce((sum, length) => sum + length, 0)).toBeLessThan(2 * 64 * 1024 + 100);
	});

	it("refuses unsafe names: `..`, absolute paths, backslashes", async () => {
		for (const [name, problem] of [
			["../evil.png", "invalid relative path: ../evil.png"],
			["images/../../evil.png", "invalid relative path: images/../../evil.png"],
			["/etc/evil.png", "absolute path: /etc/evil.png"],
			["C:/evil.png", "absolute path: C:/evil.png"],
			["images\\evil.png", "invalid characters in fileName: images\\evil.png"],
		] as const) {
			const archive = zip([{ name, data: png }]);
			expect(await listZip(reader(archive).read, archive.length)).toEqual({
				problem: `its central directory cannot be read: ${problem}`,
			});
		}
	});

	it("refuses an encrypted entry, a truncated file, a lying central directory, a file that is no zip", async () => {
		const encrypted = zip([{ name: "a.png", data: Buffer.alloc(100), deflate: true, flags: 1 }]);
		expect(await listZip(reader(encrypted).read, encrypted.length)).toEqual({
			problem: "its entry a.png is encrypted",
		});
		const whole = zip([
			{ name: "a.png", data: png },
			{ name: "b.png", data: png },
		]);
		const truncated = whole.subarray(0, whole.length - 30);
		expect(await listZip(reader(truncated).read, truncated.length)).toEqual({
			problem:
				"it is not a readable zip archive: End of central directory record signature not found. Either not a zip file, or file is truncated.",
		});
		const lyingCount = zip([{ name: "a.png", data: png }], { declaredEntries: 3 });
		expect(await listZip(reader(lyingCount).read, lyingCount.length)).toEqual({
			problem: expect.stringMatching(/^its central directory cannot be read: /),
		});
		const lyingSize = zip([{ name: "a.png", data: png, declaredSize: 10 }]);
		expect(await listZip(reader(lyingSize).read, lyingSize.length)).toEqual({
			problem: `its central directory cannot be read: compressed/uncompressed size mismatch for stored file: ${png.length} != 10`,
		});
		const lyingDeflate = zip([{ name: "a.png", data: Buffer.alloc(1000), deflate: true, declaredSize: 100 }]);
		const { read } = reader(lyingDeflate);
		expect(await readZipEntry(read, lyingDeflate.length, "a.png")).toEqual({
			problem: expect.stringMatching(/^its entry a\.png cannot be read: /),
		});
		const text = Buffer.from("not a zip at all");
		expect(await listZip(reader(text).read, text.length)).toEqual({
			problem: expect.stringMatching(/^it is not a readable zip archive: /),
		});
	});
});
