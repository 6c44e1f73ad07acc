"""Uploads many small files with the real huggingface_hub (upload_folder: one commit, each file sent
inline) and downloads them back (snapshot_download, hf_hub_download), printing the SHA-256 of every
file it got as JSON (test/small-blobs.test.ts). Never asserts itself.
"""

import base64
import json
import os
import sys

from common import sha256_of
from huggingface_hub import HfApi, hf_hub_download, snapshot_download

params = json.loads(sys.stdin.read() or "{}")
api = HfApi(token=params.get("token"))


def group_publish():
    repo = params["repo"]
    api.create_repo(repo, exist_ok=True)
    folder = os.path.join(params["work_dir"], "publish")
    for path, encoded in params["files"].items():
        target = os.path.join(folder, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as handle:
            handle.write(base64.b64decode(encoded))
    info = api.upload_folder(repo_id=repo, folder_path=folder, commit_message="Many small files")
    return {"commit": info.oid}


def group_download():
    repo = params["repo"]
    snapshot = snapshot_download(repo, cache_dir=os.path.join(params["cache_dir"], "snapshot"))
    snapshot_files = {
        os.path.relpath(os.path.join(root, name), snapshot).replace(os.sep, "/"): sha256_of(os.path.join(root, name))
        for root, _, names in os.walk(snapshot)
        for name in names
    }
    single = {
        path: sha256_of(hf_hub_download(repo, path, cache_dir=os.path.join(params["cache_dir"], "single")))
        for path in params["paths"]
    }
    return {"snapshot": snapshot_files, "single": single}


GROUPS = {"publish": group_publish, "download": group_download}

if __name__ == "__main__":
    print(json.dumps(GROUPS[sys.argv[1]]()))
