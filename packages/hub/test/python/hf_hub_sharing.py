"""Writes to a hub with the real huggingface_hub (HF_ENDPOINT) and prints what it saw, as JSON.

Called by test/support/sharing-suite.ts with one group name; parameters come as JSON on stdin. Like
hf_hub_client.py it only calls the client and records results and exception class names (and, for
HTTP errors, the status and message); the test asserts on them.
"""

import json
import os
import sys

import huggingface_hub
from common import attempt, sha256_of
from huggingface_hub import (
    CommitOperationAdd,
    CommitOperationCopy,
    CommitOperationDelete,
    HfApi,
    hf_hub_download,
    snapshot_download,
)
from huggingface_hub.utils._auth import get_stored_tokens

params = json.loads(sys.stdin.read() or "{}")


def tree(root):
    return {
        os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/"): sha256_of(os.path.join(folder, name))
        for folder, _, names in os.walk(root)
        if ".cache" not in folder.split(os.sep)
        for name in names
    }


def group_whoami():
    out = {}
    for name, token in params["tokens"].items():
        out[name] = attempt(lambda token=token: HfApi(token=token).whoami())
    # login() stores the token under the displayName whoami-v2 gives it.
    huggingface_hub.login(token=params["tokens"]["write"], add_to_git_credential=False)
    out["token_names"] = sorted(get_stored_tokens().keys())
    out["whoami_after_login"] = HfApi().whoami()["name"]
    return out


def group_upload():
    """Everything a model owner does: create, upload (small, large, folders), delete, history, read back."""
    api = HfApi(token=params["token"])
    repo = params["repo"]
    private_repo = params["private_repo"]
    files = params["files"]
    out = {}
    out["create"] = attempt(lambda: str(api.create_repo(repo)))
    out["create_again"] = attempt(lambda: str(api.create_repo(repo)))
    out["create_exist_ok"] = attempt(lambda: str(api.create_repo(repo, exist_ok=True)))
    out["create_private"] = attempt(lambda: str(api.create_repo(private_repo, private=True)))
    out["create_dataset"] = attempt(lambda: str(api.create_repo(repo + "-data", repo_type="dataset")))
    out["readme"] = attempt(
        lambda: api.upload_file(path_or_fileobj=files["README.md"], path_in_repo="README.md", repo_id=repo).oid
    )
    out["bad_readme"] = attempt(
        lambda: api.upload_file(path_or_fileobj=b"---\nlicense: [unclosed\n---\n", path_in_repo="README.md", repo_id=repo)
    )
    out["small"] = attempt(
        lambda: api.upload_file(path_or_fileobj=files["config.json"], path_in_repo="config.json", repo_id=repo).oid
    )
    out["large"] = attempt(
        lambda: api.upload_file(
            path_or_fileobj=files["model.safetensors"], path_in_repo="model.safetensors", repo_id=repo
        ).oid
    )
    # Unchanged: no new commit (preupload's oid), whatever the transfer.
    out["large_again"] = attempt(
        lambda: api.upload_file(
            path_or_fileobj=files["model.safetensors"], path_in_repo="model.safetensors", repo_id=repo
        ).oid
    )
    out["folder"] = attempt(
        lambda: api.upload_folder(folder_path=params["folder"], path_in_repo="extra", repo_id=repo).oid
    )
    out["delete_file"] = attempt(lambda: api.delete_file("extra/notes/drop.txt", repo_id=repo).oid)
    out["delete_missing"] = attempt(lambda: api.delete_file("no/such/file.txt", repo_id=repo))
    sha = api.model_info(repo).sha
    out["copy_and_delete_folder"] = attempt(
        lambda: api.create_commit(
            repo,
            operations=[
                CommitOperationCopy(src_path_in_repo="model.safetensors", path_in_repo="copies/model.safetensors"),
                CommitOperationCopy(src_path_in_repo="config.json", path_in_repo="copies/config.json"),
                CommitOperationDelete(path_in_repo="extra/deep/"),
            ],
            commit_message="Copy and prune",
            commit_description="Second line of the story.",
            parent_commit=sha,
        ).oid
    )
    out["stale_parent"] = attempt(
        lambda: api.create_commit(
            repo,
            operations=[CommitOperationAdd(path_in_repo="late.txt", path_or_fileobj=b"late\n")],
            commit_message="Too late",
            parent_commit=sha,
        )
    )
    out["pull_request"] = attempt(
        lambda: api.upload_file(path_or_fileobj=b"pr\n", path_in_repo="pr.txt", repo_id=repo, create_pr=True).pr_revision
    )
    out["private_upload"] = attempt(
        lambda: api.upload_file(path_or_fileobj=files["secret.bin"], path_in_repo="secret.bin", repo_id=private_repo).oid
    )
    out["commits"] = [
        {"id": c.commit_id, "title": c.title, "message": c.message, "authors": c.authors}
        for c in api.list_repo_commits(repo)
    ]
    out["files"] = sorted(api.list_repo_files(repo))
    info = api.model_info(repo, files_metadata=True)
    out["info"] = {
        "sha": info.sha,
        "private": info.private,
        "pipeline_tag": info.pipeline_tag,
        "library_name": info.library_name,
        "tags": info.tags,
        "card_data": info.card_data.to_dict() if info.card_data is not None else None,
        "lfs": {s.rfilename: dict(s.lfs) if s.lfs else None for s in info.siblings},
    }
    out["branch"] = attempt(lambda: api.create_branch(repo, branch="dev/v1", revision=sha))
    out["branch_again"] = attempt(lambda: api.create_branch(repo, branch="dev/v1"))
    out["branch_exist_ok"] = attempt(lambda: api.create_branch(repo, branch="dev/v1", exist_ok=True))
    out["on_branch"] = attempt(
        lambda: api.upload_file(path_or_fileobj=b"branch only\n", path_in_repo="branch.txt", repo_id=repo, revision="dev/v1").oid
    )
    out["tag"] = attempt(lambda: api.create_tag(repo, tag="v1.0", tag_message="First release"))
    out["tag_again"] = attempt(lambda: api.create_tag(repo, tag="v1.0"))
    refs = api.list_repo_refs(repo)
    out["refs"] = {
        "branches": sorted((b.name, b.target_commit) for b in refs.branches),
        "tags": sorted((t.name, t.target_commit) for t in refs.tags),
    }
    out["branch_files"] = sorted(api.list_repo_files(repo, revision="dev/v1"))
    out["tag_commits"] = [c.title for c in api.list_repo_commits(repo, revision="v1.0")][:2]
    out["delete_tag"] = attempt(lambda: api.delete_tag(repo, tag="v1.0"))
    out["delete_branch"] = attempt(lambda: api.delete_branch(repo, branch="dev/v1"))
    out["delete_main"] = attempt(lambda: api.delete_branch(repo, branch="main"))
    out["refs_after"] = sorted(b.name for b in api.list_repo_refs(repo).branches)
    out["settings_private"] = attempt(lambda: api.update_repo_settings(repo, private=True))
    out["private_after"] = api.model_info(repo).private
    out["settings_public"] = attempt(lambda: api.update_repo_settings(repo, private=False))
    out["public_after"] = api.model_info(repo).private
    out["gated"] = attempt(lambda: api.update_repo_settings(repo, gated="manual"))
    out["gated_after"] = api.model_info(repo).gated
    out["ungated"] = attempt(lambda: api.update_repo_settings(repo, gated=False))
    out["ungated_after"] = api.model_info(repo).gated
    return out


def group_download():
    """Downloads (token optional) of everything a repository holds, hashed."""
    token = params.get("token")
    repo = params["repo"]
    cache = params["cache_dir"]
    out = {}
    names = HfApi(token=token).list_repo_files(repo)
    out["files"] = {
        name: sha256_of(hf_hub_download(repo, name, token=token, cache_dir=cache)) for name in names
    }
    out["snapshot"] = tree(snapshot_download(repo, token=token, cache_dir=cache))
    local = os.path.join(params["work_dir"], "local")
    snapshot_download(repo, token=token, local_dir=local)
    out["local_dir"] = tree(local)
    return out


def group_denied():
    """What someone who may not see a private repository gets (token or none)."""
    token = params.get("token")
    api = HfApi(token=token)
    repo = params["repo"]
    cache = params["cache_dir"]
    out = {
        "model_info": attempt(lambda: api.model_info(repo)),
        "repo_exists": api.repo_exists(repo),
        "file_exists": attempt(lambda: api.file_exists(repo, "secret.bin")),
        "download": attempt(lambda: hf_hub_download(repo, "secret.bin", token=token, cache_dir=cache)),
        "snapshot": attempt(lambda: snapshot_download(repo, token=token, cache_dir=cache)),
        "files": attempt(lambda: api.list_repo_files(repo)),
        "tree": attempt(lambda: list(api.list_repo_tree(repo))),
        "paths_info": attempt(lambda: api.get_paths_info(repo, ["secret.bin"])),
        "refs": attempt(lambda: api.list_repo_refs(repo)),
        "commits": attempt(lambda: api.list_repo_commits(repo)),
        "listed": [m.id for m in api.list_models(author=repo.split("/")[0])],
        "searched": [m.id for m in api.list_models(search=repo.split("/")[1])],
        "upload": attempt(lambda: api.upload_file(path_or_fileobj=b"x", path_in_repo="x.txt", repo_id=repo)),
        "settings": attempt(lambda: api.update_repo_settings(repo, private=False)),
        "delete": attempt(lambda: api.delete_repo(repo)),
    }
    return out


def group_write_attempts():
    """Writes with a given token to given repositories: each result or error (read tokens, org roles)."""
    api = HfApi(token=params.get("token"))
    out = {}
    for name, repo in params["uploads"].items():
        out[name] = attempt(
            lambda repo=repo: api.upload_file(path_or_fileobj=b"hello\n", path_in_repo="hello.txt", repo_id=repo).oid
        )
    for name, repo in params.get("creates", {}).items():
        out[name] = attempt(lambda repo=repo: str(api.create_repo(repo, private=True)))
    for name, repo in params.get("deletes", {}).items():
        out[name] = attempt(lambda repo=repo: api.delete_repo(repo))
    for name, repo in params.get("reads", {}).items():
        out[name] = attempt(lambda repo=repo: api.model_info(repo).id)
    return out


def group_upload_path():
    """One upload_file of a local file (the transfer follows the environment: Xet by default)."""
    api = HfApi(token=params["token"])
    name = os.path.basename(params["path"])
    return {"result": attempt(lambda: api.upload_file(path_or_fileobj=params["path"], path_in_repo=name, repo_id=params["repo"]).oid)}


GROUPS = {
    "upload_path": group_upload_path,
    "whoami": group_whoami,
    "upload": group_upload,
    "download": group_download,
    "denied": group_denied,
    "write_attempts": group_write_attempts,
}

result = GROUPS[sys.argv[1]]()
result["_version"] = huggingface_hub.__version__
print(json.dumps(result, default=str))
