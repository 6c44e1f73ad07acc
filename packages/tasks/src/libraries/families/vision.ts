import type { CodeBlock, LibraryUiElement, ModelData } from "../types.js";
import { pyString, shQuote, shWord } from "../../literals/index.js";
import { defineLibrary, nameWithoutNamespace, python, shell } from "../define.js";

interface DepthAnythingPreset {
	encoder: string;
	features: number;
	outChannels: number[];
}

/** Exact-id presets; the checkpoint settings of the three official repos. */
const DEPTH_ANYTHING_V2_PRESETS: Record<string, DepthAnythingPreset> = {
	"depth-anything/Depth-Anything-V2-Small": {
		encoder: "vits",
		features: 64,
		outChannels: [48, 96, 192, 384],
	},
	"depth-anything/Depth-Anything-V2-Base": {
		encoder: "vitb",
		features: 128,
		outChannels: [96, 192, 384, 768],
	},
	"depth-anything/Depth-Anything-V2-Large": {
		encoder: "vitl",
		features: 256,
		outChannels: [256, 512, 1024, 1024],
	},
};

function depthAnythingV2(model: ModelData): CodeBlock[] {
	// `Object.hasOwn` so that ids like "constructor" never hit the prototype.
	const preset = Object.hasOwn(DEPTH_ANYTHING_V2_PRESETS, model.id)
		? DEPTH_ANYTHING_V2_PRESETS[model.id]
		: undefined;
	// Unknown checkpoints get string placeholders, so the snippet still parses; the comment says what to put there.
	const settings = preset
		? `model = DepthAnythingV2(encoder=${pyString(preset.encoder)}, features=${preset.features}, out_channels=[${preset.outChannels.join(", ")}])`
		: `# Replace the placeholders with this checkpoint's settings, e.g. encoder="vits", features=64,
# out_channels=[48, 96, 192, 384] (see the model card).
model = DepthAnythingV2(encoder="<ENCODER>", features="<NUMBER_OF_FEATURES>", out_channels="<OUT_CHANNELS>")`;
	const encoder = preset ? preset.encoder : "<ENCODER>";
	return [
		python(`# Run from a clone of https://github.com/DepthAnything/Depth-Anything-V2 (it is not a pip package)
import cv2
import torch
from huggingface_hub import hf_hub_download
from depth_anything_v2.dpt import DepthAnythingV2

${settings}
filepath = hf_hub_download(repo_id=${pyString(model.id)}, filename=${pyString(`depth_anything_v2_${encoder}.pth`)}, repo_type="model")
state_dict = torch.load(filepath, map_location="cpu")
model.load_state_dict(state_dict)
model.eval()

raw_img = cv2.imread("your/image/path")
depth = model.infer_image(raw_img)  # HxW depth map as a numpy array`),
	];
}

/**
 * Python lines that download the repository's first file ending in `extension` and set `checkpoint` to
 * its local path: for libraries that load a local file, not a hub id. Needs `hf_hub_download` and
 * `list_repo_files` imported from huggingface_hub.
 */
function downloadFirstFile(modelId: string, extension: string): string {
	return `repo_id = ${pyString(modelId)}
filename = next(name for name in list_repo_files(repo_id) if name.endswith(${pyString(extension)}))
checkpoint = hf_hub_download(repo_id=repo_id, filename=filename)`;
}

const COCO_EXAMPLE_PREDICTION = `source = "http://images.cocodataset.org/val2017/000000039769.jpg"
model.predict(source=source, save=True)`;

/**
 * ultralytics 8.3 and 8.4 export one `YOLO` class for every YOLO version, built from a local `.pt` file
 * or a URL; they have no `from_pretrained` and no `YOLOv8`-style classes.
 */
function ultralytics(model: ModelData): CodeBlock[] {
	return [
		python(`from huggingface_hub import hf_hub_download, list_repo_files
from ultralytics import YOLO

# YOLO() loads a local .pt file, not a hub id: download the repository's first .pt file
${downloadFirstFile(model.id, ".pt")}
model = YOLO(checkpoint)

${COCO_EXAMPLE_PREDICTION}`),
	];
}

/** THU-MIG's yolov10 fork installs as the `ultralytics` package and adds `YOLOv10.from_pretrained`. */
function yolov10(model: ModelData): CodeBlock[] {
	return [
		python(`# pip install git+https://github.com/THU-MIG/yolov10.git huggingface_hub
from ultralytics import YOLOv10

model = YOLOv10.from_pretrained(${pyString(model.id)})
${COCO_EXAMPLE_PREDICTION}`),
	];
}

/** The ids `from_pretrained` knows in sam2 (`HF_MODEL_ID_TO_FILENAMES` in sam2/build_sam.py). */
const SAM2_OFFICIAL_IDS: ReadonlySet<string> = new Set([
	"facebook/sam2-hiera-tiny",
	"facebook/sam2-hiera-small",
	"facebook/sam2-hiera-base-plus",
	"facebook/sam2-hiera-large",
	"facebook/sam2.1-hiera-tiny",
	"facebook/sam2.1-hiera-small",
	"facebook/sam2.1-hiera-base-plus",
	"facebook/sam2.1-hiera-large",
]);

const SAM2_DEFAULT_CONFIG = "configs/sam2.1/sam2.1_hiera_l.yaml";

interface PredictorLoader {
	imports: string;
	/** Lines that set `predictor`. */
	load: string;
}

/** How the image and the video snippet of sam2 get their predictor. */
function sam2Loaders(modelId: string): { image: PredictorLoader; video: PredictorLoader } {
	if (SAM2_OFFICIAL_IDS.has(modelId)) {
		return {
			image: {
				imports: "from sam2.sam2_image_predictor import SAM2ImagePredictor",
				load: `predictor = SAM2ImagePredictor.from_pretrained(${pyString(modelId)})`,
			},
			video: {
				imports: "from sam2.sam2_video_predictor import SAM2VideoPredictor",
				load: `predictor = SAM2VideoPredictor.from_pretrained(${pyString(modelId)})`,
			},
		};
	}
	const why = `# from_pretrained() knows only the official facebook/sam2 ids: build the model from this repository's
# checkpoint with the config of its size and version (here SAM 2.1 large)`;
	const download = downloadFirstFile(modelId, ".pt");
	return {
		image: {
			imports: `from huggingface_hub import hf_hub_download, list_repo_files
from sam2.build_sam import build_sam2
from sam2.sam2_image_predictor import SAM2ImagePredictor`,
			load: `${why}
${download}
predictor = SAM2ImagePredictor(build_sam2(${pyString(SAM2_DEFAULT_CONFIG)}, checkpoint))`,
		},
		video: {
			imports: `from huggingface_hub import hf_hub_download, list_repo_files
from sam2.build_sam import build_sam2_video_predictor
from sam2.sam2_video_predictor import SAM2VideoPredictor`,
			load: `${why}
${download}
predictor: SAM2VideoPredictor = build_sam2_video_predictor(${pyString(SAM2_DEFAULT_CONFIG)}, checkpoint)`,
		},
	};
}

function sam2(model: ModelData): CodeBlock[] {
	const { image, video } = sam2Loaders(model.id);
	return [
		python(`# Segment an image
import numpy as np
import torch
from PIL import Image
${image.imports}

${image.load}

# Your image and your prompts: here one foreground click at pixel (x=500, y=375)
image = np.array(Image.open("path/to/image.png").convert("RGB"))
point_coords = np.array([[500, 375]])
point_labels = np.array([1])

with torch.inference_mode(), torch.autocast("cuda", dtype=torch.bfloat16):
    predictor.set_image(image)
    masks, _, _ = predictor.predict(point_coords=point_coords, point_labels=point_labels)`),
		python(`# Segment and track objects in a video
import numpy as np
import torch
${video.imports}

${video.load}

video_path = "path/to/video.mp4"  # an MP4 file or a folder of JPEG frames

with torch.inference_mode(), torch.autocast("cuda", dtype=torch.bfloat16):
    state = predictor.init_state(video_path)

    # Prompt object 1 with one foreground click on the first frame; the output is for that frame
    frame_idx, object_ids, masks = predictor.add_new_points_or_box(
        state, frame_idx=0, obj_id=1, points=np.array([[500, 375]], dtype=np.float32), labels=np.array([1], dtype=np.int32)
    )

    # Propagate the prompts to get masklets throughout the video
    for frame_idx, object_ids, masks in predictor.propagate_in_video(state):
        ...`),
	];
}

interface TerraTorchBackbone {
	/** Name in terratorch's BACKBONE_REGISTRY. */
	name: string;
	/** The checkpoint file in the repository. */
	file: string;
}

/**
 * The hub repositories terratorch v1.1.1 builds its pretrained backbones from (`pretrained_weights` in
 * models/backbones/prithvi_vit.py and terramind/model/terramind_register.py).
 */
const TERRATORCH_BACKBONES: Record<string, TerraTorchBackbone> = {
	"ibm-nasa-geospatial/Prithvi-EO-1.0-100M": {
		name: "terratorch_prithvi_eo_v1_100",
		file: "Prithvi_EO_V1_100M.pt",
	},
	"ibm-nasa-geospatial/Prithvi-EO-2.0-tiny-TL": {
		name: "terratorch_prithvi_eo_v2_tiny_tl",
		file: "Prithvi_EO_V2_tiny_TL.pt",
	},
	"ibm-nasa-geospatial/Prithvi-EO-2.0-100M-TL": {
		name: "terratorch_prithvi_eo_v2_100_tl",
		file: "Prithvi_EO_V2_100M_TL.pt",
	},
	"ibm-nasa-geospatial/Prithvi-EO-2.0-300M": {
		name: "terratorch_prithvi_eo_v2_300",
		file: "Prithvi_EO_V2_300M.pt",
	},
	"ibm-nasa-geospatial/Prithvi-EO-2.0-300M-TL": {
		name: "terratorch_prithvi_eo_v2_300_tl",
		file: "Prithvi_EO_V2_300M_TL.pt",
	},
	"ibm-nasa-geospatial/Prithvi-EO-2.0-600M": {
		name: "terratorch_prithvi_eo_v2_600",
		file: "Prithvi_EO_V2_600M.pt",
	},
	"ibm-nasa-geospatial/Prithvi-EO-2.0-600M-TL": {
		name: "terratorch_prithvi_eo_v2_600_tl",
		file: "Prithvi_EO_V2_600M_TL.pt",
	},
	"FAST-EO/TerraMind-0.1-base": { name: "terratorch_terramind_v01_base", file: "TerraMind_v01_base.pt" },
	"ibm-esa-geospatial/TerraMind-1.0-tiny": {
		name: "terratorch_terramind_v1_tiny",
		file: "TerraMind_v1_tiny.pt",
	},
	"ibm-esa-geospatial/TerraMind-1.0-small": {
		name: "terratorch_terramind_v1_small",
		file: "TerraMind_v1_small.pt",
	},
	"ibm-esa-geospatial/TerraMind-1.0-base": {
		name: "terratorch_terramind_v1_base",
		file: "TerraMind_v1_base.pt",
	},
	"ibm-esa-geospatial/TerraMind-1.0-large": {
		name: "terratorch_terramind_v1_large",
		file: "TerraMind_v1_large.pt",
	},
};

/** BACKBONE_REGISTRY.build takes a registry name; the repository's checkpoint goes in as `ckpt_path`. */
function terratorch(model: ModelData): CodeBlock[] {
	const known = Object.hasOwn(TERRATORCH_BACKBONES, model.id) ? TERRATORCH_BACKBONES[model.id] : undefined;
	if (known) {
		return [
			python(`from huggingface_hub import hf_hub_download
from terratorch.registry import BACKBONE_REGISTRY

# TerraTorch builds a backbone by its registry name; this repository's weights go in as ckpt_path
checkpoint = hf_hub_download(repo_id=${pyString(model.id)}, filename=${pyString(known.file)})
model = BACKBONE_REGISTRY.build(${pyString(known.name)}, pretrained=True, ckpt_path=checkpoint)`),
		];
	}
	return [
		python(`from huggingface_hub import hf_hub_download, list_repo_files
from terratorch.registry import BACKBONE_REGISTRY

# TerraTorch builds a backbone by its registry name (see list(BACKBONE_REGISTRY)), not by a hub id:
# download this repository's checkpoint and replace <BACKBONE_NAME> with the backbone its model card
# names, e.g. terratorch_prithvi_eo_v2_300
${downloadFirstFile(model.id, ".pt")}
model = BACKBONE_REGISTRY.build("<BACKBONE_NAME>", pretrained=True, ckpt_path=checkpoint)`),
	];
}

/**
 * mlx-image's `create_model` takes a registry name (`mlxim.model.list_models()`) and reads weights from
 * `hf://<repo id>/<file>`; the mlx-vision repositories are named `<registry name>-mlxim`.
 */
function mlxImage(model: ModelData): CodeBlock[] {
	const registryName = nameWithoutNamespace(model.id).replace(/-mlxim$/, "");
	return [
		python(`from mlxim.model import create_model

# create_model takes a registry name (see mlxim.model.list_models()); mlx-vision names its repositories
# "<registry name>-mlxim". The weights come from this repository.
model = create_model(${pyString(registryName)}, weights=${pyString(`hf://${model.id}/model.safetensors`)})`),
	];
}

export const visionLibraries = {
	ben2: defineLibrary({
		prettyLabel: "BEN2",
		repoName: "BEN2",
		repoUrl: "https://github.com/PramaLLC/BEN2",
		filter: false,
		installCommand: "pip install git+https://github.com/PramaLLC/BEN2.git",
		codeBlocks: (model) => [
			python(`import requests
from PIL import Image
from ben2 import AutoModel

url = "https://huggingface.co/datasets/mishig/sample_images/resolve/main/teapot.jpg"
image = Image.open(requests.get(url, stream=True).raw)

model = AutoModel.from_pretrained(${pyString(model.id)})
model.to("cuda").eval()
foreground = model.inference(image)  # the image with its background removed
foreground.save("foreground.png")`),
		],
	}),
	birefnet: defineLibrary({
		prettyLabel: "BiRefNet",
		repoName: "BiRefNet",
		repoUrl: "https://github.com/ZhengPeng7/BiRefNet",
		filter: false,
		codeBlocks: (model) => [
			python(`# Option 1: through transformers (the model code comes from the repository)
from transformers import AutoModelForImageSegmentation

birefnet = AutoModelForImageSegmentation.from_pretrained(${pyString(model.id)}, trust_remote_code=True)`),
			python(`# Option 2: with the code of https://github.com/ZhengPeng7/BiRefNet (run from a clone of it)
from models.birefnet import BiRefNet

model = BiRefNet.from_pretrained(${pyString(model.id)})`),
		],
	}),
	"cxr-foundation": defineLibrary({
		prettyLabel: "CXR Foundation",
		repoName: "cxr-foundation",
		repoUrl: "https://github.com/google-health/cxr-foundation",
		filter: false,
		countDownloads: `path:"precomputed_embeddings/embeddings.npz" OR path:"pax-elixr-b-text/saved_model.pb"`,
		installCommand: "pip install git+https://github.com/Google-Health/cxr-foundation.git#subdirectory=python",
		codeBlocks: (model) => [
			python(`# pip install git+https://github.com/Google-Health/cxr-foundation.git#subdirectory=python
import requests
import tensorflow as tf
import tensorflow_hub as tf_hub
from huggingface_hub import snapshot_download
from PIL import Image
from clientside.clients import HuggingFaceCxrClient

# A chest X-ray (Stillwaterising, CC0, via Wikimedia Commons), loaded as grayscale
image_url = "https://upload.wikimedia.org/wikipedia/commons/c/c8/Chest_Xray_PA_3-8-2010.png"
img = Image.open(requests.get(image_url, headers={'User-Agent': 'Demo'}, stream=True).raw).convert('L')

# make_hugging_face_client() always downloads google/cxr-foundation: build the same client from this repository
model_dir = snapshot_download(
    repo_id=${pyString(model.id)}, local_dir="cxr_model", allow_patterns=["elixr-c-v2-pooled/*", "pax-elixr-b-text/*"]
)
cxr_client = HuggingFaceCxrClient(
    bert_model=tf_hub.KerasLayer("https://tfhub.dev/tensorflow/bert_en_uncased_preprocess/3"),
    elixr_c_model=tf.saved_model.load(f"{model_dir}/elixr-c-v2-pooled"),
    qformer_model=tf.saved_model.load(f"{model_dir}/pax-elixr-b-text"),
)
embeddings = cxr_client.get_image_embeddings_from_images([img])
print(embeddings)`),
		],
	}),
	deepforest: defineLibrary({
		prettyLabel: "DeepForest",
		repoName: "deepforest",
		repoUrl: "https://github.com/weecology/DeepForest",
		docsUrl: "https://deepforest.readthedocs.io/en/latest/",
	}),
	"depth-anything-v2": defineLibrary({
		prettyLabel: "DepthAnythingV2",
		repoName: "Depth Anything V2",
		repoUrl: "https://github.com/DepthAnything/Depth-Anything-V2",
		filter: false,
		countDownloads: `path_extension:"pth"`,
		codeBlocks: depthAnythingV2,
	}),
	"depth-pro": defineLibrary({
		prettyLabel: "Depth Pro",
		repoName: "Depth Pro",
		repoUrl: "https://github.com/apple/ml-depth-pro",
		filter: false,
		countDownloads: `path_extension:"pt"`,
		codeBlocks: (model) => [
			shell(`# Install depth_pro from its repository, then download the checkpoint to ./checkpoints, where it looks for it
pip install git+https://github.com/apple/ml-depth-pro.git
pip install huggingface-hub
hf download --local-dir checkpoints ${shWord(model.id)}`),
			python(`import depth_pro

# Load the model (from ./checkpoints) and its preprocessing transform
model, transform = depth_pro.create_model_and_transforms()
model.eval()

# Load an image; f_px is its focal length in pixels, when the EXIF data has it
image, _, f_px = depth_pro.load_rgb("example.png")

prediction = model.infer(transform(image), f_px=f_px)
depth = prediction["depth"]  # depth in meters
focallength_px = prediction["focallength_px"]  # estimated focal length in pixels`),
		],
	}),
	"derm-foundation": defineLibrary({
		prettyLabel: "Derm Foundation",
		repoName: "derm-foundation",
		repoUrl: "https://github.com/google-health/derm-foundation",
		filter: false,
		countDownloads: `path:"scin_dataset_precomputed_embeddings.npz" OR path:"saved_model.pb"`,
		codeBlocks: (model) => [
			python(`import requests
import tensorflow as tf
from huggingface_hub import snapshot_download

# Wrap the PNG bytes of a skin image in a serialized tf.train.Example
image_url = "https://storage.googleapis.com/dx-scin-public-data/dataset/images/3445096909671059178.png"
image_bytes = requests.get(image_url, stream=True).content
input_tensor = tf.train.Example(
    features=tf.train.Features(
        feature={"image/encoded": tf.train.Feature(bytes_list=tf.train.BytesList(value=[image_bytes]))}
    )
).SerializeToString()

# huggingface_hub 1.0 removed from_pretrained_keras: download the SavedModel (without the precomputed
# embeddings) and load it with TensorFlow
model_dir = snapshot_download(repo_id=${pyString(model.id)}, ignore_patterns=["*.npz"])
loaded_model = tf.saved_model.load(model_dir)
infer = loaded_model.signatures["serving_default"]
embedding = infer(inputs=tf.constant([input_tensor]))["embedding"]
print(embedding)`),
		],
	}),
	doctr: defineLibrary({
		prettyLabel: "docTR",
		repoName: "doctr",
		repoUrl: "https://github.com/mindee/doctr",
	}),
	cotracker: defineLibrary({
		prettyLabel: "CoTracker",
		repoName: "CoTracker",
		repoUrl: "https://github.com/facebookresearch/co-tracker",
		filter: false,
		countDownloads: `path_extension:"pth"`,
	}),
	htrflow: defineLibrary({
		prettyLabel: "HTRflow",
		repoName: "HTRflow",
		repoUrl: "https://github.com/AI-Riksarkivet/htrflow",
		docsUrl: "https://ai-riksarkivet.github.io/htrflow",
		installCommand: "pip install htrflow",
		codeBlocks: (model) => [
			// The placeholders are quoted so that bash does not read `<` as a redirection.
			shell(`# CLI usage: describe the pipeline steps (with this model) in a YAML file, then run it on your images.
# See https://ai-riksarkivet.github.io/htrflow/latest/getting_started/quick_start.html
htrflow pipeline ${shQuote("<path/to/pipeline.yaml>")} ${shQuote("<path/to/image>")}`),
			python(`# Python usage: a pipeline with one inference task that runs this model
from htrflow.pipeline.pipeline import Pipeline
from htrflow.pipeline.steps import Inference as Task

# ModelClass stands for the htrflow model class that fits this model, e.g. TrOCR (text recognition)
from htrflow.models.huggingface.trocr import TrOCR as ModelClass

pipeline = Pipeline([Task(ModelClass, {"model": ${pyString(model.id)}}, {})])`),
		],
	}),
	matanyone: defineLibrary({
		prettyLabel: "MatAnyone",
		repoName: "MatAnyone",
		repoUrl: "https://github.com/pq-yang/MatAnyone",
		filter: false,
		installCommand: "pip install git+https://github.com/pq-yang/MatAnyone.git",
		codeBlocks: (model) => [
			python(`# pip install git+https://github.com/pq-yang/MatAnyone.git
from matanyone import InferenceCore
from matanyone.model.matanyone import MatAnyone

model = MatAnyone.from_pretrained(${pyString(model.id)})
processor = InferenceCore(model)

# A video and a mask of the subject on its first frame (e.g. from SAM2); writes the foreground and alpha videos
foreground_path, alpha_path = processor.process_video(
    input_path="path/to/video.mp4", mask_path="path/to/first_frame_mask.png", output_path="outputs"
)`),
		],
	}),
	merlin: defineLibrary({
		prettyLabel: "Merlin",
		repoName: "Merlin",
		repoUrl: "https://github.com/StanfordMIMI/Merlin",
		filter: false,
		countDownloads: `path_extension:"pt"`,
	}),
	medvae: defineLibrary({
		prettyLabel: "MedVAE",
		repoName: "MedVAE",
		repoUrl: "https://github.com/StanfordMIMI/MedVAE",
		filter: false,
		countDownloads: `path_extension:"ckpt"`,
	}),
	"mlx-image": defineLibrary({
		prettyLabel: "mlx-image",
		repoName: "mlx-image",
		repoUrl: "https://github.com/riccardomusmeci/mlx-image",
		docsUrl: "https://huggingface.co/docs/hub/mlx-image",
		filter: false,
		countDownloads: `path:"model.safetensors"`,
		installCommand: "pip install mlx-image",
		codeBlocks: mlxImage,
	}),
	"py-feat": defineLibrary({
		prettyLabel: "Py-Feat",
		repoName: "Py-Feat",
		repoUrl: "https://github.com/cosanlab/py-feat",
		docsUrl: "https://py-feat.org/",
		filter: false,
	}),
	pythae: defineLibrary({
		prettyLabel: "pythae",
		repoName: "pythae",
		repoUrl: "https://github.com/clementchadebec/benchmark_VAE",
		filter: false,
		installCommand: "pip install pythae",
		codeBlocks: (model) => [
			python(`from pythae.models import AutoModel

model = AutoModel.load_from_hf_hub(${pyString(model.id)})`),
		],
	}),
	sam2: defineLibrary({
		prettyLabel: "sam2",
		repoName: "sam2",
		repoUrl: "https://github.com/facebookresearch/segment-anything-2",
		filter: false,
		countDownloads: `path_extension:"pt"`,
		codeBlocks: sam2,
	}),
	sapiens: defineLibrary({
		prettyLabel: "sapiens",
		repoName: "sapiens",
		repoUrl: "https://github.com/facebookresearch/sapiens",
		filter: false,
		countDownloads: `path_extension:"pt2" OR path_extension:"pth" OR path_extension:"onnx"`,
	}),
	terratorch: defineLibrary({
		prettyLabel: "TerraTorch",
		repoName: "TerraTorch",
		repoUrl: "https://github.com/IBM/terratorch",
		docsUrl: "https://ibm.github.io/terratorch/",
		filter: false,
		countDownloads: `path_extension:"pt"`,
		installCommand: "pip install terratorch",
		codeBlocks: terratorch,
	}),
	ultralytics: defineLibrary({
		prettyLabel: "ultralytics",
		repoName: "ultralytics",
		repoUrl: "https://github.com/ultralytics/ultralytics",
		docsUrl: "https://github.com/ultralytics/ultralytics",
		filter: false,
		countDownloads: `path_extension:"pt"`,
		installCommand: "pip install ultralytics huggingface_hub",
		codeBlocks: ultralytics,
	}),
	"vfi-mamba": defineLibrary({
		prettyLabel: "VFIMamba",
		repoName: "VFIMamba",
		repoUrl: "https://github.com/MCG-NJU/VFIMamba",
		countDownloads: `path_extension:"pkl"`,
		codeBlocks: (model) => [
			python(`# Run from a clone of https://github.com/MCG-NJU/VFIMamba
from Trainer_finetune import Model

model = Model.from_pretrained(${pyString(model.id)})
model.eval()  # the network is on the GPU: Model() moves it there`),
		],
	}),
	yolov10: defineLibrary({
		prettyLabel: "YOLOv10",
		repoName: "YOLOv10",
		repoUrl: "https://github.com/THU-MIG/yolov10",
		docsUrl: "https://github.com/THU-MIG/yolov10",
		countDownloads: `path_extension:"pt" OR path_extension:"safetensors"`,
		installCommand: "pip install git+https://github.com/THU-MIG/yolov10.git huggingface_hub",
		codeBlocks: yolov10,
	}),
} as const satisfies Record<string, LibraryUiElement>;
