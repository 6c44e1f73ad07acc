import type { TaskDataCustom } from "./types.js";

const taskData: TaskDataCustom = {
	datasets: [
		{
			description:
				"Speaker embeddings (x-vectors) computed from the CMU ARCTIC recordings; pass one to a voice-conversion or speech model to choose the target voice.",
			id: "Matthijs/cmu-arctic-xvectors",
		},
	],
	demo: {
		// Outputs: two espeak-ng voices (en-us; en-gb+f3) each saying one sentence; input: both mixed by sox with light white noise; 16 kHz mono 16-bit.
		inputs: [{ type: "audio", filename: "input.wav" }],
		outputs: [
			{ type: "audio", filename: "label-0.wav" },
			{ type: "audio", filename: "label-1.wav" },
		],
	},
	metrics: [
		{
			description:
				"Signal-to-noise ratio improvement: how many decibels cleaner the output is than the input mixture, measured against the reference source.",
			id: "snri",
		},
		{
			description:
				"Signal-to-distortion ratio improvement: the gain in decibels of the output over the mixture, counting noise, interference and artefacts alike.",
			id: "sdri",
		},
	],
	models: [
		{
			description:
				"Speech enhancement in two stages: a denoiser strips background noise and an enhancer restores clarity and missing high frequencies.",
			id: "ResembleAI/resemble-enhance",
		},
		{
			description:
				"SpeechT5 fine-tuned for voice conversion: it re-speaks an utterance in another voice, given that voice's speaker embedding, while keeping the words.",
			id: "microsoft/speecht5_vc",
		},
	],
	spaces: [
		{
			description:
				"Splits a recording of people talking over each other into one track per speaker with SpeechBrain.",
			id: "younver/speechbrain-speech-separation",
		},
		{
			description: "Transfers the style of a music clip with an audio diffusion model.",
			id: "nakas/audio-diffusion_style_transfer",
		},
	],
	summary:
		"Audio-to-audio models take a recording and return one or more new recordings. Examples are removing background noise, separating overlapping speakers into their own tracks and converting one voice into another.",
	widgetModels: ["speechbrain/sepformer-wham"],
	youtubeId: "iohj7nCCYoM",
};

export default taskData;
