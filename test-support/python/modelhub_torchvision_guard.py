"""Lets torchvision's pure-Python parts import beside a CPU-only torch.

Why: the only torchvision on this machine's mirror (0.28.0, the release matching torch 2.13) is a CUDA
build: its compiled ops (`_C.so`) link libtorch_cuda.so and libc10_cuda.so, which the CPU torch wheel does
not ship, so they cannot load. torchvision then skips registering its ops, except two fake kernels in
`torchvision/_meta_registrations.py` (`torchvision::nms`, `torchvision::qnms`) that are registered
unconditionally and make `import torchvision` raise "operator torchvision::nms does not exist". timm
imports torchvision (`torchvision.ops.misc`, `torchvision.transforms`), and transformers imports it when
it is installed, so without this every one of them fails to import.

What: on the first `import torchvision`, if its compiled ops cannot load, declare the schemas of those two
operators (as torchvision's C++ declares them) so the import succeeds. Nothing else changes: calling
`torchvision.ops.nms` still fails (no kernel), and a torchvision whose ops load is left alone.
Installed by test-support/python-env.ts into the shared torch folder, imported from a `.pth` line at
interpreter start; it only adds an import hook (torch is imported when torchvision is).
"""

import importlib.abc
import importlib.util
import os
import sys

_OPS_WITHOUT_GUARD = ("nms", "qnms")
_SCHEMA = "(Tensor dets, Tensor scores, float iou_threshold) -> Tensor"


class _TorchvisionOpsGuard(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name != "torchvision":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec("torchvision")
        if spec is None or spec.origin is None:
            return spec
        import torch

        try:
            torch.ops.load_library(os.path.join(os.path.dirname(spec.origin), "_C.so"))
        except OSError:
            for op in _OPS_WITHOUT_GUARD:
                torch.library.define(f"torchvision::{op}", _SCHEMA)
        return spec


if not any(isinstance(finder, _TorchvisionOpsGuard) for finder in sys.meta_path):
    sys.meta_path.insert(0, _TorchvisionOpsGuard())
