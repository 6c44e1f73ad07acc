"""Fills a hub with what a team would have, through the real huggingface_hub (HF_ENDPOINT), for the
upgrade fixture (see make-fixture.mjs). One group per call (the transfer follows the environment:
Xet by default, classic LFS with HF_HUB_DISABLE_XET=1); parameters come as JSON on stdin; prints the
commit ids it made, as JSON. Every file's bytes are derived from its name, so runs are repeatable.
"""

import hashlib
import json
import os
import sys

from huggingface_hub import CommitOperationAdd, CommitOperationCopy, CommitOperationDelete, HfApi

params = json.loads(sys.stdin.read() or "{}")


def noise(name, size):
    """`size` bytes of SHA-256 counter-mode output seeded by `name` (incompressible, like weights)."""
    out = bytearray()
    counter = 0
    while len(out) < size:
        out += hashlib.sha256(f"{name}:{counter}".encode()).digest()
        counter += 1
    return bytes(out[:size])


def card(title, tags):
    lines = ["---", "license: apache-2.0", "library_name: transformers", "pipeline_tag: text-classification", "tags:"]
    lines += [f"- {tag}" for tag in tags]
    return ("\n".join(lines) + f"\n---\n\n# {title}\n\nA model of the upgrade fixture.\n").encode()


def config(hidden):
    return (json.dumps({"architectures": ["TinyModel"], "model_type": "bert", "hidden_size": hidden}, indent=2) + "\n").encode()


def group_xet():
    """alice's public and private repositories and carol's organisation repository, through Xet."""
    alice = HfApi(token=params["tokens"]["alice"])
    carol = HfApi(token=params["tokens"]["carol"])
    work = params["work_dir"]
    out = {}
    repo = "alice/tiny-xet"
    alice.create_repo(repo)
    out["readme"] = alice.upload_file(path_or_fileobj=card("Tiny Xet", ["fixture", "xet"]), path_in_repo="README.md", repo_id=repo).oid
    out["config"] = alice.upload_file(path_or_fileobj=config(8), path_in_repo="config.json", repo_id=repo).oid
    out["weights"] = alice.upload_file(
        path_or_fileobj=noise("tiny-xet/model.safetensors", 100_000), path_in_repo="model.safetensors", repo_id=repo
    ).oid
    folder = f"{work}/folder"
    files = {
        "notes/readme.txt": b"notes\n",
        "notes/drop.txt": b"to be deleted\n",
        "deep/a/b.txt": b"deep\n",
        "deep/blob.bin": noise("tiny-xet/deep/blob.bin", 5000),
        "empty.txt": b"",
        "unicodé ✓.txt": "ünïcödé\n".encode(),
    }
    for path, data in files.items():
        os.makedirs(os.path.dirname(f"{folder}/{path}"), exist_ok=True)
        with open(f"{folder}/{path}", "wb") as handle:
            handle.write(data)
    out["folder"] = alice.upload_folder(folder_path=folder, path_in_repo="extra", repo_id=repo).oid
    out["delete_file"] = alice.delete_file("extra/notes/drop.txt", repo_id=repo).oid
    out["copy"] = alice.create_commit(
        repo,
        operations=[
            CommitOperationCopy(src_path_in_repo="model.safetensors", path_in_repo="copies/model.safetensors"),
            CommitOperationDelete(path_in_repo="extra/deep/"),
        ],
        commit_message="Copy and prune",
        commit_description="Second line of the story.",
    ).oid
    main = alice.model_info(repo).sha
    alice.create_branch(repo, branch="dev/v1", revision=main)
    out["branch_only"] = alice.upload_file(
        path_or_fileobj=b"branch only\n", path_in_repo="branch.txt", repo_id=repo, revision="dev/v1"
    ).oid
    alice.create_tag(repo, tag="v1.0", tag_message="First release")
    alice.create_tag(repo, tag="v0.9", revision=out["config"])

    secret = "alice/Private-Xet"
    alice.create_repo(secret, private=True)
    out["secret"] = alice.create_commit(
        secret,
        operations=[
            CommitOperationAdd(path_in_repo="secret.safetensors", path_or_fileobj=noise("private-xet/secret", 60_000)),
            CommitOperationAdd(path_in_repo="README.md", path_or_fileobj=card("Private", ["fixture", "private"])),
        ],
        commit_message="Private weights",
    ).oid

    shared = "acme/Shared-Model"
    carol.create_repo(shared, private=True)
    out["shared"] = carol.create_commit(
        shared,
        operations=[
            CommitOperationAdd(path_in_repo="config.json", path_or_fileobj=config(16)),
            CommitOperationAdd(path_in_repo="weights/part-1.safetensors", path_or_fileobj=noise("shared/part-1", 40_000)),
            CommitOperationAdd(path_in_repo="weights/part-2.safetensors", path_or_fileobj=noise("shared/part-2", 40_000)),
        ],
        commit_message="Shared weights",
    ).oid
    return out


def group_lfs():
    """Classic LFS uploads, visibility changes and a deleted repository."""
    alice = HfApi(token=params["tokens"]["alice"])
    dave = HfApi(token=params["tokens"]["dave"])
    out = {}
    repo = "alice/tiny-lfs"
    alice.create_repo(repo)
    out["weights"] = alice.create_commit(
        repo,
        operations=[
            CommitOperationAdd(path_in_repo="weights.bin", path_or_fileobj=noise("tiny-lfs/weights.bin", 50_000)),
            CommitOperationAdd(path_in_repo="notes.txt", path_or_fileobj=b"plain notes\n"),
            CommitOperationAdd(path_in_repo="README.md", path_or_fileobj=card("Tiny LFS", ["fixture", "lfs"])),
        ],
        commit_message="Weights through LFS",
    ).oid
    alice.create_tag(repo, tag="v0.1")

    public = "acme/public-lfs"
    dave.create_repo(public)
    out["public"] = dave.upload_file(
        path_or_fileobj=noise("public-lfs/model.bin", 30_000), path_in_repo="model.bin", repo_id=public
    ).oid
    dave.update_repo_settings(public, private=True)
    dave.update_repo_settings(public, private=False)

    alice.create_repo("alice/to-delete")
    alice.delete_repo("alice/to-delete")
    return out


GROUPS = {"xet": group_xet, "lfs": group_lfs}

if __name__ == "__main__":
    print(json.dumps(GROUPS[sys.argv[1]]()))
