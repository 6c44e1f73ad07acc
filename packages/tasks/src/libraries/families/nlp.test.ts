import { describe, expect, it } from "vitest";
import { checkLibraryFamily } from "../../../../../test-support/library-checks.js";
import type { CodeBlock, ModelData } from "../types.js";
import { nlpLibraries } from "./nlp.js";

describe("nlp libraries", () => checkLibraryFamily(nlpLibraries));

function blocks(key: keyof typeof nlpLibraries, data: Partial<ModelData>): CodeBlock[] {
	const entry = nlpLibraries[key];
	const model: ModelData = { id: "acme/demo-model", tags: [], inference: "", ...data };
	return entry.codeBlocks?.(model) ?? [];
}

const text = (key: keyof typeof nlpLibraries, data: Partial<ModelData>) =>
	blocks(key, data)
		.map((b) => b.code)
		.join("\n");

describe("nlp generators", () => {
	it("allennlp loads from hf:// and adds the QA input only for question-answering", () => {
		const qa = text("allennlp", { tags: ["question-answering"] });
		expect(qa).toContain('Predictor.from_path("hf://acme/demo-model")');
		expect(qa).toContain('"passage": "My name is Wolfgang and I live in Berlin"');
		expect(qa).toContain('"question": "Where do I live?"');
		expect(qa).toContain("predictor.predict_json(predictor_input)");
		expect(text("allennlp", {})).not.toContain("predict_json");
	});

	it("lightning-ir prefers the bi-encoder tag, then cross-encoder, else shows both", () => {
		const both = text("lightning-ir", { tags: ["cross-encoder", "bi-encoder"] });
		expect(both).toContain('BiEncoderModule("acme/demo-model")');
		expect(both).not.toContain("CrossEncoderModule");
		const cross = text("lightning-ir", { tags: ["cross-encoder"] });
		expect(cross).toContain('CrossEncoderModule("acme/demo-model")');
		expect(cross).not.toContain("BiEncoderModule");
		const neither = text("lightning-ir", {});
		expect(neither).toContain("from lightning_ir import BiEncoderModule, CrossEncoderModule");
		expect(neither).toContain('# model = CrossEncoderModule("acme/demo-model")');
		expect(neither).toContain('model.score("query", ["doc1", "doc2", "doc3"])');
	});

	it("paddlenlp uses architectures[0] when it is an identifier, else AutoModel with the warning", () => {
		const known = text("paddlenlp", { config: { architectures: ["ErnieForMaskedLM", "Other"] } });
		expect(known).toContain("from paddlenlp.transformers import AutoTokenizer, ErnieForMaskedLM");
		expect(known).toContain('ErnieForMaskedLM.from_pretrained("acme/demo-model", from_hf_hub=True)');
		expect(known).not.toContain("⚠️");
		for (const config of [
			{},
			{ architectures: [] },
			{ architectures: [""] },
			{ architectures: ["Bad Name()"] },
		]) {
			const code = text("paddlenlp", { config });
			expect(code.split("\n")[0]).toBe("# ⚠️ Type of model unknown");
			expect(code).toContain('AutoModel.from_pretrained("acme/demo-model", from_hf_hub=True)');
			expect(code).not.toContain("Bad Name");
		}
	});

	it("spacy installs the wheel from a shell block and imports the package only when it is an identifier", () => {
		const [install, code] = blocks("spacy", { id: "spacy/en_core_web_sm" });
		expect(install?.language).toBe("shell");
		expect(install?.code).toContain(
			"\npip install https://huggingface.co/spacy/en_core_web_sm/resolve/main/en_core_web_sm-any-py3-none-any.whl",
		);
		expect(code?.language).toBe("python");
		expect(code?.code).not.toContain("!pip");
		expect(code?.code).toContain("import en_core_web_sm\n\nnlp = en_core_web_sm.load()");
		const dashed = blocks("spacy", { id: "acme/en-pipeline" })[1]!.code;
		expect(dashed).toContain('spacy.load("en-pipeline")');
		expect(dashed).not.toContain("import en-pipeline");
	});

	it("edsnlp loads by id and installs the repo as a package named after it", () => {
		const out = blocks("edsnlp", { id: "AP-HP/eds-pseudo-public" });
		expect(out.map((b) => b.language)).toEqual(["python", "shell", "python"]);
		expect(out[0]!.code).toContain('edsnlp.load("AP-HP/eds-pseudo-public")');
		expect(out[1]!.code).toContain("\npip install git+https://huggingface.co/AP-HP/eds-pseudo-public");
		expect(out[2]!.code).toBe("import eds_pseudo_public\n\nnlp = eds_pseudo_public.load()");
		// No package snippet when the module name cannot be written as an import, or the name is not one
		// the Hub accepts (it cannot start or end with "-").
		for (const id of ["acme/model.v2", "acme/-rf", "acme/rf-", "acme/2-model"]) {
			expect(blocks("edsnlp", { id }), id).toHaveLength(1);
		}
		expect(blocks("edsnlp", { id: "acme/_private-model" })[2]!.code).toContain("import _private_model\n");
	});

	it("stanza derives the language code by removing the first stanza- prefix", () => {
		expect(text("stanza", { id: "stanfordnlp/stanza-en" })).toContain(
			'stanza.download("en")\nnlp = stanza.Pipeline("en")',
		);
		expect(text("stanza", { id: "acme/stanza-stanza-fr" })).toContain('stanza.download("stanza-fr")');
	});

	it("stanza says why it cannot load by id and shows how to download the repository", () => {
		const [code, download] = blocks("stanza", { id: "stanfordnlp/stanza-en" });
		expect(code?.language).toBe("python");
		expect(code?.code).toContain("# Stanza loads models by language code, not by repository id\n");
		expect(code?.code).not.toContain("stanfordnlp/stanza-en");
		expect(download).toEqual({
			language: "shell",
			code: "# The repository's files themselves\nhf download stanfordnlp/stanza-en",
		});
	});

	it("saelens loads the repository's SAEs by repo id, with the registry as the alternative", () => {
		const code = text("saelens", { id: "acme/whatever" });
		expect(code).toContain('repo_id = "acme/whatever"\n');
		expect(code).toContain("list_repo_files(repo_id)");
		expect(code).toContain('path.endswith("/cfg.json")');
		expect(code).toContain("sae = SAE.from_pretrained(release=repo_id, sae_id=sae_ids[0])");
		expect(code).toContain("https://github.com/jbloomAus/SAELens/blob/main/sae_lens/pretrained_saes.yaml");
		expect(code).toContain('release="gpt2-small-res-jb", sae_id="blocks.8.hook_resid_pre"');
	});

	it("fasttext downloads model.bin", () => {
		expect(text("fasttext", {})).toContain(
			'hf_hub_download(repo_id="acme/demo-model", filename="model.bin")',
		);
	});

	it("metadata-only entries have no snippets", () => {
		for (const key of ["colpali", "comet", "mitie", "hezar"] as const) {
			expect(nlpLibraries[key].snippets).toBeUndefined();
			expect(nlpLibraries[key].installCommand).toBeUndefined();
		}
	});
});
