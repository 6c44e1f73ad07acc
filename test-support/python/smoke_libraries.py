"""Proves each library of a test environment imports and works offline, on tiny models made here.

Usage: python smoke_libraries.py WORK_DIR LIBRARY... ; prints one JSON object (library -> facts) that
test-support/python-env.test.ts asserts on. Nothing is downloaded: HF_HUB_OFFLINE=1 is set by the test,
and every model is random and built from a config.
"""

import json
import os
import struct
import sys

WORK = sys.argv[1]
WANTED = sys.argv[2:]


def tiny_bert_dir():
    """A tiny random BertForSequenceClassification with its WordPiece tokenizer, saved locally."""
    path = os.path.join(WORK, "tiny-bert")
    if os.path.exists(os.path.join(path, "config.json")):
        return path
    import torch
    from transformers import BertConfig, BertForSequenceClassification, BertTokenizerFast

    torch.manual_seed(0)
    config = BertConfig(
        vocab_size=32,
        hidden_size=16,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=32,
        max_position_embeddings=64,
        num_labels=2,
    )
    model = BertForSequenceClassification(config).eval()
    os.makedirs(path, exist_ok=True)
    words = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "hello", "world", "the", "hub", "model"]
    vocab = os.path.join(WORK, "vocab.txt")
    with open(vocab, "w") as f:
        f.write("\n".join(words + [f"w{i}" for i in range(32 - len(words))]) + "\n")
    BertTokenizerFast(vocab_file=vocab).save_pretrained(path)
    model.save_pretrained(path)
    return path


def check_huggingface_hub():
    import huggingface_hub
    from huggingface_hub import constants

    return {"version": huggingface_hub.__version__, "offline": constants.HF_HUB_OFFLINE}


def check_torch():
    import torch

    x = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    return {"version": torch.__version__, "cuda": torch.cuda.is_available(), "sum": float((x @ x.T).sum())}


def check_torchvision():
    import torch
    import torchvision
    from torchvision.transforms import functional as F

    image = torch.zeros(3, 8, 8)
    return {"version": torchvision.__version__, "resized": list(F.resize(image, [4, 4], antialias=True).shape)}


def check_safetensors():
    import torch
    from safetensors.torch import load_file, save_file

    path = os.path.join(WORK, "t.safetensors")
    save_file({"w": torch.ones(2, 3, dtype=torch.float16)}, path, metadata={"format": "pt"})
    with open(path, "rb") as f:
        (size,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(size))
    return {"header": header, "loaded": list(load_file(path)["w"].shape)}


def check_transformers():
    import torch
    import transformers
    from transformers import AutoModelForSequenceClassification, pipeline

    path = tiny_bert_dir()
    loaded = AutoModelForSequenceClassification.from_pretrained(path).eval()
    inputs = torch.tensor([[2, 5, 6, 3]])
    with torch.no_grad():
        logits = loaded(inputs).logits
    result = pipeline("text-classification", model=path, tokenizer=path)("hello world")
    return {
        "version": transformers.__version__,
        "files": sorted(os.listdir(path)),
        "class": type(loaded).__name__,
        "logits_shape": list(logits.shape),
        "pipeline_label": result[0]["label"],
    }


def check_peft():
    import peft
    from peft import LoraConfig, PeftModel, get_peft_model
    from transformers import AutoModelForSequenceClassification

    base_path = tiny_bert_dir()
    model = get_peft_model(
        AutoModelForSequenceClassification.from_pretrained(base_path),
        LoraConfig(r=2, lora_alpha=4, target_modules=["query", "value"], task_type="SEQ_CLS"),
    )
    trainable, total = model.get_nb_trainable_parameters()
    path = os.path.join(WORK, "tiny-lora")
    model.save_pretrained(path)
    with open(os.path.join(path, "adapter_config.json")) as f:
        adapter = json.load(f)
    reloaded = PeftModel.from_pretrained(AutoModelForSequenceClassification.from_pretrained(base_path), path)
    return {
        "version": peft.__version__,
        "files": sorted(os.listdir(path)),
        "peft_type": adapter["peft_type"],
        "trainable_less_than_total": 0 < trainable < total,
        "reloaded": type(reloaded).__name__,
    }


def check_timm():
    import timm
    import torch
    from timm.models import save_for_hf

    torch.manual_seed(0)
    model = timm.create_model("resnet10t", pretrained=False, num_classes=3).eval()
    path = os.path.join(WORK, "tiny-timm")
    save_for_hf(model, path, safe_serialization=True)
    reloaded = timm.create_model(f"local-dir:{path}", pretrained=True).eval()
    image = torch.rand(1, 3, 32, 32)
    with torch.no_grad():
        same = bool(torch.allclose(model(image), reloaded(image)))
    with open(os.path.join(path, "config.json")) as f:
        config = json.load(f)
    return {
        "version": timm.__version__,
        "files": sorted(os.listdir(path)),
        "architecture": config["architecture"],
        "num_classes": config["num_classes"],
        "reloaded_same_output": same,
    }


def check_gguf():
    import gguf
    import numpy as np

    path = os.path.join(WORK, "tiny.gguf")
    writer = gguf.GGUFWriter(path, "llama")
    writer.add_context_length(128)
    writer.add_string("tokenizer.chat_template", "{{ messages }}")
    writer.add_tensor("token_embd.weight", np.arange(12, dtype=np.float32).reshape(3, 4))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    reader = gguf.GGUFReader(path)

    def field(name):
        return reader.fields[name].contents()

    tensor = reader.tensors[0]
    return {
        "architecture": field("general.architecture"),
        "context_length": field("llama.context_length"),
        "chat_template": field("tokenizer.chat_template"),
        "tensor": [tensor.name, int(tensor.n_elements), float(np.asarray(tensor.data).sum())],
    }


def check_datasets():
    import datasets
    import pandas as pd

    json_path = os.path.join(WORK, "rows.jsonl")
    with open(json_path, "w") as f:
        for i in range(5):
            f.write(json.dumps({"text": f"row {i}", "label": i % 2}) + "\n")
    parquet_path = os.path.join(WORK, "rows.parquet")
    pd.DataFrame({"text": ["a", "b", "c"], "label": [0, 1, 0]}).to_parquet(parquet_path)
    cache = os.path.join(WORK, "datasets-cache")
    from_json = datasets.load_dataset("json", data_files=json_path, split="train", cache_dir=cache)
    from_parquet = datasets.load_dataset("parquet", data_files=parquet_path, split="train", cache_dir=cache)
    return {
        "version": datasets.__version__,
        "json_rows": from_json.num_rows,
        "json_labels": sum(from_json["label"]),
        "parquet_rows": from_parquet.num_rows,
        "parquet_columns": sorted(from_parquet.column_names),
    }


def check_sentence_transformers():
    import numpy as np
    import sentence_transformers
    from sentence_transformers import SentenceTransformer, models

    word = models.Transformer(tiny_bert_dir())
    pooling = models.Pooling(word.get_word_embedding_dimension(), pooling_mode="mean")
    model = SentenceTransformer(modules=[word, pooling], device="cpu")
    sentences = ["hello world", "the hub model"]
    embeddings = model.encode(sentences)
    path = os.path.join(WORK, "tiny-st")
    model.save(path)
    reloaded = SentenceTransformer(path, device="cpu").encode(sentences)
    return {
        "version": sentence_transformers.__version__,
        "shape": list(embeddings.shape),
        "reloaded_same": bool(np.allclose(embeddings, reloaded, atol=1e-5)),
        "files": sorted(name for name in os.listdir(path) if name.endswith(".json")),
    }


CHECKS = {name[len("check_"):]: fn for name, fn in globals().items() if name.startswith("check_")}

if __name__ == "__main__":
    unknown = [name for name in WANTED if name not in CHECKS]
    if unknown:
        sys.exit(f"unknown libraries: {unknown}; known: {sorted(CHECKS)}")
    print(json.dumps({name: CHECKS[name]() for name in WANTED}))
