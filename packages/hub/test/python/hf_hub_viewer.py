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


GROUPS = {"push": group_push, "hostile": group_hostile}

if __name__ == "__main__":
    print(json.dumps(GROUPS[sys.argv[1]]()))
