/**
 * The task functions' own input shaping (used when the provider has no shaping of its own): what
 * 3.12.1's task files do to their arguments before the request is built.
 */
import { fileBase64, type FileInput } from "../providers/media.js";
import type { CallArgs } from "../providers/types.js";

/**
 * Blob-input tasks send the raw bytes: `inputs` becomes `data` (so `parameters` are not sent), and
 * the legacy `{ data }` form passes through.
 */
export function binaryInput(args: CallArgs): CallArgs {
	if (!("inputs" in args)) return args;
	const { inputs, ...rest } = args;
	return { ...rest, data: inputs };
}

/**
 * imageToImage: without parameters the image is the raw body; with parameters it is sent base64 in
 * JSON. (3.12.1 also drops provider and endpointUrl in the raw case; we keep them.)
 */
export function imageToImageInput(args: CallArgs): CallArgs | Promise<CallArgs> {
	const { inputs, ...rest } = args;
	if (!args.parameters) return { ...rest, data: inputs };
	return fileBase64(inputs as FileInput).then((image) => ({ ...args, inputs: image }));
}

/** zeroShotImageClassification: `inputs` (a Blob, or `{image}`) becomes `{image: base64}`. */
export async function zeroShotImageInput(args: CallArgs): Promise<CallArgs> {
	const inputs = args.inputs;
	const image = inputs instanceof Blob ? inputs : (inputs as { image: FileInput }).image;
	return { ...args, inputs: { image: await fileBase64(image) } };
}

/** Document and visual question answering: `{question, image: base64}`. */
export async function questionImageInput(args: CallArgs): Promise<CallArgs> {
	const { question, image } = args.inputs as { question: string; image: FileInput };
	return { ...args, inputs: { question, image: await fileBase64(image) } };
}
