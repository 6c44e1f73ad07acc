"""Uploads folders and commits with the real huggingface_hub for test/analysis.test.ts, and reads
model_info back, printing what it saw as JSON (the test asserts; this script never does).

Groups:
  upload  params {repo, folder, token, message?, delete?}: create the repo (exist_ok) and upload_folder,
          optionally deleting paths; prints the commit id.
  info    params {repo, token}: model_info's derived fields as huggingface_hub parses them.
"""

import json
import sys

import huggingface_hub
from huggingface_hub import CommitOperationDelete, HfApi

params = json.loads(sys.stdin.read() or "{}")
api = HfApi(token=params.get("token"))


def group_upload():
    api.create_repo(params["repo"], exist_ok=True)
    if params.get("delete"):
        info = api.create_commit(
            params["repo"],
            operations=[CommitOperationDelete(path_in_repo=path) for path in params["delete"]],
            commit_message="delete",
        )
        return {"commit": info.oid}
    info = api.upload_folder(
        repo_id=params["repo"], folder_path=params["folder"], commit_message=params.get("message", "upload")
    )
    return {"commit": info.oid}


def group_info():
    info = api.model_info(params["repo"])
    safetensors = info.safetensors
    return {
        "pipeline_tag": info.pipeline_tag,
        "library_name": info.library_name,
        "tags": info.tags,
        "transformers_info": None if info.transformers_info is None else dict(info.transformers_info),
        "config": info.config,
        "safetensors": None
        if safetensors is None
        else {"parameters": dict(safetensors.parameters), "total": safetensors.total},
        "widget_data": info.widget_data,
    }


GROUPS = {"upload": group_upload, "info": group_info}

result = GROUPS[sys.argv[1]]()
result["_version"] = huggingface_hub.__version__
print(json.dumps(result))
