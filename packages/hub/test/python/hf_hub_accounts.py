"""Uses tokens a user made on /settings/tokens with the real huggingface_hub (HF_ENDPOINT), as JSON.

Called by test/sessions.test.ts with one group name; parameters come as JSON on stdin. It only calls
the client and records results and exception class names (and, for HTTP errors, the status and
message); the test asserts on them.
"""

import json
import os
import subprocess
import sys

import huggingface_hub
from huggingface_hub import HfApi
from huggingface_hub.utils._auth import get_stored_tokens

from common import attempt

params = json.loads(sys.stdin.read() or "{}")


def group_own_tokens():
    write = HfApi(token=params["write"])
    read = HfApi(token=params["read"])
    out = {
        "whoami_write": attempt(lambda: write.whoami()),
        "whoami_read": attempt(lambda: read.whoami()),
    }
    repo = params["repo"]
    out["create"] = attempt(lambda: str(write.create_repo(repo, private=True)))
    path = os.path.join(params["work_dir"], "hello.txt")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("hello from a token made on the settings page\n")
    out["upload_write"] = attempt(
        lambda: write.upload_file(path_or_fileobj=path, path_in_repo="hello.txt", repo_id=repo).oid
    )
    out["upload_read"] = attempt(
        lambda: read.upload_file(path_or_fileobj=path, path_in_repo="again.txt", repo_id=repo).oid
    )
    out["files"] = attempt(lambda: sorted(write.list_repo_files(repo)))
    # What `hf auth login --token …` does: the token is checked with whoami and stored under its name.
    huggingface_hub.login(token=params["write"], add_to_git_credential=False)
    out["stored"] = sorted(get_stored_tokens().keys())
    # The `hf` CLI itself, as a user runs it, in a home of its own: log in with the read token, then whoami.
    hf = os.path.join(os.path.dirname(sys.executable), "hf")
    env = {**os.environ, "HF_HOME": os.path.join(params["work_dir"], "hf-cli-home")}
    env.pop("HF_TOKEN", None)
    for name, argv in (("cli_login", ["auth", "login", "--token", params["read"]]), ("cli_whoami", ["auth", "whoami"])):
        done = subprocess.run([hf, *argv], env=env, capture_output=True, text=True, timeout=120)
        out[name] = {"code": done.returncode, "output": (done.stdout + done.stderr)[-2000:]}
    return out


def group_whoami():
    return {name: attempt(lambda token=token: HfApi(token=token).whoami()) for name, token in params["tokens"].items()}


if __name__ == "__main__":
    print(json.dumps(globals()[f"group_{sys.argv[1]}"]()))
