"""Mirror mode with the real huggingface_hub and transformers, for test/mirror.test.ts.

Groups (params on stdin: repo, token?, work_dir, cache_dir, path?):
  publish   (upstream) a tiny BERT through LFS (push_to_hub) and one more file through Xet
  read      (downstream) model_info, the tree, paths-info, refs, snapshot_download and from_pretrained
Prints what it saw as JSON; the test asserts.
"""

import json
import os
import sys

from common import attempt, sha256_of

params = json.loads(sys.stdin.read() or "{}")
REPO = params["repo"]
WORK = params["work_dir"]
os.makedirs(WORK, exist_ok=True)
CACHE = params["cache_dir"]


def tiny_bert():
    import torch
    from transformers import BertConfig, BertForSequenceClassification, BertTokenizerFast

    words = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "hello", "world", "mirror"]
    vocab = os.path.join(WORK, "vocab.txt")
    with open(vocab, "w") as f:
        f.write("\n".join(words + [f"w{i}" for i in range(32 - len(words))]) + "\n")
    torch.manual_seed(0)
    config = BertConfig(
        vocab_size=32,
        hidden_size=16,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=32,
        max_position_embeddings=32,
        num_labels=2,
    )
    return BertForSequenceClassification(config).eval(), BertTokenizerFast(vocab_file=vocab)


def group_publish():
    from huggingface_hub import HfApi

    token = params["token"]
    api = HfApi(token=token)
    model, tokenizer = tiny_bert()
    # LFS for the weights (Xet off for this push), then one file through Xet (hf_xet).
    os.environ["HF_HUB_DISABLE_XET"] = "1"
    model.push_to_hub(REPO, token=token)
    tokenizer.push_to_hub(REPO, token=token)
    del os.environ["HF_HUB_DISABLE_XET"]
    import huggingface_hub.constants as constants

    constants.HF_HUB_DISABLE_XET = False
    path = params["path"]
    api.upload_file(path_or_fileobj=path, path_in_repo="extra/xet.bin", repo_id=REPO)
    return {"sha": api.model_info(REPO).sha, "files": sorted(api.list_repo_files(REPO))}


def group_read():
    import torch
    from huggingface_hub import HfApi, hf_hub_download, snapshot_download
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    api = HfApi()
    info = api.model_info(REPO, files_metadata=True)
    tree = sorted(entry.path for entry in api.list_repo_tree(REPO, recursive=True))
    at_commit = api.model_info(REPO, revision=info.sha).sha
    paths = sorted(entry.path for entry in api.get_paths_info(REPO, ["config.json", "extra"]))
    refs = [branch.name for branch in api.list_repo_refs(REPO).branches]
    folder = snapshot_download(REPO, cache_dir=CACHE)
    files = {}
    for root, _dirs, names in os.walk(folder):
        for name in names:
            full = os.path.join(root, name)
            files[os.path.relpath(full, folder)] = sha256_of(full)
    single = hf_hub_download(REPO, "extra/xet.bin", cache_dir=os.path.join(CACHE, "single"))
    model = AutoModelForSequenceClassification.from_pretrained(REPO, cache_dir=os.path.join(CACHE, "tf"))
    tokenizer = AutoTokenizer.from_pretrained(REPO, cache_dir=os.path.join(CACHE, "tf"))
    with torch.no_grad():
        logits = model(**tokenizer("hello mirror world", return_tensors="pt")).logits[0].tolist()
    missing = {}
    if not params.get("offline"):
        missing = attempt(lambda: hf_hub_download(REPO, "nope.txt", cache_dir=os.path.join(CACHE, "x")))
    return {
        "sha": info.sha,
        "at_commit": at_commit,
        "siblings": sorted(s.rfilename for s in info.siblings),
        "tree": tree,
        "paths": paths,
        "refs": refs,
        "files": files,
        "single": sha256_of(single),
        "logits": [round(x, 5) for x in logits],
        "missing": {k: v for k, v in missing.items() if k != "message"},
    }


GROUPS = {"publish": group_publish, "read": group_read}

if __name__ == "__main__":
    print(json.dumps(GROUPS[sys.argv[1]]()))
