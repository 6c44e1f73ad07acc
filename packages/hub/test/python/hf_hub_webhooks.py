"""Webhooks with the real huggingface_hub (HF_ENDPOINT): create/list/get/update/enable/disable/delete_webhook,
and payloads received by the test parsed with huggingface_hub's own WebhookPayload model. Prints JSON."""

import json
import sys

from common import attempt
from huggingface_hub import HfApi, WebhookPayload

params = json.loads(sys.stdin.read() or "{}")


def info(hook):
    return {
        "id": hook.id,
        "url": hook.url,
        "watched": [{"type": w.type, "name": w.name} for w in hook.watched],
        "domains": hook.domains,
        "secret": hook.secret,
        "disabled": hook.disabled,
    }


def group_manage():
    api = HfApi(token=params["token"])
    out = {}
    out["create"] = attempt(
        lambda: info(
            api.create_webhook(
                url=params["url"], watched=params["watched"], domains=params.get("domains"), secret=params.get("secret")
            )
        )
    )
    if "ok" in out["create"]:
        hook_id = out["create"]["ok"]["id"]
        out["list"] = [h.id for h in api.list_webhooks()]
        out["get"] = info(api.get_webhook(hook_id))
        out["disable"] = info(api.disable_webhook(hook_id))["disabled"]
        out["enable"] = info(api.enable_webhook(hook_id))["disabled"]
        out["update"] = attempt(
            lambda: info(api.update_webhook(hook_id, watched=params["watched"], domains=["repo", "discussion"]))
        )
    for bad in params.get("bad_urls", []):
        out[f"bad:{bad}"] = attempt(lambda bad=bad: api.create_webhook(url=bad, watched=params["watched"]))
    return out


def group_delete():
    api = HfApi(token=params["token"])
    return {"delete": attempt(lambda: api.delete_webhook(params["id"])), "list": [h.id for h in api.list_webhooks()]}


def group_parse():
    """Each received payload through huggingface_hub's WebhookPayload (pydantic): what it read."""
    out = []
    for payload in params["payloads"]:
        parsed = WebhookPayload.model_validate(payload)
        out.append(
            {
                "scope": parsed.event.scope,
                "action": parsed.event.action,
                "repo": parsed.repo.name,
                "type": parsed.repo.type,
                "private": parsed.repo.private,
                "head_sha": parsed.repo.head_sha,
                "web": parsed.repo.url.web,
                "refs": [(r.ref, r.oldSha, r.newSha) for r in parsed.updatedRefs or []],
                "webhook_version": parsed.webhook.version,
                "discussion": parsed.discussion.model_dump() if parsed.discussion else None,
                "comment": parsed.comment.model_dump() if parsed.comment else None,
                "moved_to": parsed.movedTo.name if parsed.movedTo else None,
            }
        )
    return {"parsed": out}


def group_commit():
    api = HfApi(token=params["token"])
    out = {}
    kind = params.get("repo_type", "model")
    for repo, private in params["repos"]:
        out[f"create:{repo}"] = str(api.create_repo(repo, repo_type=kind, private=private, exist_ok=True))
        out[f"commit:{repo}"] = api.upload_file(
            path_or_fileobj=b"hello\n", path_in_repo="hello.txt", repo_id=repo, repo_type=kind
        ).oid
    return out


if __name__ == "__main__":
    group = sys.argv[1]
    print(json.dumps(globals()[f"group_{group}"](), default=str))
