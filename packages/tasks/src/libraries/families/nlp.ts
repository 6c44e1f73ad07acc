/**
 * Natural-language processing libraries: taggers, topic models, retrievers, embedders and pipelines.
 */
import { isPyIdentifier, pyIdentifier, pyString, shComment, shWord } from "../../literals/index.js";
import { defineLibrary, hasTag, nameWithoutNamespace, python, shell } from "../define.js";
import type { CodeBlock, LibraryUiElement, ModelData } from "../types.js";

const ALLENNLP_QA_PASSAGE = "My name is Wolfgang and I live in Berlin";
const ALLENNLP_QA_QUESTION = "Where do I live?";

const LIGHTNING_IR_QUERY = "query";
const LIGHTNING_IR_DOCS = ["doc1", "doc2", "doc3"];

const SAELENS_RELEASES_LIST = "https://github.com/jbloomAus/SAELens/blob/main/sae_lens/pretrained_saes.yaml";
/** A release of SAELens' registry and one of its SAE ids, as its documentation shows them. */
const SAELENS_REGISTRY_EXAMPLE = { release: "gpt2-small-res-jb", saeId: "blocks.8.hook_resid_pre" };

const PADDLENLP_UNKNOWN_TYPE = "# ⚠️ Type of model unknown";

/**
 * A pip install of a URL as a terminal command, with the notebook form (`!pip`) as a comment above it:
 * notebook escapes are not Python, so they never go into a Python block.
 */
function pipInstallUrl(url: string): CodeBlock {
	return shell(`${shComment(`In a notebook cell: !pip install ${shWord(url)}`)}\npip install ${shWord(url)}`);
}

const allennlp = (model: ModelData): CodeBlock[] => {
	const load = `import allennlp_models
from allennlp.predictors.predictor import Predictor

predictor = Predictor.from_path(${pyString(`hf://${model.id}`)})`;
	if (!hasTag(model, "question-answering")) return [python(load)];
	return [
		python(`${load}

predictor_input = {
    "passage": ${pyString(ALLENNLP_QA_PASSAGE)},
    "question": ${pyString(ALLENNLP_QA_QUESTION)},
}
predictions = predictor.predict_json(predictor_input)`),
	];
};

const lightningIr = (model: ModelData): CodeBlock[] => {
	const id = pyString(model.id);
	const score = `model.score(${pyString(LIGHTNING_IR_QUERY)}, [${LIGHTNING_IR_DOCS.map(pyString).join(", ")}])`;
	const header = "# pip install lightning-ir (https://github.com/webis-de/lightning-ir)";
	// "bi-encoder" wins when both tags are present.
	if (hasTag(model, "bi-encoder") || hasTag(model, "cross-encoder")) {
		const module = hasTag(model, "bi-encoder") ? "BiEncoderModule" : "CrossEncoderModule";
		return [
			python(`${header}
from lightning_ir import ${module}

model = ${module}(${id})
scores = ${score}`),
		];
	}
	// Untagged: the model kind is unknown, so show the other module as a commented alternative.
	return [
		python(`${header}
from lightning_ir import BiEncoderModule, CrossEncoderModule

model = BiEncoderModule(${id})
# model = CrossEncoderModule(${id})
scores = ${score}`),
	];
};

const paddlenlp = (model: ModelData): CodeBlock[] => {
	const architecture = model.config?.architectures?.[0];
	const modelClass = pyIdentifier(architecture, "AutoModel");
	// An absent, empty or unusable architecture means we fall back to AutoModel and say so.
	const known = architecture !== undefined && isPyIdentifier(architecture);
	const id = pyString(model.id);
	return [
		python(`${known ? "" : `${PADDLENLP_UNKNOWN_TYPE}\n`}from paddlenlp.transformers import AutoTokenizer, ${modelClass}

tokenizer = AutoTokenizer.from_pretrained(${id}, from_hf_hub=True)
model = ${modelClass}.from_pretrained(${id}, from_hf_hub=True)`),
	];
};

/** A spaCy pipeline repository holds its package as a wheel; it is installed, then loaded by name. */
const spacy = (model: ModelData, hubUrl: string | undefined): CodeBlock[] => {
	const name = nameWithoutNamespace(model.id);
	const wheelUrl = `https://huggingface.co/${model.id}/resolve/main/${name}-any-py3-none-any.whl`;
	let code = `import spacy

nlp = spacy.load(${pyString(name)})`;
	// The installed package can also be imported directly, when its name is a Python identifier.
	if (isPyIdentifier(name)) {
		code += `

# or import the installed package
import ${name}

nlp = ${name}.load()`;
	}
	// Elsewhere the wheel is fetched with the hf CLI (which reads HF_ENDPOINT and HF_TOKEN) and installed
	// from the path it prints, so that a private model installs too.
	const install =
		hubUrl === undefined
			? pipInstallUrl(wheelUrl)
			: shell(
					`wheel=$(hf download ${shWord(model.id)} ${shWord(`${name}-any-py3-none-any.whl`)})\npip install "$wheel"`,
				);
	return [install, python(code)];
};

/**
 * The module an edsnlp pipeline repository installs as: the repository name with "_" for "-" (edsnlp
 * 0.21 `load_from_huggingface`). Only names the Hub accepts are considered: they cannot start or end
 * with "-" (huggingface_hub `validate_repo_id`).
 */
function edsnlpModuleName(modelId: string): string | undefined {
	const name = nameWithoutNamespace(modelId);
	if (name.startsWith("-") || name.endsWith("-")) return undefined;
	const moduleName = name.replaceAll("-", "_");
	return isPyIdentifier(moduleName) ? moduleName : undefined;
}

const edsnlp = (model: ModelData, hubUrl: string | undefined): CodeBlock[] => {
	const blocks = [
		python(`import edsnlp

nlp = edsnlp.load(${pyString(model.id)})`),
	];
	// The repository is also a pip-installable package; after installing it, it imports by module name.
	// Only the public hub serves repositories over git; elsewhere edsnlp.load (huggingface_hub) is the way.
	const moduleName = hubUrl === undefined ? edsnlpModuleName(model.id) : undefined;
	if (moduleName !== undefined) {
		blocks.push(
			pipInstallUrl(`git+https://huggingface.co/${model.id}`),
			python(`import ${moduleName}

nlp = ${moduleName}.load()`),
		);
	}
	return blocks;
};

/**
 * Stanza 1.14 downloads models by language code, from `stanfordnlp/stanza-<lang>` on the Hub, and has
 * no way to load a repository by its id: the snippet derives the code from the id, and shows how to
 * fetch the repository's files themselves.
 */
const stanza = (model: ModelData): CodeBlock[] => {
	// "stanfordnlp/stanza-en" → "en".
	const lang = pyString(nameWithoutNamespace(model.id).replace("stanza-", ""));
	return [
		python(`import stanza

# Stanza loads models by language code, not by repository id
stanza.download(${lang})
nlp = stanza.Pipeline(${lang})
doc = nlp("Stanza splits this sentence into words and tags each of them.")`),
		shell(`# The repository's files themselves\nhf download ${shWord(model.id)}`),
	];
};

/**
 * SAELens 6 loads any SAE trained with it from the Hub by repository: \`release\` is the repository id
 * and \`sae_id\` the folder of one SAE in it, which holds its cfg.json (docs/index.md; the loader reads
 * \`<sae_id>/cfg.json\` and \`<sae_id>/sae_weights.safetensors\`). The snippet lists those folders.
 */
const saelens = (model: ModelData): CodeBlock[] => {
	const { release, saeId } = SAELENS_REGISTRY_EXAMPLE;
	return [
		python(`# pip install sae-lens
from huggingface_hub import list_repo_files
from sae_lens import SAE

repo_id = ${pyString(model.id)}
# Each SAE in the repository is a folder holding its cfg.json: list them and pick one
sae_ids = sorted(path.rsplit("/", 1)[0] for path in list_repo_files(repo_id) if path.endswith("/cfg.json"))
print(sae_ids)
sae = SAE.from_pretrained(release=repo_id, sae_id=sae_ids[0])

# SAEs in SAELens' registry load by release name instead: SAE.from_pretrained(release=RELEASE_ID, sae_id=SAE_ID),
# e.g. release="${release}", sae_id="${saeId}"; releases: ${SAELENS_RELEASES_LIST}`),
	];
};

export const nlpLibraries = {
	allennlp: defineLibrary({
		prettyLabel: "AllenNLP",
		repoName: "AllenNLP",
		repoUrl: "https://github.com/allenai/allennlp",
		docsUrl: "https://huggingface.co/docs/hub/allennlp",
		filter: true,
		installCommand: "pip install allennlp allennlp-models",
		codeBlocks: allennlp,
	}),
	bertopic: defineLibrary({
		prettyLabel: "BERTopic",
		repoName: "BERTopic",
		repoUrl: "https://github.com/MaartenGr/BERTopic",
		filter: true,
		installCommand: "pip install bertopic",
		codeBlocks: (model) => [
			python(`from bertopic import BERTopic

topic_model = BERTopic.load(${pyString(model.id)})
topic_model.get_topic_info()`),
		],
	}),
	bm25s: defineLibrary({
		prettyLabel: "BM25S",
		repoName: "bm25s",
		repoUrl: "https://github.com/xhluca/bm25s",
		filter: false,
		countDownloads: `path:"params.index.json"`,
		installCommand: "pip install bm25s",
		codeBlocks: (model) => [
			python(`import bm25s
from bm25s.hf import BM25HF

retriever = BM25HF.load_from_hub(${pyString(model.id)})

query = "which animals can fly?"
results, scores = retriever.retrieve(bm25s.tokenize(query), k=3)`),
		],
	}),
	colpali: defineLibrary({
		prettyLabel: "ColPali",
		repoName: "ColPali",
		repoUrl: "https://github.com/ManuelFay/colpali",
		filter: false,
		countDownloads: `path:"adapter_config.json"`,
	}),
	comet: defineLibrary({
		prettyLabel: "COMET",
		repoName: "COMET",
		repoUrl: "https://github.com/Unbabel/COMET/",
		countDownloads: `path:"hparams.yaml"`,
	}),
	edsnlp: defineLibrary({
		prettyLabel: "EDS-NLP",
		repoName: "edsnlp",
		repoUrl: "https://github.com/aphp/edsnlp",
		docsUrl: "https://aphp.github.io/edsnlp/latest/",
		filter: false,
		countDownloads: `path_filename:"config" AND path_extension:"cfg"`,
		installCommand: "pip install edsnlp",
		codeBlocks: edsnlp,
	}),
	fasttext: defineLibrary({
		prettyLabel: "fastText",
		repoName: "fastText",
		repoUrl: "https://fasttext.cc/",
		filter: true,
		countDownloads: `path_extension:"bin"`,
		installCommand: "pip install fasttext",
		codeBlocks: (model) => [
			python(`import fasttext
from huggingface_hub import hf_hub_download

model = fasttext.load_model(hf_hub_download(repo_id=${pyString(model.id)}, filename="model.bin"))`),
		],
	}),
	flair: defineLibrary({
		prettyLabel: "Flair",
		repoName: "Flair",
		repoUrl: "https://github.com/flairNLP/flair",
		docsUrl: "https://huggingface.co/docs/hub/flair",
		filter: true,
		countDownloads: `path:"pytorch_model.bin"`,
		installCommand: "pip install flair",
		codeBlocks: (model) => [
			python(`from flair.data import Sentence
from flair.models import SequenceTagger

tagger = SequenceTagger.load(${pyString(model.id)})

sentence = Sentence("George Washington went to Washington.")
tagger.predict(sentence)
print(sentence)`),
		],
	}),
	gliner: defineLibrary({
		prettyLabel: "GLiNER",
		repoName: "GLiNER",
		repoUrl: "https://github.com/urchade/GLiNER",
		filter: false,
		countDownloads: `path:"gliner_config.json"`,
		installCommand: "pip install gliner",
		codeBlocks: (model) => [
			python(`from gliner import GLiNER

model = GLiNER.from_pretrained(${pyString(model.id)})

text = "Ada Lovelace wrote the first program for Charles Babbage's Analytical Engine in London."
labels = ["person", "machine", "location"]
entities = model.predict_entities(text, labels, threshold=0.5)`),
		],
	}),
	hezar: defineLibrary({
		prettyLabel: "Hezar",
		repoName: "Hezar",
		repoUrl: "https://github.com/hezarai/hezar",
		docsUrl: "https://hezarai.github.io/hezar",
		countDownloads: `path:"model_config.yaml" OR path:"embedding/embedding_config.yaml"`,
	}),
	"lightning-ir": defineLibrary({
		prettyLabel: "Lightning IR",
		repoName: "Lightning IR",
		repoUrl: "https://github.com/webis-de/lightning-ir",
		installCommand: "pip install lightning-ir",
		codeBlocks: lightningIr,
	}),
	mitie: defineLibrary({
		prettyLabel: "MITIE",
		repoName: "MITIE",
		repoUrl: "https://github.com/mit-nlp/MITIE",
		countDownloads: `path_filename:"total_word_feature_extractor"`,
	}),
	model2vec: defineLibrary({
		prettyLabel: "Model2Vec",
		repoName: "model2vec",
		repoUrl: "https://github.com/MinishLab/model2vec",
		filter: false,
		installCommand: "pip install model2vec",
		codeBlocks: (model) => [
			python(`from model2vec import StaticModel

model = StaticModel.from_pretrained(${pyString(model.id)})
embeddings = model.encode(["Static embeddings are fast.", "They need no GPU."])`),
		],
	}),
	paddlenlp: defineLibrary({
		prettyLabel: "paddlenlp",
		repoName: "PaddleNLP",
		repoUrl: "https://github.com/PaddlePaddle/PaddleNLP",
		docsUrl: "https://huggingface.co/docs/hub/paddlenlp",
		filter: true,
		countDownloads: `path:"model_config.json"`,
		installCommand: "pip install --upgrade paddlenlp",
		codeBlocks: paddlenlp,
	}),
	relik: defineLibrary({
		prettyLabel: "Relik",
		repoName: "Relik",
		repoUrl: "https://github.com/SapienzaNLP/relik",
		filter: false,
		installCommand: "pip install relik",
		codeBlocks: (model) => [
			python(`from relik import Relik

relik = Relik.from_pretrained(${pyString(model.id)})
relik_out = relik("Marie Curie won the Nobel Prize in Physics together with Pierre Curie.")`),
		],
	}),
	saelens: defineLibrary({
		prettyLabel: "SAELens",
		repoName: "SAELens",
		repoUrl: "https://github.com/jbloomAus/SAELens",
		filter: false,
		installCommand: "pip install sae-lens",
		codeBlocks: saelens,
	}),
	spacy: defineLibrary({
		prettyLabel: "spaCy",
		repoName: "spaCy",
		repoUrl: "https://github.com/explosion/spaCy",
		docsUrl: "https://huggingface.co/docs/hub/spacy",
		filter: true,
		countDownloads: `path_extension:"whl"`,
		installCommand: "pip install -U spacy",
		codeBlocks: spacy,
	}),
	stanza: defineLibrary({
		prettyLabel: "Stanza",
		repoName: "stanza",
		repoUrl: "https://github.com/stanfordnlp/stanza",
		docsUrl: "https://huggingface.co/docs/hub/stanza",
		filter: true,
		countDownloads: `path:"models/default.zip"`,
		installCommand: "pip install stanza",
		codeBlocks: stanza,
	}),
} as const satisfies Record<string, LibraryUiElement>;
