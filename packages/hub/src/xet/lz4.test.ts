import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { pythonEnv } from "../../../../test-support/python-env.js";
import { Lz4Error, lz4FrameDecompress } from "./lz4.js";

// Frames written by the reference LZ4 library (python-lz4), with every frame option xet-core or any
// other writer may use, decoded by the hub's decoder.
const SCRIPT = `
import base64, json, os, random, lz4.frame as f
random.seed(7)
text = ("The quick brown fox jumps over the lazy dog. " * 4000).encode()
noise = bytes(random.getrandbits(8) for _ in range(70000))
runs = b"a" * 100000 + b"ab" * 30000 + bytes(range(256)) * 300
floats = b"".join(int(1000 + (i % 97)).to_bytes(4, "little") for i in range(40000))
cases = []
for name, data in [("empty", b""), ("text", text), ("noise", noise), ("runs", runs), ("floats", floats), ("one", b"x")]:
    for linked in (True, False):
        for checksums in (True, False):
            for size in (True, False):
                frame = f.compress(data, block_size=f.BLOCKSIZE_MAX64KB, block_linked=linked,
                    content_checksum=checksums, block_checksum=checksums, store_size=size)
                cases.append({"name": f"{name}-{linked}-{checksums}-{size}", "frame": base64.b64encode(frame).decode(),
                    "data": base64.b64encode(data).decode()})
print(json.dumps(cases))
`;

describe("LZ4 frames", () => {
	const cases = JSON.parse(
		execFileSync(pythonEnv().python, ["-c", SCRIPT], { encoding: "utf8", maxBuffer: 1 << 28 }),
	) as Array<{
		name: string;
		frame: string;
		data: string;
	}>;

	it("decodes what the reference library writes, linked or independent blocks, with or without checksums", () => {
		expect(cases.length).toBe(48);
		for (const { name, frame, data } of cases) {
			const expected = Buffer.from(data, "base64");
			const decoded = lz4FrameDecompress(Buffer.from(frame, "base64"), expected.length);
			expect(Buffer.from(decoded).equals(expected), name).toBe(true);
		}
	});

	it("refuses frames that are truncated, corrupt, or larger or smaller than announced", () => {
		const { frame, data } = cases.find((c) => c.name === "text-True-False-False") as {
			frame: string;
			data: string;
		};
		const bytes = Buffer.from(frame, "base64");
		const size = Buffer.from(data, "base64").length;
		expect(() => lz4FrameDecompress(bytes.subarray(0, bytes.length - 20), size)).toThrow(Lz4Error);
		expect(() => lz4FrameDecompress(bytes, size - 1)).toThrow(/larger than announced/);
		expect(() => lz4FrameDecompress(bytes, size + 1)).toThrow(/announced/);
		expect(() => lz4FrameDecompress(Buffer.from("not a frame"), 5)).toThrow(/not an LZ4 frame/);
		// A match reaching back before the start of the output: one literal, then offset 5.
		const block = Buffer.from([0x10, 0x61, 0x05, 0x00]);
		const size4 = Buffer.alloc(4);
		size4.writeUInt32LE(block.length);
		const forged = Buffer.concat([
			Buffer.from([0x04, 0x22, 0x4d, 0x18, 0x60, 0x40, 0x82]),
			size4,
			block,
			Buffer.alloc(4),
		]);
		expect(() => lz4FrameDecompress(forged, 5)).toThrow(/match offset out of range/);
	});
});
