/**
 * Image, video and 3D generation libraries: diffusion pipelines and the research repos built around them.
 */
import { pyString } from "../../literals/index.js";
import { defineLibrary, nameWithoutNamespace, python } from "../define.js";
import type { LibraryUiElement, ModelData } from "../types.js";

export const DIFFUSERS_DEFAULT_PROMPT =
	"Astronaut in a jungle, cold color palette, muted colors, detailed, 8k";
export const DIFFUSERS_BASE_MODEL_PLACEHOLDER = "fill-in-base-model";

/** `cardData.base_model` as one string (a list is comma-joined), or the placeholder when there is none. */
export function diffusersBaseModel(model: ModelData): string {
	const base = model.cardData?.base_model;
	if (base === undefined || base === null) return DIFFUSERS_BASE_MODEL_PLACEHOLDER;
	const text = Array.isArray(base) ? base.join(",") : String(base);
	return text === "" ? DIFFUSERS_BASE_MODEL_PLACEHOLDER : text;
}

/** The widget text, else the card's instance prompt, else the default; an empty widget text does not fall through. */
export function diffusersPrompt(model: ModelData): string {
	const prompt = model.widgetData?.[0]?.text ?? model.cardData?.instance_prompt;
	return typeof prompt === "string" && prompt !== "" ? prompt : DIFFUSERS_DEFAULT_PROMPT;
}

/** A line telling the user to replace the placeholder, only when the placeholder is in use. */
function baseModelHint(base: string): string {
	return base === DIFFUSERS_BASE_MODEL_PLACEHOLDER
		? `# Replace ${DIFFUSERS_BASE_MODEL_PLACEHOLDER} with the id of the base model these weights were trained for.\n`
		: "";
}

function diffusersCode(model: ModelData): string {
	const id = pyString(model.id);
	const base = diffusersBaseModel(model);
	// Variants are checked in a fixed precedence: controlnet, then lora, then textual_inversion.
	if (model.tags?.includes("controlnet")) {
		return `from diffusers import ControlNetModel, StableDiffusionControlNetPipeline

${baseModelHint(base)}controlnet = ControlNetModel.from_pretrained(${id})
pipe = StableDiffusionControlNetPipeline.from_pretrained(${pyString(base)}, controlnet=controlnet)`;
	}
	if (model.tags?.includes("lora")) {
		return `from diffusers import DiffusionPipeline

${baseModelHint(base)}pipe = DiffusionPipeline.from_pretrained(${pyString(base)})
pipe.load_lora_weights(${id})

prompt = ${pyString(diffusersPrompt(model))}
image = pipe(prompt).images[0]`;
	}
	if (model.tags?.includes("textual_inversion")) {
		return `from diffusers import DiffusionPipeline

${baseModelHint(base)}pipe = DiffusionPipeline.from_pretrained(${pyString(base)})
pipe.load_textual_inversion(${id})`;
	}
	return `from diffusers import DiffusionPipeline

pipe = DiffusionPipeline.from_pretrained(${id})

prompt = ${pyString(diffusersPrompt(model))}
image = pipe(prompt).images[0]`;
}

/** DiffusionKit (MLX): FLUX checkpoints and Stable Diffusion 3 checkpoints take different pipelines. */
function diffusionkitSetup(model: ModelData): { settings: string; pipeline: string } {
	const id = pyString(model.id);
	// DiffusionKit 0.5.2 looks model_version up in its MMDIT_CKPT table of argmaxinc/mlx-* repositories.
	const note = "# model_version is one of DiffusionKit's registered argmaxinc/mlx-* checkpoints";
	if (model.tags?.includes("flux")) {
		return {
			settings: "NUM_STEPS = 4\nCFG_WEIGHT = 0",
			pipeline: `from diffusionkit.mlx import FluxPipeline

${note}
pipeline = FluxPipeline(
	shift=1.0,
	model_version=${id},
	low_memory_mode=True,
	a16=True,
	w16=True,
)`,
		};
	}
	return {
		settings: "NUM_STEPS = 50\nCFG_WEIGHT = 5",
		pipeline: `from diffusionkit.mlx import DiffusionPipeline

${note}
pipeline = DiffusionPipeline(
	shift=3.0,
	use_t5=False,
	model_version=${id},
	low_memory_mode=True,
	a16=True,
	w16=True,
)`,
	};
}

/**
 * Sana's \`from_pretrained\` downloads \`hf://<repo id>/<file path>\` (Sana \`hf_download_or_fpath\`): the path of the
 * checkpoint inside the repository is required, and NVlabs' repositories name it \`checkpoints/<repo name>.pth\`.
 */
export function sanaCheckpoint(modelId: string): string {
	return `hf://${modelId}/checkpoints/${nameWithoutNamespace(modelId)}.pth`;
}

export const diffusionLibraries = {
	champ: defineLibrary({
		prettyLabel: "Champ",
		repoName: "Champ",
		repoUrl: "https://github.com/fudan-generative-vision/champ",
		countDownloads: `path:"champ/motion_module.pth"`,
	}),
	cosmos: defineLibrary({
		prettyLabel: "Cosmos",
		repoName: "Cosmos",
		repoUrl: "https://github.com/NVIDIA/Cosmos",
		countDownloads: `path:"config.json" OR path_extension:"pt"`,
	}),
	diffree: defineLibrary({
		prettyLabel: "Diffree",
		repoName: "Diffree",
		repoUrl: "https://github.com/OpenGVLab/Diffree",
		filter: false,
		countDownloads: `path:"diffree-step=000010999.ckpt"`,
	}),
	diffusers: defineLibrary({
		prettyLabel: "Diffusers",
		repoName: "🤗/diffusers",
		repoUrl: "https://github.com/huggingface/diffusers",
		docsUrl: "https://huggingface.co/docs/hub/diffusers",
		filter: true,
		installCommand: "pip install -U diffusers",
		codeBlocks: (model) => [python(diffusersCode(model))],
	}),
	diffusionkit: defineLibrary({
		prettyLabel: "DiffusionKit",
		repoName: "DiffusionKit",
		repoUrl: "https://github.com/argmaxinc/DiffusionKit",
		installCommand: "pip install diffusionkit",
		codeBlocks: (model) => {
			const { settings, pipeline } = diffusionkitSetup(model);
			// The second block repeats the setup so that each block runs on its own.
			return [
				python(pipeline),
				python(`${pipeline}

HEIGHT = 512
WIDTH = 512
${settings}

image, _ = pipeline.generate_image(
	"a photo of a cat",
	cfg_weight=CFG_WEIGHT,
	num_steps=NUM_STEPS,
	latent_size=(HEIGHT // 8, WIDTH // 8),
)
image.save("image.png")`),
			];
		},
	}),
	"geometry-crafter": defineLibrary({
		prettyLabel: "GeometryCrafter",
		repoName: "GeometryCrafter",
		repoUrl: "https://github.com/TencentARC/GeometryCrafter",
		countDownloads: `path:"point_map_vae/diffusion_pytorch_model.safetensors"`,
	}),
	"glyph-byt5": defineLibrary({
		prettyLabel: "Glyph-ByT5",
		repoName: "Glyph-ByT5",
		repoUrl: "https://github.com/AIGText/Glyph-ByT5",
		filter: false,
		countDownloads: `path:"checkpoints/byt5_model.pt"`,
	}),
	hallo: defineLibrary({
		prettyLabel: "Hallo",
		repoName: "Hallo",
		repoUrl: "https://github.com/fudan-generative-vision/hallo",
		countDownloads: `path:"hallo/net.pth"`,
	}),
	"hunyuan-dit": defineLibrary({
		prettyLabel: "HunyuanDiT",
		repoName: "HunyuanDiT",
		repoUrl: "https://github.com/Tencent/HunyuanDiT",
		countDownloads: `path:"pytorch_model_ema.pt" OR path:"pytorch_model_distill.pt"`,
	}),
	"hunyuan3d-2": defineLibrary({
		prettyLabel: "Hunyuan3D-2",
		repoName: "Hunyuan3D-2",
		repoUrl: "https://github.com/Tencent/Hunyuan3D-2",
		countDownloads: `path_filename:"model_index" OR path_filename:"config"`,
	}),
	"infinite-you": defineLibrary({
		prettyLabel: "InfiniteYou",
		repoName: "InfiniteYou",
		repoUrl: "https://github.com/bytedance/InfiniteYou",
		filter: false,
		countDownloads: `path:"infu_flux_v1.0/sim_stage1/image_proj_model.bin" OR path:"infu_flux_v1.0/aes_stage2/image_proj_model.bin"`,
	}),
	liveportrait: defineLibrary({
		prettyLabel: "LivePortrait",
		repoName: "LivePortrait",
		repoUrl: "https://github.com/KwaiVGI/LivePortrait",
		filter: false,
		countDownloads: `path:"liveportrait/landmark.onnx"`,
	}),
	"mesh-anything": defineLibrary({
		prettyLabel: "MeshAnything",
		repoName: "MeshAnything",
		repoUrl: "https://github.com/buaacyw/MeshAnything",
		filter: false,
		countDownloads: `path:"MeshAnything_350m.pth"`,
		codeBlocks: (model) => [
			python(`# Install MeshAnything from https://github.com/buaacyw/MeshAnything.git
import argparse

from huggingface_hub import hf_hub_download
from safetensors.torch import load_file
from MeshAnything.models.meshanything import MeshAnything

# The model options, with the defaults of https://github.com/buaacyw/MeshAnything/blob/main/main.py#L91
args = argparse.Namespace(llm="facebook/opt-350m", codebook_size=8192, codebook_dim=1024, n_max_triangles=800)
model = MeshAnything(args)

# The checkpoint is stored in safetensors format despite its .pth extension.
weights = load_file(hf_hub_download(repo_id=${pyString(model.id)}, filename="MeshAnything_350m.pth"))
model.load_state_dict(weights, strict=True)

# Turning a point cloud or mesh into model input: https://github.com/buaacyw/MeshAnything/blob/main/app.py`),
		],
	}),
	"open-oasis": defineLibrary({
		prettyLabel: "open-oasis",
		repoName: "open-oasis",
		repoUrl: "https://github.com/etched-ai/open-oasis",
		countDownloads: `path:"oasis500m.safetensors"`,
	}),
	"open-sora": defineLibrary({
		prettyLabel: "Open-Sora",
		repoName: "Open-Sora",
		repoUrl: "https://github.com/hpcaitech/Open-Sora",
		filter: false,
		countDownloads: `path:"Open_Sora_v2.safetensors"`,
	}),
	refiners: defineLibrary({
		prettyLabel: "Refiners",
		repoName: "Refiners",
		repoUrl: "https://github.com/finegrain-ai/refiners",
		docsUrl: "https://refine.rs/",
		filter: false,
		countDownloads: `path:"model.safetensors"`,
	}),
	"diffusion-single-file": defineLibrary({
		prettyLabel: "Diffusion Single File",
		repoName: "diffusion-single-file",
		repoUrl: "https://github.com/comfyanonymous/ComfyUI",
		filter: false,
		countDownloads: `path_extension:"safetensors"`,
	}),
	"seed-story": defineLibrary({
		prettyLabel: "SEED-Story",
		repoName: "SEED-Story",
		repoUrl: "https://github.com/TencentARC/SEED-Story",
		filter: false,
		countDownloads: `path:"cvlm_llama2_tokenizer/tokenizer.model"`,
		codeBlocks: (model) => [
			python(`# Run from a clone of https://github.com/TencentARC/SEED-Story, whose configs read the weights from ./pretrained.
# They also expect Llama-2-7b-hf, stable-diffusion-xl-base-1.0 and Qwen-VL-Chat there (see its README).
from huggingface_hub import snapshot_download
from omegaconf import OmegaConf
import hydra

snapshot_download(repo_id=${pyString(model.id)}, local_dir="pretrained")

# https://github.com/TencentARC/SEED-Story/blob/master/configs/clm_models/llama2chat7b_lora.yaml
llm_cfg_path = "configs/clm_models/llama2chat7b_lora.yaml"
# https://github.com/TencentARC/SEED-Story/blob/master/configs/clm_models/agent_7b_sft.yaml
seed_story_cfg_path = "configs/clm_models/agent_7b_sft.yaml"

llm_cfg = OmegaConf.load(llm_cfg_path)
llm = hydra.utils.instantiate(llm_cfg, torch_dtype="fp16")

seed_story_cfg = OmegaConf.load(seed_story_cfg_path)
seed_story = hydra.utils.instantiate(seed_story_cfg, llm=llm)`),
		],
	}),
	genmo: defineLibrary({
		prettyLabel: "Genmo",
		repoName: "Genmo",
		repoUrl: "https://github.com/genmoai/models",
		filter: false,
		countDownloads: `path:"vae_stats.json"`,
	}),
	trellis: defineLibrary({
		prettyLabel: "Trellis",
		repoName: "Trellis",
		repoUrl: "https://github.com/microsoft/TRELLIS",
		countDownloads: `path_extension:"safetensors"`,
	}),
	"uni-3dar": defineLibrary({
		prettyLabel: "Uni-3DAR",
		repoName: "Uni-3DAR",
		repoUrl: "https://github.com/dptech-corp/Uni-3DAR",
		docsUrl: "https://github.com/dptech-corp/Uni-3DAR",
		countDownloads: `path_extension:"pt"`,
	}),
	sana: defineLibrary({
		prettyLabel: "Sana",
		repoName: "Sana",
		repoUrl: "https://github.com/NVlabs/Sana",
		countDownloads: `path_extension:"pth"`,
		codeBlocks: (model) => [
			python(`# Run from a clone of https://github.com/NVlabs/Sana
import torch
from app.sana_pipeline import SanaPipeline
from torchvision.utils import save_image

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
generator = torch.Generator(device=device).manual_seed(42)

# The config must match the checkpoint; configs/ holds one per Sana model.
sana = SanaPipeline("configs/sana_config/1024ms/Sana_1600M_img1024.yaml")
# from_pretrained takes hf://<repo id>/<file in the repo>; Sana repositories keep it in checkpoints/<repo name>.pth
sana.from_pretrained(${pyString(sanaCheckpoint(model.id))})

image = sana(
	prompt='a cyberpunk cat with a neon sign that says "Sana"',
	height=1024,
	width=1024,
	guidance_scale=5.0,
	pag_guidance_scale=2.0,
	num_inference_steps=18,
	generator=generator,
)
save_image(image, "sana.png", nrow=1, normalize=True, value_range=(-1, 1))`),
		],
	}),
	wham: defineLibrary({
		prettyLabel: "WHAM",
		repoName: "wham",
		repoUrl: "https://huggingface.co/microsoft/wham",
		docsUrl: "https://huggingface.co/microsoft/wham/blob/main/README.md",
		countDownloads: `path_extension:"ckpt"`,
	}),
	"3dtopia-xl": defineLibrary({
		prettyLabel: "3DTopia-XL",
		repoName: "3DTopia-XL",
		repoUrl: "https://github.com/3DTopia/3DTopia-XL",
		filter: false,
		countDownloads: `path:"model_vae_fp16.pt"`,
		// 3DTopia-XL is a research repository, not a package: inference.py's main(config) runs it.
		codeBlocks: (model) => [
			python(`# 3DTopia-XL is not on PyPI: run from a clone of https://github.com/3DTopia/3DTopia-XL set up as its README says.
from huggingface_hub import hf_hub_download
from omegaconf import OmegaConf
from inference import main

config = OmegaConf.load("configs/inference_dit.yml")
# The single-view DiT and its VAE, in fp16
config.checkpoint_path = hf_hub_download(repo_id=${pyString(model.id)}, filename="model_sview_dit_fp16.pt")
config.model.vae_checkpoint_path = hf_hub_download(repo_id=${pyString(model.id)}, filename="model_vae_fp16.pt")
config.inference.input_dir = "path/to/images"  # one textured mesh per image, written under ./runs

main(config)`),
		],
	}),
} as const satisfies Record<string, LibraryUiElement>;
