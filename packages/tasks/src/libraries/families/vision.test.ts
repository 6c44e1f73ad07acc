import { describe, expect, it } from "vitest";
import { checkLibraryFamily } from "../../../../../test-support/library-checks.js";
import { bashSyntaxErrors, parsePython } from "../../../../../test-support/parsers.js";
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

function expectPythonParses(source: string): void {
	const [result] = parsePython([source]);
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
	])("preset %s", (id, encoder, features, outChannels) => {
		const text = generate(id);
		expect(text).toContain(
			`model = DepthAnythingV2(encoder="${encoder}", features=${features}, out_channels=${outChannels})`,
		);
		expect(text).toContain(`filename="depth_anything_v2_${encoder}.pth"`);
		expect(text).toContain(`repo_id="${id}"`);
		expect(text).toContain('map_location="cpu"');
		expect(text).not.toContain("<ENCODER>");
		expectPythonParses(text);
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

	it("writes the placeholders as strings and imports hf_hub_download", () => {
		const text = generate("someone/my-depth");
		expect(text).toContain(
			'DepthAnythingV2(encoder="<ENCODER>", features="<NUMBER_OF_FEATURES>", out_channels="<OUT_CHANNELS>")',
		);
		expect(text).toContain('filename="depth_anything_v2_<ENCODER>.pth"');
		expect(text).toContain("from huggingface_hub import hf_hub_download");
		expect(text).toContain('cv2.imread("your/image/path")');
		expectPythonParses(text);
	});
});

describe("ultralytics / yolov10", () => {
	const WARNING = "# Couldn't find a valid YOLO version tag.\n# Replace XX with the correct version.\n";

	it("shares one generator", () => {
		const m = model({ tags: ["yolov8"] });
		expect(visionLibraries.yolov10.snippets?.(m)).toEqual(visionLibraries.ultralytics.snippets?.(m));
	});

	it.each([
		[["yolov8"], "YOLOv8"],
		[["yolov10"], "YOLOv10"],
		[["object-detection", "yolov5", "yolov8"], "YOLOv5"],
		[["YOLOv8", "yolov11x", "yolov11"], "YOLOv11"],
	])("tags %j give class %s", (tags, className) => {
		const text = code(visionLibraries.ultralytics.codeBlocks?.(model({ tags })));
		expect(text.startsWith(`from ultralytics import ${className}\n`)).toBe(true);
		expect(text).toContain(`model = ${className}.from_pretrained("acme/demo-model")`);
		expect(text).toContain('source = "http://images.cocodataset.org/val2017/000000039769.jpg"');
		expect(text).toContain("model.predict(source=source, save=True)");
		expect(text).not.toContain("YOLOvv");
		expect(text).not.toContain("Couldn't find");
		expectPythonParses(text);
	});

	it.each([[[]], [["YOLOv8"]], [["yolov"]], [["yolov8n"]], [["my-yolov8"]]])(
		"tags %j fall back to the placeholder with the warning lines",
		(tags) => {
			const text = code(visionLibraries.yolov10.codeBlocks?.(model({ tags })));
			expect(text.startsWith(`${WARNING}from ultralytics import YOLOvXX\n`)).toBe(true);
			expect(text).toContain("YOLOvXX.from_pretrained(");
			expectPythonParses(text);
		},
	);

	it("tolerates a missing tag list", () => {
		const m = { id: "acme/demo-model" } as ModelData;
		expect(code(visionLibraries.ultralytics.codeBlocks?.(m))).toContain("YOLOvXX");
	});
});

describe("sam2", () => {
	it("quotes the id and uses parseable inputs for both snippets", () => {
		const blocks = visionLibraries.sam2.codeBlocks?.(model({ id: "org.name/sam2.1-hiera" })) ?? [];
		expect(blocks).toHaveLength(2);
		expect(blocks[0]?.code).toContain('SAM2ImagePredictor.from_pretrained("org.name/sam2.1-hiera")');
		expect(blocks[1]?.code).toContain('SAM2VideoPredictor.from_pretrained("org.name/sam2.1-hiera")');
		for (const block of blocks) {
			expect(block.code).not.toMatch(/<your_|<input_/);
			expectPythonParses(block.code);
		}
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
	it("downloads by id in shell, then runs in python", () => {
		const blocks = visionLibraries["depth-pro"].codeBlocks?.(model({ id: "apple/DepthPro" })) ?? [];
		expect(blocks.map((block) => block.language)).toEqual(["shell", "python"]);
		expect(blocks[0]?.code).toContain("huggingface-cli download --local-dir checkpoints apple/DepthPro");
		const quoted = visionLibraries["depth-pro"].codeBlocks?.(model({ id: "acme/$(x) it's" })) ?? [];
		expect(quoted[0]?.code).toContain(`checkpoints 'acme/$(x) it'\\''s'`);
	});
});

describe("simple loaders quote the id", () => {
	it.each([
		["mlx-image", 'create_model("org.name/m.v1")'],
		["pythae", 'AutoModel.load_from_hf_hub("org.name/m.v1")'],
		["terratorch", 'BACKBONE_REGISTRY.build("org.name/m.v1")'],
		["matanyone", 'MatAnyone.from_pretrained("org.name/m.v1")'],
		["vfi-mamba", 'Model.from_pretrained("org.name/m.v1")'],
		["ben2", 'AutoModel.from_pretrained("org.name/m.v1")'],
	] as const)("%s", (key, call) => {
		const text = code(visionLibraries[key].codeBlocks?.(model({ id: "org.name/m.v1" })));
		expect(text).toContain(call);
		expectPythonParses(text);
	});

	it("birefnet always sets trust_remote_code", () => {
		const blocks = visionLibraries.birefnet.codeBlocks?.(model()) ?? [];
		expect(blocks[0]?.code).toContain(
			'AutoModelForImageSegmentation.from_pretrained("acme/demo-model", trust_remote_code=True)',
		);
		expect(blocks[1]?.code).toContain('BiRefNet.from_pretrained("acme/demo-model")');
	});
});

describe("id-independent snippets", () => {
	it("derm-foundation and cxr-foundation ignore the id", () => {
		for (const key of ["derm-foundation", "cxr-foundation"] as const) {
			const a = code(visionLibraries[key].codeBlocks?.(model({ id: "a/b" })));
			const b = code(visionLibraries[key].codeBlocks?.(model({ id: "c/d" })));
			expect(a).toBe(b);
			expectPythonParses(a);
		}
		expect(code(visionLibraries["derm-foundation"].codeBlocks?.(model()))).toContain(
			'from_pretrained_keras("google/derm-foundation")',
		);
		expect(code(visionLibraries["cxr-foundation"].codeBlocks?.(model()))).not.toContain("BytesIO");
	});
});
