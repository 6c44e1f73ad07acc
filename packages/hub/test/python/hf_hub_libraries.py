"""Publishes tiny random models with the real libraries (transformers, peft, timm, gguf,
sentence-transformers) to a hub (HF_ENDPOINT), and runs transformers' pipeline without a task against
it, for test/analysis-libraries.test.ts. Prints what it saw as JSON; the test asserts.

Groups (params on stdin: repo, token, work_dir, base?):
  bert, gpt2, peft, timm, gguf, sentence-transformers   publish one model; print the commit's files
  pipeline                                               pipeline(model=repo) without a task, run once
"""

import json
import os
import sys

import huggingface_hub
from huggingface_hub import HfApi

params = json.loads(sys.stdin.read() or "{}")
TOKEN = params["token"]
REPO = params["repo"]
WORK = params["work_dir"]
api = HfApi(token=TOKEN)


def vocab_file():
    words = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "hello", "world", "the", "hub", "model"]
    path = os.path.join(WORK, "vocab.txt")
    with open(path, "w") as f:
        f.write("\n".join(words + [f"w{i}" for i in range(32 - len(words))]) + "\n")
    return path


def tiny_bert():
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
    return BertForSequenceClassification(config).eval(), BertTokenizerFast(vocab_file=vocab_file())


def files():
    return {"files": sorted(api.list_repo_files(REPO))}


def group_bert():
    model, tokenizer = tiny_bert()
    model.push_to_hub(REPO, token=TOKEN)
    tokenizer.push_to_hub(REPO, token=TOKEN)
    return files()


def group_gpt2():
    import torch
    from transformers import GPT2Config, GPT2LMHeadModel

    torch.manual_seed(0)
    GPT2LMHeadModel(GPT2Config(vocab_size=64, n_positions=32, n_embd=16, n_layer=2, n_head=2)).push_to_hub(
        REPO, token=TOKEN
    )
    return files()


def group_peft():
    # peft's own flow: save_pretrained writes adapter_config.json, the adapter weights and a card naming
    # library peft and the base model (PeftModel.create_or_update_model_card), then the folder is uploaded.
    from peft import LoraConfig, get_peft_model

    model, _ = tiny_bert()
    # What from_pretrained(base) records: the base model's id, which peft copies to the adapter's config and card.
    model.config._name_or_path = params["base"]
    adapter = get_peft_model(
        model, LoraConfig(r=2, lora_alpha=4, target_modules=["query", "value"], task_type="SEQ_CLS")
    )
    # from_pretrained also leaves the id where get_peft_model looks for it (the module's name_or_path).
    adapter.peft_config["default"].base_model_name_or_path = params["base"]
    folder = os.path.join(WORK, "lora")
    adapter.save_pretrained(folder)
    api.create_repo(REPO, exist_ok=True)
    api.upload_folder(repo_id=REPO, folder_path=folder)
    return files()


def group_timm():
    import timm
    import torch
    from timm.models import push_to_hf_hub

    torch.manual_seed(0)
    model = timm.create_model("resnet10t", pretrained=False, num_classes=3).eval()
    push_to_hf_hub(model, REPO, token=TOKEN, safe_serialization=True)
    return files()


def group_gguf():
    import gguf
    import numpy as np

    path = os.path.join(WORK, "tiny-f32.gguf")
    writer = gguf.GGUFWriter(path, "llama")
    writer.add_context_length(128)
    writer.add_string("tokenizer.chat_template", "{% for m in messages %}{{ m.content }}{% endfor %}")
    writer.add_tensor("token_embd.weight", np.arange(12, dtype=np.float32).reshape(3, 4))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    api.create_repo(REPO, exist_ok=True)
    api.upload_file(path_or_fileobj=path, path_in_repo="tiny-f32.gguf", repo_id=REPO)
    return files()


def group_sentence_transformers():
    from sentence_transformers import SentenceTransformer, models

    model_dir = os.path.join(WORK, "st-base")
    bert, tokenizer = tiny_bert()
    bert.bert.save_pretrained(model_dir)
    tokenizer.save_pretrained(model_dir)
    word = models.Transformer(model_dir)
    pooling = models.Pooling(word.get_word_embedding_dimension(), pooling_mode="mean")
    SentenceTransformer(modules=[word, pooling], device="cpu").push_to_hub(REPO, token=TOKEN)
    return files()


def group_pipeline():
    from transformers import pipeline

    classify = pipeline(model=REPO, token=TOKEN)
    out = classify("hello world")
    return {"task": classify.task, "label": out[0]["label"], "score_type": type(out[0]["score"]).__name__}


GROUPS = {
    "bert": group_bert,
    "gpt2": group_gpt2,
    "peft": group_peft,
    "timm": group_timm,
    "gguf": group_gguf,
    "sentence-transformers": group_sentence_transformers,
    "pipeline": group_pipeline,
}

result = GROUPS[sys.argv[1]]()
result["_version"] = huggingface_hub.__version__
print(json.dumps(result))
