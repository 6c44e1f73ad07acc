import { defineLibrary, python, shell } from "../define.js";
import type { CodeBlock, LibraryUiElement, ModelData } from "../types.js";
import { pyIdentifier, pyString, shQuote, shWord } from "../../literals/index.js";

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
		python(`# Install the depth_anything_v2 package from https://github.com/DepthAnything/Depth-Anything-V2
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

const YOLO_VERSION_TAG = /^yolov\d+$/;

/** Shared by ultralytics and its yolov10 fork: the class is named after the first `yolovN` tag. */
function ultralytics(model: ModelData): CodeBlock[] {
	const versionTag = Array.isArray(model.tags)
		? model.tags.find((tag) => YOLO_VERSION_TAG.test(tag))
		: undefined;
	// "yolov8" -> "YOLOv8". Without a tag, `YOLOvXX` is still a valid name for the user to edit.
	const className =
		versionTag === undefined
			? "YOLOvXX"
			: pyIdentifier(`YOLOv${versionTag.slice("yolov".length)}`, "YOLOvXX");
	const warning =
		versionTag === undefined
			? "# Couldn't find a valid YOLO version tag.\n# Replace XX with the correct version.\n"
			: "";
	return [
		python(`${warning}from ultralytics import ${className}

model = ${className}.from_pretrained(${pyString(model.id)})
source = "http://images.cocodataset.org/val2017/000000039769.jpg"
model.predict(source=source, save=True)`),
	];
}

export const visionLibraries = {
	ben2: defineLibrary({
		prettyLabel: "BEN2",
		repoName: "BEN2",
		repoUrl: "https://github.com/PramaLLC/BEN2",
		filter: false,
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
		// The client library picks its model itself; the snippet does not read the model id.
		codeBlocks: () => [
			python(`# pip install git+https://github.com/Google-Health/cxr-foundation.git#subdirectory=python
import requests
from PIL import Image
from clientside.clients import make_hugging_face_client

# A chest X-ray (Stillwaterising, CC0, via Wikimedia Commons), loaded as grayscale
image_url = "https://upload.wikimedia.org/wikipedia/commons/c/c8/Chest_Xray_PA_3-8-2010.png"
img = Image.open(requests.get(image_url, headers={'User-Agent': 'Demo'}, stream=True).raw).convert('L')

cxr_client = make_hugging_face_client('cxr_model')
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
			shell(`# Download the checkpoint to ./checkpoints, where depth_pro looks for it
pip install huggingface-hub
huggingface-cli download --local-dir checkpoints ${shWord(model.id)}`),
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
		// Always the official google/derm-foundation model: the snippet does not read the model id.
		codeBlocks: () => [
			python(`import requests
import tensorflow as tf
from huggingface_hub import from_pretrained_keras

# Wrap the PNG bytes of a skin image in a serialized tf.train.Example
image_url = "https://storage.googleapis.com/dx-scin-public-data/dataset/images/3445096909671059178.png"
image_bytes = requests.get(image_url, stream=True).content
input_tensor = tf.train.Example(
    features=tf.train.Features(
        feature={"image/encoded": tf.train.Feature(bytes_list=tf.train.BytesList(value=[image_bytes]))}
    )
).SerializeToString()

loaded_model = from_pretrained_keras("google/derm-foundation")
infer = loaded_model.signatures["serving_default"]
print(infer(inputs=tf.constant([input_tensor])))`),
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
		codeBlocks: (model) => [
			python(`# Install from https://github.com/pq-yang/MatAnyone.git
from matanyone.model.matanyone import MatAnyone

model = MatAnyone.from_pretrained(${pyString(model.id)})`),
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
		codeBlocks: (model) => [
			python(`from mlxim.model import create_model

model = create_model(${pyString(model.id)})`),
		],
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
		codeBlocks: (model) => [
			python(`# Segment an image
import numpy as np
import torch
from PIL import Image
from sam2.sam2_image_predictor import SAM2ImagePredictor

predictor = SAM2ImagePredictor.from_pretrained(${pyString(model.id)})

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
from sam2.sam2_video_predictor import SAM2VideoPredictor

predictor = SAM2VideoPredictor.from_pretrained(${pyString(model.id)})

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
		],
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
		codeBlocks: (model) => [
			python(`from terratorch.registry import BACKBONE_REGISTRY

model = BACKBONE_REGISTRY.build(${pyString(model.id)})`),
		],
	}),
	ultralytics: defineLibrary({
		prettyLabel: "ultralytics",
		repoName: "ultralytics",
		repoUrl: "https://github.com/ultralytics/ultralytics",
		docsUrl: "https://github.com/ultralytics/ultralytics",
		filter: false,
		countDownloads: `path_extension:"pt"`,
		installCommand: "pip install ultralytics",
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

model = Model.from_pretrained(${pyString(model.id)})`),
		],
	}),
	yolov10: defineLibrary({
		prettyLabel: "YOLOv10",
		repoName: "YOLOv10",
		repoUrl: "https://github.com/THU-MIG/yolov10",
		docsUrl: "https://github.com/THU-MIG/yolov10",
		countDownloads: `path_extension:"pt" OR path_extension:"safetensors"`,
		codeBlocks: ultralytics,
	}),
} as const satisfies Record<string, LibraryUiElement>;
