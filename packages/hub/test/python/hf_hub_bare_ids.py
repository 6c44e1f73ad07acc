"""Writes to repositories without a namespace (`gpt2`, `squad`) through the real huggingface_hub.

Called by test/bare-ids.test.ts with one group name; parameters come as JSON on stdin. It only calls the
client and records results and exception class names (and, for HTTP errors, the status and message);
the test asserts on them.
"""

import hashlib
import json
import os
import sys

from common import attempt, sha256_of
from huggingface_hub import CommitOperationAdd, CommitOperationDelete, HfApi, constants, hf_hub_download

params = json.loads(sys.stdin.read() or "{}")


def use_xet(on):
    # is_xet_available() reads the constant at each upload (utils/_runtime.py).
    constants.HF_HUB_DISABLE_XET = not on


def group_writes():
    """A site admin writes to a namespace-less repository every way huggingface_hub can; a user who is
    not one may only open pull requests."""
    from huggingface_hub.utils._runtime import is_xet_available

    staff = HfApi(token=params["token"])
    reader = HfApi(token=params["reader_token"])
    repo = params["repo"]
    kind = params["repo_type"]
    out = {"xet_available": is_xet_available()}
    blobs = {name: os.urandom(300_000 + index) for index, name in enumerate(["lfs.bin", "xet.bin", "pr.bin"])}
    out["sha256"] = {name: hashlib.sha256(data).hexdigest() for name, data in blobs.items()}

    def upload(api, name, data, **kwargs):
        # huggingface_hub >= 1 raises HfUriError once the commit is made: its CommitInfo parses the answer's
        # commitUrl into a RepoUrl, which must have a namespace (the test asserts the commit landed).
        info = api.upload_file(path_or_fileobj=data, path_in_repo=name, repo_id=repo, repo_type=kind, **kwargs)
        return {"oid": info.oid, "pr_num": info.pr_num, "pr_url": info.pr_url, "pr_revision": info.pr_revision}

    def pull_requests():
        return [d.num for d in staff.get_repo_discussions(repo, repo_type=kind, discussion_type="pull_request")]

    def fetched(name, revision=None):
        local = hf_hub_download(repo, name, repo_type=kind, revision=revision, cache_dir=params["cache_dir"])
        return sha256_of(local)

    out["regular"] = attempt(lambda: upload(staff, "README.md", b"# A legacy repository\n"))
    use_xet(False)
    out["lfs"] = attempt(lambda: upload(staff, "lfs.bin", blobs["lfs.bin"]))
    use_xet(True)
    out["xet"] = attempt(lambda: upload(staff, "xet.bin", blobs["xet.bin"]))

    folder = os.path.join(params["work_dir"], "folder")
    os.makedirs(os.path.join(folder, "sub"), exist_ok=True)
    with open(os.path.join(folder, "a.txt"), "w") as handle:
        handle.write("folder a\n")
    with open(os.path.join(folder, "sub", "b.txt"), "w") as handle:
        handle.write("folder b\n")
    out["folder"] = attempt(
        lambda: staff.upload_folder(folder_path=folder, path_in_repo="folder", repo_id=repo, repo_type=kind).oid
    )
    out["folder_files"] = attempt(lambda: sorted(staff.list_repo_files(repo, repo_type=kind)))
    out["commit"] = attempt(
        lambda: staff.create_commit(
            repo,
            [CommitOperationAdd("notes.txt", b"notes\n"), CommitOperationDelete("folder/a.txt")],
            commit_message="Add notes, drop a.txt",
            repo_type=kind,
        ).oid
    )
    out["delete_file"] = attempt(lambda: staff.delete_file("notes.txt", repo, repo_type=kind).oid)
    out["files"] = attempt(lambda: sorted(staff.list_repo_files(repo, repo_type=kind)))
    out["downloads"] = attempt(lambda: {name: fetched(name) for name in ["lfs.bin", "xet.bin"]})

    out["branch"] = attempt(lambda: staff.create_branch(repo, branch="dev", repo_type=kind))
    out["tag"] = attempt(lambda: staff.create_tag(repo, tag="v1", repo_type=kind))
    out["refs"] = attempt(
        lambda: sorted(
            [b.name for b in staff.list_repo_refs(repo, repo_type=kind).branches]
            + [t.name for t in staff.list_repo_refs(repo, repo_type=kind).tags]
        )
    )
    out["delete_tag"] = attempt(lambda: staff.delete_tag(repo, tag="v1", repo_type=kind))
    out["delete_branch"] = attempt(lambda: staff.delete_branch(repo, branch="dev", repo_type=kind))

    # Pull requests: the site admin's, through Xet; a reader's, through LFS and a plain commit.
    out["staff_pr"] = attempt(lambda: upload(staff, "pr.bin", blobs["pr.bin"], create_pr=True))
    use_xet(False)
    out["reader_pr"] = attempt(lambda: upload(reader, "reader.bin", os.urandom(200_000), create_pr=True))
    out["reader_commit_pr"] = attempt(
        lambda: reader.create_commit(
            repo, [CommitOperationAdd("idea.txt", b"an idea\n")], commit_message="An idea", repo_type=kind,
            create_pr=True,
        ).pr_num
    )
    out["pull_requests"] = attempt(lambda: sorted(pull_requests()))
    out["pr_file"] = attempt(lambda: fetched("pr.bin", "refs/pr/1"))
    out["merge"] = attempt(lambda: (staff.merge_pull_request(repo, 1, repo_type=kind), True)[1])
    out["merged_file"] = attempt(lambda: fetched("pr.bin"))

    # Refused to a user who is not a site admin: main by a regular commit, LFS, Xet; refs; settings.
    out["reader_regular"] = attempt(lambda: upload(reader, "x.txt", b"x\n"))
    out["reader_lfs"] = attempt(lambda: upload(reader, "x.bin", os.urandom(200_000)))
    use_xet(True)
    out["reader_xet"] = attempt(lambda: upload(reader, "x.bin", os.urandom(200_000)))
    out["reader_branch"] = attempt(lambda: reader.create_branch(repo, branch="mine", repo_type=kind))
    out["reader_settings"] = attempt(lambda: reader.update_repo_settings(repo, private=True, repo_type=kind))
    out["reader_merge"] = attempt(lambda: reader.merge_pull_request(repo, 2, repo_type=kind))
    out["staff_settings"] = attempt(lambda: staff.update_repo_settings(repo, private=True, repo_type=kind))
    out["private"] = attempt(lambda: staff.repo_info(repo, repo_type=kind).private)
    out["main_files"] = attempt(lambda: sorted(staff.list_repo_files(repo, repo_type=kind)))
    return out



def group_steps():
    """Runs `steps` in order, each [who, action, *args] with `tokens[who]` (None: anonymous), and records
    each outcome under "{index}:{action}": likes, access requests, downloads and super_squash_history on
    one repository, as the huggingface_hub 2.x calls them."""
    from huggingface_hub.utils import get_session, hf_raise_for_status

    repo, kind = params["repo"], params["repo_type"]
    out = {}

    def api_of(who):
        return HfApi(token=params["tokens"][who] if who else False)

    def like(api):
        # huggingface_hub 2.x has no like() (the public hub keeps liking to its web page): its route, by hand.
        response = get_session().post(f"{api.endpoint}/api/{kind}s/{repo}/like", headers=api._build_hf_headers())
        hf_raise_for_status(response)
        return response.json()

    def requests_of(api, status):
        listing = {
            "pending": api.list_pending_access_requests,
            "accepted": api.list_accepted_access_requests,
            "rejected": api.list_rejected_access_requests,
        }[status]
        return sorted(r.username for r in listing(repo, repo_type=kind))

    def download(api, name, revision=None):
        # A cache per step: who may read changes between steps (force_download would hide GatedRepoError).
        cache = os.path.join(params["cache_dir"], str(len(out)))
        local = hf_hub_download(repo, name, repo_type=kind, revision=revision, token=api.token, cache_dir=cache)
        with open(local, "rb") as handle:
            return handle.read().decode()

    def commits(api, branch):
        return [c.title for c in api.list_repo_commits(repo, repo_type=kind, revision=branch)]

    actions = {
        "like": lambda api: like(api),
        "unlike": lambda api: api.unlike(repo, repo_type=kind),
        "likers": lambda api: sorted(u.username for u in api.list_repo_likers(repo, repo_type=kind)),
        "liked": lambda api, user: sorted(api.list_liked_repos(user).models + api.list_liked_repos(user).datasets),
        "likes": lambda api: api.repo_info(repo, repo_type=kind).likes,
        "requests": requests_of,
        "accept": lambda api, user: api.accept_access_request(repo, user, repo_type=kind),
        "reject": lambda api, user, reason: api.reject_access_request(repo, user, repo_type=kind, rejection_reason=reason),
        "cancel": lambda api, user: api.cancel_access_request(repo, user, repo_type=kind),
        "grant": lambda api, user: api.grant_access(repo, user, repo_type=kind),
        "download": download,
        "squash": lambda api, branch, message: api.super_squash_history(
            repo, branch=branch, commit_message=message, repo_type=kind
        ),
        "commits": commits,
        "files": lambda api, branch: sorted(api.list_repo_files(repo, repo_type=kind, revision=branch)),
    }
    for index, (who, action, *args) in enumerate(params["steps"]):
        out[f"{index}:{action}"] = attempt(lambda: actions[action](api_of(who), *args))
    return out


GROUPS = {"writes": group_writes, "steps": group_steps}

result = GROUPS[sys.argv[1]]()
print(json.dumps(result, default=str))
