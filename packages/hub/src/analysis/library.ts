import { isRecord, stringOf } from "./json.js";
import { hasFile, hasFileEnding, type RevisionSnapshot } from "./snapshot.js";

/**
 * The library a repository's file layout says it is for, when its card does not say. The public hub
 * decides from the files the libraries write (its model page reads "Unable to determine this model's
 * library" when none matches). Checked in this order, first match wins, because several layouts
 * contain a transformers `config.json` that is not the point of the repository:
 *
 * - peft writes `adapter_config.json` (the catalogue counts peft downloads by it; the public hub files
 *   adapter repositories such as tloen/alpaca-lora-7b under `peft`, not `transformers`);
 * - sentence-transformers writes `modules.json` and `config_sentence_transformers.json` beside the
 *   transformers files of its first module (public hub: `sentence-transformers`, with transformersInfo);
 * - diffusers writes `model_index.json` naming the pipeline class (catalogue: `model_index` counts);
 * - timm's `push_to_hub` writes a `config.json` with `architecture` (singular) and `pretrained_cfg`
 *   (timm 1.0 `_hub.py`; public hub config e.g. `{architecture: "resnet50", num_classes: 1000}`);
 * - open_clip writes `open_clip_config.json` (and `open_clip_model.safetensors`, the catalogue's counter);
 * - skops writes a `config.json` holding a `sklearn` object (public hub config.sklearn, e.g.
 *   scikit-learn/Fish-Weight), and `*.skops` files; the catalogue counts `sklearn_model.joblib`;
 * - speechbrain's pretrained interfaces load `hyperparams.yaml` (the catalogue's counter);
 * - setfit writes `config_setfit.json`, span-marker a `config.json` with `span_marker_version`, GLiNER
 *   `gliner_config.json`, MLC `mlc-chat-config.json`, Keras 3 `*.keras`, NeMo `*.nemo`, Unity Sentis
 *   `*.sentis` (each the file the catalogue counts downloads by);
 * - transformers: a `config.json` with `model_type` or `architectures`.
 *
 * GGUF-only repositories get no library: on the public hub they carry the `gguf` tag and no
 * `library_name` (e.g. bartowski/Meta-Llama-3.1-8B-Instruct-GGUF); safetensors files alone name none either.
 */
export interface LibraryLayout {
	library: string;
	matches: (snapshot: RevisionSnapshot) => boolean;
}

const config = (snapshot: RevisionSnapshot): Record<string, unknown> | undefined =>
	snapshot.json["config.json"];

export const LIBRARY_LAYOUTS: readonly LibraryLayout[] = [
	{ library: "peft", matches: (s) => hasFile(s, "adapter_config.json") },
	{
		library: "sentence-transformers",
		matches: (s) => hasFile(s, "config_sentence_transformers.json") || hasFile(s, "modules.json"),
	},
	{ library: "setfit", matches: (s) => hasFile(s, "config_setfit.json") },
	{ library: "diffusers", matches: (s) => hasFile(s, "model_index.json") },
	{
		library: "timm",
		matches: (s) => stringOf(config(s)?.architecture) !== undefined && isRecord(config(s)?.pretrained_cfg),
	},
	{ library: "open_clip", matches: (s) => hasFile(s, "open_clip_config.json") },
	{
		library: "sklearn",
		matches: (s) =>
			isRecord(config(s)?.sklearn) || hasFileEnding(s, ".skops") || hasFile(s, "sklearn_model.joblib"),
	},
	{ library: "speechbrain", matches: (s) => hasFile(s, "hyperparams.yaml") },
	{ library: "span-marker", matches: (s) => config(s)?.span_marker_version !== undefined },
	{ library: "gliner", matches: (s) => hasFile(s, "gliner_config.json") },
	{ library: "mlc-llm", matches: (s) => hasFile(s, "mlc-chat-config.json") },
	{ library: "keras", matches: (s) => hasFileEnding(s, ".keras") },
	{ library: "nemo", matches: (s) => hasFileEnding(s, ".nemo") },
	{ library: "unity-sentis", matches: (s) => hasFileEnding(s, ".sentis") },
	{
		library: "transformers",
		matches: (s) => stringOf(config(s)?.model_type) !== undefined || Array.isArray(config(s)?.architectures),
	},
];

/** The library the files say, or undefined. */
export function detectLibrary(snapshot: RevisionSnapshot): string | undefined {
	return LIBRARY_LAYOUTS.find((layout) => layout.matches(snapshot))?.library;
}
