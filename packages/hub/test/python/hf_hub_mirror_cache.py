"""Mirror mode's cache budget with the real huggingface_hub, for test/mirror-cache.test.ts.

Group (params on stdin: downloads = [[repo, path], ...], work_dir, cache_dir):
  download  hf_hub_download of each file in order, each into a cache of its own (so every one reaches
            the hub); prints their SHA-256s as JSON
"""

import json
import os
import sys

from common import sha256_of

params = json.loads(sys.stdin.read() or "{}")
CACHE = params["cache_dir"]


def group_download():
    from huggingface_hub import hf_hub_download

    digests = []
    for index, (repo, path) in enumerate(params["downloads"]):
        local = hf_hub_download(repo, path, cache_dir=os.path.join(CACHE, str(index)))
        digests.append(sha256_of(local))
    return {"sha256": digests}


GROUPS = {"download": group_download}

if __name__ == "__main__":
    print(json.dumps(GROUPS[sys.argv[1]]()))
