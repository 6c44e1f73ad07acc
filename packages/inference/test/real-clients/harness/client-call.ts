/**
 * The call a user makes with `@modelhub/inference` for a case: the task function named after the task
 * (`chatCompletion`/`chatCompletionStream` for chat, `request` with the task where there is none or
 * where the model's answer is not what the task function returns),
 * with the case's example (the one its snippets send) as arguments and the case's token. Its request is
 * the one every snippet of the case must send. File examples are passed as Blobs of the sample file;
 * when the client refuses a format before sending (fal.ai takes no FLAC), the same sample is tried as
 * WAV, then MP3 — the first one the client sends is the call.
 */
import * as inference from "../../../src/index.js";
import { ZERO_SHOT_IMAGE_LABELS, ZERO_SHOT_TEXT_LABELS } from "../../../src/snippets/inputs.js";
import { answersAudioFile } from "../protocols/hf-inference.js";
import { mediaTypeOfKind, sampleFile, sniff } from "../protocols/media.js";
import type { SnippetCase } from "./cases.js";

type TaskFunction = (args: Record<string, unknown>, options?: Record<string, unknown>) => unknown;

const functions = inference as unknown as Record<string, TaskFunction | undefined>;

function camelCase(task: string): string {
	return task.replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

function blobOf(name: string): Blob {
	const bytes = sampleFile(name);
	const kind = sniff(bytes);
	return new Blob([new Uint8Array(bytes)], { type: kind ? mediaTypeOfKind(kind) : "" });
}

/** Same base name, other audio containers: what to try when the client refuses a format. */
function fileVariants(name: string): string[] {
	const stem = name.replace(/\.[^.]+$/, "");
	return [...new Set([name, `${stem}.wav`, `${stem}.mp3`])];
}

/** The task function's arguments for the example, with `file` as the example file. */
function argumentsFor(c: SnippetCase, file?: string): Record<string, unknown> {
	const example = c.example;
	switch (example.kind) {
		case "messages":
			return { messages: example.messages };
		case "text":
			return c.pipeline === "zero-shot-classification"
				? { inputs: example.text, parameters: { candidate_labels: [...ZERO_SHOT_TEXT_LABELS] } }
				: { inputs: example.text };
		case "table":
			return { inputs: { data: example.value } };
		case "file": {
			const blob = blobOf(file ?? example.fileName);
			return c.pipeline === "zero-shot-image-classification"
				? { inputs: blob, parameters: { candidate_labels: [...ZERO_SHOT_IMAGE_LABELS] } }
				: { inputs: blob };
		}
		case "object": {
			const { image, ...rest } = example.value as Record<string, unknown>;
			if (typeof image !== "string") return { inputs: example.value };
			const blob = blobOf(file ?? image);
			// imageToImage and imageToVideo take the image as `inputs` and the rest as parameters.
			if (c.pipeline === "image-to-image" || c.pipeline === "image-to-video") {
				return { inputs: blob, parameters: rest };
			}
			return { inputs: { ...rest, image: blob } };
		}
	}
}

function exampleFile(c: SnippetCase): string | undefined {
	const example = c.example;
	if (example.kind === "file") return example.fileName;
	const image = example.kind === "object" ? example.value.image : undefined;
	return typeof image === "string" ? image : undefined;
}

export interface ClientOutcome {
	/** The error the call ended with, if it did not succeed. */
	error?: string;
	/** The example file the call sent, when the task takes one. */
	file?: string;
}

/**
 * Calls the client once (or once per file variant until it sends a request). `fetchFor(run)` is a
 * fetch that tags requests with the run id and sends them to the protocol servers.
 */
export async function callClient(
	c: SnippetCase,
	fetchFor: (run: string) => typeof fetch,
	sent: (run: string) => boolean,
): Promise<ClientOutcome> {
	const chat = c.task === "conversational";
	const name = chat ? (c.streaming ? "chatCompletionStream" : "chatCompletion") : camelCase(c.task);
	// hf-inference answers speech of non-transformers models with JSON samples, not the audio Blob the
	// task functions return: the call for those models is request(), which hands back what came.
	const samples =
		c.provider === "hf-inference" &&
		(c.task === "text-to-speech" || c.task === "text-to-audio") &&
		!answersAudioFile(c.model.library_name);
	const own = samples ? undefined : functions[name];
	const fn = own ?? (functions.request as TaskFunction);
	const run = `${c.id}.client`;
	const options: Record<string, unknown> = {
		fetch: fetchFor(run),
		retry_on_error: false,
		...(c.billTo ? { billTo: c.billTo } : {}),
		...(own ? {} : { task: c.task }),
	};
	const files = exampleFile(c);
	let outcome: ClientOutcome = {};
	for (const file of files ? fileVariants(files) : [undefined]) {
		const args = { ...argumentsFor(c, file), accessToken: c.token, provider: c.provider, model: c.model.id };
		try {
			const result = fn(args, options);
			if (result && typeof result === "object" && Symbol.asyncIterator in result) {
				for await (const _ of result as AsyncIterable<unknown>) {
					// The stream is read to its end, as a user's loop does.
				}
			} else {
				await result;
			}
			return { file };
		} catch (error) {
			outcome = { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error), file };
			if (sent(run)) return outcome;
		}
	}
	return outcome;
}
