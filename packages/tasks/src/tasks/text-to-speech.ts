import type { TaskDataCustom } from "./types.js";

const demoText = "The next train to Edinburgh leaves from platform four.";

const taskData: TaskDataCustom = {
	canonicalId: "text-to-audio",
	datasets: [
		{
			description:
				"A roughly 10,000-hour English subset of Multilingual LibriSpeech audiobook recordings, prepared by the Parler-TTS project to train its models.",
			id: "parler-tts/mls_eng_10k",
		},
		{
			description:
				"LibriTTS-R: the multi-speaker LibriTTS audiobook corpus after speech restoration, which removes noise and reverberation so that it is cleaner to train synthesis models on.",
			id: "mythicinfinity/libritts_r",
		},
		{
			description:
				"Multilingual LibriSpeech: read audiobook speech from LibriVox in eight European languages; built for speech recognition but also used to train multilingual voices.",
			id: "facebook/multilingual_librispeech",
		},
	],
	demo: {
		inputs: [{ type: "text", label: "Input", content: demoText }],
		// Our audio: espeak-ng -v en-us -s 150 reading demoText, then sox to 16 kHz mono 16-bit WAV.
		outputs: [{ type: "audio", filename: "text-to-speech-output.wav" }],
	},
	metrics: [
		{
			description:
				"Mel cepstral distortion: the distance between mel-cepstral coefficients of synthesised and reference speech after aligning them in time. Lower means closer to the reference; listening tests are still needed for naturalness.",
			id: "mel cepstral distortion",
		},
	],
	models: [
		{
			description:
				"Parler-TTS Large: speaks the input text in a voice controlled by a second, plain-language description of the speaker, pace, pitch and recording quality.",
			id: "parler-tts/parler-tts-large-v1",
		},
		{
			description:
				"F5-TTS: a non-autoregressive flow-matching model with a diffusion transformer that clones a voice from a few seconds of reference audio, with no separate duration model.",
			id: "SWivid/F5-TTS",
		},
		{
			description:
				"Fish Speech 1.5: a multilingual model that can imitate a voice from a short reference clip without fine-tuning.",
			id: "fishaudio/fish-speech-1.5",
		},
		{
			description:
				"OuteTTS 0.1: a 350M-parameter model that treats speech synthesis as language modelling over audio tokens, and can clone a voice from a short sample.",
			id: "OuteAI/OuteTTS-0.1-350M",
		},
		{
			description:
				"Kokoro: an 82M-parameter open-weight model with several built-in voices whose quality is high for its size; light enough to run on a CPU.",
			id: "hexgrad/Kokoro-82M",
		},
	],
	spaces: [
		{
			description: "Type text, pick one of Kokoro's voices and a speaking speed, and listen to the result.",
			id: "hexgrad/Kokoro-TTS",
		},
		{
			description:
				"Fish Speech demo: synthesise text, optionally in the voice of a reference clip you upload.",
			id: "fishaudio/fish-speech-1",
		},
		{
			description:
				"Clone a voice from a short recording and make it say new text with the E2-TTS or F5-TTS models.",
			id: "mrfakename/E2-F5-TTS",
		},
		{
			description:
				"Parler-TTS tuned on expressive speech, so that the voice description can ask for emotions and styles such as whispering or laughing.",
			id: "parler-tts/parler-tts-expresso",
		},
		{
			description: "Produces a podcast-style conversation between several speakers, voiced with Kokoro.",
			id: "ngxson/kokoro-podcast-generator",
		},
	],
	summary:
		"Text-to-speech (TTS) turns written text into spoken audio. Current models sound natural, cover many languages, and can copy a voice from a short sample or follow a description of how the speech should sound.",
	widgetModels: ["suno/bark"],
	youtubeId: "NW62DpzJ274",
};

export default taskData;
