import { runTask } from "../../lib/request.js";
import { hfInferenceTranslation } from "../../providers/hf-inference.js";
import type { HelperTable } from "../../providers/types.js";
import type { BaseArgs, Options } from "../../types.js";

export type TranslationArgs = BaseArgs & {
	inputs: string;
	parameters?: {
		clean_up_tokenization_spaces?: boolean;
		generate_parameters?: Record<string, unknown>;
		src_lang?: string;
		tgt_lang?: string;
		truncation?: "do_not_truncate" | "longest_first" | "only_first" | "only_second";
	};
};

export type TranslationOutput = { translation_text: string } | Array<{ translation_text: string }>;

const HELPERS: HelperTable = { "hf-inference": hfInferenceTranslation };

/** Translate a text (an array comes back when the server returns more than one translation). */
export async function translation(args: TranslationArgs, options?: Options): Promise<TranslationOutput> {
	return runTask<TranslationOutput>(args, options, { task: "translation", helpers: HELPERS });
}
