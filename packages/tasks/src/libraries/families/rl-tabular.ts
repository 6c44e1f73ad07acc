/**
 * Reinforcement learning (Stable-Baselines3, ML-Agents, Sample Factory), tabular and time-series
 * models (scikit-learn, TabPFN, TimesFM), weather forecasting (Anemoi), and pxia.
 */
import { pyString, shWord } from "../../literals/index.js";
import { defineLibrary, python, shell } from "../define.js";
import type { LibraryUiElement, ModelData } from "../types.js";

export const SKLEARN_MISSING_FILE_TEXT = "# ⚠️ Model filename not specified in config.json";
const SKOPS_PERSISTENCE_DOCS = "https://skops.readthedocs.io/en/stable/persistence.html";
const SKOPS_FOLDER = "path_to_folder";

/**
 * skops repos name their model file in config.json and say whether it is a pickle; other repos hold a
 * joblib file with a fixed name. skops 0.12 removed `skops.hub_utils`, so the file is fetched with
 * huggingface_hub into a local folder, and skops 0.10+ `load` takes the types to trust explicitly.
 */
function sklearnCode(model: ModelData): string {
	const id = pyString(model.id);
	if (!model.tags?.includes("skops")) {
		return `import joblib
from huggingface_hub import hf_hub_download

# Only load pickle files from sources you trust: loading one can run arbitrary code.
# Read more about it here: ${SKOPS_PERSISTENCE_DOCS}
model = joblib.load(hf_hub_download(repo_id=${id}, filename="sklearn_model.joblib"))`;
	}
	const folder = pyString(SKOPS_FOLDER);
	const file = model.config?.sklearn?.model?.file;
	if (typeof file !== "string" || file === "") {
		return `${SKLEARN_MISSING_FILE_TEXT}
from huggingface_hub import snapshot_download

# The repository is downloaded; load its model file from the folder with skops.io.load.
snapshot_download(repo_id=${id}, local_dir=${folder})`;
	}
	// hf_hub_download keeps the file's path inside the repository under local_dir.
	const download = `hf_hub_download(repo_id=${id}, filename=${pyString(file)}, local_dir=${folder})`;
	const path = pyString(`${SKOPS_FOLDER}/${file}`);
	if (model.config?.sklearn?.model_format === "pickle") {
		return `import joblib
from huggingface_hub import hf_hub_download

${download}

# Only load pickle files from sources you trust: loading one can run arbitrary code.
# Read more about it here: ${SKOPS_PERSISTENCE_DOCS}
model = joblib.load(${path})`;
	}
	return `from huggingface_hub import hf_hub_download
from skops.io import load, get_untrusted_types

${download}

# skops only loads the types it trusts by default: review the others before trusting them.
untrusted_types = get_untrusted_types(file=${path})
print(untrusted_types)
model = load(${path}, trusted=untrusted_types)`;
}

export const rlTabularLibraries = {
	anemoi: defineLibrary({
		prettyLabel: "AnemoI",
		repoName: "AnemoI",
		repoUrl: "https://github.com/ecmwf/anemoi-inference",
		docsUrl: "https://anemoi-docs.readthedocs.io/en/latest/",
		filter: false,
		countDownloads: `path_extension:"ckpt"`,
		// huggingface_hub, which fetches the checkpoint, is the package's "huggingface" extra.
		installCommand: 'pip install "anemoi-inference[huggingface]"',
		codeBlocks: (model) => [
			python(`from anemoi.inference.config.run import RunConfiguration
from anemoi.inference.runners.default import DefaultRunner

# The checkpoint is downloaded from the Hub when the runner loads it.
config = RunConfiguration(checkpoint={"huggingface": {"repo_id": ${pyString(model.id)}}})
runner = DefaultRunner(config)`),
		],
	}),
	"ml-agents": defineLibrary({
		prettyLabel: "ml-agents",
		repoName: "ml-agents",
		repoUrl: "https://github.com/Unity-Technologies/ml-agents",
		docsUrl: "https://huggingface.co/docs/hub/ml-agents",
		filter: true,
		countDownloads: `path_extension:"onnx"`,
		codeBlocks: (model) => [
			shell(`mlagents-load-from-hf --repo-id=${shWord(model.id)} --local-dir=./downloads`),
		],
	}),
	pxia: defineLibrary({
		prettyLabel: "pxia",
		repoName: "pxia",
		repoUrl: "https://github.com/not-lain/pxia",
		filter: false,
		installCommand: "pip install pxia",
		codeBlocks: (model) => [
			python(`from pxia import AutoModel

model = AutoModel.from_pretrained(${pyString(model.id)})`),
		],
	}),
	"sample-factory": defineLibrary({
		prettyLabel: "sample-factory",
		repoName: "sample-factory",
		repoUrl: "https://github.com/alex-petrenko/sample-factory",
		docsUrl: "https://huggingface.co/docs/hub/sample-factory",
		filter: true,
		countDownloads: `path:"cfg.json"`,
		installCommand: "pip install sample-factory",
		codeBlocks: (model) => [
			shell(`python -m sample_factory.huggingface.load_from_hub -r ${shWord(model.id)} -d ./train_dir`),
		],
	}),
	sklearn: defineLibrary({
		prettyLabel: "Scikit-learn",
		repoName: "Scikit-learn",
		repoUrl: "https://github.com/scikit-learn/scikit-learn",
		filter: true,
		countDownloads: `path:"sklearn_model.joblib"`,
		installCommand: "pip install -U scikit-learn",
		codeBlocks: (model) => [python(sklearnCode(model))],
	}),
	"stable-baselines3": defineLibrary({
		prettyLabel: "stable-baselines3",
		repoName: "stable-baselines3",
		repoUrl: "https://github.com/huggingface/huggingface_sb3",
		docsUrl: "https://huggingface.co/docs/hub/stable-baselines3",
		filter: true,
		countDownloads: `path_extension:"zip"`,
		installCommand: "pip install huggingface-sb3",
		codeBlocks: (model) => [
			// huggingface_sb3 3.1 refuses to download unless TRUST_REMOTE_CODE is true, since SB3 loads the
			// checkpoint with pickle.
			python(`import os

from huggingface_sb3 import load_from_hub

# The checkpoint is loaded with pickle, which can run arbitrary code: only allow this for sources you trust.
os.environ["TRUST_REMOTE_CODE"] = "True"

# Replace {MODEL FILENAME} with the name of the .zip file in the repository.
checkpoint = load_from_hub(
	repo_id=${pyString(model.id)},
	filename="{MODEL FILENAME}.zip",
)
# Load it with the algorithm it was trained with, e.g. stable_baselines3.PPO.load(checkpoint).`),
		],
	}),
	tabpfn: defineLibrary({
		prettyLabel: "TabPFN",
		repoName: "TabPFN",
		repoUrl: "https://github.com/PriorLabs/TabPFN",
		installCommand: "pip install tabpfn",
	}),
	timesfm: defineLibrary({
		prettyLabel: "TimesFM",
		repoName: "timesfm",
		repoUrl: "https://github.com/google-research/timesfm",
		filter: false,
		countDownloads: `path:"checkpoints/checkpoint_1100000/state/checkpoint"`,
		installCommand: "pip install timesfm",
	}),
} as const satisfies Record<string, LibraryUiElement>;
