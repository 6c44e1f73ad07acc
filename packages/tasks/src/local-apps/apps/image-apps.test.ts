import { describe, expect, it } from "vitest";
import type { ModelData } from "../../libraries/types.js";
import { getLocalAppSnippets } from "../index.js";
import { imageApps } from "./image-apps.js";

const t2i: ModelData = {
	id: "acme/sd",
	library_name: "diffusers",
	tags: ["diffusers"],
	pipeline_tag: "text-to-image",
};

describe("image apps", () => {
	it("import a pipeline or a LoRA into Draw Things", () => {
		expect(imageApps.drawthings.deeplink(t2i).href).toBe(
			"https://drawthings.ai/import/diffusers/pipeline.from_pretrained?repo_id=acme/sd",
		);
		const lora: ModelData = { id: "acme/style-lora", library_name: "diffusers", tags: ["lora"] };
		expect(imageApps.drawthings.displayOnModelPage(lora)).toBe(true);
		expect(imageApps.drawthings.deeplink(lora).href).toBe(
			"https://drawthings.ai/import/diffusers/pipeline.load_lora_weights?repo_id=acme/style-lora",
		);
	});

	it("import into DiffusionBee and JoyFusion", () => {
		expect(imageApps.diffusionbee.deeplink(t2i).href).toBe(
			"https://diffusionbee.com/huggingface_import?model_id=acme/sd",
		);
		const coreml: ModelData = {
			id: "acme/sd-coreml",
			tags: ["coreml", "joyfusion"],
			pipeline_tag: "text-to-image",
		};
		expect(imageApps.joyfusion.displayOnModelPage(coreml)).toBe(true);
		expect(imageApps.joyfusion.deeplink(coreml).href).toBe(
			"https://joyfusion.app/import_from_hf?repo_id=acme/sd-coreml",
		);
	});

	it("install into Invoke through its model manager route", () => {
		const [install] = getLocalAppSnippets(imageApps.invoke, { ...t2i, id: "acme/sd&inplace=true" });
		expect(install!.content).toEqual([
			"# Ask Invoke's model manager to download and install the repository:\n" +
				"curl -X POST \\\n" +
				'\t-H "Content-Type: application/json" \\\n' +
				"\t--data '{}' \\\n" +
				"\t'http://127.0.0.1:9090/api/v2/models/install?source=acme/sd%26inplace%3Dtrue'",
		]);
	});
});
