import { describe, expect, it } from "vitest";
import type { ModelData } from "../../libraries/types.js";
import { ggufModel } from "../test-models.js";
import { chatApps } from "./chat-apps.js";

const gguf = ggufModel({ tags: ["gguf"] });

describe("chat apps' deep links", () => {
	it("open the repository in each app", () => {
		const links = Object.fromEntries(
			Object.entries(chatApps).map(([key, entry]) => [key, entry.deeplink(gguf).href]),
		);
		expect(links).toEqual({
			lmstudio: "lmstudio://open_from_hf?model=acme/llm-GGUF",
			jan: "jan://models/huggingface/acme/llm-GGUF",
			backyard: "https://backyard.ai/hf/model/acme/llm-GGUF",
			sanctum: "sanctum://open_from_hf?model=acme/llm-GGUF",
			jellybox: "jellybox://llm/models/huggingface/LLM/acme/llm-GGUF",
			msty: "msty://models/search/hf/acme/llm-GGUF",
			recursechat: "recursechat://new-hf-gguf-model?hf-model-id=acme/llm-GGUF",
		});
	});

	it("pass LM Studio the picked file as its own parameter", () => {
		const url = chatApps.lmstudio.deeplink(gguf, "sub dir/llm Q4_K_M&x=1#.gguf");
		expect(url.searchParams.get("model")).toBe("acme/llm-GGUF");
		expect(url.searchParams.get("file")).toBe("sub dir/llm Q4_K_M&x=1#.gguf");
		expect([...url.searchParams.keys()]).toEqual(["model", "file"]);
	});

	it("keep ids with path steps inside the app's route", () => {
		const url = chatApps.jan.deeplink({ ...gguf, id: "../../settings" });
		expect(url.href).toBe("jan://models/huggingface/..%2F..%2Fsettings");
	});

	it("send Jellybox image models to its image routes", () => {
		const image: ModelData = {
			id: "acme/sd",
			library_name: "diffusers",
			tags: ["safetensors"],
			pipeline_tag: "text-to-image",
		};
		expect(chatApps.jellybox.displayOnModelPage(image)).toBe(true);
		expect(chatApps.jellybox.deeplink(image).href).toBe("jellybox://image/models/huggingface/Image/acme/sd");
		expect(chatApps.jellybox.deeplink({ ...image, tags: ["lora"] }).href).toBe(
			"jellybox://image/models/huggingface/ImageLora/acme/sd",
		);
	});
});
