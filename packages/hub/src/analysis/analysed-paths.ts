import type { RevisionFile } from "./types.js";

/**
 * Every file analysis looks at, declared once: the files it reads (README.md's head, the small JSON
 * files, safetensors and GGUF headers) and the files whose presence decides the library, the format
 * tags or the processor (library.ts, tags.ts, transformers.ts). Analysis is handed only these files
 * (analysedFiles), and `hasFile`/`hasFileEnding` refuse a name not declared here, so a commit that
 * changes no such path cannot change the analysis: services/analysis.ts then carries the previous
 * analysis forward instead of reading the revision again.
 */

/**
 * The small JSON files analysis reads whole (each up to MAX_ANALYSED_JSON_BYTES), at the repository
 * root: transformers `config.json`, diffusers `model_index.json`, peft `adapter_config.json`, and the
 * tokenizer and preprocessor configurations that decide `transformersInfo.processor` and
 * `config.tokenizer_config`. Other files matter by their presence only.
 */
export const ANALYSED_JSON_FILES = [
	"config.json",
	"model_index.json",
	"adapter_config.json",
	"tokenizer_config.json",
	"preprocessor_config.json",
] as const;

/**
 * Files whose presence means a tokenizer loads with AutoTokenizer (transformers.ts): what
 * `save_pretrained` of a tokenizer writes (tokenizer.json for fast tokenizers, vocab files for slow ones).
 */
export const TOKENIZER_FILES = [
	"tokenizer_config.json",
	"tokenizer.json",
	"vocab.txt",
	"vocab.json",
	"spiece.model",
	"sentencepiece.bpe.model",
	"tokenizer.model",
] as const;

/** Files at the repository root, by exact path. */
const ROOT_FILES: ReadonlySet<string> = new Set<string>([
	// Read: the card's head (cards, arxiv links) and the small JSON files (read.ts).
	"README.md",
	...ANALYSED_JSON_FILES,
	// Present or not (library.ts): peft, sentence-transformers, setfit, open_clip, sklearn, speechbrain,
	// GLiNER, MLC.
	"config_sentence_transformers.json",
	"modules.json",
	"config_setfit.json",
	"open_clip_config.json",
	"sklearn_model.joblib",
	"hyperparams.yaml",
	"gliner_config.json",
	"mlc-chat-config.json",
	// The processor (transformers.ts): a processor's file, and the files a tokenizer writes.
	"processor_config.json",
	...TOKENIZER_FILES,
]);

/**
 * Files anywhere, by how their path ends: weights whose headers are read (safetensors.ts, and its
 * indexes at the root or in diffusers' module folders; gguf.ts, shards included), and the formats
 * whose presence gives a library (library.ts: skops, Keras, NeMo, Sentis) or a format tag (tags.ts).
 */
const SUFFIXES: readonly string[] = [
	".safetensors",
	".safetensors.index.json",
	".gguf",
	".skops",
	".keras",
	".nemo",
	".sentis",
	"rust_model.ot",
	".onnx",
	"openvino_model.xml",
	".tflite",
];

/** Files anywhere, by pattern: the format tags of PyTorch, TensorFlow, JAX and Core ML (tags.ts). */
export const FORMAT_FILE_PATTERNS = {
	pytorch: /(^|\/)pytorch_model[^/]*\.bin$/,
	tf: /(^|\/)tf_model[^/]*\.h5$/,
	jax: /(^|\/)flax_model[^/]*\.msgpack$/,
	coreml: /\.(mlmodel|mlpackage\/)/,
} as const;

/** Whether analysis looks at the file at `path`. */
export function isAnalysedPath(path: string): boolean {
	if (ROOT_FILES.has(path)) return true;
	for (const suffix of SUFFIXES) if (path.endsWith(suffix)) return true;
	for (const pattern of Object.values(FORMAT_FILE_PATTERNS)) if (pattern.test(path)) return true;
	return false;
}

/** The files of a revision analysis may look at (the others cannot change what it derives). */
export function analysedFiles<File extends RevisionFile>(files: readonly File[]): File[] {
	return files.filter((file) => isAnalysedPath(file.path));
}
