"""Mirror mode with the real huggingface_hub and transformers, for test/mirror.test.ts.

Groups (params on stdin: repo, token?, work_dir, cache_dir, path?):
  publish   (upstream) a tiny BERT through LFS (push_to_hub) and one more file through Xet
  read      (downstream) model_info, the tree, paths-info, refs, snapshot_download and from_pretrained
  read_xet  (downstream of an upstream that sends Xet hints, params: path) what the client sees of Xet, and
            the files it downloads: snapshot_download (the tree cache path) and hf_hub_download into an
            empty cache (the HEAD path)
  list      (downstream, params: queries [{search?, author?}], token?, datasets?) list_models (or
            list_datasets) of each query: the listed ids, whether private, and where each is mirrored from
  fetch     (downstream, params: paths) hf_hub_download of each path into an empty cache, with the file's
            metadata as the client reads it (get_hf_file_metadata)
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


def group_read_xet():
    from huggingface_hub import HfApi, get_hf_file_metadata, hf_hub_download, hf_hub_url, snapshot_download
    from huggingface_hub.utils._runtime import is_xet_available

    api = HfApi()
    path = params["path"]
    info = api.model_info(REPO, files_metadata=True)
    tree = [entry for entry in api.list_repo_tree(REPO, recursive=True) if hasattr(entry, "blob_id")]
    paths = api.get_paths_info(REPO, [path, "config.json"])
    metadata = get_hf_file_metadata(hf_hub_url(REPO, path))
    # snapshot_download keeps the tree listing and, for an entry with a Xet hash, downloads through hf_xet
    # without a HEAD; hf_hub_download into an empty cache decides from the HEAD's headers.
    folder = snapshot_download(REPO, cache_dir=CACHE)
    files = {}
    for root, _dirs, names in os.walk(folder):
        for name in names:
            full = os.path.join(root, name)
            files[os.path.relpath(full, folder)] = sha256_of(full)
    single = hf_hub_download(REPO, path, cache_dir=os.path.join(CACHE, "single"))
    return {
        "xet_available": is_xet_available(),
        "sha": info.sha,
        "xet_enabled": getattr(info, "xetEnabled", None),
        "tree_xet": {entry.path: entry.xet_hash for entry in tree},
        "paths_xet": {entry.path: getattr(entry, "xet_hash", None) for entry in paths},
        "metadata": {
            "xet": metadata.xet_file_data is not None,
            "etag": metadata.etag,
            "size": metadata.size,
            "commit": metadata.commit_hash,
        },
        "files": files,
        "single": sha256_of(single),
    }


def group_fetch():
    from huggingface_hub import get_hf_file_metadata, hf_hub_download, hf_hub_url

    files = {}
    for path in params["paths"]:
        metadata = get_hf_file_metadata(hf_hub_url(REPO, path))
        local = hf_hub_download(REPO, path, cache_dir=CACHE)
        files[path] = {
            "sha256": sha256_of(local),
            "etag": metadata.etag,
            "size": metadata.size,
            "commit": metadata.commit_hash,
        }
    return {"files": files}


def group_list():
    from huggingface_hub import HfApi

    api = HfApi(token=params.get("token") or False)
    lister = api.list_datasets if params.get("datasets") else api.list_models
    answers = []
    for query in params["queries"]:
        models = lister(search=query.get("search"), author=query.get("author"))
        answers.append(
            [
                {"id": m.id, "private": m.private, "mirroredFrom": getattr(m, "mirroredFrom", None)}
                for m in models
            ]
        )
    return {"answers": answers}


GROUPS = {
    "publish": group_publish,
    "read": group_read,
    "read_xet": group_read_xet,
    "fetch": group_fetch,
    "list": group_list,
}

if __name__ == "__main__":
    print(json.dumps(GROUPS[sys.argv[1]]()))
