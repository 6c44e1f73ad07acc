/**
 * Local runtimes and model-specific inference code: llama.cpp, MLX, MLC, Unity Sentis, and the
 * repos that ship one architecture (Mamba, Cartesia's Rene, Grok, ...).
 */
import { pyString, pyValue, shWord } from "../../literals/index.js";
import {
	getModelInputExample,
	NO_INPUT_EXAMPLE_TEXT,
	type ChatCompletionInputMessage,
} from "../../snippets/inputs.js";
import { csharp, defineLibrary, nameWithoutNamespace, python, shell } from "../define.js";
import type { LibraryUiElement, ModelData } from "../types.js";

/** Replaced by the hub page with the `.gguf` file the user picks, so it stays literal text. */
export const GGUF_FILE_PLACEHOLDER = "{{GGUF_FILE}}";

/**
 * The chat messages for a conversational model: the task's example when it is a chat, a single user
 * turn when it is plain text, else a user turn holding the "no example" text for the user to replace.
 */
function llamaCppMessages(model: ModelData): {
	messages: ChatCompletionInputMessage[];
	placeholder: boolean;
} {
	const example = getModelInputExample(model);
	if (example?.kind === "messages") return { messages: example.messages, placeholder: false };
	if (example?.kind === "text")
		return { messages: [{ role: "user", content: example.text }], placeholder: false };
	return { messages: [{ role: "user", content: NO_INPUT_EXAMPLE_TEXT }], placeholder: true };
}

function llamaCppCode(model: ModelData): string[] {
	const load = `from llama_cpp import Llama

llm = Llama.from_pretrained(
	repo_id=${pyString(model.id)},
	filename=${pyString(GGUF_FILE_PLACEHOLDER)},
)`;
	let use: string;
	if (model.tags?.includes("conversational")) {
		const { messages, placeholder } = llamaCppMessages(model);
		const hint = placeholder ? "# Replace the message below with your own.\n" : "";
		use = `${hint}response = llm.create_chat_completion(
	messages=${pyValue(messages, "\t")},
)
print(response["choices"][0]["message"]["content"])`;
	} else {
		use = `output = llm(
	"Once upon a time,",
	max_tokens=512,
	echo=True,
)
print(output)`;
	}
	// The second block repeats the loading lines so that it runs on its own.
	return [load, `${load}\n\n${use}`];
}

/**
 * Installs the `hf` command. huggingface_hub 1.0 removed `huggingface-cli` and stopped using
 * `hf_transfer` (2.0.0 warns when `HF_HUB_ENABLE_HF_TRANSFER` is set); `hf download` replaces both.
 */
const HF_CLI_INSTALL = "pip install -U huggingface_hub";

/** A local directory name for the download: the repo name, made safe to pass as an option value. */
function mlxLocalDir(modelId: string): string {
	const name = nameWithoutNamespace(modelId);
	if (name === "" || name === "." || name === "..") return "model";
	return name.startsWith("-") ? `./${name}` : name;
}

export const runtimesLibraries = {
	cartesia_pytorch: defineLibrary({
		prettyLabel: "Cartesia Pytorch",
		repoName: "Cartesia Pytorch",
		repoUrl: "https://github.com/cartesia-ai/cartesia_pytorch",
		installCommand: "pip install --no-binary :all: cartesia-pytorch",
		codeBlocks: (model) => [
			// Rene runs on CUDA only: its layers use the flash-attn and mamba-ssm GPU kernels.
			python(`# pip install --no-binary :all: cartesia-pytorch
from cartesia_pytorch import ReneLMHeadModel
from transformers import AutoTokenizer

model = ReneLMHeadModel.from_pretrained(${pyString(model.id)}).half().cuda()
tokenizer = AutoTokenizer.from_pretrained("allenai/OLMo-1B-hf")

inputs = tokenizer(["Rene Descartes was"], return_tensors="pt")
outputs = model.generate(inputs.input_ids.cuda(), max_length=50, top_k=100, top_p=0.99)
print(tokenizer.batch_decode(outputs, skip_special_tokens=True)[0])`),
		],
	}),
	cartesia_mlx: defineLibrary({
		prettyLabel: "Cartesia MLX",
		repoName: "Cartesia MLX",
		repoUrl: "https://github.com/cartesia-ai/cartesia_mlx",
		codeBlocks: (model) => [
			python(`import mlx.core as mx
import cartesia_mlx as cmx

model = cmx.from_pretrained(${pyString(model.id)})
model.set_dtype(mx.float32)

prompt = "Rene Descartes was"
print(prompt, end="", flush=True)
# Text is streamed as it is generated.
for text in model.generate(
	prompt,
	max_tokens=500,
	eval_every_n=5,
	verbose=True,
	top_p=0.99,
	temperature=0.85,
):
	print(text, end="", flush=True)`),
		],
	}),
	elm: defineLibrary({
		prettyLabel: "ELM",
		repoName: "elm",
		repoUrl: "https://github.com/slicex-ai/elm",
		filter: false,
		countDownloads: `path_filename:"slicex_elm_config" AND path_extension:"json"`,
	}),
	"gemma.cpp": defineLibrary({
		prettyLabel: "gemma.cpp",
		repoName: "gemma.cpp",
		repoUrl: "https://github.com/google/gemma.cpp",
		filter: false,
		countDownloads: `path_extension:"sbs"`,
	}),
	grok: defineLibrary({
		prettyLabel: "Grok",
		repoName: "Grok",
		repoUrl: "https://github.com/xai-org/grok-1",
		filter: false,
		countDownloads: `path:"ckpt/tensor00000_000" OR path:"ckpt-0/tensor00000_000"`,
	}),
	"llama-cpp-python": defineLibrary({
		prettyLabel: "llama-cpp-python",
		repoName: "llama-cpp-python",
		repoUrl: "https://github.com/abetlen/llama-cpp-python",
		installCommand: "pip install llama-cpp-python",
		codeBlocks: (model) => llamaCppCode(model).map(python),
	}),
	"mamba-ssm": defineLibrary({
		prettyLabel: "MambaSSM",
		repoName: "MambaSSM",
		repoUrl: "https://github.com/state-spaces/mamba",
		filter: false,
		// mamba-ssm's README: without build isolation pip builds against the installed CUDA PyTorch.
		installCommand: "pip install mamba-ssm --no-build-isolation",
		codeBlocks: (model) => [
			python(`from mamba_ssm import MambaLMHeadModel

model = MambaLMHeadModel.from_pretrained(${pyString(model.id)})`),
		],
	}),
	mlx: defineLibrary({
		prettyLabel: "MLX",
		repoName: "MLX",
		repoUrl: "https://github.com/ml-explore/mlx-examples/tree/main",
		filter: true,
		codeBlocks: (model) => [
			shell(`${HF_CLI_INSTALL}

# Faster downloads through Xet, the Hub's storage backend.
export HF_XET_HIGH_PERFORMANCE=1
hf download --local-dir ${shWord(mlxLocalDir(model.id))} ${shWord(model.id)}`),
		],
	}),
	"mlc-llm": defineLibrary({
		prettyLabel: "MLC-LLM",
		repoName: "MLC-LLM",
		repoUrl: "https://github.com/mlc-ai/mlc-llm",
		docsUrl: "https://llm.mlc.ai/docs/",
		filter: false,
		countDownloads: `path:"mlc-chat-config.json"`,
	}),
	recurrentgemma: defineLibrary({
		prettyLabel: "RecurrentGemma",
		repoName: "recurrentgemma",
		repoUrl: "https://github.com/google-deepmind/recurrentgemma",
		filter: false,
		countDownloads: `path:"tokenizer.model"`,
	}),
	swarmformer: defineLibrary({
		prettyLabel: "SwarmFormer",
		repoName: "SwarmFormer",
		repoUrl: "https://github.com/takara-ai/SwarmFormer",
		filter: false,
		// Not on PyPI: the README installs from a clone of the repository.
		installCommand: "pip install git+https://github.com/takara-ai/SwarmFormer",
		codeBlocks: (model) => [
			python(`from swarmformer import SwarmFormerModel

model = SwarmFormerModel.from_pretrained(${pyString(model.id)})`),
		],
	}),
	"unity-sentis": defineLibrary({
		prettyLabel: "unity-sentis",
		repoName: "unity-sentis",
		repoUrl: "https://github.com/Unity-Technologies/sentis-samples",
		filter: true,
		countDownloads: `path_extension:"sentis"`,
		// Unity loads models from files in the project, not by id: download the repository's .sentis
		// files into Assets/StreamingAssets, then load one by name.
		codeBlocks: (model) => [
			shell(`${HF_CLI_INSTALL}

# Run this in your Unity project's folder.
hf download ${shWord(model.id)} --include "*.sentis" --local-dir Assets/StreamingAssets`),
			// Sentis 2 replaced Sentis 1's IWorker and WorkerFactory with the Worker class; since 2.2 the
			// package is com.unity.ai.inference and the namespace Unity.InferenceEngine (2.6.1 today).
			csharp(`using Unity.InferenceEngine;
using UnityEngine;

public class RunModel : MonoBehaviour
{
    // One of the .sentis files downloaded into Assets/StreamingAssets.
    string modelName = "[Your model name here].sentis";
    Worker worker;

    void Start()
    {
        Model model = ModelLoader.Load(Application.streamingAssetsPath + "/" + modelName);
        worker = new Worker(model, BackendType.GPUCompute);
    }

    // Runs the model on one input. The worker owns the output until the next run.
    public Tensor<float> Run(Tensor<float> input)
    {
        worker.Schedule(input);
        return worker.PeekOutput() as Tensor<float>;
    }

    void OnDestroy()
    {
        // Workers hold GPU memory until they are disposed.
        worker?.Dispose();
    }
}`),
		],
	}),
} as const satisfies Record<string, LibraryUiElement>;
