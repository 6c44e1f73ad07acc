import { pyComment, pyString, shWord } from "../../literals/index.js";
import { defineLibrary, hasTag, python, shell } from "../define.js";
import type { CodeBlock, LibraryUiElement, ModelData } from "../types.js";

/** One Python block from its lines. */
const py = (...lines: string[]): CodeBlock => python(lines.join("\n"));

/** Loads a file as mono 16 kHz audio shaped (batch, channels, samples), the input AudioSeal expects. */
const audiosealInput = (path: string): string[] => [
	"# AudioSeal works on 16 kHz audio shaped (batch, channels, samples).",
	`wav, sr = torchaudio.load(${pyString(path)})`,
	"wav = torchaudio.functional.resample(wav, orig_freq=sr, new_freq=16000)",
	"wav = wav.mean(dim=0, keepdim=True).unsqueeze(0)",
	"sr = 16000",
];

/**
 * AudioSeal 0.1.8 `load_generator` / `load_detector` take a model card name or a checkpoint file, not a
 * repository id: the checkpoint is downloaded by id first (file names as in facebook/audioseal).
 */
const audiosealLoad = (model: ModelData, name: string, loader: string, file: string): string[] => [
	"# AudioSeal loads a card name or a checkpoint file, not a repository id: download the checkpoint first.",
	`${name} = AudioSeal.${loader}(`,
	`\thf_hub_download(repo_id=${pyString(model.id)}, filename=${pyString(file)}),`,
	"\tnbits=16,  # the message size the checkpoint was trained with",
	")",
];

const AUDIOCRAFT_MODELS = [
	{ tag: "musicgen", className: "MusicGen", descriptions: ["happy rock", "energetic EDM", "sad jazz"] },
	{
		tag: "audiogen",
		className: "AudioGen",
		descriptions: ["dog barking", "sirene of an emergency vehicle", "footsteps in a corridor"],
		durationSeconds: 5,
	},
	{ tag: "magnet", className: "MAGNeT", descriptions: ["disco beat", "energetic EDM", "funky groove"] },
] as const;

function audiocraftSnippet(model: ModelData): CodeBlock[] {
	// First matching tag wins: musicgen, then audiogen, then magnet.
	const kind = AUDIOCRAFT_MODELS.find((candidate) => hasTag(model, candidate.tag));
	if (!kind) {
		return [
			py(
				"# Type of model unknown.",
				"# Each audiocraft.models class (MusicGen, AudioGen, MAGNeT, JASCO...) loads a repository with get_pretrained(id);",
				"# until you know which one these weights are for, this fetches the files.",
				"from huggingface_hub import snapshot_download",
				"",
				`local_dir = snapshot_download(repo_id=${pyString(model.id)})`,
			),
		];
	}
	return [
		py(
			`from audiocraft.models import ${kind.className}`,
			"",
			`model = ${kind.className}.get_pretrained(${pyString(model.id)})`,
			...("durationSeconds" in kind ? [`model.set_generation_params(duration=${kind.durationSeconds})`] : []),
			"",
			`descriptions = [${kind.descriptions.map(pyString).join(", ")}]`,
			"wav = model.generate(descriptions)  # one sample per description",
		),
	];
}

function espnetSnippet(model: ModelData): CodeBlock[] {
	if (hasTag(model, "text-to-speech")) {
		return [
			py(
				"import soundfile",
				"from espnet2.bin.tts_inference import Text2Speech",
				"",
				"# from_pretrained downloads the repository through espnet_model_zoo",
				`model = Text2Speech.from_pretrained(${pyString(model.id)})`,
				"",
				'speech = model("text to generate speech from")["wav"]',
				'soundfile.write("output.wav", speech.numpy(), model.fs)',
			),
		];
	}
	if (hasTag(model, "automatic-speech-recognition")) {
		return [
			py(
				"import soundfile",
				"from espnet2.bin.asr_inference import Speech2Text",
				"",
				"# from_pretrained downloads the repository through espnet_model_zoo",
				`model = Speech2Text.from_pretrained(${pyString(model.id)})`,
				"",
				'speech, rate = soundfile.read("speech.wav")',
				"text, *_ = model(speech)[0]",
			),
		];
	}
	return [
		py(
			pyComment("unknown model type (must be text-to-speech or automatic-speech-recognition)"),
			"# espnet_model_zoo downloads and unpacks the repository; pass the returned config and model paths",
			"# to the espnet2.bin.*_inference class of the model's task.",
			"from espnet_model_zoo.downloader import ModelDownloader",
			"",
			`files = ModelDownloader().download_and_unpack(${pyString(model.id)})`,
		),
	];
}

function pyannoteSnippet(model: ModelData): CodeBlock[] {
	if (hasTag(model, "pyannote-audio-pipeline")) {
		return [
			py(
				"from pyannote.audio import Audio, Pipeline",
				"from pyannote.core import Segment",
				"",
				`pipeline = Pipeline.from_pretrained(${pyString(model.id)})`,
				"",
				"# Run the pipeline on a whole file",
				'output = pipeline("file.wav")',
				"",
				"# or on an excerpt of it",
				"excerpt = Segment(start=2.0, end=5.0)",
				'waveform, sample_rate = Audio().crop("file.wav", excerpt)',
				'output = pipeline({"waveform": waveform, "sample_rate": sample_rate})',
			),
		];
	}
	return [
		py(
			"from pyannote.audio import Model, Inference",
			"from pyannote.core import Segment",
			"",
			`model = Model.from_pretrained(${pyString(model.id)})`,
			"inference = Inference(model)",
			"",
			"# Run the model on a whole file",
			'output = inference("file.wav")',
			"",
			"# or on an excerpt of it",
			"excerpt = Segment(start=2.0, end=5.0)",
			'output = inference.crop("file.wav", excerpt)',
		),
	];
}

/**
 * SpeechBrain interface (config.speechbrain.speechbrain_interface) → the `speechbrain.inference`
 * submodule that defines it (SpeechBrain ≥ 1.0) and the method that runs it on a file.
 */
const SPEECHBRAIN_INTERFACES = [
	{ name: "EncoderClassifier", module: "classifiers", method: "classify_file" },
	{ name: "EncoderDecoderASR", module: "ASR", method: "transcribe_file" },
	{ name: "EncoderASR", module: "ASR", method: "transcribe_file" },
	{ name: "SpectralMaskEnhancement", module: "enhancement", method: "enhance_file" },
	{ name: "SepformerSeparation", module: "separation", method: "separate_file" },
] as const;

/**
 * Without a known interface, the base class still loads the repository: `Pretrained.from_hparams`
 * builds the modules its hyperparams.yaml names (SpeechBrain 1.x `speechbrain.inference.interfaces`).
 */
function speechbrainGenericSnippet(reason: string, model: ModelData): CodeBlock {
	return py(
		reason,
		"# The generic interface loads the modules named in hyperparams.yaml; the task's own class adds its helpers.",
		"from speechbrain.inference.interfaces import Pretrained",
		"",
		`model = Pretrained.from_hparams(${pyString(model.id)})`,
	);
}

function speechbrainSnippet(model: ModelData): CodeBlock[] {
	const requested = model.config?.speechbrain?.speechbrain_interface;
	if (requested === undefined)
		return [speechbrainGenericSnippet("# interface not specified in config.json", model)];
	// The class name written into the code is the table's own, never the config's text.
	const known = SPEECHBRAIN_INTERFACES.find((candidate) => candidate.name === requested);
	if (!known) return [speechbrainGenericSnippet("# interface in config.json invalid", model)];
	return [
		py(
			`# SpeechBrain < 1.0: from speechbrain.pretrained import ${known.name}`,
			`from speechbrain.inference.${known.module} import ${known.name}`,
			"",
			`model = ${known.name}.from_hparams(${pyString(model.id)})`,
			`model.${known.method}("file.wav")`,
		),
	];
}

/** TensorFlowTTS (last commit 2022) imports `cached_download`, which huggingface_hub 0.26 removed. */
const TENSORFLOWTTS_HUB_NOTE =
	'# TensorFlowTTS calls huggingface_hub.cached_download, removed in 0.26: pip install "huggingface_hub<0.26"';

function tensorflowttsSnippet(model: ModelData): CodeBlock[] {
	if (hasTag(model, "text-to-mel")) {
		return [
			py(
				TENSORFLOWTTS_HUB_NOTE,
				"from tensorflow_tts.inference import AutoProcessor, TFAutoModel",
				"",
				`processor = AutoProcessor.from_pretrained(${pyString(model.id)})`,
				`model = TFAutoModel.from_pretrained(${pyString(model.id)})`,
				"",
				'input_ids = processor.text_to_sequence("The quick brown fox jumps over the lazy dog.")',
			),
		];
	}
	if (hasTag(model, "mel-to-wav")) {
		return [
			py(
				TENSORFLOWTTS_HUB_NOTE,
				"import numpy as np",
				"from tensorflow_tts.inference import TFAutoModel",
				"",
				`model = TFAutoModel.from_pretrained(${pyString(model.id)})`,
				"",
				"# Mel spectrograms shaped (batch, frames, mel bins), e.g. saved from a text-to-mel model",
				'mels = np.load("path/to/mels.npy").astype(np.float32)',
				"audios = model.inference(mels)",
			),
		];
	}
	return [
		py(
			TENSORFLOWTTS_HUB_NOTE,
			"from tensorflow_tts.inference import TFAutoModel",
			"",
			`model = TFAutoModel.from_pretrained(${pyString(model.id)})`,
		),
	];
}

export const audioLibraries = {
	asteroid: defineLibrary({
		prettyLabel: "Asteroid",
		repoName: "Asteroid",
		repoUrl: "https://github.com/asteroid-team/asteroid",
		docsUrl: "https://huggingface.co/docs/hub/asteroid",
		filter: true,
		countDownloads: `path:"pytorch_model.bin"`,
		installCommand: "pip install asteroid",
		codeBlocks: (model) => [
			py(
				"from asteroid.models import BaseModel",
				"",
				`model = BaseModel.from_pretrained(${pyString(model.id)})`,
				"",
				"# Writes the separated sources next to the input file",
				'model.separate("path/to/mixture.wav")',
			),
		],
	}),
	audiocraft: defineLibrary({
		prettyLabel: "Audiocraft",
		repoName: "audiocraft",
		repoUrl: "https://github.com/facebookresearch/audiocraft",
		filter: false,
		countDownloads: `path:"state_dict.bin"`,
		installCommand: "pip install -U audiocraft",
		codeBlocks: audiocraftSnippet,
	}),
	audioseal: defineLibrary({
		prettyLabel: "AudioSeal",
		repoName: "audioseal",
		repoUrl: "https://github.com/facebookresearch/audioseal",
		filter: false,
		countDownloads: `path_extension:"pth"`,
		installCommand: "pip install audioseal",
		// Each block stands alone: the detector loads its own audio rather than reusing the generator's names.
		codeBlocks: (model) => [
			py(
				"import torchaudio",
				"from audioseal import AudioSeal",
				"from huggingface_hub import hf_hub_download",
				"",
				...audiosealLoad(model, "model", "load_generator", "generator_base.pth"),
				"",
				...audiosealInput("path/to/audio.wav"),
				"",
				"watermark = model.get_watermark(wav, sr)",
				"watermarked_audio = wav + watermark",
				'torchaudio.save("watermarked.wav", watermarked_audio.squeeze(0), sr)',
			),
			py(
				"import torchaudio",
				"from audioseal import AudioSeal",
				"from huggingface_hub import hf_hub_download",
				"",
				...audiosealLoad(model, "detector", "load_detector", "detector_base.pth"),
				"",
				...audiosealInput("watermarked.wav"),
				"",
				"# result: probability that the audio is watermarked; message: the decoded bits",
				"result, message = detector.detect_watermark(wav, sr)",
				"print(result, message)",
			),
		],
	}),
	chat_tts: defineLibrary({
		prettyLabel: "ChatTTS",
		repoName: "ChatTTS",
		repoUrl: "https://github.com/2noise/ChatTTS.git",
		filter: false,
		countDownloads: `path:"asset/GPT.pt"`,
		installCommand: "pip install ChatTTS",
		codeBlocks: (model) => [
			py(
				"import ChatTTS",
				"import torch",
				"import torchaudio",
				"from huggingface_hub import snapshot_download",
				"",
				"# ChatTTS loads a local copy of the repository; it checks each weight file against the hashes of",
				"# its official release (2Noise/ChatTTS).",
				`local_dir = snapshot_download(repo_id=${pyString(model.id)})`,
				"",
				"chat = ChatTTS.Chat()",
				"# ChatTTS before 0.1.1 calls this chat.load_models(compile=False) with the same arguments",
				'chat.load(source="custom", custom_path=local_dir, compile=False)  # compile=True is faster after a slower first run',
				"",
				'texts = ["PUT YOUR TEXT HERE"]',
				"wavs = chat.infer(texts)",
				"",
				'torchaudio.save("output1.wav", torch.from_numpy(wavs[0]).unsqueeze(0), 24000)',
			),
		],
	}),
	"dia-tts": defineLibrary({
		prettyLabel: "Dia",
		repoName: "Dia",
		repoUrl: "https://github.com/nari-labs/dia",
		filter: false,
		installCommand: "pip install git+https://github.com/nari-labs/dia.git",
		codeBlocks: (model) => [
			py(
				"import soundfile as sf",
				"from dia.model import Dia",
				"",
				`model = Dia.from_pretrained(${pyString(model.id)})`,
				"",
				"# [S1] and [S2] mark the two speakers; cues in parentheses add non-verbal sounds",
				'text = "[S1] Did you hear the garden is finally blooming? [S2] I did, I walked past it this morning. [S1] And the tomatoes? [S2] Still green, sadly. (laughs)"',
				"output = model.generate(text)",
				"",
				'sf.write("simple.mp3", output, 44100)',
			),
		],
	}),
	cosyvoice: defineLibrary({
		prettyLabel: "CosyVoice",
		repoName: "CosyVoice",
		repoUrl: "https://github.com/FunAudioLLM/CosyVoice",
		filter: false,
		countDownloads: `path_extension:"onnx" OR path_extension:"pt"`,
	}),
	espnet: defineLibrary({
		prettyLabel: "ESPnet",
		repoName: "ESPnet",
		repoUrl: "https://github.com/espnet/espnet",
		docsUrl: "https://huggingface.co/docs/hub/espnet",
		filter: true,
		installCommand: "pip install espnet espnet_model_zoo",
		codeBlocks: espnetSnippet,
	}),
	fairseq: defineLibrary({
		prettyLabel: "Fairseq",
		repoName: "fairseq",
		repoUrl: "https://github.com/pytorch/fairseq",
		filter: true,
		installCommand: "pip install fairseq",
		codeBlocks: (model) => [
			py(
				"from fairseq.checkpoint_utils import load_model_ensemble_and_task_from_hf_hub",
				"",
				`models, cfg, task = load_model_ensemble_and_task_from_hf_hub(${pyString(model.id)})`,
			),
		],
	}),
	imstoucan: defineLibrary({
		prettyLabel: "IMS Toucan",
		repoName: "IMS-Toucan",
		repoUrl: "https://github.com/DigitalPhonetics/IMS-Toucan",
		countDownloads: `path:"embedding_gan.pt" OR path:"Vocoder.pt" OR path:"ToucanTTS.pt"`,
	}),
	"index-tts": defineLibrary({
		prettyLabel: "IndexTTS",
		repoName: "IndexTTS",
		repoUrl: "https://github.com/index-tts/index-tts",
		filter: false,
		codeBlocks: (model) => [
			py(
				"# Run from a clone of https://github.com/index-tts/index-tts (dependencies: uv sync --all-extras).",
				"# IndexTTS-2 repositories: from indextts.infer_v2 import IndexTTS2; IndexTTS-2.5: indextts.infer_v2_5.",
				"from huggingface_hub import snapshot_download",
				"from indextts.infer import IndexTTS",
				"",
				`snapshot_download(${pyString(model.id)}, local_dir="checkpoints")`,
				'tts = IndexTTS(model_dir="checkpoints", cfg_path="checkpoints/config.yaml")',
				"",
				'voice = "path/to/your/reference_voice.wav"',
				'text = "Hello, how are you?"',
				'tts.infer(voice, text, "output_index.wav")',
			),
		],
	}),
	k2: defineLibrary({
		prettyLabel: "K2",
		repoName: "k2",
		repoUrl: "https://github.com/k2-fsa/k2",
	}),
	"mini-omni2": defineLibrary({
		prettyLabel: "Mini-Omni2",
		repoName: "Mini-Omni2",
		repoUrl: "https://github.com/gpt-omni/mini-omni2",
		countDownloads: `path:"model_config.yaml"`,
	}),
	"mars5-tts": defineLibrary({
		prettyLabel: "MARS5-TTS",
		repoName: "MARS5-TTS",
		repoUrl: "https://github.com/Camb-ai/MARS5-TTS",
		filter: false,
		countDownloads: `path:"mars5_ar.safetensors"`,
		codeBlocks: (model) => [
			py(
				"# Install from https://github.com/Camb-ai/MARS5-TTS and run from its clone, with huggingface_hub < 1.0:",
				"# its from_pretrained passes `proxies`, which huggingface_hub 1.0 removed.",
				"import librosa",
				"import torch",
				"from inference import Mars5TTS",
				"",
				`mars5 = Mars5TTS.from_pretrained(${pyString(model.id)})`,
				"",
				"# A 1-12 second clip of the voice to clone, and what is said in it",
				'wav, sr = librosa.load("path/to/reference.wav", sr=mars5.sr, mono=True)',
				"wav = torch.from_numpy(wav)",
				'ref_transcript = "Transcript of the reference clip."',
				"",
				'ar_codes, output_audio = mars5.tts("The weather is lovely today.", wav, ref_transcript)',
			),
		],
	}),
	moshi: defineLibrary({
		prettyLabel: "Moshi",
		repoName: "Moshi",
		repoUrl: "https://github.com/kyutai-labs/moshi",
		filter: false,
		countDownloads: `path:"tokenizer-e351c8d8-checkpoint125.safetensors"`,
	}),
	nemo: defineLibrary({
		prettyLabel: "NeMo",
		repoName: "NeMo",
		repoUrl: "https://github.com/NVIDIA/NeMo",
		filter: true,
		countDownloads: `path_extension:"nemo" OR path:"model_config.yaml"`,
		installCommand: 'pip install "nemo_toolkit[all]"',
		// ASR is the only NeMo domain with a dedicated snippet; other domains get the generic restore.
		codeBlocks: (model) =>
			hasTag(model, "automatic-speech-recognition")
				? [
						py(
							"import nemo.collections.asr as nemo_asr",
							"",
							`asr_model = nemo_asr.models.ASRModel.from_pretrained(${pyString(model.id)})`,
							"",
							'transcriptions = asr_model.transcribe(["file.wav"])',
						),
					]
				: [
						py(
							"# tag did not correspond to a valid NeMo domain.",
							"# ModelPT.from_pretrained restores whichever NeMo model class the checkpoint's config names.",
							"from nemo.core import ModelPT",
							"",
							`model = ModelPT.from_pretrained(${pyString(model.id)})`,
						),
					],
	}),
	outetts: defineLibrary({
		prettyLabel: "OuteTTS",
		repoName: "OuteTTS",
		repoUrl: "https://github.com/edwko/OuteTTS",
		filter: false,
		installCommand: "pip install outetts",
		codeBlocks: (model) => {
			// GGUF and ONNX repos are mirrors of a main repo: no snippet.
			if (hasTag(model, "gguf") || hasTag(model, "onnx")) return [];
			return [
				py(
					"import outetts",
					"",
					"# The repository name selects the model, e.g. outetts.Models.VERSION_1_0_SIZE_1B",
					`model_id = ${pyString(model.id)}`,
					'model = outetts.Models(model_id.split("/", 1)[1])',
					"# auto_config covers the OuteTTS 1.0 models; for others, build outetts.ModelConfig(model_path=..., interface_version=...)",
					"config = outetts.ModelConfig.auto_config(model=model, backend=outetts.Backend.HF)",
					"interface = outetts.Interface(config=config)",
					"",
					'speaker = interface.load_default_speaker("EN-FEMALE-1-NEUTRAL")',
					"output = interface.generate(",
					'\tconfig=outetts.GenerationConfig(text="Hello there, how are you doing?", speaker=speaker),',
					")",
					'output.save("output.wav")',
				),
			];
		},
	}),
	"pyannote-audio": defineLibrary({
		prettyLabel: "pyannote.audio",
		repoName: "pyannote-audio",
		repoUrl: "https://github.com/pyannote/pyannote-audio",
		filter: true,
		installCommand: "pip install pyannote.audio",
		codeBlocks: pyannoteSnippet,
	}),
	reverb: defineLibrary({
		prettyLabel: "Reverb",
		repoName: "Reverb",
		repoUrl: "https://github.com/revdotcom/reverb",
		filter: false,
	}),
	speechbrain: defineLibrary({
		prettyLabel: "speechbrain",
		repoName: "speechbrain",
		repoUrl: "https://github.com/speechbrain/speechbrain",
		docsUrl: "https://huggingface.co/docs/hub/speechbrain",
		filter: true,
		countDownloads: `path:"hyperparams.yaml"`,
		installCommand: "pip install speechbrain",
		codeBlocks: speechbrainSnippet,
	}),
	"ssr-speech": defineLibrary({
		prettyLabel: "SSR-Speech",
		repoName: "SSR-Speech",
		repoUrl: "https://github.com/WangHelin1997/SSR-Speech",
		filter: false,
		countDownloads: `path_extension:".pth"`,
	}),
	"stable-audio-tools": defineLibrary({
		prettyLabel: "Stable Audio Tools",
		repoName: "stable-audio-tools",
		repoUrl: "https://github.com/Stability-AI/stable-audio-tools.git",
		filter: false,
		countDownloads: `path:"model.safetensors"`,
		installCommand: "pip install stable-audio-tools",
		codeBlocks: (model) => [
			py(
				"import torch",
				"import torchaudio",
				"from einops import rearrange",
				"from stable_audio_tools import get_pretrained_model",
				"from stable_audio_tools.inference.generation import generate_diffusion_cond",
				"",
				'device = "cuda" if torch.cuda.is_available() else "cpu"',
				"",
				`model, model_config = get_pretrained_model(${pyString(model.id)})`,
				'sample_rate = model_config["sample_rate"]',
				'sample_size = model_config["sample_size"]',
				"model = model.to(device)",
				"",
				'conditioning = [{"prompt": "128 BPM tech house drum loop", "seconds_start": 0, "seconds_total": 30}]',
				"output = generate_diffusion_cond(model, conditioning=conditioning, sample_size=sample_size, device=device)",
				"",
				"# Join the batch into one stream, peak-normalise, and write 16-bit audio",
				'output = rearrange(output, "b d n -> d (b n)")',
				"output = output.to(torch.float32).div(torch.max(torch.abs(output))).clamp(-1, 1).mul(32767)",
				'torchaudio.save("output.wav", output.to(torch.int16).cpu(), sample_rate)',
			),
		],
	}),
	soloaudio: defineLibrary({
		prettyLabel: "SoloAudio",
		repoName: "SoloAudio",
		repoUrl: "https://github.com/WangHelin1997/SoloAudio",
		filter: false,
		countDownloads: `path:"soloaudio_v2.pt"`,
	}),
	"f5-tts": defineLibrary({
		prettyLabel: "F5-TTS",
		repoName: "F5-TTS",
		repoUrl: "https://github.com/SWivid/F5-TTS",
		filter: false,
		countDownloads: `path_extension:"safetensors" OR path_extension:"pt"`,
	}),
	tensorflowtts: defineLibrary({
		prettyLabel: "TensorFlowTTS",
		repoName: "TensorFlowTTS",
		repoUrl: "https://github.com/TensorSpeech/TensorFlowTTS",
		installCommand: "pip install TensorFlowTTS",
		codeBlocks: tensorflowttsSnippet,
	}),
	voicecraft: defineLibrary({
		prettyLabel: "VoiceCraft",
		repoName: "VoiceCraft",
		repoUrl: "https://github.com/jasonppy/VoiceCraft",
		docsUrl: "https://github.com/jasonppy/VoiceCraft",
		codeBlocks: (model) => [
			py(
				"# VoiceCraft is not on PyPI: run from a clone of https://github.com/jasonppy/VoiceCraft, set up as its README says.",
				"from models.voicecraft import VoiceCraft",
				"",
				`model = VoiceCraft.from_pretrained(${pyString(model.id)})`,
				"# Text-to-speech with it: inference_tts_scale.inference_one_sample, as tts_demo.py shows",
			),
		],
	}),
	whisperkit: defineLibrary({
		prettyLabel: "WhisperKit",
		repoName: "WhisperKit",
		repoUrl: "https://github.com/argmaxinc/WhisperKit",
		docsUrl: "https://github.com/argmaxinc/WhisperKit?tab=readme-ov-file#homebrew",
		countDownloads: `path_filename:"model" AND path_extension:"mil" AND _exists_:"path_prefix"`,
		installCommand: "brew install whisperkit-cli",
		// whisperkit-cli takes no repository option (it downloads from argmaxinc/whisperkit-coreml), so this
		// repository is fetched with the hf CLI and one model folder is passed with --model-path.
		codeBlocks: (model) => [
			shell(
				[
					"# Install the command-line tool with Homebrew (macOS)",
					"brew install whisperkit-cli",
					"",
					"# List every transcription option",
					"whisperkit-cli transcribe --help",
					"",
					"# The CLI cannot load a repository by id: download it, then pass one of its model folders",
					`hf download ${shWord(model.id)} --local-dir whisperkit-models`,
					"whisperkit-cli transcribe --model-path whisperkit-models/openai_whisper-large-v3 --audio-path /path/to/audio.mp3",
					"",
					"# Or let the CLI fetch a variant of argmaxinc/whisperkit-coreml by name and prefix",
					'whisperkit-cli transcribe --model "large-v3" --model-prefix "distil" --audio-path /path/to/audio.mp3 --verbose',
				].join("\n"),
			),
		],
	}),
} as const satisfies Record<string, LibraryUiElement>;
