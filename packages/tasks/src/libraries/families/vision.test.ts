import { afterAll, describe, expect, it } from "vitest";
import { checkLibraryFamily } from "../../../../../test-support/library-checks.js";
import { bashSyntaxErrors, PythonParser } from "../../../../../test-support/parsers.js";
import type { CodeBlock, ModelData } from "../types.js";
import { visionLibraries } from "./vision.js";

describe("vision libraries", () => checkLibraryFamily(visionLibraries));

const model = (partial: Partial<ModelData> = {}): ModelData => ({
	id: "acme/demo-model",
	tags: [],
	...partial,
});
const code = (blocks: CodeBlock[] | undefined): string =>
	(blocks ?? []).map((block) => block.code).join("\n");

// One python3 for the file's checks: a process per check cost a python3 start each.
const parser = new PythonParser();
afterAll(() => parser.close());

async function expectPythonParses(source: string): Promise<void> {
	const [result] = await parser.python([source]);
	expect(result?.ok, `${source}\n${result && !result.ok ? result.error : ""}`).toBe(true);
}

describe("catalogue keys", () => {
	it("has exactly the vision keys, in catalogue order", () => {
		expect(Object.keys(visionLibraries)).toEqual([
			"ben2",
			"birefnet",
			"cxr-foundation",
			"deepforest",
			"depth-anything-v2",
			"depth-pro",
			"derm-foundation",
			"doctr",
			"cotracker",
			"htrflow",
			"matanyone",
			"merlin",
			"medvae",
			"mlx-image",
			"py-feat",
			"pythae",
			"sam2",
			"sapiens",
			"terratorch",
			"ultralytics",
			"vfi-mamba",
			"yolov10",
		]);
	});
});

describe("depth-anything-v2", () => {
	const generate = (id: string) => code(visionLibraries["depth-anything-v2"].codeBlocks?.(model({ id })));

	it.each([
		["depth-anything/Depth-Anything-V2-Small", "vits", 64, "[48, 96, 192, 384]"],
		["depth-anything/Depth-Anything-V2-Base", "vitb", 128, "[96, 192, 384, 768]"],
		["depth-anything/Depth-Anything-V2-Large", "vitl", 256, "[256, 512, 1024, 1024]"],
	])("preset %s", async (id, encoder, features, outChannels) => {
		const text = generate(id);
		expect(text).toContain(
			`model = DepthAnythingV2(encoder="${encoder}", features=${features}, out_channels=${outChannels})`,
		);
		expect(text).toContain(`filename="depth_anything_v2_${encoder}.pth"`);
		expect(text).toContain(`repo_id="${id}"`);
		expect(text).toContain('map_location="cpu"');
		expect(text).not.toContain("<ENCODER>");
		await expectPythonParses(text);
	});

	it("matches presets by exact id only", () => {
		for (const id of [
			"depth-anything/depth-anything-v2-small",
			"me/Depth-Anything-V2-Small",
			"constructor",
		]) {
			const text = generate(id);
			expect(text).toContain('DepthAnythingV2(encoder="<ENCODER>"');
			expect(text).not.toContain('filename="depth_anything_v2_vits.pth"');
		}
	});

	it("writes the placeholders as strings and imports hf_hub_download", async () => {
		const text = generate("someone/my-depth");
		expect(text).toContain(
			'DepthAnythingV2(encoder="<ENCODER>", features="<NUMBER_OF_FEATURES>", out_channels="<OUT_CHANNELS>")',
		);
		expect(text).toContain('filename="depth_anything_v2_<ENCODER>.pth"');
		expect(text).toContain("from huggingface_hub import hf_hub_download");
		expect(text).toContain('cv2.imread("your/image/path")');
		await expectPythonParses(text);
	});
});

describe("ultralytics", () => {
	const generate = (partial: Partial<ModelData> = {}) =>
		code(visionLibraries.ultralytics.codeBlocks?.(model(partial)));

	it("loads the repository's first .pt file with YOLO, whatever the version tags", async () => {
		for (const tags of [[], ["yolov8"], ["yolov11", "object-detection"], ["YOLOv8"]]) {
			const text = generate({ tags });
			// ultralytics 8.3 and 8.4: `from ultralytics import YOLO`; YOLO(path) takes a file, not a hub id.
			expect(text).toContain("from ultralytics import YOLO\n");
			expect(text).toContain("from huggingface_hub import hf_hub_download, list_repo_files");
			expect(text).toContain('repo_id = "acme/demo-model"');
			expect(text).toContain(
				'filename = next(name for name in list_repo_files(repo_id) if name.endswith(".pt"))',
			);
			expect(text).toContain("checkpoint = hf_hub_download(repo_id=repo_id, filename=filename)");
			expect(text).toContain("model = YOLO(checkpoint)");
			expect(text).toContain("model.predict(source=source, save=True)");
			expect(text).not.toMatch(/YOLOv\d|YOLOvXX|from_pretrained|Couldn't find/);
			await expectPythonParses(text);
		}
	});

	it("tolerates a missing tag list", () => {
		const m = { id: "acme/demo-model" } as ModelData;
		expect(code(visionLibraries.ultralytics.codeBlocks?.(m))).toContain("model = YOLO(checkpoint)");
	});
});

describe("yolov10", () => {
	it("uses the THU-MIG fork's YOLOv10.from_pretrained for every model", async () => {
		for (const tags of [[], ["yolov8"], ["yolov10"]]) {
			const text = code(visionLibraries.yolov10.codeBlocks?.(model({ tags })));
			expect(text).toContain("# pip install git+https://github.com/THU-MIG/yolov10.git huggingface_hub");
			expect(text).toContain("from ultralytics import YOLOv10\n");
			expect(text).toContain('model = YOLOv10.from_pretrained("acme/demo-model")');
			expect(text).toContain("model.predict(source=source, save=True)");
			await expectPythonParses(text);
		}
		expect(visionLibraries.yolov10.installCommand).toBe(
			"pip install git+https://github.com/THU-MIG/yolov10.git huggingface_hub",
		);
	});
});

describe("sam2", () => {
	it("uses from_pretrained for the ids sam2 knows", async () => {
		for (const id of ["facebook/sam2-hiera-large", "facebook/sam2.1-hiera-tiny"]) {
			const [image, video] = visionLibraries.sam2.codeBlocks?.(model({ id })) ?? [];
			expect(image?.code).toContain(`predictor = SAM2ImagePredictor.from_pretrained("${id}")`);
			expect(video?.code).toContain(`predictor = SAM2VideoPredictor.from_pretrained("${id}")`);
			for (const block of [image, video]) {
				expect(block?.code).not.toContain("list_repo_files");
				await expectPythonParses(block?.code ?? "");
			}
		}
	});

	it("builds other checkpoints from the repository's .pt file and a SAM 2.1 config", async () => {
		const [image, video] = visionLibraries.sam2.codeBlocks?.(model({ id: "org.name/sam2.1-hiera" })) ?? [];
		for (const block of [image, video]) {
			expect(block?.code).toContain('repo_id = "org.name/sam2.1-hiera"');
			expect(block?.code).toContain("checkpoint = hf_hub_download(repo_id=repo_id, filename=filename)");
			expect(block?.code).not.toContain("Predictor.from_pretrained(");
			expect(block?.code).not.toMatch(/<your_|<input_/);
			await expectPythonParses(block?.code ?? "");
		}
		expect(image?.code).toContain("from sam2.build_sam import build_sam2\n");
		expect(image?.code).toContain(
			'predictor = SAM2ImagePredictor(build_sam2("configs/sam2.1/sam2.1_hiera_l.yaml", checkpoint))',
		);
		expect(video?.code).toContain(
			'predictor: SAM2VideoPredictor = build_sam2_video_predictor("configs/sam2.1/sam2.1_hiera_l.yaml", checkpoint)',
		);
		expect(video?.code).toContain("predictor.add_new_points_or_box(");
	});
});

describe("htrflow", () => {
	it("quotes the CLI placeholders so bash accepts them", () => {
		const [cli, py] = visionLibraries.htrflow.codeBlocks?.(model()) ?? [];
		expect(cli?.language).toBe("shell");
		expect(cli?.code).toContain("htrflow pipeline '<path/to/pipeline.yaml>' '<path/to/image>'");
		expect(bashSyntaxErrors([cli?.code ?? ""])).toEqual([null]);
		expect(py?.language).toBe("python");
		expect(py?.code).toContain('Task(ModelClass, {"model": "acme/demo-model"}, {})');
	});
});

describe("depth-pro", () => {
	it("installs depth_pro, downloads by id with the hf CLI, then runs in python", () => {
		const blocks = visionLibraries["depth-pro"].codeBlocks?.(model({ id: "apple/DepthPro" })) ?? [];
		expect(blocks.map((block) => block.language)).toEqual(["shell", "python"]);
		expect(blocks[0]?.code).toContain("pip install git+https://github.com/apple/ml-depth-pro.git\n");
		// huggingface_hub 1.0 removed `huggingface-cli`; `hf download` replaces it.
		expect(blocks[0]?.code).toContain("hf download --local-dir checkpoints apple/DepthPro");
		expect(blocks[0]?.code).not.toContain("huggingface-cli");
		const quoted = visionLibraries["depth-pro"].codeBlocks?.(model({ id: "acme/$(x) it's" })) ?? [];
		expect(quoted[0]?.code).toContain(`checkpoints 'acme/$(x) it'\\''s'`);
		expect(bashSyntaxErrors([quoted[0]?.code ?? ""])).toEqual([null]);
	});
});

describe("simple loaders quote the id", () => {
	it.each([
		["pythae", 'AutoModel.load_from_hf_hub("org.name/m.v1")'],
		["matanyone", 'MatAnyone.from_pretrained("org.name/m.v1")'],
		["vfi-mamba", 'Model.from_pretrained("org.name/m.v1")'],
		["ben2", 'AutoModel.from_pretrained("org.name/m.v1")'],
	] as const)("%s", async (key, call) => {
		const text = code(visionLibraries[key].codeBlocks?.(model({ id: "org.name/m.v1" })));
		expect(text).toContain(call);
		await expectPythonParses(text);
	});

	it("birefnet always sets trust_remote_code", () => {
		const blocks = visionLibraries.birefnet.codeBlocks?.(model()) ?? [];
		expect(blocks[0]?.code).toContain(
			'AutoModelForImageSegmentation.from_pretrained("acme/demo-model", trust_remote_code=True)',
		);
		expect(blocks[1]?.code).toContain('BiRefNet.from_pretrained("acme/demo-model")');
	});
});

describe("mlx-image", () => {
	const generate = (id: string) => code(visionLibraries["mlx-image"].codeBlocks?.(model({ id })));

	it("passes the registry name and the repository's weights as hf://", async () => {
		// mlx-image 0.1.10: create_model(model_name, weights="hf://<repo>/<file>"); repos are "<name>-mlxim".
		const text = generate("mlx-vision/vit_base_patch16_224.augreg_in21k-mlxim");
		expect(text).toContain(
			'create_model("vit_base_patch16_224.augreg_in21k", weights="hf://mlx-vision/vit_base_patch16_224.augreg_in21k-mlxim/model.safetensors")',
		);
		await expectPythonParses(text);
	});

	it("keeps a repository name without the suffix as it is", () => {
		expect(generate("someone/resnet18")).toContain(
			'create_model("resnet18", weights="hf://someone/resnet18/model.safetensors")',
		);
		expect(generate("single")).toContain('create_model("single", weights="hf://single/model.safetensors")');
	});
});

describe("terratorch", () => {
	const generate = (id: string) => code(visionLibraries.terratorch.codeBlocks?.(model({ id })));

	it.each([
		[
			"ibm-nasa-geospatial/Prithvi-EO-2.0-300M-TL",
			"terratorch_prithvi_eo_v2_300_tl",
			"Prithvi_EO_V2_300M_TL.pt",
		],
		["ibm-nasa-geospatial/Prithvi-EO-1.0-100M", "terratorch_prithvi_eo_v1_100", "Prithvi_EO_V1_100M.pt"],
		["ibm-esa-geospatial/TerraMind-1.0-base", "terratorch_terramind_v1_base", "TerraMind_v1_base.pt"],
	])("builds %s as the registered backbone %s with its checkpoint", async (id, name, file) => {
		const text = generate(id);
		expect(text).toContain(`checkpoint = hf_hub_download(repo_id="${id}", filename="${file}")`);
		expect(text).toContain(
			`model = BACKBONE_REGISTRY.build("${name}", pretrained=True, ckpt_path=checkpoint)`,
		);
		await expectPythonParses(text);
	});

	it("never passes a hub id as the registry name", async () => {
		for (const id of ["someone/Prithvi-EO-2.0-300M", "constructor", "acme/demo-model"]) {
			const text = generate(id);
			expect(text).toContain(`repo_id = "${id}"`);
			expect(text).toContain(
				'model = BACKBONE_REGISTRY.build("<BACKBONE_NAME>", pretrained=True, ckpt_path=checkpoint)',
			);
			expect(text).not.toContain(`build("${id}"`);
			await expectPythonParses(text);
		}
	});
});

describe("cxr-foundation and derm-foundation load the repository given", () => {
	it("cxr-foundation builds the client from this repository's saved models", async () => {
		const text = code(visionLibraries["cxr-foundation"].codeBlocks?.(model({ id: "me/cxr-copy" })));
		expect(text).toContain('repo_id="me/cxr-copy", local_dir="cxr_model"');
		expect(text).toContain('allow_patterns=["elixr-c-v2-pooled/*", "pax-elixr-b-text/*"]');
		expect(text).toContain("from clientside.clients import HuggingFaceCxrClient");
		expect(text).toContain('elixr_c_model=tf.saved_model.load(f"{model_dir}/elixr-c-v2-pooled")');
		expect(text).toContain('qformer_model=tf.saved_model.load(f"{model_dir}/pax-elixr-b-text")');
		// make_hugging_face_client only appears in the comment that says why it is not called.
		expect(text).not.toMatch(/^[^#\n]*make_hugging_face_client/m);
		expect(text).not.toContain("BytesIO");
		await expectPythonParses(text);
	});

	it("derm-foundation loads the SavedModel with TensorFlow, not from_pretrained_keras", async () => {
		const text = code(visionLibraries["derm-foundation"].codeBlocks?.(model({ id: "me/derm-copy" })));
		// huggingface_hub 1.0 removed from_pretrained_keras.
		expect(text).not.toMatch(/^[^#\n]*from_pretrained_keras/m);
		expect(text).toContain(
			'model_dir = snapshot_download(repo_id="me/derm-copy", ignore_patterns=["*.npz"])',
		);
		expect(text).toContain("loaded_model = tf.saved_model.load(model_dir)");
		expect(text).toContain('infer(inputs=tf.constant([input_tensor]))["embedding"]');
		await expectPythonParses(text);
	});
});

describe("install commands", () => {
	it.each([
		["ben2", "pip install git+https://github.com/PramaLLC/BEN2.git"],
		["matanyone", "pip install git+https://github.com/pq-yang/MatAnyone.git"],
		["ultralytics", "pip install ultralytics huggingface_hub"],
	] as const)("%s", (key, command) => {
		expect(visionLibraries[key].installCommand).toBe(command);
	});
});
