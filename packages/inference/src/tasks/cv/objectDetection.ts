import { runTask } from "../../lib/request.js";
import type { BaseArgs, LegacyImageInput, Options } from "../../types.js";
import { objectDetectionSpec } from "../specs.js";
import type { ObjectDetectionOutput } from "../../task-io.js";

/** The Blob is sent as the raw body, so `parameters` are not sent (as in 3.12.1). */
export type ObjectDetectionArgs = BaseArgs &
	(
		| {
				inputs: Blob;
				parameters?: { threshold?: number };
		  }
		| LegacyImageInput
	);

/** Detect objects in an image. */
export async function objectDetection(
	args: ObjectDetectionArgs,
	options?: Options,
): Promise<ObjectDetectionOutput> {
	return runTask<ObjectDetectionOutput>(args, options, objectDetectionSpec);
}

export type { ObjectDetectionOutput } from "../../task-io.js";
