"""Moving repositories through the real huggingface_hub (move_repo), and reading them by the former id.

Called by test/repo-move.test.ts with one group name; parameters come as JSON on stdin. It only calls the
client and records results and exception class names (and, for HTTP errors, the status and message);
the test asserts on them.
"""

import json
import os
import sys

from common import attempt, sha256_of
from huggingface_hub import HfApi, hf_hub_download

params = json.loads(sys.stdin.read() or "{}")


def group_move():
    """alice uploads a tiny config, moves the repository, and reads it by both ids."""
    from transformers import AutoConfig, BertConfig

    api = HfApi(token=params["token"])
    old, new, kind = params["old"], params["new"], params["repo_type"]
    out = {}
    folder = os.path.join(params["work_dir"], "model")
    BertConfig(hidden_size=32, num_hidden_layers=1, num_attention_heads=2, intermediate_size=37).save_pretrained(folder)
    api.create_repo(old, repo_type=kind)
    api.upload_folder(folder_path=folder, repo_id=old, repo_type=kind)
    out["sha256"] = sha256_of(os.path.join(folder, "config.json"))
    out["move"] = attempt(lambda: api.move_repo(old, new, repo_type=kind))
    out["again"] = attempt(lambda: api.move_repo(old, new, repo_type=kind))

    def fetched(repo_id):
        cache = os.path.join(params["cache_dir"], repo_id.replace("/", "--"))
        return sha256_of(hf_hub_download(repo_id, "config.json", repo_type=kind, cache_dir=cache, token=params["token"]))

    out["download_old"] = attempt(lambda: fetched(old))
    out["download_new"] = attempt(lambda: fetched(new))
    out["info_old"] = attempt(lambda: api.repo_info(old, repo_type=kind).id)
    out["files_old"] = attempt(lambda: sorted(api.list_repo_files(old, repo_type=kind)))
    out["paths_info_old"] = attempt(lambda: [p.path for p in api.get_paths_info(old, ["config.json"], repo_type=kind)])
    out["write_old"] = attempt(lambda: api.upload_file(path_or_fileobj=b"x", path_in_repo="x.txt", repo_id=old, repo_type=kind).oid)
    out["files_new"] = attempt(lambda: sorted(api.list_repo_files(new, repo_type=kind)))
    if kind == "model":
        out["from_pretrained_old"] = attempt(
            lambda: AutoConfig.from_pretrained(old, token=params["token"], cache_dir=os.path.join(params["cache_dir"], "tf")).hidden_size
        )
    return out


def group_calls():
    """Each step: [token name, method, args, kwargs] of HfApi, as the test lists them."""
    out = []
    for name, method, args, kwargs in params["steps"]:
        api = HfApi(token=params["tokens"][name] if name else False)
        out.append(attempt(lambda: getattr(api, method)(*args, **kwargs)))
    return out


GROUPS = {"move": group_move, "calls": group_calls}

result = GROUPS[sys.argv[1]]()
print(json.dumps(result, default=str))
