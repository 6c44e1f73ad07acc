"""Makes tiny random models with the real libraries and publishes them to the hub in HF_ENDPOINT.

Reads {"work_dir": ..., "models": [{"kind": "transformers"|"timm"|"sentence-transformers"|"peft",
"repo": ..., "private": bool, "base": ...}]}
on stdin and prints {"published": [...]} on its last line. Nothing is downloaded from outside: every
model is built from a small config with random weights (seeded), then uploaded with
HfApi.upload_folder. A peft adapter is made on its "base", a model published earlier in the same list,
loaded from this hub, so that adapter_config.json names the base by its id here.
"""

import json
import os
import sys

import torch
from huggingface_hub import HfApi

torch.manual_seed(0)

# A vocabulary just large enough for the words the snippets' example inputs use.
VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + [
    word
    for word in "the a an is of to and in it i this that was for on with as be at by not love hate good bad".split()
]


def card(library, pipeline_tag):
    return f"---\nlibrary_name: {library}\npipeline_tag: {pipeline_tag}\nlicense: mit\n---\n\n# Tiny random model\n"


def tiny_transformers(folder, spec=None):
    from transformers import BertConfig, BertForSequenceClassification, BertTokenizerFast

    vocab_file = os.path.join(folder, "vocab.txt")
    with open(vocab_file, "w") as handle:
        handle.write("\n".join(VOCAB) + "\n")
    tokenizer = BertTokenizerFast(vocab_file=vocab_file)
    config = BertConfig(
        vocab_size=len(VOCAB),
        hidden_size=16,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=32,
        max_position_embeddings=64,
        num_labels=2,
    )
    BertForSequenceClassification(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    with open(os.path.join(folder, "README.md"), "w") as handle:
        handle.write(card("transformers", "text-classification"))


def tiny_timm(folder, spec=None):
    import timm
    from timm.models._hub import save_for_hf

    # timm's own test architecture (about 0.1 M parameters); config.json names it, as push_to_hf_hub writes.
    model = timm.create_model("test_efficientnet", pretrained=False, num_classes=3)
    save_for_hf(model, folder, safe_serialization=True)
    with open(os.path.join(folder, "README.md"), "w") as handle:
        handle.write(card("timm", "image-classification"))


def tiny_sentence_transformers(folder, spec=None):
    from sentence_transformers import SentenceTransformer, models

    encoder_dir = os.path.join(folder, "_encoder")
    os.makedirs(encoder_dir, exist_ok=True)
    tiny_transformers(encoder_dir)
    encoder = models.Transformer(encoder_dir, max_seq_length=32)
    pooling = models.Pooling(encoder.get_word_embedding_dimension())
    SentenceTransformer(modules=[encoder, pooling]).save(folder)
    with open(os.path.join(folder, "README.md"), "w") as handle:
        handle.write(card("sentence-transformers", "sentence-similarity"))
    import shutil

    shutil.rmtree(encoder_dir)


def tiny_peft(folder, spec):
    from peft import LoraConfig, TaskType, get_peft_model
    from transformers import AutoModelForSequenceClassification

    # The base comes from this hub (HF_ENDPOINT), so peft records its id here as base_model_name_or_path
    # and writes the card itself (library_name: peft, base_model).
    base = AutoModelForSequenceClassification.from_pretrained(spec["base"])
    lora = LoraConfig(task_type=TaskType.SEQ_CLS, r=2, lora_alpha=4, target_modules=["query", "value"])
    get_peft_model(base, lora).save_pretrained(folder)


BUILDERS = {
    "transformers": tiny_transformers,
    "timm": tiny_timm,
    "sentence-transformers": tiny_sentence_transformers,
    "peft": tiny_peft,
}


def main():
    params = json.load(sys.stdin)
    api = HfApi()
    published = []
    for spec in params["models"]:
        folder = os.path.join(params["work_dir"], spec["repo"].replace("/", "--"))
        os.makedirs(folder, exist_ok=True)
        BUILDERS[spec["kind"]](folder, spec)
        api.create_repo(spec["repo"], private=spec["private"])
        api.upload_folder(repo_id=spec["repo"], folder_path=folder)
        published.append(spec["repo"])
    print(json.dumps({"published": published}))


if __name__ == "__main__":
    main()
