"""Pull requests and discussions on a hub through the real huggingface_hub (and transformers' push_to_hub).

Called by test/discussions.test.ts with one group name; parameters come as JSON on stdin. It only calls the
clients and records results and exception class names (and, for HTTP errors, the status and message);
the test asserts on them.
"""

import hashlib
import json
import os
import sys

from common import attempt, sha256_of
from huggingface_hub import CommitOperationAdd, HfApi, hf_hub_download

params = json.loads(sys.stdin.read() or "{}")


def discussion_json(d):
    return {
        "num": d.num,
        "title": d.title,
        "status": d.status,
        "author": d.author,
        "is_pull_request": d.is_pull_request,
        "repo_id": d.repo_id,
        "repo_type": d.repo_type,
        "git_reference": d.git_reference,
    }


def details_json(d):
    out = discussion_json(d)
    out["events"] = [
        {
            "id": e.id,
            "type": e.type,
            "author": e.author,
            "content": getattr(e, "content", None),
            "hidden": getattr(e, "hidden", None),
            "edited": getattr(e, "edited", None),
            "new_status": getattr(e, "new_status", None),
            "oid": getattr(e, "oid", None),
            "summary": getattr(e, "summary", None),
            "old_title": getattr(e, "old_title", None),
            "new_title": getattr(e, "new_title", None),
        }
        for e in d.events
    ]
    out["target_branch"] = d.target_branch
    out["merge_commit_oid"] = d.merge_commit_oid
    out["conflicting_files"] = d.conflicting_files
    out["diff"] = d.diff
    return out


def read(path, repo, repo_type, revision=None, token=None):
    local = hf_hub_download(
        repo, path, repo_type=repo_type, revision=revision, token=token, cache_dir=params["cache_dir"]
    )
    with open(local, "rb") as handle:
        return handle.read().decode()


def group_flow():
    """A repository's whole review flow, by its owner (alice) and a reader who is not a member (bob)."""
    owner = HfApi(token=params["token"])
    reader = HfApi(token=params["other_token"])
    third = HfApi(token=params["third_token"])
    anonymous = HfApi(token=False)
    repo = params["repo"]
    kind = params["repo_type"]
    private_repo = params["private_repo"]
    out = {}
    out["create"] = attempt(lambda: str(owner.create_repo(repo, repo_type=kind)))
    out["seed"] = attempt(
        lambda: owner.create_commit(
            repo,
            repo_type=kind,
            operations=[
                CommitOperationAdd("README.md", b"---\nlicense: mit\n---\n# Tiny\n"),
                CommitOperationAdd("a.txt", b"one\ntwo\nthree\n"),
                CommitOperationAdd("b.txt", b"bee\n"),
            ],
            commit_message="Seed",
        ).oid
    )
    # A discussion by a reader, with comments, an edit and a hidden comment.
    out["discussion"] = attempt(
        lambda: details_json(reader.create_discussion(repo, title="  A question  ", description="Why **three**?", repo_type=kind))
    )
    num = out["discussion"].get("ok", {}).get("num")
    out["comment"] = attempt(lambda: reader.comment_discussion(repo, num, "More <b>details</b>", repo_type=kind).id)
    out["edit"] = attempt(
        lambda: reader.edit_discussion_comment(repo, num, out["comment"]["ok"], "Edited **text**", repo_type=kind).content
    )
    out["edit_by_owner"] = attempt(
        lambda: owner.edit_discussion_comment(repo, num, out["comment"]["ok"], "not mine", repo_type=kind).content
    )
    out["owner_comment"] = attempt(lambda: owner.comment_discussion(repo, num, "Because.", repo_type=kind).id)
    out["hide_by_reader"] = attempt(
        lambda: reader.hide_discussion_comment(repo, num, out["owner_comment"]["ok"], repo_type=kind).hidden
    )
    out["hide_by_owner"] = attempt(
        lambda: owner.hide_discussion_comment(repo, num, out["comment"]["ok"], repo_type=kind).hidden
    )
    out["rename"] = attempt(
        lambda: (lambda e: [e.old_title, e.new_title])(reader.rename_discussion(repo, num, "A better question", repo_type=kind))
    )
    out["close_by_third"] = attempt(lambda: third.change_discussion_status(repo, num, "closed", repo_type=kind).new_status)
    out["close"] = attempt(lambda: reader.change_discussion_status(repo, num, "closed", comment="Answered", repo_type=kind).new_status)
    out["reopen"] = attempt(lambda: owner.change_discussion_status(repo, num, "open", repo_type=kind).new_status)
    out["anonymous_comment"] = attempt(lambda: anonymous.comment_discussion(repo, num, "hi", repo_type=kind).id)
    out["short_title"] = attempt(lambda: reader.create_discussion(repo, title="ab", repo_type=kind).num)
    out["discussion_after"] = attempt(lambda: details_json(anonymous.get_discussion_details(repo, num, repo_type=kind)))

    # A pull request opened empty (a draft), then filled by commits to its ref.
    out["draft"] = attempt(lambda: details_json(reader.create_pull_request(repo, title="Empty draft", repo_type=kind)))
    draft = out["draft"].get("ok", {}).get("num")
    out["draft_info"] = attempt(lambda: owner.repo_info(repo, repo_type=kind, revision=f"refs/pr/{draft}").sha)
    out["draft_commit"] = attempt(
        lambda: reader.upload_file(
            path_or_fileobj=b"from the draft\n", path_in_repo="draft.txt", repo_id=repo, repo_type=kind,
            revision=f"refs/pr/{draft}",
        ).oid
    )
    out["draft_merge"] = attempt(lambda: owner.merge_pull_request(repo, draft, repo_type=kind))

    # create_pr=True: a reader's commit opens refs/pr/N; main does not change.
    pr = attempt(
        lambda: reader.upload_file(
            path_or_fileobj=b"new file\n", path_in_repo="new.txt", repo_id=repo, repo_type=kind,
            commit_message="Add new.txt", commit_description="Adds a file", create_pr=True,
        )
    )
    out["pr"] = {"ok": {"pr_url": pr["ok"].pr_url, "pr_num": pr["ok"].pr_num, "pr_revision": pr["ok"].pr_revision, "oid": pr["ok"].oid}} if "ok" in pr else pr
    pr_num = out["pr"].get("ok", {}).get("pr_num")
    out["pr_file"] = attempt(lambda: read("new.txt", repo, kind, revision=f"refs/pr/{pr_num}"))
    out["main_file"] = attempt(lambda: read("new.txt", repo, kind))
    out["pr_second"] = attempt(
        lambda: reader.create_commit(
            repo, repo_type=kind, revision=f"refs/pr/{pr_num}", commit_message="Change a.txt",
            operations=[CommitOperationAdd("a.txt", b"one\n2\nthree\n")],
        ).oid
    )
    out["pr_by_third"] = attempt(
        lambda: third.upload_file(path_or_fileobj=b"x", path_in_repo="x.txt", repo_id=repo, repo_type=kind, revision=f"refs/pr/{pr_num}").oid
    )
    out["main_by_reader"] = attempt(
        lambda: reader.upload_file(path_or_fileobj=b"x", path_in_repo="x.txt", repo_id=repo, repo_type=kind).oid
    )
    out["refs"] = attempt(
        lambda: [r.name for r in owner.list_repo_refs(repo, repo_type=kind, include_pull_requests=True).pull_requests]
    )
    out["pr_details"] = attempt(lambda: details_json(owner.get_discussion_details(repo, pr_num, repo_type=kind)))
    out["merge_by_reader"] = attempt(lambda: reader.merge_pull_request(repo, pr_num, repo_type=kind))
    out["merge"] = attempt(lambda: owner.merge_pull_request(repo, pr_num, comment="Thanks!", repo_type=kind))
    out["merge_again"] = attempt(lambda: owner.merge_pull_request(repo, pr_num, repo_type=kind))
    out["merged"] = attempt(lambda: details_json(owner.get_discussion_details(repo, pr_num, repo_type=kind)))
    out["main_after"] = attempt(lambda: [read("new.txt", repo, kind), read("a.txt", repo, kind)])
    out["main_sha"] = attempt(lambda: owner.repo_info(repo, repo_type=kind).sha)

    # The target moved: a pull request on other files merges as a new commit; one on the same file conflicts.
    side = attempt(
        lambda: owner.upload_file(path_or_fileobj=b"side\n", path_in_repo="side.txt", repo_id=repo, repo_type=kind, create_pr=True).pr_num
    )
    clash = attempt(
        lambda: owner.upload_file(path_or_fileobj=b"bee?\n", path_in_repo="b.txt", repo_id=repo, repo_type=kind, create_pr=True).pr_num
    )
    out["main_moves"] = attempt(
        lambda: owner.upload_file(path_or_fileobj=b"BEE\n", path_in_repo="b.txt", repo_id=repo, repo_type=kind).oid
    )
    out["side_merge"] = attempt(lambda: owner.merge_pull_request(repo, side["ok"], repo_type=kind) is None)
    out["side_details"] = attempt(lambda: details_json(owner.get_discussion_details(repo, side["ok"], repo_type=kind)))
    out["main_files"] = attempt(lambda: sorted(owner.list_repo_files(repo, repo_type=kind)))
    out["clash_details"] = attempt(lambda: details_json(owner.get_discussion_details(repo, clash["ok"], repo_type=kind)))
    out["clash_merge"] = attempt(lambda: owner.merge_pull_request(repo, clash["ok"], repo_type=kind))
    out["main_b"] = attempt(lambda: read("b.txt", repo, kind))

    # A large file (Xet, the client's default) in a pull request by the owner.
    out["large_pr"] = attempt(
        lambda: owner.upload_file(
            path_or_fileobj=params["large"], path_in_repo="weights.bin", repo_id=repo, repo_type=kind, create_pr=True
        ).pr_revision
    )
    out["large_pr_file"] = attempt(
        lambda: os.path.getsize(
            hf_hub_download(repo, "weights.bin", repo_type=kind, revision=out["large_pr"]["ok"], cache_dir=params["cache_dir"])
        )
    )

    # Listings with filters, as get_repo_discussions pages them.
    def nums(**kwargs):
        return [d.num for d in anonymous.get_repo_discussions(repo, repo_type=kind, **kwargs)]

    out["list_all"] = attempt(lambda: nums())
    out["list_prs"] = attempt(lambda: nums(discussion_type="pull_request"))
    out["list_discussions"] = attempt(lambda: nums(discussion_type="discussion"))
    out["list_closed"] = attempt(lambda: nums(discussion_status="closed"))
    out["list_open"] = attempt(lambda: nums(discussion_status="open"))
    out["list_author"] = attempt(lambda: nums(author=params["other_name"]))
    out["list_first"] = attempt(lambda: discussion_json(next(iter(anonymous.get_repo_discussions(repo, repo_type=kind)))))

    # A private repository leaks nothing to those who cannot read it.
    out["private_create"] = attempt(lambda: str(owner.create_repo(private_repo, repo_type=kind, private=True)))
    out["private_discussion"] = attempt(
        lambda: owner.create_discussion(private_repo, title="Internal notes", description="secret", repo_type=kind).num
    )
    out["private_list"] = attempt(lambda: [d.num for d in reader.get_repo_discussions(private_repo, repo_type=kind)])
    out["private_details"] = attempt(lambda: reader.get_discussion_details(private_repo, 1, repo_type=kind).title)
    out["private_comment"] = attempt(lambda: reader.comment_discussion(private_repo, 1, "hello", repo_type=kind).id)
    out["private_pr"] = attempt(
        lambda: reader.upload_file(path_or_fileobj=b"x", path_in_repo="x.txt", repo_id=private_repo, repo_type=kind, create_pr=True).pr_url
    )
    out["private_owner_list"] = attempt(lambda: [d.num for d in owner.get_repo_discussions(private_repo, repo_type=kind)])
    return out


def group_transformers():
    """transformers' push_to_hub(create_pr=True) of a tiny random model, then from_pretrained(revision="refs/pr/N")."""
    from transformers import BertConfig, BertModel

    api = HfApi(token=params["token"])
    repo = params["repo"]
    out = {}
    out["create"] = attempt(lambda: str(api.create_repo(repo)))
    config = BertConfig(vocab_size=64, hidden_size=16, num_hidden_layers=1, num_attention_heads=2, intermediate_size=32)
    model = BertModel(config)
    pushed = attempt(lambda: model.push_to_hub(repo, token=params["token"], create_pr=True))
    out["push"] = {"ok": {"pr_url": pushed["ok"].pr_url, "pr_revision": pushed["ok"].pr_revision}} if "ok" in pushed else pushed
    revision = out["push"].get("ok", {}).get("pr_revision")
    out["main_files"] = attempt(lambda: sorted(api.list_repo_files(repo)))
    out["pr_files"] = attempt(lambda: sorted(api.list_repo_files(repo, revision=revision)))
    loaded = attempt(
        lambda: BertModel.from_pretrained(repo, revision=revision, token=params["token"], cache_dir=params["cache_dir"]).config.hidden_size
    )
    out["loaded"] = loaded
    num = int(revision.split("/")[-1]) if revision else None
    out["merge"] = attempt(lambda: api.merge_pull_request(repo, num))
    out["main_after"] = attempt(lambda: sorted(api.list_repo_files(repo)))
    return out


def group_reader_large():
    """Large files by a reader who may not write (bob): through Xet and through LFS into pull requests he opens,
    then into his own refs/pr/N; never into main, nor into someone else's pull request (carol)."""
    from huggingface_hub import constants

    owner = HfApi(token=params["token"])
    reader = HfApi(token=params["other_token"])
    third = HfApi(token=params["third_token"])
    repo = params["repo"]
    kind = params["repo_type"]
    out = {}

    def use_xet(on):
        # is_xet_available() reads the constant at each upload (utils/_runtime.py).
        constants.HF_HUB_DISABLE_XET = not on

    def upload(api, name, data, **kwargs):
        info = api.upload_file(path_or_fileobj=data, path_in_repo=name, repo_id=repo, repo_type=kind, **kwargs)
        return info.pr_revision if kwargs.get("create_pr") else info.oid

    def fetched(name, revision):
        local = hf_hub_download(repo, name, repo_type=kind, revision=revision, cache_dir=params["cache_dir"])
        return sha256_of(local)

    out["create"] = attempt(lambda: str(owner.create_repo(repo, repo_type=kind)))
    out["seed"] = attempt(lambda: upload(owner, "README.md", b"# Large files by readers\n"))
    blobs = {name: os.urandom(300_000 + index) for index, name in enumerate(["xet.bin", "lfs.bin", "lfs-more.bin", "xet-more.bin"])}
    out["sha256"] = {name: hashlib.sha256(data).hexdigest() for name, data in blobs.items()}

    use_xet(True)
    out["xet_pr"] = attempt(lambda: upload(reader, "xet.bin", blobs["xet.bin"], create_pr=True))
    use_xet(False)
    out["lfs_pr"] = attempt(lambda: upload(reader, "lfs.bin", blobs["lfs.bin"], create_pr=True))
    xet_pr = out["xet_pr"].get("ok")
    lfs_pr = out["lfs_pr"].get("ok")
    out["lfs_more"] = attempt(lambda: upload(reader, "lfs-more.bin", blobs["lfs-more.bin"], revision=lfs_pr))
    use_xet(True)
    out["xet_more"] = attempt(lambda: upload(reader, "xet-more.bin", blobs["xet-more.bin"], revision=xet_pr))
    out["xet_pr_files"] = attempt(lambda: {name: fetched(name, xet_pr) for name in ["xet.bin", "xet-more.bin"]})
    out["lfs_pr_files"] = attempt(lambda: {name: fetched(name, lfs_pr) for name in ["lfs.bin", "lfs-more.bin"]})

    # Refused: main, by LFS and by Xet; another's pull request, by LFS and by Xet.
    other = os.urandom(200_000)
    out["xet_main"] = attempt(lambda: upload(reader, "main.bin", other))
    use_xet(False)
    out["lfs_main"] = attempt(lambda: upload(reader, "main.bin", other))
    out["lfs_third"] = attempt(lambda: upload(third, "third.bin", other, revision=lfs_pr))
    use_xet(True)
    out["xet_third"] = attempt(lambda: upload(third, "third.bin", other, revision=xet_pr))
    out["main_files"] = attempt(lambda: sorted(owner.list_repo_files(repo, repo_type=kind)))
    return out


def group_stale_parent():
    """parent_commit with pull requests: create_pr=True opens the pull request from it (hf_api.py's create_commit
    docstring); a commit to refs/pr/N whose parent is not the ref's head is refused, as one to a branch is."""
    owner = HfApi(token=params["token"])
    reader = HfApi(token=params["other_token"])
    repo = params["repo"]
    out = {}

    def add(api, name, **kwargs):
        return api.create_commit(
            repo, operations=[CommitOperationAdd(name, f"{name}\n".encode())], commit_message=f"Add {name}", **kwargs
        )

    out["create"] = attempt(lambda: str(owner.create_repo(repo)))
    first = attempt(lambda: add(owner, "a.txt").oid)
    out["second"] = attempt(lambda: add(owner, "b.txt").oid)
    out["pr"] = attempt(lambda: add(reader, "c.txt", create_pr=True, parent_commit=first["ok"]).pr_revision)
    pr = out["pr"].get("ok")
    out["pr_files"] = attempt(lambda: sorted(owner.list_repo_files(repo, revision=pr)))
    out["stale_pr_commit"] = attempt(lambda: add(reader, "d.txt", revision=pr, parent_commit=first["ok"]).oid)
    head = attempt(lambda: owner.repo_info(repo, revision=pr).sha)
    out["pr_commit"] = attempt(lambda: add(reader, "d.txt", revision=pr, parent_commit=head["ok"][:7]).oid)
    out["stale_main"] = attempt(lambda: add(owner, "e.txt", parent_commit=first["ok"]).oid)
    out["merge"] = attempt(lambda: owner.merge_pull_request(repo, int(pr.split("/")[-1])))
    out["main_files"] = attempt(lambda: sorted(owner.list_repo_files(repo)))
    return out


def seeded_repo(files):
    """The owner (alice), a reader who is not a member (bob) and an anonymous client; the owner creates the
    model repository params["repo"] and commits `files` (path -> bytes) to it as "Seed". Returns the three
    clients, the repository and the results so far (`create`, `seed`)."""
    owner = HfApi(token=params["token"])
    reader = HfApi(token=params["other_token"])
    anonymous = HfApi(token=False)
    repo = params["repo"]
    out = {}
    out["create"] = attempt(lambda: str(owner.create_repo(repo)))
    out["seed"] = attempt(
        lambda: owner.create_commit(
            repo,
            operations=[CommitOperationAdd(path, content) for path, content in files.items()],
            commit_message="Seed",
        ).oid
    )
    return owner, reader, anonymous, repo, out


def group_pr_diff():
    """A reader's pull request changing a text file in two distant places and an LFS file: its diff as
    get_discussion_details gives it (git's hunks; the LFS file as its pointer), to its author and to the public."""
    owner, reader, anonymous, repo, out = seeded_repo(
        {"notes.txt": params["notes_before"].encode(), "weights.bin": bytes.fromhex(params["weights_before"])}
    )
    pr = attempt(
        lambda: reader.create_commit(
            repo,
            operations=[
                CommitOperationAdd("notes.txt", params["notes_after"].encode()),
                CommitOperationAdd("weights.bin", bytes.fromhex(params["weights_after"])),
            ],
            commit_message="Edit notes and weights",
            create_pr=True,
        ).pr_num
    )
    out["pr"] = pr
    out["diff"] = attempt(lambda: reader.get_discussion_details(repo, pr["ok"]).diff)
    out["public_diff"] = attempt(lambda: anonymous.get_discussion_details(repo, pr["ok"]).diff)
    return out


def group_limits():
    """A hub with small discussion limits (the test sets them): a comment and a description over
    MODELHUB_DISCUSSION_MAX_COMMENT_BYTES, one at it, the repository's cap on discussions, a pull request's
    diff cut at MODELHUB_PR_DIFF_MAX_BYTES, and get_repo_discussions walking pages of
    MODELHUB_DISCUSSIONS_PAGE_SIZE."""
    owner, reader, anonymous, repo, out = seeded_repo(
        {path: text.encode() for path, text in params["before"].items()}
    )
    out["pr"] = attempt(
        lambda: reader.create_commit(
            repo,
            operations=[CommitOperationAdd(path, text.encode()) for path, text in params["after"].items()],
            commit_message="Edit both",
            create_pr=True,
        ).pr_num
    )
    out["diff"] = attempt(lambda: reader.get_discussion_details(repo, 1).diff)
    out["comment_over"] = attempt(lambda: reader.comment_discussion(repo, 1, params["over"]).id)
    out["comment_at"] = attempt(lambda: reader.comment_discussion(repo, 1, params["at"]).content)
    out["description_over"] = attempt(
        lambda: reader.create_discussion(repo, title="Too long", description=params["over"]).num
    )
    out["opened"] = [
        attempt(lambda n=n: reader.create_discussion(repo, title=f"Topic {n}", description="hi").num)
        for n in range(params["cap"] - 1)
    ]
    # With a description of their own: huggingface_hub's default one is longer than this hub's 100 bytes.
    out["discussion_over_cap"] = attempt(
        lambda: reader.create_discussion(repo, title="One more", description="hi").num
    )
    out["pr_over_cap"] = attempt(lambda: reader.create_pull_request(repo, title="One more PR", description="hi").num)
    out["commit_pr_over_cap"] = attempt(
        lambda: reader.create_commit(
            repo, operations=[CommitOperationAdd("c.txt", b"c\n")], commit_message="Add c", create_pr=True
        ).pr_num
    )
    out["listed"] = attempt(lambda: [d.num for d in anonymous.get_repo_discussions(repo)])
    out["listed_discussions"] = attempt(
        lambda: [d.num for d in anonymous.get_repo_discussions(repo, discussion_type="discussion")]
    )
    return out


def group_read_pr():
    """What a pull request made some other way (the test's multipart commit) holds, read back through
    huggingface_hub: its details, each file's SHA-256 at refs/pr/N, and main's files."""
    reader = HfApi(token=params["token"])
    repo, kind, num = params["repo"], params["repo_type"], params["num"]
    out = {}
    out["details"] = attempt(lambda: discussion_json(reader.get_discussion_details(repo, num, repo_type=kind)))
    out["refs"] = attempt(
        lambda: [ref.ref for ref in reader.list_repo_refs(repo, repo_type=kind, include_pull_requests=True).pull_requests]
    )
    for path in params["paths"]:
        out[f"pr:{path}"] = attempt(
            lambda: sha256_of(
                hf_hub_download(
                    repo, path, repo_type=kind, revision=f"refs/pr/{num}", token=params["token"], cache_dir=params["cache_dir"]
                )
            )
        )
        out[f"main:{path}"] = attempt(lambda: read(path, repo, kind, token=params["token"]))
    out["main_files"] = attempt(lambda: sorted(reader.list_repo_files(repo, repo_type=kind)))
    return out


GROUPS = {"limits": group_limits, "flow": group_flow, "transformers": group_transformers, "reader_large": group_reader_large, "stale_parent": group_stale_parent, "pr_diff": group_pr_diff, "read_pr": group_read_pr}

result = GROUPS[sys.argv[1]]()
print(json.dumps(result, default=str))
