"""Reads model cards (JSON list of README.md texts on stdin) as huggingface_hub does and prints what it
finds in each: the card data (PyYAML through huggingface_hub's RepoCard parser) and the body's start."""

import json
import sys

from huggingface_hub import ModelCard

out = []
for text in json.loads(sys.stdin.read()):
    card = ModelCard(text, ignore_metadata_errors=False)
    out.append({"data": card.data.to_dict(), "text_start": card.text.lstrip()[:120]})
print(json.dumps(out))
