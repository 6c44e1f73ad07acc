import type { PipelineType } from "@modelhub/tasks";

/**
 * The task of a diffusers pipeline class (`_class_name` of `model_index.json`), as the public hub
 * files them (seed catalogue: FluxPipeline, StableDiffusionXLPipeline, StableDiffusion3Pipeline →
 * text-to-image; FluxFillPipeline, StableDiffusionInstructPix2PixPipeline → image-to-image;
 * DDPMPipeline → unconditional-image-generation; LTXPipeline → text-to-video;
 * StableVideoDiffusionPipeline → image-to-video; ShapEPipeline → text-to-3d; LotusGPipeline →
 * depth-estimation). Matched by the words diffusers class names use, most specific first; any other
 * pipeline generates images from text.
 */
export const DIFFUSERS_CLASS_TASKS: readonly (readonly [pattern: RegExp, task: PipelineType])[] = [
	[/^(DDPM|DDIM|PNDM|ScoreSdeVe|KarrasVe|LDMSuperResolution|DiT)Pipeline$/, "unconditional-image-generation"],
	[/StableVideoDiffusion|ImageToVideo|I2V|Img2Vid/i, "image-to-video"],
	[/Video|LTX|Mochi|CogVideo|Wan|HunyuanVideo|AnimateDiff/i, "text-to-video"],
	[/ShapE/, "text-to-3d"],
	[/Lotus|Marigold|Depth(?!Anything)/, "depth-estimation"],
	[/Audio|Music/i, "text-to-audio"],
	[/Img2Img|Inpaint|InstructPix2Pix|Fill|Upscale|ImageVariation|Kontext|Redux/i, "image-to-image"],
];

export function diffusersTaskOf(className: string): PipelineType {
	return DIFFUSERS_CLASS_TASKS.find(([pattern]) => pattern.test(className))?.[1] ?? "text-to-image";
}
