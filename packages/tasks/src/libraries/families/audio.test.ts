import { describe, expect, it } from "vitest";
import { checkLibraryFamily, loadLibraryFacts } from "../../../../../test-support/library-checks.js";
import type { CodeBlock, LibraryUiElement, ModelData } from "../types.js";
import { audioLibraries } from "./audio.js";

describe("audio libraries", () => checkLibraryFamily(audioLibraries));

const family: Record<string, LibraryUiElement> = audioLibraries;

function blocks(key: string, model: Partial<ModelData> = {}): CodeBlock[] {
	const entry = family[key];
	if (!entry?.codeBlocks) throw new Error(`${key} has no code blocks`);
	return entry.codeBlocks({ id: "acme/demo-model", tags: [], inference: "", ...model } as ModelData);
}

const code = (key: string, model: Partial<ModelData> = {}): string =>
	blocks(key, model)
		.map((b) => b.code)
		.join("\n");

describe("audio catalogue shape", () => {
	it("has exactly the assigned keys, in catalogue order", () => {
		const keys = Object.keys(audioLibraries);
		const order = loadLibraryFacts()
			.map((fact) => fact.key)
			.filter((key) => keys.includes(key));
		expect(keys).toEqual(order);
		expect(keys).toHaveLength(26);
	});

	it("entries without snippets carry metadata only", () => {
		for (const key of [
			"cosyvoice",
			"imstoucan",
			"k2",
			"mini-omni2",
			"moshi",
			"reverb",
			"ssr-speech",
			"soloaudio",
			"f5-tts",
		]) {
			const entry = family[key]!;
			expect(entry.codeBlocks, key).toBeUndefined();
			expect(entry.snippets, key).toBeUndefined();
			expect(entry.installCommand, key).toBeUndefined();
		}
	});
});

describe("audiocraft", () => {
	it("checks musicgen, then audiogen, then magnet", () => {
		expect(code("audiocraft", { tags: ["magnet", "audiogen", "musicgen"] })).toContain(
			"MusicGen.get_pretrained",
		);
		expect(code("audiocraft", { tags: ["magnet", "audiogen"] })).toContain("AudioGen.get_pretrained");
		expect(code("audiocraft", { tags: ["magnet"] })).toContain("MAGNeT.get_pretrained");
	});

	it("sets a 5 second duration for audiogen only", () => {
		expect(code("audiocraft", { tags: ["audiogen"] })).toContain("model.set_generation_params(duration=5)");
		expect(code("audiocraft", { tags: ["musicgen"] })).not.toContain("set_generation_params");
		expect(code("audiocraft", { tags: ["magnet"] })).not.toContain("set_generation_params");
	});

	it("falls back to the verbatim comment, then downloads the repository by id", () => {
		const text = code("audiocraft");
		expect(text).toMatch(/^# Type of model unknown\.\n/);
		// No class fits an untagged repository; snapshot_download fetches it by id for any of them.
		expect(text).toContain('local_dir = snapshot_download(repo_id="acme/demo-model")');
		expect(text).not.toContain('get_pretrained("');
	});
});

describe("audioseal", () => {
	it("downloads the checkpoint by id, because AudioSeal loads card names or files, not repo ids", () => {
		const [generator, detector] = blocks("audioseal").map((b) => b.code);
		// audioseal 0.1.8 loader: a card name, an existing file, facebook/audioseal/<file> or an https URL.
		expect(generator).toContain(
			'AudioSeal.load_generator(\n\thf_hub_download(repo_id="acme/demo-model", filename="generator_base.pth"),\n\tnbits=16,',
		);
		expect(detector).toContain(
			'AudioSeal.load_detector(\n\thf_hub_download(repo_id="acme/demo-model", filename="detector_base.pth"),\n\tnbits=16,',
		);
		for (const block of [generator, detector]) {
			expect(block).toMatch(/^from huggingface_hub import hf_hub_download$/m);
			expect(block).not.toContain('load_generator("acme/demo-model")');
			expect(block).not.toContain('load_detector("acme/demo-model")');
		}
	});

	it("gives a generator and a detector block that each stand alone", () => {
		const [generator, detector] = blocks("audioseal").map((b) => b.code);
		// The detector defines its own input before using it and never reaches into the generator block.
		expect(detector).toMatch(/^import torchaudio\n/);
		expect(detector!.indexOf("wav, sr = torchaudio.load(")).toBeLessThan(
			detector!.indexOf("detect_watermark(wav, sr)"),
		);
		expect(detector).not.toContain("watermarked_audio");
		expect(detector).not.toContain("tensor_wav");
		expect(generator).not.toContain("tensor_wav");
	});
});

describe("chat_tts", () => {
	it("loads a local copy of the repository downloaded by id", () => {
		const text = code("chat_tts", { id: "someone/ChatTTS-copy" });
		expect(text).toContain('local_dir = snapshot_download(repo_id="someone/ChatTTS-copy")');
		// ChatTTS 0.2.4 Chat.load: source="custom" reads custom_path; the default "local" ignores the id.
		expect(text).toContain('chat.load(source="custom", custom_path=local_dir, compile=False)');
		expect(text.indexOf("local_dir = ")).toBeLessThan(text.indexOf("custom_path=local_dir"));
	});

	it("imports torch because it converts the numpy output", () => {
		const text = code("chat_tts");
		expect(text).toMatch(/^import torch$/m);
		expect(text).toContain("torch.from_numpy(wavs[0])");
		expect(text).toContain("PUT YOUR TEXT HERE");
		expect(text).toContain("24000");
	});
});

describe("espnet", () => {
	it("prefers text-to-speech over automatic-speech-recognition", () => {
		const text = code("espnet", { tags: ["automatic-speech-recognition", "text-to-speech"] });
		expect(text).toContain("Text2Speech.from_pretrained");
		expect(text).not.toContain("Speech2Text");
	});

	it("imports soundfile for speech recognition", () => {
		expect(code("espnet", { tags: ["automatic-speech-recognition"] })).toMatch(/^import soundfile$/m);
	});

	it("writes the fallback text as a comment, then downloads the repository by id", () => {
		const text = code("espnet");
		expect(text).toMatch(
			/^# unknown model type \(must be text-to-speech or automatic-speech-recognition\)\n/,
		);
		expect(text).toContain('files = ModelDownloader().download_and_unpack("acme/demo-model")');
	});

	it("installs espnet_model_zoo, which from_pretrained imports", () => {
		expect(family.espnet!.installCommand).toBe("pip install espnet espnet_model_zoo");
	});
});

describe("nemo", () => {
	it("falls back to the verbatim comment, then restores any NeMo model by id", () => {
		const text = code("nemo", { tags: ["text-to-speech"] });
		expect(text).toMatch(/^# tag did not correspond to a valid NeMo domain\.\n/);
		// NeMo 2.x ModelPT.from_pretrained resolves the class from the checkpoint config's target.
		expect(text).toMatch(/^from nemo\.core import ModelPT$/m);
		expect(text).toContain('model = ModelPT.from_pretrained("acme/demo-model")');
		expect(text).not.toContain("nemo_asr");
	});
});

describe("outetts", () => {
	it("shows nothing for gguf and onnx mirrors", () => {
		expect(blocks("outetts", { tags: ["gguf"] })).toEqual([]);
		expect(blocks("outetts", { tags: ["text-to-speech", "onnx"] })).toEqual([]);
	});

	it("says which models auto_config covers", () => {
		// OuteTTS 0.4.4 ModelConfig.auto_config raises for anything but the two 1.0 models.
		expect(code("outetts")).toMatch(
			/^# auto_config covers the OuteTTS 1\.0 models; .*outetts\.ModelConfig\(/m,
		);
	});

	it("tolerates a missing tag list and starts without indentation", () => {
		const result = blocks("outetts", { tags: undefined as unknown as string[] });
		expect(result).toHaveLength(1);
		expect(result[0]!.code).toMatch(/^import outetts\n/);
		for (const line of result[0]!.code.split("\n")) expect(line).not.toMatch(/^ /);
	});
});

describe("pyannote-audio", () => {
	it("uses a pipeline only for pipeline repos", () => {
		expect(code("pyannote-audio", { tags: ["pyannote-audio-pipeline"] })).not.toContain("Inference(");
		expect(code("pyannote-audio")).not.toContain("Pipeline");
	});
});

describe("speechbrain", () => {
	const cases = {
		EncoderClassifier: "classify_file",
		EncoderDecoderASR: "transcribe_file",
		EncoderASR: "transcribe_file",
		SpectralMaskEnhancement: "enhance_file",
		SepformerSeparation: "separate_file",
	};

	for (const [speechbrainInterface, method] of Object.entries(cases)) {
		it(`maps ${speechbrainInterface} to ${method}`, () => {
			const text = code("speechbrain", {
				config: { speechbrain: { speechbrain_interface: speechbrainInterface } },
			});
			expect(text).toContain(`import ${speechbrainInterface}\n`);
			expect(text).toContain(`${speechbrainInterface}.from_hparams("acme/demo-model")`);
			expect(text).toContain(`model.${method}("file.wav")`);
		});
	}

	const generic = 'model = Pretrained.from_hparams("acme/demo-model")';

	it("says when the interface is missing, then loads the generic interface by id", () => {
		for (const text of [code("speechbrain"), code("speechbrain", { config: { speechbrain: {} } })]) {
			expect(text).toMatch(/^# interface not specified in config\.json\n/);
			expect(text).toMatch(/^from speechbrain\.inference\.interfaces import Pretrained$/m);
			expect(text).toContain(generic);
		}
	});

	it("says when the interface is unknown, including prototype names, and never writes that name", () => {
		for (const name of ["Tacotron2", "constructor", "__proto__", "toString", "hasOwnProperty", ""]) {
			const text = code("speechbrain", { config: { speechbrain: { speechbrain_interface: name } } });
			expect(text, name).toMatch(/^# interface in config\.json invalid\n/);
			expect(text, name).toContain(generic);
			if (name !== "") expect(text, name).not.toContain(name);
		}
	});
});

describe("tensorflowtts", () => {
	it("prefers text-to-mel over mel-to-wav", () => {
		expect(code("tensorflowtts", { tags: ["mel-to-wav", "text-to-mel"] })).toContain(
			"AutoProcessor.from_pretrained",
		);
	});

	it("defines mels before using them", () => {
		const text = code("tensorflowtts", { tags: ["mel-to-wav"] });
		expect(text).toMatch(/^import numpy as np$/m);
		expect(text.indexOf("mels = ")).toBeGreaterThan(-1);
		expect(text.indexOf("mels = ")).toBeLessThan(text.indexOf("model.inference(mels)"));
	});
});

describe("whisperkit", () => {
	it("is a single shell block that downloads the repository by id and passes a model folder", () => {
		const result = blocks("whisperkit", { id: "someone/whatever" });
		expect(result).toHaveLength(1);
		expect(result[0]!.language).toBe("shell");
		// whisperkit-cli has no repository option (WhisperKit TranscribeCLIArguments.swift): --model-path it is.
		expect(result[0]!.code).toContain("hf download someone/whatever --local-dir whisperkit-models\n");
		expect(result[0]!.code).toContain("whisperkit-cli transcribe --model-path whisperkit-models/");
	});

	it("quotes an id that is not a plain shell word", () => {
		expect(code("whisperkit", { id: "o/it's $(x)" })).toContain(`hf download 'o/it'\\''s $(x)' --local-dir`);
	});
});

describe("repositories that are not on PyPI or need an older huggingface_hub", () => {
	it("voicecraft imports the class from a clone of its repository", () => {
		const text = code("voicecraft");
		// jasonppy/VoiceCraft a702dfd: models/voicecraft.py, no package named voicecraft.
		expect(text).toMatch(/^from models\.voicecraft import VoiceCraft$/m);
		expect(text).not.toMatch(/^from voicecraft /m);
		expect(text).toContain('VoiceCraft.from_pretrained("acme/demo-model")');
	});

	it("mars5-tts says its loader needs huggingface_hub < 1.0", () => {
		expect(code("mars5-tts")).toContain("huggingface_hub < 1.0");
	});

	it("tensorflowtts says every branch needs huggingface_hub < 0.26", () => {
		for (const tags of [["text-to-mel"], ["mel-to-wav"], []]) {
			expect(code("tensorflowtts", { tags }), tags.join()).toMatch(/^# .*"huggingface_hub<0\.26"$/m);
		}
	});

	it("index-tts names the IndexTTS2 classes of newer repositories", () => {
		const text = code("index-tts");
		expect(text).toContain("from indextts.infer_v2 import IndexTTS2");
		expect(text).toMatch(/^from indextts\.infer import IndexTTS$/m);
	});
});

describe("id quoting", () => {
	it("quotes ids with dots as one string literal", () => {
		const id = "org.name/model_v1.5-2";
		expect(code("index-tts", { id })).toContain(`snapshot_download("${id}", local_dir="checkpoints")`);
		expect(code("outetts", { id })).toContain(`model_id = "${id}"`);
		expect(code("stable-audio-tools", { id })).toContain(`get_pretrained_model("${id}")`);
	});
});
