"""Publishes small models, downloads their files and reads their download counts with the real
huggingface_hub against a hub (HF_ENDPOINT), printing what it saw as JSON (test/downloads.test.ts).

Groups: "publish" (create each repository and upload its files), "download" (every client downloads
the named files with hf_hub_download, then the whole repository with snapshot_download, each client
with its own cache and its own X-Forwarded-For address), "counts" (model_info with
expand=downloads/downloadsAllTime, and the author's models sorted by downloads). With "repo_type":
"dataset" every group works on datasets instead (dataset_info, list_datasets). Never asserts itself.
"""

import json
import os
import sys

from huggingface_hub import HfApi, hf_hub_download, snapshot_download

params = json.loads(sys.stdin.read() or "{}")
api = HfApi(token=params.get("token"))
repo_type = params.get("repo_type", "model")


def group_publish():
    for repo, files in params["repos"].items():
        api.create_repo(repo, repo_type=repo_type, exist_ok=True)
        folder = os.path.join(params["work_dir"], "publish", repo.replace("/", "__"))
        for path, text in files.items():
            target = os.path.join(folder, path)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "w") as handle:
                handle.write(text)
        api.upload_folder(repo_id=repo, repo_type=repo_type, folder_path=folder, commit_message="Add files")
    return {"published": sorted(params["repos"])}


def group_download():
    fetched = {}
    for index, client in enumerate(params["clients"]):
        headers = {"X-Forwarded-For": client}
        cache = os.path.join(params["cache_dir"], f"client-{index}")
        for repo, files in params["files"].items():
            for path in files:
                hf_hub_download(repo, path, repo_type=repo_type, cache_dir=cache, headers=headers)
            snapshot = snapshot_download(repo, repo_type=repo_type, cache_dir=cache, headers=headers)
            fetched[repo] = sorted(
                os.path.relpath(os.path.join(root, name), snapshot).replace(os.sep, "/")
                for root, _, names in os.walk(snapshot)
                for name in names
            )
    return {"fetched": fetched}


def group_counts():
    counts = {}
    for repo in params["repos"]:
        read_info = api.dataset_info if repo_type == "dataset" else api.model_info
        info = read_info(repo, expand=["downloads", "downloadsAllTime"])
        counts[repo] = {"downloads": info.downloads, "downloads_all_time": info.downloads_all_time}
    list_repos = api.list_datasets if repo_type == "dataset" else api.list_models
    listed = [
        {"id": repo.id, "downloads": repo.downloads}
        for repo in list_repos(author=params["author"], sort="downloads", limit=50)
    ]
    return {"counts": counts, "listed": listed}


GROUPS = {"publish": group_publish, "download": group_download, "counts": group_counts}

if __name__ == "__main__":
    print(json.dumps(GROUPS[sys.argv[1]]()))
