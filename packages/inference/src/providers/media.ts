/** File inputs as providers want them: data: URLs, bare base64, multipart forms. */
import { InferenceInputError } from "../core/errors.js";
import { bytesToBase64 } from "../internal/base64.js";
import type { CallArgs } from "./types.js";

export type FileInput = Blob | ArrayBuffer | ArrayBufferView;

export function isFileInput(value: unknown): value is FileInput {
	return value instanceof Blob || value instanceof ArrayBuffer || ArrayBuffer.isView(value);
}

function viewBytes(input: ArrayBuffer | ArrayBufferView): Uint8Array {
	return input instanceof ArrayBuffer
		? new Uint8Array(input)
		: new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
}

/** The bytes of a file input: at once for buffers, after a read for Blobs. */
function fileBytes(input: FileInput): Uint8Array | Promise<Uint8Array> {
	if (input instanceof Blob) return input.arrayBuffer().then((buffer) => new Uint8Array(buffer));
	return viewBytes(input);
}

/** Base64 of a file input (no `data:` prefix). */
export async function fileBase64(input: FileInput): Promise<string> {
	return bytesToBase64(await fileBytes(input));
}

/** The MIME type of a file input: the Blob's own, else the provider's default. */
export function fileType(input: FileInput, fallback: string): string {
	return input instanceof Blob && input.type ? input.type : fallback;
}

/** `data:{type};base64,…` of a file input; `type` defaults to the Blob's own, then `fallback`. */
export async function fileDataUrl(input: FileInput, fallback: string, type?: string): Promise<string> {
	return `data:${type ?? fileType(input, fallback)};base64,${await fileBase64(input)}`;
}

/** The task's file argument: `inputs`, or the legacy `data`. */
export function fileArgument(args: CallArgs, what: string): { file: FileInput; rest: CallArgs } {
	const { inputs, data, ...rest } = args;
	const file = "data" in args ? data : inputs;
	if (!isFileInput(file)) {
		throw new InferenceInputError(`Expected a Blob or ArrayBuffer as the ${what} input, got ${typeof file}.`);
	}
	return { file, rest };
}

/** Audio file extensions by MIME type, for the file name of multipart uploads (OpenAI-style transcriptions). */
const AUDIO_EXTENSIONS: Readonly<Record<string, string>> = {
	"audio/wav": "wav",
	"audio/x-wav": "wav",
	"audio/wave": "wav",
	"audio/mpeg": "mp3",
	"audio/mp3": "mp3",
	"audio/mp4": "mp4",
	"audio/m4a": "m4a",
	"audio/x-m4a": "m4a",
	"audio/flac": "flac",
	"audio/x-flac": "flac",
	"audio/ogg": "ogg",
	"audio/webm": "webm",
};

/** `audio.{ext}` from the Blob's type (parameters such as `;codecs=opus` ignored); `wav` by default. */
function audioFileName(type: string | undefined): string {
	const base = (type ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
	return `audio.${Object.prototype.hasOwnProperty.call(AUDIO_EXTENSIONS, base) ? AUDIO_EXTENSIONS[base] : "wav"}`;
}

/**
 * A multipart form: the `file` part, then one text field per value (strings as they are, numbers and
 * booleans as text, objects as JSON), in order; undefined and null values are left out.
 */
export function multipartForm(file: unknown, fields: Record<string, unknown>): FormData {
	if (typeof file !== "string" && !isFileInput(file)) {
		throw new InferenceInputError("Expected an audio file (a Blob or ArrayBuffer) to upload.");
	}
	const form = new FormData();
	if (typeof file === "string") form.append("file", file);
	else {
		const blob = asBlob(file);
		form.append("file", blob, audioFileName(blob.type));
	}
	for (const [key, value] of Object.entries(fields)) {
		if (value === undefined || value === null) continue;
		if (typeof value === "string") form.append(key, value);
		else if (typeof value === "number" || typeof value === "boolean") form.append(key, String(value));
		else form.append(key, JSON.stringify(value));
	}
	return form;
}

/** A file input as a Blob (buffers wrapped, typed `fallback`). */
export function asBlob(input: FileInput, fallback?: string): Blob {
	if (input instanceof Blob) return input;
	return new Blob([viewBytes(input) as Uint8Array<ArrayBuffer>], fallback ? { type: fallback } : {});
}
