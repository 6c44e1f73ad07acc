import { runTask } from "../../lib/request.js";
import type { BaseArgs, Options } from "../../types.js";
import { sentenceSimilaritySpec } from "../specs.js";
import type { SentenceSimilarityOutput } from "../../task-io.js";

export type SentenceSimilarityArgs = BaseArgs & {
	inputs: { source_sentence: string; sentences: string[] };
	parameters?: Record<string, unknown>;
};

/** Similarity of one sentence to several others. */
export async function sentenceSimilarity(
	args: SentenceSimilarityArgs,
	options?: Options,
): Promise<SentenceSimilarityOutput> {
	return runTask<SentenceSimilarityOutput>(args, options, sentenceSimilaritySpec);
}

export type { SentenceSimilarityOutput } from "../../task-io.js";
