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

	it("falls back to the verbatim comment", () => {
		expect(blocks("audiocraft")).toEqual([{ language: "python", code: "# Type of model unknown." }]);
	});
});

describe("audioseal", () => {
	it("gives a generator and a detector block that each stand alone", () => {
		const [generator, detector] = blocks("audioseal").map((b) => b.code);
		expect(generator).toContain('AudioSeal.load_generator("acme/demo-model")');
		expect(detector).toContain('AudioSeal.load_detector("acme/demo-model")');
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

	it("writes the fallback text as a comment", () => {
		expect(blocks("espnet")).toEqual([
			{
				language: "python",
				code: "# unknown model type (must be text-to-speech or automatic-speech-recognition)",
			},
		]);
	});
});

describe("nemo", () => {
	it("falls back to the verbatim comment without the ASR tag", () => {
		expect(code("nemo", { tags: ["text-to-speech"] })).toBe(
			"# tag did not correspond to a valid NeMo domain.",
		);
	});
});

describe("outetts", () => {
	it("shows nothing for gguf and onnx mirrors", () => {
		expect(blocks("outetts", { tags: ["gguf"] })).toEqual([]);
		expect(blocks("outetts", { tags: ["text-to-speech", "onnx"] })).toEqual([]);
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

	it("says when the interface is missing", () => {
		expect(code("speechbrain")).toBe("# interface not specified in config.json");
		expect(code("speechbrain", { config: { speechbrain: {} } })).toBe(
			"# interface not specified in config.json",
		);
	});

	it("says when the interface is unknown, including prototype names", () => {
		for (const name of ["Tacotron2", "constructor", "__proto__", "toString", "hasOwnProperty", ""]) {
			expect(code("speechbrain", { config: { speechbrain: { speechbrain_interface: name } } }), name).toBe(
				"# interface in config.json invalid",
			);
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
	it("is a single shell block that ignores the id", () => {
		const result = blocks("whisperkit", { id: "someone/whatever" });
		expect(result).toHaveLength(1);
		expect(result[0]!.language).toBe("shell");
		expect(result[0]!.code).not.toContain("someone/whatever");
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
