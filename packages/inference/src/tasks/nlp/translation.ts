import { runTask } from "../../lib/request.js";
import type { BaseArgs, Options } from "../../types.js";
import { translationSpec } from "../specs.js";
import type { TranslationOutput } from "../../task-io.js";

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

/** Translate a text (an array comes back when the server returns more than one translation). */
export async function translation(args: TranslationArgs, options?: Options): Promise<TranslationOutput> {
	return runTask<TranslationOutput>(args, options, translationSpec);
}

export type { TranslationOutput } from "../../task-io.js";
