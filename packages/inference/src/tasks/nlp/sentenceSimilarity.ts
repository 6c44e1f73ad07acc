import { runTask } from "../../lib/request.js";
import { hfInferenceSentenceSimilarity } from "../../providers/hf-inference.js";
import type { HelperTable } from "../../providers/types.js";
import type { BaseArgs, Options } from "../../types.js";

export type SentenceSimilarityArgs = BaseArgs & {
	inputs: { source_sentence: string; sentences: string[] };
	parameters?: Record<string, unknown>;
};

export type SentenceSimilarityOutput = number[];

const HELPERS: HelperTable = { "hf-inference": hfInferenceSentenceSimilarity };

/** Similarity of one sentence to several others. */
export async function sentenceSimilarity(
	args: SentenceSimilarityArgs,
	options?: Options,
): Promise<SentenceSimilarityOutput> {
	return runTask<SentenceSimilarityOutput>(args, options, { task: "sentence-similarity", helpers: HELPERS });
}
