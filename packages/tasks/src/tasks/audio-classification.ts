import type { TaskDataCustom } from "./types.js";

const taskData: TaskDataCustom = {
	datasets: [
		{
			description:
				"The SUPERB benchmark: a suite of speech tasks, including keyword spotting, speaker identification, intent and emotion classification, used to compare speech representations.",
			id: "s3prl/superb",
		},
		{
			description:
				"Google's AudioSet: ten-second clips from YouTube videos labelled with hundreds of everyday sound classes, from music genres to engines, animals and speech.",
			id: "agkphysics/AudioSet",
		},
	],
	demo: {
		// A single spoken keyword: espeak-ng (en-us) saying "Up", padded and resampled with sox to 16 kHz mono 16-bit.
		inputs: [{ type: "audio", filename: "audio-classification-audio.wav" }],
		outputs: [
			{
				type: "chart",
				data: [
					{ label: "Up", score: 0.91 },
					{ label: "Down", score: 0.06 },
				],
			},
		],
	},
	metrics: [
		{
			description: "Share of clips whose predicted label is the reference label.",
			id: "accuracy",
		},
		{
			description:
				"For each class, the share of its clips the model labelled correctly; low recall means missed sounds.",
			id: "recall",
		},
		{
			description:
				"For each class, the share of the model's predictions of that class that were right; low precision means false alarms.",
			id: "precision",
		},
		{
			description:
				"Harmonic mean of precision and recall, often averaged over classes when the data is unbalanced.",
			id: "f1",
		},
	],
	models: [
		{
			description:
				"SpeechBrain x-vector classifier trained on Google Speech Commands; it recognises short spoken keywords such as yes, no, up and down.",
			id: "speechbrain/google_speech_command_xvector",
		},
		{
			description:
				"Large multilingual wav2vec 2.0 (XLSR) fine-tuned to tell the emotion in English speech, such as angry, calm, happy or sad.",
			id: "ehcalabres/wav2vec2-lg-xlsr-en-speech-emotion-recognition",
		},
		{
			description:
				"Language identification from Meta's Massively Multilingual Speech project: tells which of 126 languages is being spoken.",
			id: "facebook/mms-lid-126",
		},
	],
	spaces: [
		{
			description: "Upload or record a short clip and see which classes an audio classifier assigns to it.",
			id: "kurianbenoy/audioclassification",
		},
	],
	summary:
		"Audio classification assigns one or more labels to a whole recording. Typical uses are spotting spoken commands, recognising the speaker's emotion or language, and detecting sounds such as sirens, dogs or music.",
	widgetModels: ["MIT/ast-finetuned-audioset-10-10-0.4593"],
	youtubeId: "KWwzcmG98Ds",
};

export default taskData;
