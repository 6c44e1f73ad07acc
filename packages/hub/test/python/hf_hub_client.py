"""Runs the real huggingface_hub client against a hub (HF_ENDPOINT) and prints what it saw, as JSON.

Called by test/hf-client.test.ts with one group name; every call of a group runs in this one process.
The test asserts on the printed facts, so this script only calls the client and records results and
exception class names (never asserting itself).
"""

import json
import os
import sys

import huggingface_hub
from common import sha256_of
from huggingface_hub import (
    HfApi,
    ModelCard,
    get_paths_info,
    hf_hub_download,
    list_repo_files,
    list_repo_tree,
    snapshot_download,
)
from huggingface_hub.hf_api import RepoFile, RepoFolder

api = HfApi()
params = json.loads(sys.stdin.read() or "{}")


def error_name(call):
    try:
        call()
    except Exception as error:  # the class is the fact under test
        return type(error).__name__
    return None


def summary(model):
    return {
        "id": model.id,
        "author": model.author,
        "sha": model.sha,
        "pipeline_tag": model.pipeline_tag,
        "library_name": model.library_name,
        "tags": model.tags,
        "downloads": model.downloads,
        "likes": model.likes,
        "trending_score": model.trending_score,
        "created_at": model.created_at.isoformat() if model.created_at else None,
        "last_modified": model.last_modified.isoformat() if model.last_modified else None,
        "private": model.private,
        "gated": model.gated,
        "disabled": model.disabled,
        "inference": model.inference,
        "siblings": None if model.siblings is None else [
            {"rfilename": s.rfilename, "size": s.size, "blob_id": s.blob_id, "lfs": dict(s.lfs) if s.lfs else None}
            for s in model.siblings
        ],
        "card_data": model.card_data.to_dict() if model.card_data is not None else None,
        "config": model.config,
        "transformers_info": dict(model.transformers_info) if model.transformers_info else None,
        "safetensors_total": model.safetensors.total if model.safetensors else None,
        "gguf_total": model.gguf.get("total") if model.gguf else None,
        "mapping": None if model.inference_provider_mapping is None else [
            {"provider": m.provider, "provider_id": m.provider_id, "status": m.status, "task": m.task}
            for m in model.inference_provider_mapping
        ],
        "spaces": model.spaces,
        "used_storage": model.used_storage,
        "security_repo_status": model.security_repo_status,
        "mask_token": model.mask_token,
    }


def ids(models):
    return [m.id for m in models]


def group_list():
    out = {}
    out["limit_500"] = [summary(m) for m in api.list_models(limit=500)]
    out["limit_1200_by_id"] = ids(api.list_models(limit=1200, author=params["bulk_author"]))
    out["bulk_all"] = ids(api.list_models(author=params["bulk_author"]))
    out["filter"] = [summary(m) for m in api.list_models(filter=["text-generation", "transformers", "conversational"])]
    out["filter_tag_only"] = ids(api.list_models(filter="license:llama3.1"))
    out["search"] = ids(api.list_models(search="llama 3.3"))
    out["author"] = [summary(m) for m in api.list_models(author="meta-llama")]
    out["provider_groq"] = [summary(m) for m in api.list_models(inference_provider="groq", expand=["inferenceProviderMapping"])]
    out["provider_all"] = ids(api.list_models(inference_provider="all"))
    out["provider_two"] = ids(api.list_models(inference_provider=["groq", "cerebras"]))
    out["sorts"] = {
        sort: [summary(m) for m in api.list_models(sort=sort, limit=40)]
        for sort in ["downloads", "likes", "created_at", "last_modified", "trending_score"]
    }
    out["bulk_trending"] = ids(api.list_models(author=params["bulk_author"], sort="trending_score"))
    out["full"] = [summary(m) for m in api.list_models(full=True, limit=5, author="meta-llama")]
    out["card_data"] = [summary(m) for m in api.list_models(cardData=True, limit=5, author="meta-llama")]
    out["fetch_config"] = [summary(m) for m in api.list_models(fetch_config=True, limit=5, author="meta-llama")]
    every = [
        "author", "baseModels", "cardData", "childrenModelCount", "config", "createdAt", "disabled", "downloads",
        "downloadsAllTime", "evalResults", "gated", "gguf", "inference", "inferenceProviderMapping", "lastModified",
        "library_name", "likes", "mask_token", "model-index", "pipeline_tag", "private", "resourceGroup",
        "safetensors", "sha", "siblings", "spaces", "tags", "transformersInfo", "trendingScore", "usedStorage",
        "widgetData",
    ]
    out["expand_all"] = [summary(m) for m in api.list_models(expand=every, limit=3, author="meta-llama")]
    out["num_parameters"] = [summary(m) for m in api.list_models(num_parameters="min:6B,max:10B", limit=50, expand=["safetensors", "gguf"])]
    out["gated_true"] = ids(api.list_models(gated=True, limit=10))
    return out


def group_info():
    repo = params["files_repo"]
    out = {}
    out["info"] = summary(api.model_info("meta-llama/Llama-3.1-8B-Instruct"))
    out["info_main"] = summary(api.model_info("meta-llama/Llama-3.1-8B-Instruct", revision="main"))
    out["info_commit"] = summary(api.model_info("meta-llama/Llama-3.1-8B-Instruct", revision=out["info"]["sha"]))
    out["files_metadata"] = summary(api.model_info(repo, files_metadata=True))
    out["security"] = summary(api.model_info(repo, securityStatus=True))
    out["expand_mapping"] = summary(api.model_info("meta-llama/Llama-3.3-70B-Instruct", expand=["inferenceProviderMapping"]))
    out["bare_id"] = summary(api.model_info(params["bare_id"]))
    out["missing_repo"] = error_name(lambda: api.model_info("nobody/no-such-model"))
    out["missing_revision"] = error_name(lambda: api.model_info(repo, revision="no-such-branch"))
    out["repo_exists"] = api.repo_exists("meta-llama/Llama-3.1-8B-Instruct")
    out["repo_exists_bare"] = api.repo_exists(params["bare_id"])
    out["repo_missing"] = api.repo_exists("nobody/no-such-model")
    out["revision_exists"] = api.revision_exists(repo, "main")
    out["revision_missing"] = api.revision_exists(repo, "no-such-branch")
    out["file_exists"] = api.file_exists(repo, "README.md")
    out["file_missing"] = api.file_exists(repo, "no-such-file.txt")
    refs = api.list_repo_refs(repo)
    out["refs"] = {"branches": [(b.name, b.ref, b.target_commit) for b in refs.branches], "tags": len(refs.tags)}
    card = ModelCard.load("meta-llama/Llama-3.1-8B-Instruct")
    out["card"] = {"data": card.data.to_dict(), "text_start": card.text[:200]}
    return out


def entry(item):
    if isinstance(item, RepoFile):
        return {
            "type": "file",
            "path": item.path,
            "size": item.size,
            "blob_id": item.blob_id,
            "lfs": dict(item.lfs) if item.lfs else None,
            "last_commit": None if item.last_commit is None else {
                "oid": item.last_commit.oid, "title": item.last_commit.title, "date": item.last_commit.date.isoformat()
            },
        }
    assert isinstance(item, RepoFolder)
    return {
        "type": "directory",
        "path": item.path,
        "tree_id": item.tree_id,
        "last_commit": None if item.last_commit is None else {"oid": item.last_commit.oid},
    }


def group_files():
    repo = params["files_repo"]
    out = {}
    out["files"] = list_repo_files(repo)
    out["files_seed"] = list_repo_files("meta-llama/Llama-3.1-8B-Instruct")
    out["tree_root"] = [entry(e) for e in list_repo_tree(repo)]
    out["tree_recursive"] = [entry(e) for e in list_repo_tree(repo, recursive=True)]
    out["tree_sub"] = [entry(e) for e in list_repo_tree(repo, path_in_repo="weights")]
    out["tree_expand"] = [entry(e) for e in list_repo_tree(repo, expand=True, recursive=True)]
    out["tree_missing"] = error_name(lambda: list(list_repo_tree(repo, path_in_repo="no-such-folder")))
    out["tree_big"] = len([e for e in list_repo_tree(params["big_tree_repo"], recursive=True)])
    out["paths_info"] = [entry(e) for e in get_paths_info(repo, ["README.md", "weights", "missing.txt", "weights/model.safetensors"])]
    out["paths_info_expand"] = [entry(e) for e in get_paths_info(repo, ["README.md"], expand=True)]
    return out


def group_download():
    repo = params["files_repo"]
    cache = params["cache_dir"]
    out = {}
    readme = hf_hub_download(repo, "README.md", cache_dir=cache)
    out["readme"] = {"path": readme, "sha256": sha256_of(readme)}
    weights = hf_hub_download(repo, "weights/model.safetensors", cache_dir=cache)
    out["weights"] = {"sha256": sha256_of(weights), "size": os.path.getsize(weights)}
    config = hf_hub_download("meta-llama/Llama-3.1-8B-Instruct", "config.json", cache_dir=cache)
    with open(config) as handle:
        out["seed_config"] = json.load(handle)
    tokenizer = hf_hub_download("meta-llama/Llama-3.1-8B-Instruct", "tokenizer_config.json", cache_dir=cache)
    with open(tokenizer) as handle:
        out["seed_tokenizer_config"] = json.load(handle)
    sha = api.model_info(repo).sha
    pinned = hf_hub_download(repo, "notes/deep/notes.txt", revision=sha, cache_dir=cache)
    out["pinned"] = {"sha256": sha256_of(pinned), "in_snapshot_of": sha in pinned}
    out["missing_file"] = error_name(lambda: hf_hub_download(repo, "no-such-file.txt", cache_dir=cache))
    out["missing_repo"] = error_name(lambda: hf_hub_download("nobody/no-such-model", "README.md", cache_dir=cache))
    out["missing_revision"] = error_name(lambda: hf_hub_download(repo, "README.md", revision="nope", cache_dir=cache))
    snapshot = snapshot_download(repo, cache_dir=cache)
    out["snapshot"] = {
        os.path.relpath(os.path.join(root, name), snapshot).replace(os.sep, "/"): sha256_of(os.path.join(root, name))
        for root, _, names in os.walk(snapshot)
        for name in names
    }
    local = os.path.join(params["work_dir"], "local")
    snapshot_download(repo, local_dir=local)
    out["local_dir"] = {
        os.path.relpath(os.path.join(root, name), local).replace(os.sep, "/"): sha256_of(os.path.join(root, name))
        for root, _, names in os.walk(local)
        if ".cache" not in root.split(os.sep)
        for name in names
    }
    seed_snapshot = snapshot_download("meta-llama/Llama-3.1-8B-Instruct", cache_dir=cache)
    out["seed_snapshot"] = sorted(os.listdir(seed_snapshot))
    # A second download is served from the cache after a HEAD (same ETag): no new bytes.
    again = hf_hub_download(repo, "weights/model.safetensors", cache_dir=cache)
    out["cached_again"] = again == weights
    return out


GROUPS = {"list": group_list, "info": group_info, "files": group_files, "download": group_download}

result = GROUPS[sys.argv[1]]()
result["_version"] = huggingface_hub.__version__
print(json.dumps(result))
