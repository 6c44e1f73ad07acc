"""Hostile input through the real huggingface_hub (HF_ENDPOINT), printed as JSON (test/hostile.test.ts).

Parameters come as JSON on stdin; each group records results and exception class names (and, for
HTTP errors, the status and message): the test asserts on them.
"""

import json
import os
import sys

from huggingface_hub import CommitOperationAdd, HfApi, snapshot_download

from common import attempt

params = json.loads(sys.stdin.read() or "{}")


def group_paths():
    """create_commit of one small file at each path, then snapshot_download(local_dir=…) of the repo."""
    api = HfApi(token=params["token"])
    repo = params["repo"]
    commits = {}
    for path in params["paths"]:
        commits[path] = attempt(
            lambda path=path: api.create_commit(
                repo,
                operations=[CommitOperationAdd(path_in_repo=path, path_or_fileobj=b"hostile\n")],
                commit_message=f"add {path}",
            ).oid
        )
    local_dir = os.path.join(params["work_dir"], "snapshot")
    snapshot = attempt(lambda: snapshot_download(repo, local_dir=local_dir, cache_dir=params["cache_dir"]))
    files = sorted(
        os.path.relpath(os.path.join(folder, name), local_dir).replace(os.sep, "/")
        for folder, _, names in os.walk(local_dir)
        if ".cache" not in folder.split(os.sep)
        for name in names
    )
    return {"commits": commits, "snapshot": "ok" if "ok" in snapshot else snapshot, "files": files}


GROUPS = {"paths": group_paths}

print(json.dumps(GROUPS[sys.argv[1]]()))
