import { blobToBase64 } from "../internal/base64.js";
import type { BaseArgs } from "../types.js";

type Args = BaseArgs & Record<string, unknown>;

/**
 * Blob-input tasks send the raw bytes: `inputs` becomes `data` (so `parameters` are not sent), and
 * the legacy `{ data }` form passes through.
 */
export function binaryInput(args: Args): Args {
	if (!("inputs" in args)) return args;
	const { inputs, ...rest } = args;
	return { ...rest, data: inputs };
}

export async function toBase64(input: unknown): Promise<string> {
	return blobToBase64(input as Blob | ArrayBuffer);
}
