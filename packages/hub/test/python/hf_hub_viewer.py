"""Datasets for the dataset viewer's tests (`/datasets-server/…`), made and pushed with the real clients.

Called by test/viewer.test.ts with one group name; parameters come as JSON on stdin. `push` makes tiny
datasets with the real `datasets` library (push_to_hub: Parquet with its features in the schema metadata,
two configs, a private one) and plain CSV and JSON Lines files uploaded with huggingface_hub, and prints
what pandas and pyarrow read from the same files, for the test to compare the viewer's answers with.
`hostile` uploads files that are not what their names say.
"""

import io
import json
import struct
import sys

from common import attempt
from huggingface_hub import CommitOperationAdd, HfApi, hf_hub_download

params = json.loads(sys.stdin.read() or "{}")

CSV_TRAIN = "text,label,score\ngood film,1,0.5\nbad film,0,1.25\nfine film,1,2.0\n"
CSV_TEST = "text,label,score\nokay film,1,3.5\n"
JSONL_TRAIN = '{"text": "first", "n": 1, "tags": ["a", "b"]}\n{"text": "second", "n": 2, "tags": []}\n'
JSONL_VALIDATION = '{"text": "third", "n": 3, "tags": ["c"]}\n'


def table_rows(table):
    """Rows as JSON values, the way pyarrow reads them."""
    return json.loads(json.dumps(table.to_pylist(), default=str))


def group_push():
    import pandas
    import pyarrow.parquet as pq
    from datasets import ClassLabel, Dataset, DatasetDict, Features, List, Value

    token = params["token"]
    cache = params["cache_dir"]
    api = HfApi(token=token)
    out = {}
    features = Features(
        {
            "text": Value("string"),
            "label": ClassLabel(names=["neg", "pos"]),
            "score": Value("float64"),
            "tags": List(Value("string")),
            "meta": {"lang": Value("string"), "n": Value("int32")},
        }
    )
    words = ["alpha", "bravo", "charlie", "delta", "echo"]
    train = {
        "text": [f"{words[i % 5]} review number {i}" for i in range(150)],
        "label": [i % 2 for i in range(150)],
        "score": [i / 4 for i in range(150)],
        "tags": [[words[i % 5]] * (i % 3) for i in range(150)],
        "meta": [{"lang": "en" if i % 3 else "fr", "n": i} for i in range(150)],
    }
    test = {key: values[:4] for key, values in train.items()}
    repo = params["repo"]
    dd = DatasetDict({"train": Dataset.from_dict(train, features=features), "test": Dataset.from_dict(test, features=features)})
    out["push"] = attempt(lambda: str(dd.push_to_hub(repo, token=token)))
    out["push_config"] = attempt(lambda: str(Dataset.from_dict({"x": [1.5, 2.5, 3.5]}).push_to_hub(repo, config_name="numbers", token=token)))
    out["push_private"] = attempt(lambda: str(Dataset.from_dict({"secret": ["s1", "s2"]}).push_to_hub(params["private_repo"], private=True, token=token)))

    files = api.list_repo_files(repo, repo_type="dataset")
    out["files"] = files
    train_file = next(name for name in files if name.startswith("data/train-"))
    path = hf_hub_download(repo, train_file, repo_type="dataset", token=token, cache_dir=cache)
    parquet = pq.ParquetFile(path)
    out["train_rows"] = table_rows(parquet.read())
    out["train_num_rows"] = parquet.metadata.num_rows
    out["train_file"] = train_file
    out["train_size"] = api.get_paths_info(repo, [train_file], repo_type="dataset")[0].size
    # Each Parquet file's columns as pyarrow reads them (and the features datasets wrote beside them),
    # for the Croissant fields.
    schemas = {}
    for name in files:
        if name.endswith(".parquet"):
            schema = pq.read_schema(hf_hub_download(repo, name, repo_type="dataset", token=token, cache_dir=cache))
            stored = json.loads((schema.metadata or {}).get(b"huggingface", b"{}"))
            schemas[name] = {
                "columns": [[field.name, str(field.type)] for field in schema],
                "features": stored.get("info", {}).get("features", {}),
            }
    out["parquet_schemas"] = schemas

    csv_repo, jsonl_repo = params["csv_repo"], params["jsonl_repo"]
    for name in (csv_repo, jsonl_repo):
        api.create_repo(name, repo_type="dataset")
    api.create_commit(
        csv_repo,
        repo_type="dataset",
        operations=[
            CommitOperationAdd(path_in_repo="train.csv", path_or_fileobj=CSV_TRAIN.encode()),
            CommitOperationAdd(path_in_repo="test.csv", path_or_fileobj=CSV_TEST.encode()),
        ],
        commit_message="csv",
    )
    api.create_commit(
        jsonl_repo,
        repo_type="dataset",
        operations=[
            CommitOperationAdd(path_in_repo="data/train.jsonl", path_or_fileobj=JSONL_TRAIN.encode()),
            CommitOperationAdd(path_in_repo="data/validation.jsonl", path_or_fileobj=JSONL_VALIDATION.encode()),
        ],
        commit_message="jsonl",
    )
    out["csv_train"] = json.loads(pandas.read_csv(io.StringIO(CSV_TRAIN)).to_json(orient="records"))
    out["jsonl_train"] = json.loads(pandas.read_json(io.StringIO(JSONL_TRAIN), lines=True).to_json(orient="records"))
    return out


def lying_footer(data):
    """A Parquet file whose footer length says more bytes than the file has."""
    return data[:-8] + struct.pack("<I", len(data) * 4) + b"PAR1"


def group_hostile():
    import pyarrow as pa
    import pyarrow.parquet as pq

    token = params["token"]
    api = HfApi(token=token)
    repo = params["repo"]
    api.create_repo(repo, repo_type="dataset")

    def parquet_bytes(table, **options):
        buffer = io.BytesIO()
        pq.write_table(table, buffer, **options)
        return buffer.getvalue()

    good = parquet_bytes(pa.table({"a": list(range(10))}))
    nested_type = pa.int64()
    nested_value = 1
    for _ in range(40):
        nested_type = pa.list_(nested_type)
        nested_value = [nested_value]
    files = {
        "bad_magic/train.parquet": b"NOTPARQUET" * 100,
        "lying_footer/train.parquet": lying_footer(good),
        "truncated/train.parquet": good[: len(good) // 2],
        "huge_string/train.parquet": parquet_bytes(pa.table({"s": ["x" * 3_000_000, "short"], "n": [1, 2]})),
        "deep/train.parquet": parquet_bytes(pa.table({"d": pa.array([nested_value], type=nested_type)})),
        "wide/train.parquet": parquet_bytes(pa.table({f"c{i}": [i] for i in range(1100)})),
        "garbage_csv/train.csv": bytes(range(256)) * 40,
        "deep_json/train.jsonl": ("[" * 5000 + "]" * 5000 + "\n").encode(),
        "big_rowgroup/train.parquet": parquet_bytes(pa.table({"v": list(range(200_000))}), row_group_size=200_000),
    }
    configs = "\n".join(
        f"- config_name: {path.split('/')[0]}\n  data_files:\n  - split: train\n    path: {path}" for path in files
    )
    card = f"---\nconfigs:\n{configs}\n---\n\nHostile files.\n"
    operations = [CommitOperationAdd(path_in_repo=path, path_or_fileobj=data) for path, data in files.items()]
    operations.append(CommitOperationAdd(path_in_repo="README.md", path_or_fileobj=card.encode()))
    return {"commit": attempt(lambda: api.create_commit(repo, repo_type="dataset", operations=operations, commit_message="hostile").oid)}


def expected_statistics(table, features):
    """The public viewer's statistics (dataset-viewer `statistics_utils.py`: same bins, rounding, category
    rule), computed here with numpy and pandas from what pyarrow reads, for the test to compare with."""
    import math

    import numpy as np

    n_samples = table.num_rows

    def prop(count):
        return round(count / n_samples, 5) if count else 0.0

    def numerical(values, is_int):
        present = [v for v in values if v is not None and not (isinstance(v, float) and math.isnan(v))]
        nan_count = n_samples - len(present)
        if not present:
            return {"nan_count": n_samples, "nan_proportion": 1.0, "min": None, "max": None, "mean": None,
                    "median": None, "std": None, "histogram": None}
        data = np.array(present, dtype=float)
        lo, hi = data.min(), data.max()
        if lo == hi:
            edges = [lo, hi]
            hist = [len(present)]
        else:
            if is_int:
                size = np.ceil((hi - lo + 1) / 10)
                edges = np.arange(lo, hi, size).astype(int).tolist()
            else:
                size = (hi - lo) / 10
                edges = np.arange(lo, hi, size).astype(float).tolist()
            if edges[-1] != hi:
                edges.append(hi)
            hist = np.histogram(data, bins=edges)[0].tolist()
        std = float(np.std(data, ddof=1)) if len(present) > 1 else None
        return {
            "nan_count": nan_count,
            "nan_proportion": prop(nan_count),
            "min": int(lo) if is_int else round(float(lo), 5),
            "max": int(hi) if is_int else round(float(hi), 5),
            "mean": round(float(np.mean(data)), 5),
            "median": round(float(np.median(data)), 5),
            "std": None if std is None else round(std, 5),
            "histogram": {"hist": hist, "bin_edges": [int(e) for e in edges] if is_int else [round(float(e), 5) for e in edges]},
        }

    out = []
    for name in sorted(table.column_names):
        values = table.column(name).to_pylist()
        feature = features[name]
        kind = feature.get("_type")
        dtype = feature.get("dtype", "")
        nan_count = sum(1 for v in values if v is None)
        if kind in ("List", "LargeList", "Sequence"):
            stats = numerical([None if v is None else len(v) for v in values], True)
            out.append({"column_name": name, "column_type": "list", "column_statistics": stats})
        elif kind == "ClassLabel":
            counts = {}
            for v in values:
                if v is not None:
                    counts[v] = counts.get(v, 0) + 1
            no_label = counts.pop(-1, 0)
            out.append({"column_name": name, "column_type": "class_label", "column_statistics": {
                "nan_count": nan_count, "nan_proportion": prop(nan_count), "no_label_count": no_label,
                "no_label_proportion": prop(no_label), "n_unique": len(feature["names"]),
                "frequencies": {label: counts.get(i, 0) for i, label in enumerate(feature["names"])}}})
        elif dtype == "bool":
            counts = {}
            for v in values:
                if v is not None:
                    counts[str(v)] = counts.get(str(v), 0) + 1
            out.append({"column_name": name, "column_type": "bool", "column_statistics": {
                "nan_count": nan_count, "nan_proportion": prop(nan_count), "frequencies": counts}})
        elif dtype in ("string", "large_string"):
            n_unique = len(set(values))  # polars counts null as one value
            if (n_unique / n_samples <= 0.2 and n_unique <= 1000) or n_unique <= 10:
                counts = {}
                for v in values:
                    if v is not None:
                        counts[v] = counts.get(v, 0) + 1
                out.append({"column_name": name, "column_type": "string_label", "column_statistics": {
                    "nan_count": nan_count, "nan_proportion": prop(nan_count), "no_label_count": 0,
                    "no_label_proportion": 0.0, "n_unique": len(counts), "frequencies": counts}})
            else:
                stats = numerical([None if v is None else len(v) for v in values], True)
                out.append({"column_name": name, "column_type": "string_text", "column_statistics": stats})
        elif "int" in dtype:
            out.append({"column_name": name, "column_type": "int", "column_statistics": numerical(values, True)})
        elif "float" in dtype:
            out.append({"column_name": name, "column_type": "float", "column_statistics": numerical(values, False)})
    return {"num_examples": n_samples, "statistics": out, "partial": False}


def group_more():
    """A dataset for /statistics (every supported column type, with nulls, NaN and no-label values), and
    single-document .json files (an array; a {"data": [...]} document whose card names the field)."""
    import pyarrow.parquet as pq
    from datasets import ClassLabel, Dataset, Features, List, Value, load_dataset

    token = params["token"]
    cache = params["cache_dir"]
    api = HfApi(token=token)
    out = {}
    n = 60
    features = Features(
        {
            "i": Value("int32"),
            "f": Value("float64"),
            "b": Value("bool"),
            "kind": Value("string"),
            "text": Value("string"),
            "label": ClassLabel(names=["cat", "dog", "bird"]),
            "seq": List(Value("int64")),
            "same": Value("float32"),
            "meta": {"x": Value("int64")},
        }
    )
    rows = {
        "i": [None if k % 7 == 0 else (k * 37) % 101 - 20 for k in range(n)],
        "f": [None if k % 11 == 0 else float("nan") if k % 13 == 0 else k * 0.37 - 3.1 for k in range(n)],
        "b": [None if k % 9 == 0 else k % 3 == 0 for k in range(n)],
        "kind": [None if k % 10 == 0 else ["red", "green", "blue"][k % 3] for k in range(n)],
        "text": [f"sentence number {k} " + "x" * (k % 17) for k in range(n)],
        "label": [-1 if k % 8 == 0 else k % 3 for k in range(n)],
        "seq": [None if k % 5 == 0 else list(range(k % 6)) for k in range(n)],
        "same": [2.5] * n,
        "meta": [{"x": k} for k in range(n)],
    }
    stats_repo = params["stats_repo"]
    dataset = Dataset.from_dict(rows, features=features)
    out["push_stats"] = attempt(lambda: str(dataset.push_to_hub(stats_repo, token=token)))
    files = api.list_repo_files(stats_repo, repo_type="dataset")
    train_file = next(name for name in files if name.startswith("data/train-"))
    table = pq.read_table(hf_hub_download(stats_repo, train_file, repo_type="dataset", token=token, cache_dir=cache))
    out["stats_expected"] = expected_statistics(table, features.to_dict())

    json_repo = params["json_repo"]
    api.create_repo(json_repo, repo_type="dataset")
    records = [{"id": k, "name": f"item {k}", "tags": ["a"] * (k % 3)} for k in range(130)]
    card = (
        "---\nconfigs:\n- config_name: array\n  data_files: array.json\n- config_name: document\n  data_files: document.json\n  field: data\n"
        "- config_name: strings\n  data_files: strings.json\n- config_name: numbers\n  data_files: numbers.json\n"
        "- config_name: words\n  data_files: words.json\n  field: words\n---\n"
    )
    strings = [f"line {k}" for k in range(120)]
    api.create_commit(
        json_repo,
        repo_type="dataset",
        operations=[
            CommitOperationAdd(path_in_repo="README.md", path_or_fileobj=card.encode()),
            CommitOperationAdd(path_in_repo="array.json", path_or_fileobj=json.dumps(records, indent=2).encode()),
            CommitOperationAdd(path_in_repo="document.json", path_or_fileobj=json.dumps({"version": 2, "data": records[:70]}).encode()),
            # Arrays of values that are not objects: datasets' json builder makes them one column.
            CommitOperationAdd(path_in_repo="strings.json", path_or_fileobj=json.dumps(strings).encode()),
            CommitOperationAdd(path_in_repo="numbers.json", path_or_fileobj=json.dumps([k / 2 for k in range(9)]).encode()),
            CommitOperationAdd(path_in_repo="words.json", path_or_fileobj=json.dumps({"n": 3, "words": strings[:3]}).encode()),
        ],
        commit_message="json documents",
    )
    for config in ("array", "document"):
        out[f"json_{config}"] = attempt(
            lambda: load_dataset(json_repo, config, split="train", token=token, cache_dir=cache).to_list()
        )
    for config in ("strings", "numbers", "words"):
        loaded = load_dataset(json_repo, config, split="train", token=token, cache_dir=cache)
        out[f"json_{config}"] = {"columns": list(loaded.features), "rows": loaded.to_list()}
    return out


def group_croissant_splits():
    """Each data file's split as `datasets` assigns it (load_dataset_builder's data_files) and as the hub's
    Croissant split field gives it: `re.match` of its regex on the file's repository path, first group that
    matched (how mlcroissant reads a regex transform)."""
    import os
    import re
    import urllib.request

    from datasets import get_dataset_config_names, load_dataset_builder

    token = params["token"]
    cache = params["cache_dir"]
    out = {}
    for repo in params["repos"]:
        request = urllib.request.Request(
            f"{os.environ['HF_ENDPOINT']}/api/datasets/{repo}/croissant",
            headers={"authorization": f"Bearer {token}"},
        )
        with urllib.request.urlopen(request) as response:
            doc = json.loads(response.read())
        record_sets = {record_set["@id"]: record_set for record_set in doc["recordSet"]}
        for config in get_dataset_config_names(repo, token=token):
            fields = record_sets[config]["field"]
            split_field = next((field for field in fields if field["@id"] == f"{config}/split"), None)
            regex = split_field["source"]["transform"]["regex"] if split_field else None
            builder = load_dataset_builder(repo, config, token=token, cache_dir=cache)
            files = {}
            for split, urls in builder.config.data_files.items():
                for url in urls:
                    path = str(url).split("@", 1)[1].split("/", 1)[1]
                    match = re.match(regex, path) if regex else None
                    found = next((group for group in match.groups() if group is not None), None) if match else None
                    files[path] = [str(split), found]
            out[f"{repo}:{config}"] = {"regex": regex, "files": files, "description": record_sets[config]["description"]}
    return out


def wav_bytes(frequency, frames=800, rate=8000):
    """A tiny mono 16-bit WAV file (a sine tone), written with the standard library."""
    import math
    import wave

    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(b"".join(struct.pack("<h", int(8000 * math.sin(2 * math.pi * frequency * i / rate))) for i in range(frames)))
    return buffer.getvalue()


def group_audiofolder():
    """Folders of audio files (audiofolder): labelled by folder, a private one, odd files; and what the real
    `datasets` library's audiofolder builder makes of the labelled one (its features, rows, labels, files)."""
    token = params["token"]
    api = HfApi(token=token)
    out = {}
    sounds = {
        "train/cat/a.wav": wav_bytes(440),
        "train/cat/b.wav": wav_bytes(494),
        "train/dog/c.wav": wav_bytes(523),
        "test/cat/d.wav": wav_bytes(587),
        "test/dog/e.wav": wav_bytes(659),
        # Not audio: the builder ignores it, so does the viewer.
        "train/notes.txt": b"recorded in the garden",
    }
    out["wav"] = {path: list(data) for path, data in sounds.items() if path.endswith(".wav")}
    odd = {
        "train/empty.wav": b"",
        "train/fake.wav": b"this is not a wav file, only its name says so",
        "train/real.wav": wav_bytes(440),
        # A folder with no audio (only a hidden file): no split.
        "test/.keep": b"",
    }
    for key, repo, files, private in [
        ("sounds", params["repo"], sounds, False),
        ("private", params["private_repo"], {"train/x.wav": wav_bytes(300), "train/y.wav": wav_bytes(600)}, True),
        ("odd", params["odd_repo"], odd, False),
        ("nothing", params["empty_repo"], {"train/.keep": b"", "README.md": b"No audio here.\n"}, False),
    ]:
        def commit(repo=repo, files=files, private=private):
            api.create_repo(repo, repo_type="dataset", private=private)
            operations = [CommitOperationAdd(path_in_repo=path, path_or_fileobj=data) for path, data in files.items()]
            return api.create_commit(repo, repo_type="dataset", operations=operations, commit_message="audio").oid

        out[f"push_{key}"] = attempt(commit)

    def loaded():
        # The audiofolder builder's own split generation and examples, as load_dataset runs them, short of
        # encoding the audio (which needs torchcodec, not in the test environment).
        from datasets import DownloadConfig, DownloadManager, load_dataset_builder

        builder = load_dataset_builder(params["repo"], token=token, cache_dir=params["cache_dir"])
        manager = DownloadManager(
            dataset_name=builder.dataset_name,
            download_config=DownloadConfig(cache_dir=params["cache_dir"], token=token),
            base_path=builder.base_path,
        )
        result = {}
        for generator in builder._split_generators(manager):
            features = builder.info.features
            rows = [example for _key, example in builder._generate_examples(**generator.gen_kwargs)]
            result[generator.name] = {
                "builder": builder.name,
                "features": features.to_dict(),
                "num_rows": len(rows),
                "labels": [features["label"].str2int(row["label"]) for row in rows],
                "files": [row["audio"].replace("\\", "/").rsplit("/", 1)[-1] for row in rows],
            }
        return result

    out["loaded"] = attempt(loaded)
    return out


def image_bytes(width, height, format_name, color):
    """A tiny image, written with PIL."""
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (width, height), color).save(buffer, format=format_name)
    return buffer.getvalue()


def in_repo(path):
    """The builder names files by their place in the hub cache's snapshot (or a URL): the path in the repository."""
    path = path.replace("\\", "/")
    return path.split("/snapshots/", 1)[1].split("/", 1)[1] if "/snapshots/" in path else path.split("@", 1)[-1]


def in_archive(path):
    """An archive file's value as the builder names it (`zip://{member}::{archive}`): `{archive in the repo}::{member}`."""
    if not path.startswith("zip://"):
        return in_repo(path)
    member, archive = path[len("zip://"):].split("::", 1)
    return in_repo(archive) + "::" + member


def built(repo, config=None):
    """What the real builder makes of a repository's config: its features and its examples, each media value
    (or list of them) the repository path it names, labels as indices; short of decoding the files."""
    from datasets import DownloadConfig, DownloadManager, load_dataset_builder

    token = params["token"]
    builder = load_dataset_builder(repo, config, token=token, cache_dir=params["cache_dir"])
    manager = DownloadManager(
        dataset_name=builder.dataset_name,
        download_config=DownloadConfig(cache_dir=params["cache_dir"], token=token),
        base_path=builder.base_path,
    )
    result = {}
    for generator in builder._split_generators(manager):
        features = builder.info.features
        rows = []
        for _key, example in builder._generate_examples(**generator.gen_kwargs):
            row = dict(example)
            for column, feature in features.items():
                inner = getattr(feature, "feature", None)
                if type(feature).__name__ in ("Audio", "Image") and isinstance(row.get(column), str):
                    row[column] = in_archive(row[column])
                elif type(inner).__name__ in ("Audio", "Image") and isinstance(row.get(column), list):
                    row[column] = [in_archive(item) for item in row[column]]
                elif column == "label":
                    row[column] = features[column].str2int(row[column])
            rows.append(row)
        result[generator.name] = {"builder": builder.name, "features": features.to_dict(), "rows": rows}
    return result


def group_folder_metadata():
    """Audio and image folders with metadata files (metadata.csv per split, a root metadata.jsonl with nested
    folders), an image folder labelled by folders, and hostile metadata; and what the real `datasets` library's
    builders make of the first three (features, rows, the files their media columns name)."""
    token = params["token"]
    api = HfApi(token=token)
    out = {}
    sounds = {
        "train/a.wav": wav_bytes(440),
        "train/deep/b.wav": wav_bytes(494),
        # In no metadata row: not a row.
        "train/extra.wav": wav_bytes(523),
        "train/metadata.csv": b"file_name,transcription,speaker_id\na.wav,hello there,7\ndeep/b.wav,good night,8\nmissing.wav,not recorded,9\n",
        "test/c.wav": wav_bytes(587),
        "test/metadata.csv": b"file_name,transcription,speaker_id\nc.wav,one more,3\n",
    }
    pictures = {
        "imgs/cat.png": image_bytes(7, 5, "PNG", (200, 10, 10)),
        "imgs/dog.jpg": image_bytes(9, 4, "JPEG", (10, 200, 10)),
        "top.gif": image_bytes(3, 2, "GIF", (10, 10, 200)),
        "metadata.jsonl": (
            '{"file_name": "imgs/cat.png", "caption": "a red cat", "score": 0.5, "tags": ["red", "cat"]}\n'
            '{"file_name": "top.gif", "caption": "a blue square", "score": 1.5, "tags": []}\n'
            '{"file_name": "imgs/dog.jpg", "caption": "a green dog", "score": 2.5, "tags": ["dog"]}\n'
        ).encode(),
    }
    labelled = {
        "train/cat/1.png": image_bytes(4, 3, "PNG", (1, 2, 3)),
        "train/dog/2.png": image_bytes(6, 2, "PNG", (4, 5, 6)),
        "train/dog/3.webp": image_bytes(5, 5, "WEBP", (7, 8, 9)),
    }
    wide = ",".join(["file_name"] + [f"c{i}" for i in range(100_000)])
    hostile = {
        "README.md": (
            "---\nconfigs:\n"
            + "".join(f"- config_name: {name}\n  data_dir: {name}\n" for name in ["nofile", "lying", "wide", "longline", "escape"])
            + "---\n"
        ).encode(),
        "nofile/a.wav": wav_bytes(440),
        "nofile/metadata.csv": b"name,text\na.wav,hi\n",
        "lying/a.wav": wav_bytes(440),
        "lying/metadata.parquet": b"PAR1" + b"\x00" * 64 + b"\xff\xff\xff\x7fPAR1",
        "wide/a.wav": wav_bytes(440),
        "wide/metadata.csv": (wide + "\n" + ",".join(["a.wav"] + ["1"] * 100_000) + "\n").encode(),
        "longline/a.wav": wav_bytes(440),
        "longline/metadata.csv": b"file_name,text\na.wav," + b"x" * (3 * 1024 * 1024) + b"\n",
        "escape/a.wav": wav_bytes(440),
        "escape/metadata.csv": b"file_name,text\n../../etc/passwd,hi\n",
    }
    for key, repo, files in [
        ("sounds", params["sounds_repo"], sounds),
        ("pictures", params["pictures_repo"], pictures),
        ("labelled", params["labelled_repo"], labelled),
        ("hostile", params["hostile_repo"], hostile),
    ]:
        def commit(repo=repo, files=files):
            api.create_repo(repo, repo_type="dataset")
            operations = [CommitOperationAdd(path_in_repo=path, path_or_fileobj=data) for path, data in files.items()]
            return api.create_commit(repo, repo_type="dataset", operations=operations, commit_message="folder").oid

        out[f"push_{key}"] = attempt(commit)
    out["bytes"] = {path: len(data) for files in [sounds, pictures, labelled] for path, data in files.items()}

    out["sounds"] = attempt(lambda: built(params["sounds_repo"]))
    out["pictures"] = attempt(lambda: built(params["pictures_repo"]))
    out["labelled"] = attempt(lambda: built(params["labelled_repo"]))

    def loaded_pictures():
        # The whole of load_dataset: the images decoded (PIL), their sizes.
        from datasets import load_dataset

        dataset = load_dataset(params["pictures_repo"], split="train", token=token, cache_dir=params["cache_dir"])
        return {"columns": dataset.column_names, "sizes": [[row["image"].width, row["image"].height] for row in dataset]}

    out["loaded_pictures"] = attempt(loaded_pictures)
    return out


def group_folder_lists():
    """Metadata rows naming several files (`file_names`, `x_file_names`: lists of strings) in an image folder
    (metadata.jsonl) and an audio folder (metadata.parquet), hostile lists (an empty list, a null, `..`: the
    builder fails on each of them); and what the real builders make of the first two, and load_dataset's
    decoded images."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    token = params["token"]
    api = HfApi(token=token)
    out = {}
    many = [f"many/{k}.png" for k in range(25)]
    pictures = {
        "a.png": image_bytes(2, 3, "PNG", (200, 10, 10)),
        "sub/b.png": image_bytes(4, 5, "PNG", (10, 200, 10)),
        "c.jpg": image_bytes(6, 7, "JPEG", (10, 10, 200)),
        **{name: image_bytes(1 + k, 1, "PNG", (k, k, k)) for k, name in enumerate(many)},
        "metadata.jsonl": "".join(
            json.dumps(row) + "\n"
            for row in [
                {"file_names": ["a.png", "sub/b.png"], "cover_file_name": "c.jpg", "thumbs_file_names": ["c.jpg"], "caption": "two"},
                {"file_names": ["c.jpg"], "cover_file_name": "a.png", "thumbs_file_names": ["a.png", "a.png"], "caption": "one"},
                {"file_names": many, "cover_file_name": "sub/b.png", "thumbs_file_names": ["sub/./b.png"], "caption": "many"},
            ]
        ).encode(),
    }
    table = pa.table(
        {
            "speaker": ["ann", "bob"],
            "file_names": [["x.wav", "deep/y.wav"], ["y_missing.wav", "x.wav"]],
        }
    )
    buffer = io.BytesIO()
    pq.write_table(table, buffer)
    sounds = {"x.wav": wav_bytes(440), "deep/y.wav": wav_bytes(494), "metadata.parquet": buffer.getvalue()}
    hostile = {
        "README.md": (
            "---\nconfigs:\n"
            + "".join(f"- config_name: {name}\n  data_dir: {name}\n" for name in ["empty", "missing", "escape", "huge"])
            + "---\n"
        ).encode(),
        "empty/a.png": pictures["a.png"],
        "empty/metadata.jsonl": b'{"file_names": ["a.png"], "n": 1}\n{"file_names": [], "n": 2}\n',
        "missing/a.png": pictures["a.png"],
        "missing/metadata.jsonl": b'{"file_names": ["a.png"], "n": 1}\n{"file_names": null, "n": 2}\n',
        "escape/a.png": pictures["a.png"],
        "escape/metadata.jsonl": b'{"file_names": ["a.png", "../../etc/passwd"], "n": 1}\n',
        "huge/a.png": pictures["a.png"],
        "huge/metadata.jsonl": (json.dumps({"file_names": ["a.png"] * 100_000, "n": 1}) + "\n").encode(),
    }
    for key, repo, files in [
        ("pictures", params["pictures_repo"], pictures),
        ("sounds", params["sounds_repo"], sounds),
        ("hostile", params["hostile_repo"], hostile),
    ]:
        def commit(repo=repo, files=files):
            api.create_repo(repo, repo_type="dataset")
            operations = [CommitOperationAdd(path_in_repo=path, path_or_fileobj=data) for path, data in files.items()]
            return api.create_commit(repo, repo_type="dataset", operations=operations, commit_message="lists").oid

        out[f"push_{key}"] = attempt(commit)
    out["pictures"] = attempt(lambda: built(params["pictures_repo"]))
    out["sounds"] = attempt(lambda: built(params["sounds_repo"]))

    def loaded_pictures():
        from datasets import load_dataset

        dataset = load_dataset(params["pictures_repo"], split="train", token=token, cache_dir=params["cache_dir"])
        return {
            "columns": dataset.column_names,
            "sizes": [[[image.width, image.height] for image in row["images"]] for row in dataset],
        }

    out["loaded_pictures"] = attempt(loaded_pictures)
    return out

def group_folder_options():
    """An image folder whose card's configs set `drop_labels` / `drop_metadata`, and one whose card's
    `dataset_info` gives other features (the folder builders build their own); and what the real builder
    makes of each config."""
    token = params["token"]
    api = HfApi(token=token)
    out = {}
    configs = {
        "labels-dropped": "animals\n  drop_labels: true",
        "labels-kept": "flat\n  drop_labels: false",
        "metadata-dropped": "meta\n  drop_metadata: true",
        "metadata-dropped-folders": "meta2\n  drop_metadata: true",
        "both-dropped": "meta2\n  drop_labels: true\n  drop_metadata: true",
        "card-features": "animals",
    }
    card = (
        "---\nconfigs:\n"
        + "".join(f"- config_name: {name}\n  data_dir: {rest}\n" for name, rest in configs.items())
        + "dataset_info:\n- config_name: card-features\n  features:\n  - name: image\n    dtype: image\n"
        + "  - name: label\n    dtype:\n      class_label:\n        names:\n          '0': zebra\n          '1': cat\n"
        + "          '2': dog\n  - name: extra\n    dtype: string\n---\n"
    )
    files = {
        "README.md": card.encode(),
        "animals/train/cat/a.png": image_bytes(2, 3, "PNG", (1, 2, 3)),
        "animals/train/dog/b.png": image_bytes(4, 5, "PNG", (4, 5, 6)),
        "flat/a.png": image_bytes(3, 3, "PNG", (7, 8, 9)),
        "flat/b.png": image_bytes(5, 2, "PNG", (7, 8, 9)),
        "flat/sub/c.png": image_bytes(1, 6, "PNG", (7, 8, 9)),
        "meta/a.png": image_bytes(2, 2, "PNG", (1, 1, 1)),
        "meta/b.png": image_bytes(3, 1, "PNG", (2, 2, 2)),
        "meta/metadata.csv": b"file_name,caption\na.png,only a\n",
        "meta2/cat/a.png": image_bytes(2, 4, "PNG", (3, 3, 3)),
        "meta2/dog/b.png": image_bytes(4, 2, "PNG", (4, 4, 4)),
        "meta2/metadata.csv": b"file_name,caption\ncat/a.png,only a\n",
    }

    def commit():
        api.create_repo(params["repo"], repo_type="dataset")
        operations = [CommitOperationAdd(path_in_repo=path, path_or_fileobj=data) for path, data in files.items()]
        return api.create_commit(params["repo"], repo_type="dataset", operations=operations, commit_message="options").oid

    out["push"] = attempt(commit)
    for name in configs:
        out[name] = attempt(lambda name=name: built(params["repo"], name))
    return out


def zip_bytes(members, encrypt=False):
    """A zip archive of `members` (name → bytes), deflated, written with the standard library; `encrypt` marks its
    entries encrypted (the flag only: zipfile cannot write encrypted archives)."""
    import zipfile

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(zipfile.ZipInfo(name), data, compress_type=zipfile.ZIP_DEFLATED)
    data = bytearray(buffer.getvalue())
    if encrypt:
        for signature, flags_at in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):
            at = data.find(signature)
            while at >= 0:
                data[at + flags_at] |= 1
                at = data.find(signature, at + 4)
    return bytes(data)


def group_folder_archives():
    """Image folders whose images are in zip archives: one split per archive, images in folders; one whose archive
    holds a metadata.csv (it orders and captions the rows); a private one; an audio folder in an archive; hostile ones (folder-name labels, which
    datasets refuses, a metadata.csv outside naming a file inside the archive, a corrupt, an encrypted and an unsafe
    archive, a zip bomb). What the real builder makes of the first two, load_dataset's decoded images, and how
    datasets fails on the labels and on the name through the archive."""
    token = params["token"]
    api = HfApi(token=token)
    out = {}
    train = {
        "img/2.png": image_bytes(2, 3, "PNG", (200, 10, 10)),
        "img/1.png": image_bytes(4, 5, "PNG", (10, 200, 10)),
        "img/10.png": image_bytes(6, 7, "PNG", (10, 10, 200)),
        "img/sub/4.jpg": image_bytes(9, 8, "JPEG", (90, 90, 90)),
    }
    test = {"img/5.png": image_bytes(3, 3, "PNG", (1, 2, 3))}
    images = {"data/train.zip": zip_bytes(train), "data/test.zip": zip_bytes(test)}
    captioned = {
        "img/1.png": image_bytes(1, 2, "PNG", (1, 1, 1)),
        "img/2.png": image_bytes(3, 4, "PNG", (2, 2, 2)),
        "img/3.png": image_bytes(5, 6, "PNG", (3, 3, 3)),
        "metadata.csv": b"file_name,caption\nimg/3.png,three\nimg/1.png,one\nimg/2.png,two\n",
    }
    captions = {"train/images.zip": zip_bytes(captioned)}
    names = ["labels", "outside", "corrupt", "encrypted", "unsafe", "bomb"]
    hostile = {
        "README.md": ("---\nconfigs:\n" + "".join(f"- config_name: {name}\n  data_dir: {name}\n" for name in names) + "---\n").encode(),
        "labels/data/train.zip": zip_bytes({"cat/1.png": image_bytes(1, 1, "PNG", (1, 1, 1)), "dog/2.png": image_bytes(2, 2, "PNG", (2, 2, 2))}),
        "outside/images.zip": zip_bytes({"img/3.png": image_bytes(3, 3, "PNG", (3, 3, 3))}),
        "outside/metadata.csv": b"file_name,caption\nimages.zip/img/3.png,three\n",
        "corrupt/images.zip": b"PK\x03\x04" + bytes(range(256)) * 4,
        "encrypted/images.zip": zip_bytes({"a.png": image_bytes(1, 1, "PNG", (1, 1, 1))}, encrypt=True),
        "unsafe/images.zip": zip_bytes({"../evil.png": image_bytes(1, 1, "PNG", (1, 1, 1))}),
        "bomb/images.zip": zip_bytes({"a.png": image_bytes(1, 1, "PNG", (1, 1, 1)), "b.png": b"\0" * (4 << 20)}),
    }
    for key, repo, files, private in [
        ("images", params["images_repo"], images, False),
        ("captions", params["captions_repo"], captions, False),
        ("private", params["private_repo"], {"train/images.zip": zip_bytes({"a.png": train["img/1.png"]})}, True),
        ("sounds", params["sounds_repo"], {"train/sounds.zip": zip_bytes({"b/c.wav": wav_bytes(494), "a.wav": wav_bytes(440)})}, False),
        ("hostile", params["hostile_repo"], hostile, False),
    ]:
        def commit(repo=repo, files=files, private=private):
            api.create_repo(repo, repo_type="dataset", private=private)
            operations = [CommitOperationAdd(path_in_repo=path, path_or_fileobj=data) for path, data in files.items()]
            return api.create_commit(repo, repo_type="dataset", operations=operations, commit_message="zipped").oid

        out[f"push_{key}"] = attempt(commit)
    out["members"] = {
        **{f"data/train.zip::{name}": data.hex() for name, data in train.items()},
        "train/images.zip::img/1.png": captioned["img/1.png"].hex(),
        "train/sounds.zip::a.wav": wav_bytes(440).hex(),
    }

    out["images"] = attempt(lambda: built(params["images_repo"]))
    out["captions"] = attempt(lambda: built(params["captions_repo"]))
    # Audio is not decoded here (torchcodec is not in the test environment): the builder's rows only.
    out["sounds"] = attempt(lambda: built(params["sounds_repo"]))

    def loaded(repo):
        from datasets import load_dataset

        splits = load_dataset(repo, token=token, cache_dir=params["cache_dir"])
        return {
            name: {"columns": split.column_names, "sizes": [[row["image"].width, row["image"].height] for row in split]}
            for name, split in splits.items()
        }

    out["loaded_images"] = attempt(lambda: loaded(params["images_repo"]))
    out["loaded_captions"] = attempt(lambda: loaded(params["captions_repo"]))

    def failing(config):
        from datasets import load_dataset

        split = load_dataset(params["hostile_repo"], config, split="train", token=token, cache_dir=params["cache_dir"])
        return [row["image"].size for row in split]

    def outcome(config):
        # The error and its causes (datasets wraps the builder's in a DatasetGenerationError).
        try:
            return {"ok": failing(config)}
        except Exception as error:  # the classes are the facts under test
            chain = []
            while error is not None and len(chain) < 5:
                chain.append(f"{type(error).__name__}: {error}"[:500])
                error = error.__cause__ or error.__context__
            return {"error": chain}

    out["labels"] = outcome("labels")
    out["outside"] = outcome("outside")
    return out

GROUPS = {
    "push": group_push,
    "hostile": group_hostile,
    "more": group_more,
    "croissant_splits": group_croissant_splits,
    "audiofolder": group_audiofolder,
    "folder_metadata": group_folder_metadata,
    "folder_lists": group_folder_lists,
    "folder_options": group_folder_options,
    "folder_archives": group_folder_archives,
}

if __name__ == "__main__":
    print(json.dumps(GROUPS[sys.argv[1]]()))
