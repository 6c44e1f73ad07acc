"""Files pushed with git, read back with the real huggingface_hub, for test/git-push.test.ts.

Groups (params on stdin: repo, filename, cache_dir, token?):
  download  hf_hub_download of one file at main, and model_info's sha
Prints what it saw as JSON; the test asserts.
"""

import json
import sys

from common import sha256_of

params = json.loads(sys.stdin.read() or "{}")


def group_download():
    from huggingface_hub import HfApi, hf_hub_download

    token = params.get("token")
    path = hf_hub_download(params["repo"], params["filename"], cache_dir=params["cache_dir"], token=token)
    return {"sha256": sha256_of(path), "sha": HfApi(token=token).model_info(params["repo"]).sha}


GROUPS = {"download": group_download}

if __name__ == "__main__":
    print(json.dumps(GROUPS[sys.argv[1]]()))
