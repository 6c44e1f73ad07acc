"""Gated repositories and likes with the real huggingface_hub (HF_ENDPOINT), printing what it saw as JSON.

Called by test/community.test.ts (and test/gated-contents.test.ts: gated_pr) with one group name; parameters come as JSON on stdin. It only calls
the client and records results and exception class names (and, for HTTP errors, status and message).
"""

import json
import sys

from common import attempt
from huggingface_hub import CommitOperationDelete, HfApi, hf_hub_download
from huggingface_hub.utils import get_session, hf_raise_for_status

params = json.loads(sys.stdin.read() or "{}")


def requests_of(api, repo, repo_type, status):
    listing = {
        "pending": api.list_pending_access_requests,
        "accepted": api.list_accepted_access_requests,
        "rejected": api.list_rejected_access_requests,
    }[status]
    return [
        {"user": r.username, "fullname": r.fullname, "status": r.status, "fields": r.fields, "has_time": r.timestamp is not None}
        for r in listing(repo, repo_type=repo_type)
    ]


def group_owner_setup():
    api = HfApi(token=params["token"])
    out = {}
    for repo, repo_type, mode in params["repos"]:
        api.create_repo(repo, repo_type=repo_type)
        api.upload_file(path_or_fileobj=params["readme"].encode(), path_in_repo="README.md", repo_id=repo, repo_type=repo_type)
        api.upload_file(path_or_fileobj=b'{"hidden_size": 8}\n', path_in_repo="config.json", repo_id=repo, repo_type=repo_type)
        out[repo + ":settings"] = attempt(lambda: api.update_repo_settings(repo, gated=mode, repo_type=repo_type))
        info = api.repo_info(repo, repo_type=repo_type)
        out[repo + ":gated"] = info.gated
    out["gated_listing"] = sorted(m.id for m in api.list_models(gated=True))
    out["ungated_listing_has_it"] = any(m.id == params["repos"][0][0] for m in api.list_models(gated=False))
    out["bad_mode"] = attempt(
        lambda: get_session().put(
            f"{api.endpoint}/api/models/{params['repos'][0][0]}/settings",
            headers=api._build_hf_headers(),
            json={"gated": "sometimes"},
        ).status_code
    )
    return out


def group_download():
    """Downloads each (repo, type, file) with the given token (or none) and tells what happened."""
    token = params.get("token") or False
    out = {}
    for repo, repo_type, filename in params["files"]:
        out[f"{repo}:{filename}"] = attempt(
            lambda repo=repo, repo_type=repo_type, filename=filename: open(
                hf_hub_download(repo, filename, repo_type=repo_type, token=token, cache_dir=params["cache_dir"]), "rb"
            ).read().decode()
        )
        out[f"{repo}:info"] = attempt(lambda repo=repo, repo_type=repo_type: HfApi(token=token).repo_info(repo, repo_type=repo_type).gated)
    return out


def group_owner_requests():
    api = HfApi(token=params["token"])
    repo, repo_type = params["repo"], params["repo_type"]
    out = {}
    for step in params["steps"]:
        action = step[0]
        if action == "list":
            out[f"list:{step[1]}:{len(out)}"] = attempt(lambda: requests_of(api, repo, repo_type, step[1]))
        elif action == "accept":
            out[f"accept:{step[1]}:{len(out)}"] = attempt(lambda: api.accept_access_request(repo, step[1], repo_type=repo_type))
        elif action == "reject":
            out[f"reject:{step[1]}:{len(out)}"] = attempt(
                lambda: api.reject_access_request(repo, step[1], repo_type=repo_type, rejection_reason=step[2])
            )
        elif action == "cancel":
            out[f"cancel:{step[1]}:{len(out)}"] = attempt(lambda: api.cancel_access_request(repo, step[1], repo_type=repo_type))
        elif action == "grant":
            out[f"grant:{step[1]}:{len(out)}"] = attempt(lambda: api.grant_access(repo, step[1], repo_type=repo_type))
    return out


def group_gated_pr():
    """A pull request's diff on a gated repository as get_discussion_details gives it to this token (or
    none): optionally opening one that deletes a file first, then commenting and opening a discussion."""
    api = HfApi(token=params.get("token") or False)
    repo = params["repo"]
    out = {}
    num = params.get("num")
    if params.get("delete"):
        out["pr"] = attempt(
            lambda: api.create_commit(
                repo, operations=[CommitOperationDelete(path_in_repo=params["delete"])], commit_message="Remove it", create_pr=True
            ).pr_num
        )
        num = out["pr"].get("ok")
    out["diff"] = attempt(lambda: api.get_discussion_details(repo, num).diff)
    if params.get("comment"):
        out["comment"] = attempt(lambda: api.comment_discussion(repo, num, params["comment"]).content)
    if params.get("discussion"):
        out["discussion"] = attempt(lambda: api.create_discussion(repo, title=params["discussion"]).num)
    return out


def group_likes():
    api = HfApi(token=params["token"])
    out = {}
    for repo, repo_type in params.get("like", []):
        # huggingface_hub 2.x has no like() (the public hub keeps liking to its web page): the same route, by hand.
        response = get_session().post(f"{api.endpoint}/api/{repo_type}s/{repo}/like", headers=api._build_hf_headers())
        out[f"like:{repo}"] = attempt(lambda response=response: (hf_raise_for_status(response), response.json())[1])
    for repo, repo_type in params.get("unlike", []):
        out[f"unlike:{repo}"] = attempt(lambda repo=repo, repo_type=repo_type: api.unlike(repo, repo_type=repo_type))
    for repo, repo_type in params.get("likers", []):
        out[f"likers:{repo}"] = attempt(
            lambda repo=repo, repo_type=repo_type: sorted(u.username for u in api.list_repo_likers(repo, repo_type=repo_type))
        )
    for user in params.get("liked_by", []):
        def liked(user=user):
            likes = api.list_liked_repos(user)
            return {"user": likes.user, "total": likes.total, "models": likes.models, "datasets": likes.datasets}

        out[f"liked_by:{user}"] = attempt(liked)
    for repo, repo_type in params.get("info", []):
        out[f"info:{repo}"] = attempt(lambda repo=repo, repo_type=repo_type: api.repo_info(repo, repo_type=repo_type).likes)
    if params.get("sorted"):
        out["sorted"] = [m.id for m in api.list_models(author=params["sorted"], sort="likes")]
    return out


if __name__ == "__main__":
    group = sys.argv[1]
    print(json.dumps(globals()[f"group_{group}"](), default=str))
