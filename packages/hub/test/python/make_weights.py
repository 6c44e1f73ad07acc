"""Weights files written by the real libraries, and what those libraries read back from them.

Run by test/weights-python.test.ts with the test environment's Python: `make_weights.py <group>`, the
parameters as JSON on stdin (`work_dir`), one JSON line on stdout: the files written (paths relative to
`work_dir`) and the libraries' own figures, which the hub's header readers must reproduce.

- safetensors: `safetensors.torch.save_file` (one file), `huggingface_hub.save_torch_state_dict`
  (sharded, with its index) and transformers' `save_pretrained` of a tiny Llama (sharded); figures from `safe_open` (dtype and shape of every tensor) and
  `huggingface_hub.get_local_safetensors_metadata` (its `parameter_count` by dtype).
- gguf: gguf-py's `GGUFWriter` (little- and big-endian, and a split into shards); figures from gguf-py's
  `GGUFReader` (fields and every tensor's `n_elements`).
"""

import json
import os
import sys


def files_under(root):
    found = []
    for folder, _, names in os.walk(root):
        for name in names:
            path = os.path.join(folder, name)
            found.append({"path": os.path.relpath(path, root), "size": os.path.getsize(path)})
    return sorted(found, key=lambda f: f["path"])


def safetensors_figures(folder):
    """Per dtype, the element count of every tensor (and of the 0-dimension ones) as safe_open reports them."""
    from safetensors import safe_open

    by_dtype, scalars = {}, {}
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".safetensors"):
            continue
        with safe_open(os.path.join(folder, name), framework="pt") as handle:
            for key in handle.keys():
                tensor = handle.get_slice(key)
                dtype, shape = tensor.get_dtype(), tensor.get_shape()
                count = 1
                for dim in shape:
                    count *= dim
                by_dtype[dtype] = by_dtype.get(dtype, 0) + count
                if len(shape) == 0:
                    scalars[dtype] = scalars.get(dtype, 0) + count
    return by_dtype, scalars


def group_safetensors(work_dir):
    import torch
    from huggingface_hub import get_local_safetensors_metadata, save_torch_state_dict
    from safetensors.torch import save_file

    torch.manual_seed(0)
    single = os.path.join(work_dir, "single")
    os.makedirs(single)
    save_file(
        {
            "embed.weight": torch.randn(64, 32),
            "proj.weight": torch.randn(16, 16).to(torch.bfloat16),
            "position_ids": torch.arange(20).reshape(1, 20),
            "norm.bias": torch.zeros(3, dtype=torch.float16),
            "logit_scale": torch.tensor(2.5),
            "mask": torch.ones(4, dtype=torch.bool),
        },
        os.path.join(single, "model.safetensors"),
        metadata={"format": "pt"},
    )

    sharded = os.path.join(work_dir, "sharded")
    os.makedirs(sharded)
    state = {f"layers.{i}.weight": torch.randn(128, 96).to(torch.bfloat16) for i in range(6)}
    state["layers.0.scale"] = torch.tensor(1.0)
    state["head.weight"] = torch.randn(50, 96)
    save_torch_state_dict(state, sharded, max_shard_size=60_000)

    # A tiny random transformers model saved sharded, as push_to_hub would upload it.
    from transformers import LlamaConfig, LlamaForCausalLM

    pretrained = os.path.join(work_dir, "transformers")
    config = LlamaConfig(
        vocab_size=300,
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=3,
        num_attention_heads=4,
        num_key_value_heads=2,
        tie_word_embeddings=False,
    )
    model = LlamaForCausalLM(config).to(torch.bfloat16)
    model.save_pretrained(pretrained, max_shard_size="40KB")

    answer = {}
    for case, folder in (("single", single), ("sharded", sharded), ("transformers", pretrained)):
        by_dtype, scalars = safetensors_figures(folder)
        hub = get_local_safetensors_metadata(folder)
        answer[case] = {
            "files": files_under(folder),
            "safe_open": by_dtype,
            "scalars": scalars,
            "huggingface_hub": {"sharded": hub.sharded, "parameter_count": hub.parameter_count},
        }
    return answer


TOKENS = ["<unk>", "<s>", "</s>", "<|im_end|>", "hello", "wörld", "▁the"]
CHAT_TEMPLATE = "{% for message in messages %}<|{{ message.role }}|>{{ message.content }}{% endfor %}"


def write_gguf(path, endianess=None, split_max_tensors=0):
    import numpy as np
    from gguf import GGMLQuantizationType, GGUFEndian, GGUFWriter
    from gguf.quants import quantize

    writer = GGUFWriter(
        path,
        "llama",
        endianess=GGUFEndian.BIG if endianess == "big" else GGUFEndian.LITTLE,
        split_max_tensors=split_max_tensors,
    )
    writer.add_name("tiny")
    writer.add_context_length(2048)
    writer.add_embedding_length(64)
    writer.add_tokenizer_model("llama")
    writer.add_token_list(TOKENS)
    writer.add_token_scores([float(-i) for i in range(len(TOKENS))])
    writer.add_token_types([1] * len(TOKENS))
    writer.add_bos_token_id(1)
    writer.add_eos_token_id(3)
    writer.add_chat_template(CHAT_TEMPLATE)
    rng = np.random.default_rng(0)
    writer.add_tensor("token_embd.weight", rng.standard_normal((len(TOKENS), 64)).astype(np.float32))
    writer.add_tensor("output_norm.weight", np.ones(64, dtype=np.float16))
    weights = rng.standard_normal((32, 64)).astype(np.float32)
    writer.add_tensor(
        "blk.0.attn_q.weight", quantize(weights, GGMLQuantizationType.Q8_0), raw_dtype=GGMLQuantizationType.Q8_0
    )
    writer.add_tensor("blk.0.ffn_up.weight", rng.standard_normal((3, 5, 7)).astype(np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()


def gguf_figures(paths):
    """What gguf-py's reader finds: the first file's fields, the element count of every tensor of all files."""
    from gguf import GGUFReader

    first = GGUFReader(paths[0])
    fields = first.fields

    def value(key):
        return fields[key].contents() if key in fields else None

    tokens = value("tokenizer.ggml.tokens")
    architecture = value("general.architecture")
    total = sum(int(t.n_elements) for path in paths for t in GGUFReader(path).tensors)
    return {
        "total": total,
        "architecture": architecture,
        "context_length": value(f"{architecture}.context_length"),
        "chat_template": value("tokenizer.chat_template"),
        "bos_token": tokens[value("tokenizer.ggml.bos_token_id")],
        "eos_token": tokens[value("tokenizer.ggml.eos_token_id")],
        "byte_order": first.byte_order,
    }


def group_gguf(work_dir):
    answer = {}
    for case, kwargs in (("little", {}), ("big", {"endianess": "big"})):
        folder = os.path.join(work_dir, case)
        os.makedirs(folder)
        path = os.path.join(folder, "tiny-Q8_0.gguf")
        write_gguf(path, **kwargs)
        answer[case] = {"files": files_under(folder), "gguf_py": gguf_figures([path])}
    folder = os.path.join(work_dir, "split")
    os.makedirs(folder)
    write_gguf(os.path.join(folder, "tiny-Q8_0.gguf"), split_max_tensors=2)
    files = files_under(folder)
    answer["split"] = {
        "files": files,
        "gguf_py": gguf_figures([os.path.join(folder, f["path"]) for f in files]),
    }
    return answer


GROUPS = {"safetensors": group_safetensors, "gguf": group_gguf}

if __name__ == "__main__":
    params = json.loads(sys.stdin.read())
    print(json.dumps(GROUPS[sys.argv[1]](params["work_dir"])))
