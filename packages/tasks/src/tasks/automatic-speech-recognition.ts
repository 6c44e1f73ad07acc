import type { TaskDataCustom } from "./types.js";

const taskData: TaskDataCustom = {
	datasets: [
		{
			description:
				"Mozilla's crowd-sourced Common Voice, release 17: volunteers read sentences aloud in more than a hundred languages, each clip with its transcript.",
			id: "mozilla-foundation/common_voice_17_0",
		},
		{
			description:
				"Large multilingual collection of spontaneous, in-the-wild speech from sources such as talk shows and podcasts, with transcripts; built for speech generation and useful for recognition too.",
			id: "amphion/Emilia-Dataset",
		},
		{
			description:
				"The English part of Multilingual LibriSpeech: many hours of read audiobooks from LibriVox with aligned transcripts.",
			id: "parler-tts/mls_eng",
		},
		{
			description:
				"YODAS: a very large, multilingual speech corpus gathered from YouTube videos together with their subtitles.",
			id: "espnet/yodas",
		},
	],
	demo: {
		// Made with espeak-ng (en-us, 155 wpm) speaking the transcript below, resampled with sox to 16 kHz mono 16-bit.
		inputs: [{ type: "audio", filename: "automatic-speech-recognition-input.wav" }],
		outputs: [
			{ type: "text", label: "Transcript", content: "The library opens at nine on Saturday mornings." },
		],
	},
	metrics: [
		{
			description:
				"Word error rate: substituted, deleted and inserted words divided by the number of words in the reference; lower is better.",
			id: "wer",
		},
		{
			description:
				"Character error rate: the same edit count at character level, the better choice for languages written without spaces.",
			id: "cer",
		},
	],
	models: [
		{
			description:
				"OpenAI's largest Whisper: a multilingual encoder-decoder that transcribes speech in many languages and can translate it into English.",
			id: "openai/whisper-large-v3",
		},
		{
			description:
				"Conformer speech encoder pre-trained without labels on a huge amount of audio in many languages; add a CTC head and fine-tune it for your language.",
			id: "facebook/w2v-bert-2.0",
		},
		{
			description:
				"Meta's SeamlessM4T v2: one model for speech recognition plus speech and text translation across about a hundred languages.",
			id: "facebook/seamless-m4t-v2-large",
		},
		{
			description:
				"NVIDIA NeMo model that transcribes English, German, French and Spanish and translates between English and the others.",
			id: "nvidia/canary-1b",
		},
		{
			description:
				"pyannote pipeline that finds who spoke when; combine it with a transcription model to get speaker-labelled transcripts.",
			id: "pyannote/speaker-diarization-3.1",
		},
	],
	spaces: [
		{
			description:
				"Transcribe a microphone recording, an audio file or a YouTube video with Whisper large-v3.",
			id: "hf-audio/whisper-large-v3",
		},
		{
			description:
				"Fast transcription with Moonshine, a small speech recogniser designed for live use on modest hardware.",
			id: "mrfakename/Moonshinex",
		},
		{
			description:
				"Try SeamlessM4T for transcription and for translating speech or text between many languages.",
			id: "facebook/seamless_m4t",
		},
		{
			description: "Transcribe or translate audio with NVIDIA's Canary model.",
			id: "nvidia/canary-1b",
		},
	],
	summary:
		"Automatic speech recognition turns spoken audio into written text. It powers voice assistants, subtitles, meeting notes and dictation, and many models can also translate what they hear.",
	widgetModels: ["openai/whisper-large-v3"],
	youtubeId: "TksaY_FDgnk",
};

export default taskData;
