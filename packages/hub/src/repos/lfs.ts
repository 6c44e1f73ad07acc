import { GIT_OID_MAX_BYTES } from "../storage/types.js";

/**
 * Which files a repository stores through Git LFS: every file larger than GIT_OID_MAX_BYTES (10 MiB,
 * the public hub's limit for regular git files), and files whose extension is a binary weights or
 * archive format. The `.gitattributes` of every new repository is generated from the same list.
 */
export const LFS_EXTENSIONS = [
	"7z",
	"arrow",
	"bin",
	"bz2",
	"ckpt",
	"ftz",
	"gguf",
	"gz",
	"h5",
	"joblib",
	"mlmodel",
	"model",
	"msgpack",
	"npy",
	"npz",
	"onnx",
	"ot",
	"parquet",
	"pb",
	"pickle",
	"pkl",
	"pt",
	"pth",
	"rar",
	"safetensors",
	"tar",
	"tflite",
	"tgz",
	"wasm",
	"xz",
	"zip",
	"zst",
] as const;

const LFS_EXTENSION_SET: ReadonlySet<string> = new Set(LFS_EXTENSIONS);

/** Whether a file of this path and size goes through LFS. */
export function isLfsFile(path: string, size: number): boolean {
	if (size > GIT_OID_MAX_BYTES) return true;
	const name = path.slice(path.lastIndexOf("/") + 1);
	const dot = name.lastIndexOf(".");
	return dot > 0 && LFS_EXTENSION_SET.has(name.slice(dot + 1).toLowerCase());
}

/** The `.gitattributes` of a new repository: LFS for each extension above. */
export const GITATTRIBUTES = LFS_EXTENSIONS.map(
	(ext) => `*.${ext} filter=lfs diff=lfs merge=lfs -text\n`,
).join("");
