/**
 * Small but real media files: what the snippets read from disk (the example file names) and what the
 * servers hand back (images the Python clients decode with Pillow, audio, video). Kinds are told by
 * their leading bytes, the way media servers sniff what they are sent.
 */

/** A 1×1 RGBA PNG (Pillow opens it). */
export const PNG = Buffer.from(
	"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
	"base64",
);

/** JPEG start of image, a JFIF APP0 segment, end of image: enough for content sniffing. */
export const JPEG = Buffer.from([
	0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01,
	0x00, 0x00, 0xff, 0xd9,
]);

/** A mono 16-bit 8 kHz WAV with 8 silent samples. */
export const WAV = (() => {
	const samples = Buffer.alloc(16);
	const header = Buffer.alloc(44);
	header.write("RIFF", 0, "ascii");
	header.writeUInt32LE(36 + samples.length, 4);
	header.write("WAVE", 8, "ascii");
	header.write("fmt ", 12, "ascii");
	header.writeUInt32LE(16, 16);
	header.writeUInt16LE(1, 20); // PCM
	header.writeUInt16LE(1, 22); // mono
	header.writeUInt32LE(8000, 24);
	header.writeUInt32LE(16000, 28);
	header.writeUInt16LE(2, 32);
	header.writeUInt16LE(16, 34);
	header.write("data", 36, "ascii");
	header.writeUInt32LE(samples.length, 40);
	return Buffer.concat([header, samples]);
})();

/** `fLaC` and a STREAMINFO metadata block (last-block flag set): a FLAC stream with no frames. */
export const FLAC = Buffer.concat([
	Buffer.from("fLaC", "ascii"),
	Buffer.from([0x80, 0x00, 0x00, 0x22]),
	Buffer.from([0x10, 0x00, 0x10, 0x00, 0, 0, 0, 0, 0, 0, 0x0b, 0xb8, 0x00, 0xf0, 0, 0, 0, 0]),
	Buffer.alloc(16),
]);

/** An MP3 frame header after an ID3v2 tag header. */
const MP3 = Buffer.concat([
	Buffer.from("ID3", "ascii"),
	Buffer.from([4, 0, 0, 0, 0, 0, 0]),
	Buffer.from([0xff, 0xfb, 0x90, 0x64]),
	Buffer.alloc(8),
]);

/** An ISO-BMFF `ftyp` box (MP4). */
export const MP4 = Buffer.concat([
	Buffer.from([0, 0, 0, 0x18]),
	Buffer.from("ftypisom", "ascii"),
	Buffer.from([0, 0, 2, 0]),
	Buffer.from("isomiso2", "ascii"),
]);

export type MediaKind = "png" | "jpeg" | "wav" | "flac" | "mp3" | "mp4" | "webm" | "ogg";

const MEDIA_TYPES: Record<MediaKind, string> = {
	png: "image/png",
	jpeg: "image/jpeg",
	wav: "audio/wav",
	flac: "audio/flac",
	mp3: "audio/mpeg",
	mp4: "video/mp4",
	webm: "video/webm",
	ogg: "audio/ogg",
};

export function mediaTypeOfKind(kind: MediaKind): string {
	return MEDIA_TYPES[kind];
}

/** What the bytes are, by their signature; undefined when unknown. */
export function sniff(bytes: Uint8Array): MediaKind | undefined {
	const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	if (b.subarray(0, 8).equals(PNG.subarray(0, 8))) return "png";
	if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "jpeg";
	if (b.toString("ascii", 0, 4) === "RIFF" && b.toString("ascii", 8, 12) === "WAVE") return "wav";
	if (b.toString("ascii", 0, 4) === "fLaC") return "flac";
	if (b.toString("ascii", 0, 3) === "ID3" || (b[0] === 0xff && ((b[1] ?? 0) & 0xe0) === 0xe0)) return "mp3";
	if (b.toString("ascii", 4, 8) === "ftyp") return "mp4";
	if (b[0] === 0x1a && b[1] === 0x45 && b[2] === 0xdf && b[3] === 0xa3) return "webm";
	if (b.toString("ascii", 0, 4) === "OggS") return "ogg";
	return undefined;
}

/** The file a snippet reads, by its extension (the examples name `sample1.flac`, `cats.jpg`, `cat.png`). */
export function sampleFile(name: string): Buffer {
	const extension = name.slice(name.lastIndexOf(".") + 1).toLowerCase();
	const files: Record<string, Buffer> = {
		png: PNG,
		jpg: JPEG,
		jpeg: JPEG,
		wav: WAV,
		flac: FLAC,
		mp3: MP3,
		mp4: MP4,
	};
	const file = files[extension];
	if (!file) throw new Error(`no sample file for ${name}`);
	return file;
}

/** `data:{type};base64,{bytes}` split apart, or undefined when `value` is not such a URL. */
export function parseDataUrl(value: unknown): { type: string; bytes: Buffer } | undefined {
	if (typeof value !== "string") return undefined;
	const match = /^data:([^;,]+)?(?:;[^;,]+)*;base64,(.*)$/s.exec(value);
	if (!match) return undefined;
	return { type: match[1] ?? "", bytes: Buffer.from(match[2] ?? "", "base64") };
}

/** Bytes from a base64 string that round-trips (so that a file name or a data URL is not taken for base64). */
export function decodeBase64(value: unknown): Buffer | undefined {
	if (typeof value !== "string" || value.length === 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(value))
		return undefined;
	const bytes = Buffer.from(value, "base64");
	return bytes.toString("base64") === value ? bytes : undefined;
}
